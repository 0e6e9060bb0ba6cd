"""The wrap wizard: ``wrapgen wrap``, one command at a time, with a person deciding.

The wizard never edits a manifest by hand. What a person chooses is kept as recipe overrides
(rename, policy, args, titles, keyed by the proposed verb name) plus a set of skipped verbs, and
every screen is re-proposed from the discovered tool through the same functions ``wrapgen wrap``
uses. So pressing Enter throughout applies no override and writes the bytes ``wrap`` writes, and
every choice is one the recipe format can say.

I/O is injected (``ask``/``say``), so the flow runs the same under a terminal (``commands/wizard``)
and in tests. Nothing is written before the final "write" answer; the pack is then written into
a temporary directory beside the target and renamed into place, so Ctrl-C at any point leaves
either no pack or the previous one, never half of one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping

from wrapgen.errors import WrapgenError
from wrapgen.names import is_verb_name, proposed_verb_name
from wrapgen.pack.recipe import CommandSpec, Recipe

__all__ = [
    "Edits",
    "Session",
    "WizardResult",
    "discover_for",
    "run_wizard",
    "write_pack_atomically",
    "EFFECTS",
]

EFFECTS = ("read", "write", "destructive")

Ask = Callable[[str], str]
Say = Callable[[str], None]


@dataclass(frozen=True)
class Edits:
    """What the person changed: overrides keyed by the *proposed* verb name, and skipped names."""

    overrides: Mapping[str, CommandSpec] = field(default_factory=dict)
    skipped: frozenset[str] = frozenset()

    def with_override(self, verb: str, /, **changes) -> "Edits":
        spec = self.overrides.get(verb, CommandSpec())
        return replace(self, overrides={**self.overrides, verb: replace(spec, **changes)})

    def skip(self, name: str) -> "Edits":
        return replace(self, skipped=self.skipped | {name})


class Session:
    """A discovered tool and the edits so far; every proposal comes from ``wrapgen.flows.wrap.wrap``.

    ``wrap`` is called with ``check=True`` (it writes nothing) and a ``discover`` that returns the
    tool read once at the start, so re-proposing after an edit costs no probe. With no edits and
    no recipe the call is exactly ``wrapgen wrap TOOL``'s, hence the same bytes.
    """

    def __init__(self, tool_arg: str, tool, recipe: Recipe | None, *, out_dir, trials: bool = True):
        self.tool_arg = tool_arg
        self.tool = tool
        self.recipe = recipe
        self.out_dir = out_dir
        self.trials = trials
        self.edits = Edits()
        self.description: str | None = None  # the pack's description, as the person wrote it
        self._cache: dict[str, Any] = {}
        base = self._wrap(None)
        self.pack_id = base.pack_id
        # The proposed names in pack order: the wizard walks these and keys overrides by them.
        self.proposed = tuple(base.proposal.manifest["verbs"])
        self._paths = {d.name: d.path for d in base.proposal.decisions if d.chosen}
        # Once a person edits, the commands they were shown stay the ones proposed: an edit (a policy
        # made a write) must not let the proposer's caps swap a command they accepted for one they
        # never saw. Commands are pinned by path where every one has one (a tool's modes have none).
        paths = [self._paths.get(n, "") for n in self.proposed]
        self._pins = (
            tuple(paths) if paths and all(p and not p.startswith("-") for p in paths) else None
        )

    def _recipe(self, overrides: Mapping[str, CommandSpec] | None, pinned: bool):
        recipe = self.recipe
        if not overrides and self.description is None:
            return recipe  # exactly `wrapgen wrap`'s call: the same bytes
        from wrapgen.flows.wrap import recipe_for_picks

        base = recipe or Recipe(tool=self.tool_arg, pack_id=self.pack_id)
        if pinned and self._pins is not None:
            base = recipe_for_picks(self.tool_arg, self._pins, base)
        if self.description is not None:
            base = replace(base, description=self.description)
        return replace(base, overrides={**base.overrides, **(overrides or {})})

    def _wrap(self, overrides: Mapping[str, CommandSpec] | None, *, pinned: bool = True):
        from wrapgen.flows.wrap import wrap

        key = repr((sorted((overrides or {}).items()), self.description, pinned))
        if key not in self._cache:
            recipe = self._recipe(overrides, pinned)
            self._cache[key] = wrap(
                None if recipe is not None else self.tool_arg,
                recipe=recipe,
                out_dir=self.out_dir,
                check=True,
                discover=lambda *a, **k: self.tool,
                trials=self.trials,
            )
        return self._cache[key]

    def result(self):
        result = self._wrap(self.edits.overrides)
        wanted = {self.final_name(n) for n in self.proposed}
        if self._pins is not None and not wanted <= set(result.proposal.manifest["verbs"]):
            # the pinned form names a command otherwise: the proposer's own form, filtered below
            result = self._wrap(self.edits.overrides, pinned=False)
        return result

    def final_name(self, proposed: str) -> str:
        spec = self.edits.overrides.get(proposed)
        return spec.name if spec is not None and spec.name else proposed

    def accepted(self) -> list[str]:
        """The final names of the commands the person kept, in pack order."""
        return [self.final_name(n) for n in self.proposed if n not in self.edits.skipped]

    def missing(self) -> list[str]:
        """Commands the person kept that the proposal no longer holds (an edit's trial left one out)."""
        verbs = self.result().proposal.manifest["verbs"]
        return [name for name in self.accepted() if name not in verbs]

    def evidence(self, name: str) -> str:
        """What the trial of a command showed, in words ("" when it was not tried)."""
        report = self.result().trials
        item = report.by_verb().get(name) if report is not None else None
        if item is not None:
            return item.words
        return (report.note if report is not None else "") or ""

    def manifest(self) -> dict:
        """Exactly the commands the person kept: none they skipped, none they were never shown."""
        manifest = dict(self.result().proposal.manifest)
        keep = self.accepted()
        manifest["verbs"] = {k: manifest["verbs"][k] for k in keep if k in manifest["verbs"]}
        return manifest

    def files(self) -> dict[str, str]:
        """What the pack directory holds: wrap's files, or, once a command is skipped, those of the
        remaining commands, with pack.yaml's ``source`` and ``source.json`` (what ``check --drift``
        compares) made for exactly them."""
        base = self.result().files
        if list(self.result().proposal.manifest["verbs"]) == list(self.manifest()["verbs"]):
            return dict(base)
        import json

        from wrapgen.check.drift import SOURCE_FILE
        from wrapgen.flows.drift import source_files

        recorded = json.loads(base[SOURCE_FILE]).get("discover") if SOURCE_FILE in base else None
        return source_files(self.manifest(), self.tool, recorded)

    def command_of(self, proposed: str):
        """The discovered command behind a proposed verb (the root for a tool's modes)."""
        text = self._paths.get(proposed, "")
        words = tuple(w for w in text.split() if not w.startswith("-"))
        node = self.tool.root.find(words) if words else None
        return node or self.tool.root

    def binding(self) -> dict:
        return json.loads(self.files()["binding.json"])


# -- showing things ----------------------------------------------------------------------------------


def _verb_line(name: str, verb: Mapping[str, Any]) -> str:
    policy = verb.get("policy") or {}
    effect = policy.get("effect", "read")
    gate = ", confirm" if policy.get("confirm") else ""
    return f"{name:<22} {effect}{gate:<9}  {' '.join(verb.get('cli') or [])}"


def _overview(manifest: Mapping[str, Any], skipped: set[str] = frozenset()) -> str:
    lines = [f"pack {manifest['pack_id']}: {manifest['description']}", ""]
    for i, (name, verb) in enumerate(manifest["verbs"].items(), 1):
        mark = " (skipped)" if name in skipped else ""
        lines.append(f"  {i:>2}. {_verb_line(name, verb)}{mark}")
    return "\n".join(lines)


def _titles_text(verb: Mapping[str, Any]) -> str:
    title = verb.get("title") or {}
    out = []
    for form in ("live", "done"):
        value = title.get(form)
        if value is not None:
            out.append(f"{form}: " + " | ".join([value] if isinstance(value, str) else value))
    return "; ".join(out) or "none"


def _command_screen(
    index: int, total: int, name: str, verb: Mapping[str, Any], evidence: str = ""
) -> str:
    args = _arg_names(verb)
    lines = [
        "",
        f"[{index}/{total}] {name}: {verb.get('description', '')}",
        f"    runs:   {' '.join(verb.get('cli') or [])}",
        f"    policy: {(verb.get('policy') or {}).get('effect', 'read')}"
        f"{' (confirm-gated)' if (verb.get('policy') or {}).get('confirm') else ''}",
        f"    args:   {', '.join(args) or 'none'}",
        f"    titles: {_titles_text(verb)}",
    ]
    if evidence:
        lines.append(f"    trial:  {evidence}")
    return "\n".join(lines)


HELP = """\
    Enter  accept and go on        s  skip this command
    r      rename                  p  change the policy
    d      edit the description    t  edit the titles
    +      add args                -  drop args
    v      preview argv and title for sample args
    x      run it for real (read commands only)
    ?      this help               (Ctrl-C quits; nothing is written until the end)"""


# -- the flow -------------------------------------------------------------------------------------------


def _arg_names(verb: Mapping[str, Any] | None) -> list[str]:
    """A manifest verb's arg names, in the order of its schema's properties ([] for none or no verb)."""
    return list(((verb or {}).get("args") or {}).get("properties") or {})


def _pick(answer: str, options: list[str]) -> list[str]:
    """Numbers (1-based) or names from ``answer``; unknown words raise WrapgenError."""
    picked = []
    for word in answer.replace(",", " ").split():
        if word.isdigit() and 1 <= int(word) <= len(options):
            picked.append(options[int(word) - 1])
        elif word in options:
            picked.append(word)
        else:
            raise WrapgenError(f"{word!r} is not one of the choices")
    return picked


def _sample_args(ask: Ask, verb: Mapping[str, Any]) -> dict:
    from wrapgen.runtime import coerce_kv

    props = _arg_names(verb)
    answer = ask(f"    sample args as k=v ({', '.join(props) or 'none'}), Enter for none: ").strip()
    return coerce_kv(shlex.split(answer), verb.get("args") or {}) if answer else {}


def _preview(session: Session, name: str, ask: Ask, say: Say) -> None:
    from wrapgen.runtime import prepare
    from wrapgen.runtime.titles import command_title

    binding = session.binding()
    verb = binding["verbs"][name]
    args = _sample_args(ask, session.manifest()["verbs"][name])
    gated = (verb.get("policy") or {}).get("confirm")
    argv, _, full = prepare(binding, name, {**args, "confirm": True} if gated else args)
    say(f"    argv:  {shlex.join(argv)}")
    if gated:
        say("    (confirm-gated: runs only with confirm=true)")
    say(f"    live:  {command_title(binding, name, full, done=False) or '(none)'}")
    say(f"    done:  {command_title(binding, name, full, done=True) or '(none)'}")


def _run_for_real(session: Session, name: str, ask: Ask, say: Say) -> None:
    from wrapgen.runtime import execute

    binding = session.binding()
    if (binding["verbs"][name].get("policy") or {}).get("effect", "read") != "read":
        say("    only read commands run from the wizard; this one changes things")
        return
    args = _sample_args(ask, session.manifest()["verbs"][name])
    envelope = execute(binding, name, args)
    text = json.dumps(envelope, indent=2, ensure_ascii=False)
    if len(text) > 2000:
        text = text[:2000] + f"\n    … ({len(text) - 2000} more characters)"
    say("    " + text.replace("\n", "\n    "))


def _rename(session: Session, proposed: str, current: str, ask: Ask, say: Say) -> None:
    new = ask(f"    new name [{current}]: ").strip()
    if not new or new == current:
        return
    if not is_verb_name(new):
        say(
            f"    a name is lower-case words joined by dots, like pr.list "
            f"({proposed_verb_name(new)} would do); unchanged"
        )
        return
    if new in session.manifest()["verbs"]:
        say(f"    {new} is already a command of this pack; unchanged")
        return
    session.edits = session.edits.with_override(proposed, name=new)


def _policy(session: Session, proposed: str, verb: Mapping[str, Any], ask: Ask, say: Say) -> None:
    policy = verb.get("policy") or {}
    effect = policy.get("effect", "read")
    answer = ask(f"    effect ({'/'.join(EFFECTS)}) [{effect}]: ").strip().lower() or effect
    match = [e for e in EFFECTS if e.startswith(answer)]
    if len(match) != 1:
        say(f"    {answer!r} is not one of {', '.join(EFFECTS)}; unchanged")
        return
    default_confirm = match[0] != "read"
    answer = ask(f"    confirm-gated? [{'Y/n' if default_confirm else 'y/N'}]: ").strip().lower()
    confirm = default_confirm if not answer else answer.startswith("y")
    if match[0] != "read" and not confirm:
        say("    note: check reports a write or destructive command that is not confirm-gated")
    session.edits = session.edits.with_override(
        proposed, policy={"effect": match[0], "confirm": confirm}
    )


def _available_args(session: Session, proposed: str, current: list[str]) -> list[str]:
    from wrapgen.propose.args import arg_name, positional_arg_name

    command = session.command_of(proposed)
    names = [positional_arg_name(p) for p in command.positionals]
    names += [arg_name(f) for f in command.flags if f.spellings and not f.hidden]
    return [n for n in dict.fromkeys(names) if n not in current]


def _add_args(session: Session, proposed: str, verb: Mapping[str, Any], ask: Ask, say: Say) -> None:
    current = _arg_names(verb)
    options = _available_args(session, proposed, current)
    if not options:
        say("    no other flags or positionals to add")
        return
    say("    " + "  ".join(f"{i}. {n}" for i, n in enumerate(options, 1)))
    picked = _pick(ask("    add which (numbers or names), Enter for none: "), options)
    if picked:
        session.edits = session.edits.with_override(proposed, include_args=tuple(current + picked))
        now = set(_arg_names(session.manifest()["verbs"].get(session.final_name(proposed))))
        refused = [p for p in picked if p not in now]
        if refused:
            say(
                f"    not added (unsafe on this command, or set by the command itself): {', '.join(refused)}"
            )


def _drop_args(
    session: Session, proposed: str, verb: Mapping[str, Any], ask: Ask, say: Say
) -> None:
    current = _arg_names(verb)
    if not current:
        say("    this command has no args")
        return
    say("    " + "  ".join(f"{i}. {n}" for i, n in enumerate(current, 1)))
    picked = _pick(ask("    drop which (numbers or names), Enter for none: "), current)
    if picked:
        keep = tuple(n for n in current if n not in picked)
        session.edits = session.edits.with_override(proposed, include_args=keep)
        left = set(_arg_names(session.manifest()["verbs"].get(session.final_name(proposed))))
        kept_anyway = [p for p in picked if p in left]
        if kept_anyway:
            say(f"    kept (required by the command): {', '.join(kept_anyway)}")


def _description(
    session: Session, proposed: str, verb: Mapping[str, Any], ask: Ask, say: Say
) -> None:
    current = str(verb.get("description") or "")
    answer = ask(f"    description [{current}]: ").strip()
    if not answer or answer == current:
        return
    refused = _unreadable_description(answer)
    if refused:
        say(f"    not changed: {refused}")
        return
    session.edits = session.edits.with_override(proposed, description=answer)


def _unreadable_description(text: str) -> str:
    """Why the wizard refuses a description (check's W080), or ""."""
    from wrapgen.knowledge.text import unreadable_reason

    why = unreadable_reason(text)
    return f"{text!r} is {why}; say in a sentence what it does" if why else ""


def _pack_description(session: Session, ask: Ask, say: Say) -> None:
    current = str(session.manifest().get("description") or "")
    answer = ask(f"    pack description [{current}]: ").strip()
    if not answer or answer == current:
        return
    refused = _unreadable_description(answer)
    if refused:
        say(f"    not changed: {refused}")
        return
    session.description = answer


def _titles(session: Session, proposed: str, verb: Mapping[str, Any], ask: Ask, say: Say) -> None:
    title = dict(verb.get("title") or {})
    new: dict[str, tuple[str, ...]] = {}
    for form in ("live", "done"):
        value = title.get(form) or []
        value = [value] if isinstance(value, str) else list(value)
        answer = ask(f"    {form} titles, ' | ' between templates [{' | '.join(value)}]: ").strip()
        if answer:
            templates = tuple(t.strip() for t in answer.split(" | ") if t.strip())
            refused = _unreadable_title(templates, _arg_names(verb))
            if refused:
                say(f"    not changed: {refused}")
                continue
            new[form] = templates
    if new:
        session.edits = session.edits.with_override(proposed, title=new)


def _unreadable_title(templates, arg_names) -> str:
    """Why the wizard refuses these title templates (check's W081, W083 and M026), or ""."""
    from wrapgen.knowledge.text import title_placeholder, title_problem, unreadable_reason

    for template in templates:
        found = title_placeholder(template)
        if found:
            return f"{template!r} would show {found!r} literally; name an arg as {{{{arg}}}} or write the words out"
        why = unreadable_reason(template) or title_problem(template)
        if why:
            return f"{template!r} is {why}, not a title"
        unknown = [
            n
            for n in re.findall(r"\{\{\s*([\w.-]+)\s*\}\}", template)
            if n not in arg_names and not n.startswith("result")
        ]
        if unknown:
            return f"{template!r} names unknown arg {{{{{unknown[0]}}}}} (args: {', '.join(arg_names) or 'none'})"
    return ""


def _text_refusals(manifest) -> list[str]:
    """The unreadable descriptions and titles of a manifest (check's W080-W083), one line each."""
    from wrapgen.check.text import text_findings

    return [
        f"{code} {field}: {message}"
        for code, field, message in text_findings(manifest)
        if code != "W082"
    ]


def _review(session: Session, proposed: str, index: int, ask: Ask, say: Say) -> None:
    while True:
        name = session.final_name(proposed)
        verb = session.manifest()["verbs"].get(name)
        if verb is None:
            say(f"    {name} is no longer proposed after the edits so far; it will not be written")
            return
        say(_command_screen(index, len(session.proposed), name, verb, session.evidence(name)))
        answer = ask("    [Enter] accept  s r d p + - t v x ?: ").strip()
        try:
            if answer in ("", "y", "a"):
                return
            if answer == "s":
                session.edits = session.edits.skip(proposed)
                say(f"    skipped {name}")
                return
            action = _KEYS.get(answer)
            if action is None:
                say(HELP)
                continue
            action(session, proposed, name, verb, ask, say)
        except WrapgenError as error:
            say(f"    {error.message}" + (f" ({error.hint})" if error.hint else ""))


# What each key of a verb's review does: (session, proposed, name, verb, ask, say) -> None.
_KEYS = {
    "r": lambda session, proposed, name, verb, ask, say: _rename(session, proposed, name, ask, say),
    "p": lambda session, proposed, name, verb, ask, say: _policy(session, proposed, verb, ask, say),
    "d": lambda session, proposed, name, verb, ask, say: _description(
        session, proposed, verb, ask, say
    ),
    "+": lambda session, proposed, name, verb, ask, say: _add_args(
        session, proposed, verb, ask, say
    ),
    "-": lambda session, proposed, name, verb, ask, say: _drop_args(
        session, proposed, verb, ask, say
    ),
    "t": lambda session, proposed, name, verb, ask, say: _titles(session, proposed, verb, ask, say),
    "v": lambda session, proposed, name, verb, ask, say: _preview(session, name, ask, say),
    "x": lambda session, proposed, name, verb, ask, say: _run_for_real(session, name, ask, say),
}


def write_pack_atomically(
    out_dir: str | os.PathLike, pack_id: str, files: Mapping[str, str]
) -> Path:
    """Write ``files`` into ``out_dir/pack_id``: a temporary sibling directory, renamed into place.

    Files already in an existing pack directory that the pack does not generate (a README, a
    PROMOTION.md) are carried over.
    """
    from wrapgen.pack.emit import write_files

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / pack_id
    temp = Path(tempfile.mkdtemp(prefix=f".{pack_id}.", suffix=".tmp", dir=out))
    old: Path | None = None
    try:
        if target.is_dir():
            for item in target.iterdir():
                if item.name not in files and item.is_file():
                    shutil.copy2(item, temp / item.name)
        write_files(temp, files)
        os.chmod(temp, 0o755)
        if target.exists():
            old = out / f".{pack_id}.old.{os.getpid()}"
            os.rename(target, old)
        os.rename(temp, target)
    except BaseException:
        if old is not None and not target.exists():
            os.rename(old, target)
            old = None
        shutil.rmtree(temp, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target


def discover_for(tool_arg: str, recipe: Recipe | None, *, progress=None):
    """Read the tool the way ``wrapgen wrap`` does (by name, or through the recipe)."""
    if recipe is None:
        from wrapgen.probe.discover import discover

        return discover(tool_arg, progress=progress)
    from wrapgen.pack.recipe import discover_tool

    return discover_tool(recipe, progress=progress)


@dataclass(frozen=True)
class WizardResult:
    pack_dir: Path | None  # None: nothing was written
    errors: int = 0  # errors wrapgen check found in the written pack


def run_wizard(
    tool_arg: str,
    *,
    out_dir: str | os.PathLike,
    ask: Ask,
    say: Say,
    recipe: Recipe | None = None,
    progress=None,
    trials: bool = True,
) -> WizardResult:
    """The whole flow: discover, review each command (with what its trial showed), write exactly the
    commands kept, check. ``trials``: try the reads as ``wrapgen wrap`` does (off: as ``--no-try``)."""
    say(f"Discovering {tool_arg} …")
    tool = discover_for(tool_arg, recipe, progress=progress)
    nodes = sum(1 for _ in tool.root.walk())
    say(
        f"Read {nodes} command{'s' if nodes != 1 else ''} of {tool_arg}"
        + (f" ({len(tool.warnings)} warnings)" if tool.warnings else "")
        + "."
    )
    if trials:
        say("Trying its read commands in the sandbox …")
    session = Session(tool_arg, tool, recipe, out_dir=out_dir, trials=trials)
    say("")
    say("Proposal:")
    say(_overview(session.manifest()))
    say("")
    say("Review each command (? for the keys; Enter accepts).")
    for i, proposed in enumerate(session.proposed, 1):
        _review(session, proposed, i, ask, say)
    while True:
        manifest = session.manifest()
        if not manifest["verbs"]:
            say("Every command was skipped: nothing to write.")
            return WizardResult(None)
        say("")
        say(_overview(manifest))
        for name in session.missing():
            say(f"  {name}: no longer proposed after the edits (see its trial): not written")
        target = Path(out_dir) / manifest["pack_id"]
        refusals = _text_refusals(manifest)
        if refusals:
            # a description that is usage syntax or a title showing a placeholder is not written (check W080, W081)
            for line in refusals:
                say(f"  {line}")
            if any(line.startswith("W080 description:") for line in refusals):
                answer = ask("  d edits the pack's description; Enter leaves, writing nothing: ")
                if answer.strip().lower() == "d":
                    _pack_description(session, ask, say)
                    continue
            say(
                "Nothing written: fix these texts (d to edit a command's description, t a title, "
                "at its review; the pack's description at the write prompt)."
            )
            return WizardResult(None)
        answer = (
            ask(
                f"Write these {len(manifest['verbs'])} commands to {target} "
                "(d: edit the pack's description)? [Y/n]: "
            )
            .strip()
            .lower()
        )
        if answer == "d":
            _pack_description(session, ask, say)
            continue
        if answer.startswith("n"):
            say("Nothing written.")
            return WizardResult(None)
        break
    written = write_pack_atomically(out_dir, manifest["pack_id"], session.files())
    say(f"Wrote {written}.")
    from wrapgen.check.rules import check_pack

    findings = check_pack(written)
    errors = [d for d in findings if d.level == "error"]
    for finding in findings:
        say(f"  {finding.format()}")
    say(f"wrapgen check: {len(errors)} error(s), {len(findings) - len(errors)} other finding(s).")
    return WizardResult(written, len(errors))
