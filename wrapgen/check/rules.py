"""``wrapgen check``: lint rules over a pack directory -> ``Diagnostic``s (docs/contract.md §12).

Rules are a registry. Each rule is a function from a ``PackContext`` (the parsed manifest, every
verb resolved the way ``binding.json`` records it, and the derived files on disk) to the
diagnostics it finds; ``@rule`` registers it under its code with a severity and a one-line
summary (the table in docs/packs-and-check.md lists the same).

How to add a rule (for example a catalogue of dangerous flags that flags ``git log --output``
on a read verb):

1. Write ``def my_rule(ctx: PackContext) -> Iterable[Diagnostic]`` and decorate it with
   ``@rule("W0NN", severity="error", summary="...")``, taking the next free number. It may live
   in its own module (``wrapgen/check/flags.py``, importing ``rule`` and ``PackContext`` from
   ``check/registry.py``) as long as that module is listed in ``_RULE_MODULES`` below, so
   registering happens before ``check_pack`` runs.
2. Walk ``ctx.verbs``: each ``VerbView`` has the resolved ``argv`` tokens, ``effect``,
   ``properties`` and helpers ``literal_flags()`` (index, flag name, inline value) and
   ``field_of(index)`` (the manifest field of a token, for the line number).
3. Yield ``ctx.diagnostic("W0NN", verb.field_of(i), "message", hint="what to do")``; the level
   comes from the registry unless passed.
4. Add a row to the check-code table in docs/packs-and-check.md and a test that makes the code fire and one
   that shows ``tests/packs/*`` stays clean. ``derived=True`` marks a rule that compares
   against files on disk; ``wrapgen build`` skips those because it is about to rewrite them.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any, Iterable, Mapping

from wrapgen.check.registry import (
    PLACEHOLDER_RE,
    RULES,
    PackContext,
    Rule,
    VerbView,
    rule,
)
from wrapgen.check.registry import is_flag as _is_flag
from wrapgen.errors import Diagnostic
from wrapgen.knowledge.commands import is_mega_arg, is_mega_command
from wrapgen.knowledge.shells import is_shell_operator, runner, takes_code
from wrapgen.knowledge.table import load
from wrapgen.pack.build import ADAPTER_NAME, BINDING_NAME, render_manifest_files, resolve_verb
from wrapgen.pack.emit import file_mode
from wrapgen.pack.manifest import MANIFEST_NAME, NAME_CODE, SCHEMA_CODE, Manifest, read_manifest

__all__ = [
    "Rule",
    "RULES",
    "all_rules",
    "rule",
    "VerbView",
    "PackContext",
    "PLACEHOLDER_RE",
    "check_pack",
    "check_packs",
    "expand_pack_dirs",
    "lint_manifest",
]

# --- rules -------------------------------------------------------------------------------------


@rule(
    SCHEMA_CODE,
    severity="error",
    summary="pack.yaml is unreadable or breaks pack.schema.json (field path and line given)",
)
def _schema(ctx: PackContext):
    return [d for d in ctx.load_diagnostics if d.code == SCHEMA_CODE]


@rule(
    NAME_CODE,
    severity="error",
    summary="a pack_id or verb name breaks docs/contract.md §4 (lower-case, dot-separated)",
)
def _names(ctx: PackContext):
    return [d for d in ctx.load_diagnostics if d.code == NAME_CODE]


@rule("W003", severity="warning", summary="fewer than 5 or more than 12 verbs")
def _verb_count(ctx: PackContext):
    count = len(ctx.verbs)
    if count < 5:
        yield ctx.diagnostic(
            "W003",
            "verbs",
            f"{count} verb{'s' * (count != 1)}: a pack has 5 to 12",
            hint="add the commands people use most",
        )
    elif count > 12:
        yield ctx.diagnostic(
            "W003",
            "verbs",
            f"{count} verbs: a pack has 5 to 12",
            hint="more than 12 is usually two packs",
        )


# Not derived=True: the alias half must stop a build; the binding half is silent when build
# passes no derived files (it is about to rewrite them).
@rule(
    "W004",
    severity="error",
    summary="name drift between projections: manifest, binding.json, adapter, aliases",
)
def _drift(ctx: PackContext):
    names = [verb.name for verb in ctx.verbs]
    for verb in ctx.verbs:
        for language, words in sorted(verb.aliases.items()):
            for word in words:
                if word in names and word != verb.name:
                    yield ctx.diagnostic(
                        "W004",
                        f"{verb.field}.aliases.{language}",
                        f"alias {word!r} is the name of another verb",
                        hint="an alias must not shadow a command name",
                    )
    stored = ctx.derived.get(BINDING_NAME)
    if stored is None:
        return  # W012 reports the missing file
    try:
        binding = json.loads(stored[0].decode("utf-8"))
        bound_id, bound_verbs = binding["pack_id"], list(binding["verbs"])
    except (ValueError, KeyError, TypeError, AttributeError):
        yield ctx.diagnostic(
            "W004",
            "verbs",
            f"{BINDING_NAME} is not a binding wrapgen can read",
            hint="run wrapgen build on this directory",
        )
        return
    pack_id = ctx.manifest.data["pack_id"]
    if bound_id != pack_id:
        yield ctx.diagnostic(
            "W004",
            "pack_id",
            f"pack_id is {pack_id!r} here but {bound_id!r} in {BINDING_NAME}",
            hint="run wrapgen build on this directory",
        )
    for name in names:
        if name not in bound_verbs:
            yield ctx.diagnostic(
                "W004",
                f"verbs.{name}",
                f"verb {name!r} is missing from {BINDING_NAME} (adapter.py would not serve it)",
                hint="run wrapgen build on this directory",
            )
    for name in bound_verbs:
        if name not in names:
            yield ctx.diagnostic(
                "W004",
                "verbs",
                f"{BINDING_NAME} serves {name!r}, which pack.yaml does not declare",
                hint="run wrapgen build on this directory",
            )


@rule("W005", severity="error", summary="a cli[] placeholder names no argument of the verb")
def _unknown_placeholder(ctx: PackContext):
    for verb in ctx.verbs:
        for index, name in verb.placeholders():
            if name.startswith("result") and (name == "result" or name.startswith("result.")):
                continue  # W007 reports {{result...}}
            if name not in verb.arg_names():
                known = ", ".join(sorted(verb.properties)) or "none"
                yield ctx.diagnostic(
                    "W005",
                    verb.field_of(index),
                    f"placeholder {{{{{name}}}}} names no argument{verb.where}",
                    hint=f"add {name!r} to args.properties (arguments: {known})",
                )


@rule(
    "W006",
    severity="error",
    summary="the first token of cli[] (or wrap.argv_template) is not the bin",
)
def _first_token(ctx: PackContext):
    bin_name = ctx.manifest.data["bin"]
    for verb in ctx.verbs:
        if verb.argv and verb.argv[0] != bin_name:
            yield ctx.diagnostic(
                "W006",
                verb.field_of(0),
                f"first token is {verb.argv[0]!r}, not the bin {bin_name!r}{verb.where}",
                hint=f"start the command with {bin_name!r}",
            )


def _names_a_program(argv: tuple[str, ...], index: int) -> bool:
    """Whether token ``index`` stands where a program is named: the bin, after ``--``, after a
    launcher (``env``, ``sudo``, ``xargs``) or an ``env`` assignment. ``kubectl describe node {{name}}``
    names a node, not the node interpreter."""
    if index == 0:
        return True
    before = argv[index - 1]
    return (
        before == "--"
        or is_mega_command(before.rsplit("/", 1)[-1])
        or re.fullmatch(r"[A-Za-z_]\w*=.*", before) is not None
    )


def _runs_code(argv: tuple[str, ...], index: int) -> str | None:
    """Why argv token ``index`` makes the command run code the pack never shows, or None.

    A shell or interpreter, with or without a version (``python3.11``), runs code given with one of
    its code options anywhere after it (``bash --norc -c``, ``bash -l -c``, ``perl5.36 -E``), or, where
    it names the program, a script or option a slot chooses (``bash {{script}}``); awk (anywhere: a
    literal ``awk`` is rarely anything else) runs its program operand, unless the command passes a
    switch that confines that program to reading and printing (gawk's ``--sandbox``); xargs runs a command built
    from its input; ``env -S`` splits one argument into a command line.
    """
    token = argv[index]
    if "{{" in token:
        return None
    program = runner(token)
    if program is None:
        return None
    rest = argv[index + 1 :]
    if program.kind == "program_operand":
        if set(program.confined_by) & set(rest):
            return None  # its sandbox switch keeps the program to reading and printing
        return f"{token} runs its program operand as code ({program.why})"
    if program.kind == "command_runners":
        return f"{token} runs a command line it builds ({program.why})"
    for following in rest:
        if takes_code(following, program):
            if program.kind == "split_string":
                return f"{token} {following} splits its argument into a command line"
            return f"{token} {following} runs its argument as code"
    if program.kind in ("shells", "interpreters") and _names_a_program(argv, index):
        for following in rest:
            if following.startswith("{{"):
                return f"{token} runs the script or option {following} the caller chooses"
            if not following.startswith("-") or following == "--":
                break
    return None


@rule(
    "W007",
    severity="error",
    summary="a shell in between: a shell or interpreter running code (sh -c, bash -l -c, python3.11 -c, "
    "perl -E), awk, xargs, env -S; |, ;, &&, redirections as tokens; {{result...}} in cli[]",
)
def _shell(ctx: PackContext):
    for verb in ctx.verbs:
        for index, token in enumerate(verb.argv):
            why = _runs_code(verb.argv, index)
            if why:
                yield ctx.diagnostic(
                    "W007",
                    verb.field_of(index),
                    f"{why}{verb.where}",
                    hint="call the tool directly; the runtime spawns with no shell",
                )
            elif "{{" not in token and is_shell_operator(token):
                yield ctx.diagnostic(
                    "W007",
                    verb.field_of(index),
                    f"{token!r} is shell syntax, but cli[] is spawned with no shell{verb.where}",
                    hint="make two verbs, or pass the value through an argument",
                )
        for index, name in verb.placeholders():
            if name == "result" or name.startswith("result."):
                yield ctx.diagnostic(
                    "W007",
                    verb.field_of(index),
                    f"{{{{{name}}}}} in cli[]: a result exists only after the command ran",
                    hint="results belong in title.done, never in the command",
                )


def _table_words(table: str) -> str:
    """The words of a knowledge table of commands.json, for a rule's summary: "run, exec, ..."."""
    return ", ".join(entry.name for entry in load("commands")[table])


def _arg_type(schema) -> str:
    return schema.get("type", "") if isinstance(schema, dict) else ""


@rule(
    "W008",
    severity="error",
    summary=f"a mega-command: a list forwarded with no flag in a verb named like one ({_table_words('mega_names')}) "
    f"or as an arg named like argv ({_table_words('mega_args')})",
)
def _mega(ctx: PackContext):
    for verb in ctx.verbs:
        mega_verb = is_mega_command(verb.name.rsplit(".", 1)[-1])
        for index, token in enumerate(verb.argv):
            match = PLACEHOLDER_RE.fullmatch(token)
            if not match:
                continue
            name = match.group(1).strip()
            if _arg_type(verb.properties.get(name)) != "array":
                continue
            flagged = index > 0 and _is_flag(verb.argv[index - 1])
            if not flagged and (mega_verb or is_mega_arg(name)):
                yield ctx.diagnostic(
                    "W008",
                    verb.field_of(index),
                    f"{{{{{name}}}}} forwards arbitrary arguments: {verb.name!r} behaves as a shell{verb.where}",
                    hint="name the operations as separate verbs with typed arguments (docs/contract.md §13)",
                )


def _may_start_with_dash(schema) -> bool:
    """Could a value of this arg render as a token starting with '-'?"""
    if not isinstance(schema, dict):
        return True
    kind = schema.get("type")
    if kind == "boolean":
        return False  # true drops the token, false drops it and its flag: no value is rendered
    if "const" in schema:
        return str(schema["const"]).startswith("-")
    if "enum" in schema:
        return any(str(value).startswith("-") for value in schema["enum"])
    if kind in ("integer", "number"):
        return not (isinstance(schema.get("minimum"), (int, float)) and schema["minimum"] >= 0)
    if kind == "array":
        return _may_start_with_dash(schema.get("items") or {})
    return True


@rule(
    "W009",
    severity="warning",
    summary="a positional slot not behind a literal -- (the runtime refuses dashed values there)",
)
def _positional(ctx: PackContext):
    for verb in ctx.verbs:
        seen_end = False
        for index, token in enumerate(verb.argv):
            if token == "--":
                seen_end = True
            if seen_end or "{{" not in token or token.startswith("-") or index == 0:
                continue
            if _is_flag(verb.argv[index - 1]):
                continue  # a flag's value, e.g. --query {{q}}
            names = [m.group(1).strip() for m in PLACEHOLDER_RE.finditer(token)]
            if token.startswith("{{") and any(
                _may_start_with_dash(verb.properties.get(n)) for n in names[:1]
            ):
                yield ctx.diagnostic(
                    "W009",
                    verb.field_of(index),
                    f"positional {token!r} is not behind a literal '--'{verb.where}",
                    hint=(
                        "put '--' before it where the tool takes '--' (wrap's trials and check "
                        "--probe test it; not one the tool refuses), or use --flag={{x}}; without "
                        "it a dashed value is refused at run time"
                    ),
                )


@rule(
    "W015",
    severity="warning",
    summary="a literal flag before an optional value token with other text ({{name}}.txt): left empty, the flag stays and reads the next token",
)
def _flag_before_optional_mixed_value(ctx: PackContext):
    # docs/contract.md §5 rule 3 (changed 2026-12-01): a token with a placeholder among other text is
    # dropped alone. That is right for a self-contained `--sort={{sort}}`, but `-o {{name}}.txt`
    # without name leaves `-o` to take whatever token follows as its value.
    for verb in ctx.verbs:
        for index in range(1, len(verb.argv) - 1):
            flag, value = verb.argv[index], verb.argv[index + 1]
            if (
                not _is_flag(flag)
                or value.startswith("-")
                or PLACEHOLDER_RE.fullmatch(value)
                or "{{" not in value
            ):
                continue
            optional = [
                m.group(1).strip()
                for m in PLACEHOLDER_RE.finditer(value)
                if m.group(1).strip() not in verb.required
            ]
            if optional:
                yield ctx.diagnostic(
                    "W015",
                    verb.field_of(index),
                    f"without {optional[0]!r}, {value!r} is dropped and {flag!r} stays, reading "
                    f"the next token as its value{verb.where}",
                    hint=f"write it as one token ({flag}={value}), or make {optional[0]!r} required",
                )


@rule("W010", severity="error", summary="a write or destructive verb that is not confirm-gated")
def _confirm(ctx: PackContext):
    for verb in ctx.verbs:
        if verb.effect in ("write", "destructive") and not verb.confirm:
            yield ctx.diagnostic(
                "W010",
                f"{verb.field}.policy.confirm",
                f"a {verb.effect} verb must be confirm-gated",
                hint="remove 'confirm: false' so that it runs only with confirm=true",
            )


@rule(
    "W016",
    severity="error",
    summary="a JSON selection that says two things: json: [], or jc: beside a JSON selection",
)
def _json_selection(ctx: PackContext):
    """docs/contract.md §7: ``json: [TOKENS]`` asks the tool for JSON, ``json: true`` says it prints
    JSON as it is, ``json: false`` that it prints text. ``[]`` says neither (it once meant false), and
    a verb that declares ``jc:`` reads text, whatever its selection says."""
    data = ctx.manifest.data
    verbs = data.get("verbs") or {}
    empty_hint = (
        "write json: false for a tool whose output is text, or json: true for one that prints"
        " JSON without a flag (aws, or a cli[] that already holds its JSON flag)"
    )
    if data.get("json") == [] and any("json" not in v for v in verbs.values()):
        yield ctx.diagnostic("W016", "json", "json: [] is ambiguous", hint=empty_hint)
    for name, verb in verbs.items():
        if verb.get("json") == []:
            yield ctx.diagnostic(
                "W016", f"verbs.{name}.json", "json: [] is ambiguous", hint=empty_hint
            )
        selection = verb["json"] if "json" in verb else data.get("json", ["--json"])
        if "jc" in verb and selection not in (False, []):
            shown = "true" if selection is True else json.dumps(selection)
            where = f"verbs.{name}.json" if "json" in verb else f"verbs.{name}.jc"
            yield ctx.diagnostic(
                "W016",
                where,
                f"jc: {verb['jc']} reads the tool's text, yet the verb's JSON selection is {shown}",
                hint=f"set json: false on verbs.{name} (jc makes the JSON), or drop jc",
            )


@rule("W011", severity="warning", summary="a verb without a policy (the runtime treats it as read)")
def _no_policy(ctx: PackContext):
    for verb in ctx.verbs:
        if not verb.policy_declared:
            yield ctx.diagnostic(
                "W011",
                verb.field,
                f"verb {verb.name!r} declares no policy: treated as read",
                hint="add policy: {effect: read}, {effect: write} or {effect: destructive}",
            )


@rule(
    "W012",
    severity="error",
    summary="binding.json or adapter.py missing or out of date (drift from pack.yaml)",
    derived=True,
)
def _derived(ctx: PackContext):
    if any(d.level == "error" for d in ctx.load_diagnostics):
        return  # not buildable: W001/W002 already say why
    expected = render_manifest_files(ctx.manifest)
    for name in sorted(expected):
        stored = ctx.derived.get(name)
        if stored is None:
            yield ctx.diagnostic(
                "W012", "", f"{name} is missing", hint="run wrapgen build on this directory"
            )
        elif stored[0] != expected[name].encode("utf-8"):
            yield ctx.diagnostic(
                "W012",
                "",
                f"{name} is out of date with pack.yaml",
                hint="run wrapgen build on this directory",
            )
        elif stored[1] != file_mode(name):
            yield ctx.diagnostic(
                "W012",
                "",
                f"{name} has mode {stored[1]:04o}, expected {file_mode(name):04o}",
                hint="run wrapgen build on this directory",
            )


@rule("W013", severity="warning", summary="the pack directory's name differs from its pack_id")
def _directory_name(ctx: PackContext):
    pack_id = ctx.manifest.data["pack_id"]
    name = ctx.directory.resolve().name
    if name != pack_id:
        yield ctx.diagnostic(
            "W013",
            "pack_id",
            f"pack_id {pack_id!r} lives in directory {name!r}",
            hint=f"packs are looked up as adapters/<pack_id>/: rename the directory to {pack_id!r}",
        )


@rule(
    "M026",
    severity="error",
    summary="a title names an unknown argument, uses result in live, or has no plain fallback",
)
def _titles(ctx: PackContext):
    from wrapgen.runtime.titles import title_findings

    for verb in ctx.verbs:
        if verb.title is None:
            continue
        for field_path, message in title_findings(verb.title, sorted(verb.properties)):
            field_path = str(field_path or "")
            if not field_path:
                full = f"{verb.field}.title"
            elif field_path.startswith("title"):
                full = f"{verb.field}.{field_path}"
            else:
                full = f"{verb.field}.title.{field_path}"
            yield ctx.diagnostic("M026", full, message)


# --- running -----------------------------------------------------------------------------------


# Rule modules beside this one; each registers its rules with ``@rule`` when imported.
_RULE_MODULES = (
    "wrapgen.check.dangerous_flags",
    "wrapgen.check.hardening",
    "wrapgen.check.trust",
    "wrapgen.check.secrets",
    "wrapgen.check.grammar",
    "wrapgen.check.trial_evidence",
    "wrapgen.check.text",
    "wrapgen.check.sandbox",
)


def _load_plugins() -> None:
    """Import the rule modules that live outside this file, so their rules are registered."""
    import importlib

    for name in _RULE_MODULES:
        importlib.import_module(name)


def all_rules() -> dict[str, Rule]:
    """Every registered rule, including those in the other rule modules, by code."""
    _load_plugins()
    return dict(sorted(RULES.items()))


def _verb_views(data: Mapping[str, Any]) -> tuple[VerbView, ...]:
    views = []
    for name in data["verbs"]:
        resolved = resolve_verb(data, name)
        views.append(
            VerbView(
                name=name,
                argv=tuple(resolved["argv"]),
                from_cli=resolved["argv_from"] == "cli",
                properties=resolved["args"].get("properties", {}),
                effect=resolved["policy"]["effect"],
                confirm=resolved["policy"]["confirm"],
                policy_declared=resolved["policy"]["declared"],
                title=data["verbs"][name].get(
                    "title"
                ),  # as written, so M026 field paths match the lines
                aliases=resolved["aliases"],
                required=tuple(resolved["args"].get("required", ())),
            )
        )
    return tuple(views)


def _read_derived(directory: Path) -> dict[str, tuple[bytes, int] | None]:
    out: dict[str, tuple[bytes, int] | None] = {}
    for name in (BINDING_NAME, ADAPTER_NAME):
        path = directory / name
        try:
            out[name] = (path.read_bytes(), stat.S_IMODE(path.stat().st_mode))
        except OSError:
            out[name] = None
    return out


def lint_manifest(
    manifest: Manifest,
    load_diagnostics: Iterable[Diagnostic] = (),
    *,
    directory=None,
    derived: bool = True,
    trials: Mapping[str, Any] | None = None,
) -> list[Diagnostic]:
    """Run every rule over a parsed manifest; ``derived=False`` skips the rules about files on disk;
    ``trials`` (verb -> Evidence, from ``check --try``) feeds the W060-W064 rules."""
    _load_plugins()
    load_diagnostics = tuple(load_diagnostics)
    directory = Path(directory) if directory is not None else Path(manifest.path).parent
    if any(d.code == SCHEMA_CODE and d.level == "error" for d in load_diagnostics):
        # The other rules assume the shape the schema guarantees.
        return list(load_diagnostics)
    ctx = PackContext(
        directory=directory,
        manifest=manifest,
        load_diagnostics=load_diagnostics,
        verbs=_verb_views(manifest.data),
        derived=_read_derived(directory) if derived else {},
        trials=dict(trials or {}),
    )
    out: list[Diagnostic] = []
    for code in sorted(RULES):
        if RULES[code].derived and not derived:
            continue
        out.extend(RULES[code].function(ctx))
    return sorted(out, key=lambda d: (d.path, d.line, d.code, d.field, d.message))


def check_pack(directory, *, trials: Mapping[str, Any] | None = None) -> list[Diagnostic]:
    """Lint one pack directory (or a pack.yaml file); ``trials`` as in ``lint_manifest``."""
    path = Path(directory)
    manifest, diagnostics = read_manifest(path)
    if manifest is None:
        return list(diagnostics)
    pack_dir = path if path.is_dir() else path.parent
    return lint_manifest(manifest, diagnostics, directory=pack_dir, trials=trials)


def expand_pack_dirs(paths: Iterable) -> list[Path]:
    """Pack directories: a pack.yaml file stands for its directory, and a directory holding
    packs but no pack.yaml for its packs, sorted; anything else is kept as given."""
    out: list[Path] = []
    for path in map(Path, paths):
        if path.name == MANIFEST_NAME and path.is_file():
            out.append(path.parent)
            continue
        if path.is_dir() and not (path / MANIFEST_NAME).exists():
            children = sorted(p.parent for p in path.glob(f"*/{MANIFEST_NAME}"))
            if children:
                out.extend(children)
                continue
        out.append(path)
    return out


def check_packs(paths: Iterable) -> list[Diagnostic]:
    """Lint several pack directories; a directory of packs is expanded to its packs."""
    return [d for path in expand_pack_dirs(paths) for d in check_pack(path)]
