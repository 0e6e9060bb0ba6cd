"""``wrapgen wrap``: discover -> propose -> dump -> build -> write -> check, as one function.

``wrap(...)`` returns a ``WrapResult`` (what was proposed, the files, the diffs, the check
findings); printing belongs to ``wrapgen/cli/commands/wrap.py``. The one subprocess of its own asks a
tool whose ``--json`` flag takes field names (gh) for the list of fields, the way the tool itself
answers a bare ``--json``; everything else runs through discovery and ``wrapgen.runtime``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from wrapgen.errors import Diagnostic, HelpUnreadableError, ToolNotFoundError
from wrapgen.flows.drift import (
    source_files,  # pack.yaml's source and source.json: what drift compares
)
from wrapgen.model.tool import Tool
from wrapgen.model.toolref import ToolRef
from wrapgen.pack.sandbox import with_sandbox
from wrapgen.probe.prober import resolve_tool
from wrapgen.propose import Proposal, propose
from wrapgen.propose.jsonsel import fields_from_text

__all__ = [
    "WrapResult",
    "wrap",
    "wrap_split",
    "json_field_lists",
    "recipe_for_picks",
    "usage_evidence",
    "guiding_paths",
]

_FIELD_PROBE_TIMEOUT_S = 10.0
_FIELD_PROBE_JOBS = 4  # field probes at once: each is a sandboxed start of the tool (gh: 8 of them)
# The whole of a wrap (discovery, the JSON field probes, the trials, writing and checking): past it
# no probe or trial starts, and what could not be read or tried says so. Discovery's own deadline
# (120 s) and each spawn's timeout bound their parts; this bounds their sum, which a heavily loaded
# machine can stretch (each probe waits its timeout, each trial round its slowest trial).
WRAP_DEADLINE_S = 300.0


@dataclass(frozen=True)
class WrapResult:
    pack_id: str
    pack_dir: Path
    proposal: Proposal
    files: dict  # relpath -> text
    changes: tuple[str, ...]  # unified diffs of what was (or, with check, would be) written
    findings: tuple[Diagnostic, ...]  # wrapgen check on the result
    trials: Any = None  # the flows.trials.TrialReport when the proposal was tried, else None
    notes: tuple[
        str, ...
    ] = ()  # what the wrap could not do here, one line each (no sandbox for field lists)

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.findings if d.level == "error")


def _json_value_flag(command) -> bool:
    return any(f.long == "--json" and f.takes_value and not f.value_optional for f in command.flags)


def json_field_lists(
    tool: Tool,
    proposal: Proposal,
    *,
    bin_path: str,
    deadline_at: float | None = None,
    skip=(),
    notes: list[str] | None = None,
    cache: bool = True,
) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Per chosen path whose ``--json`` needs field names: the fields the tool lists for a bare ``--json``,
    asked in the probe sandbox (``wrapgen.probe.json_fields``; where none runs, nothing is asked and
    one line saying why goes to ``notes``), ``_FIELD_PROBE_JOBS`` at a time; an unchanged binary's
    answers come from the cache (``cache=False``: asked again).

    ``deadline_at`` (a ``time.monotonic()`` value): no probe starts past it, none runs beyond it. The
    paths in ``skip`` (asked already) are not asked again."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from wrapgen.probe.json_fields import field_list_text, sandbox_off_reason

    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    wanted = []
    for decision in proposal.chosen:
        path = tuple(decision.path.split())
        if not path or path[0].startswith("-") or path in skip:
            continue
        command = tool.root.find(path)
        if command is not None and _json_value_flag(command):
            wanted.append(path)
    if not wanted:
        return out
    why_not = sandbox_off_reason()
    if why_not:
        if notes is not None:
            notes.append(
                f"--json field lists were not asked ({why_not}): `TOOL CMD --json` runs only sandboxed, "
                "so the commands whose --json needs field names return text"
            )
        return out

    def ask(path: tuple[str, ...]) -> tuple[str, ...]:
        timeout = _FIELD_PROBE_TIMEOUT_S
        if deadline_at is not None:
            timeout = min(timeout, deadline_at - time.monotonic())
            if timeout <= 0:
                return ()
        return fields_from_text(field_list_text(bin_path, path, timeout_s=timeout, cache=cache))

    with ThreadPoolExecutor(
        max_workers=min(_FIELD_PROBE_JOBS, len(wanted)), thread_name_prefix="wrapgen-json-fields"
    ) as pool:
        for path, fields in zip(wanted, pool.map(ask, wanted)):  # in the proposal's order
            if fields:
                out[path] = fields
    return out


def recipe_for_picks(tool_name: str, picks: Sequence[str], recipe=None):
    """A recipe that takes exactly ``picks`` (``--pick "pr list"``), keeping the rest of ``recipe``."""
    from wrapgen.pack.recipe import CommandSpec, Recipe

    specs = tuple(CommandSpec(path=tuple(p.split())) for p in picks)
    if recipe is None:
        return Recipe(tool=tool_name, commands=specs)
    return replace(recipe, commands=specs)


def _with_usage_from(recipe, paths: Sequence[str | os.PathLike]):
    """``recipe`` (a Recipe, a ProposalRequest or None) with ``paths`` added to its ``usage_from``
    (absolute), so the proposal sees them; without a recipe, a request that only carries them."""
    from wrapgen.model.recipe import ProposalRequest

    added = tuple(str(Path(p).resolve()) for p in paths)
    if recipe is None:
        return ProposalRequest(usage_from=added)
    return replace(recipe, usage_from=tuple(getattr(recipe, "usage_from", ())) + added)


def _resolved(tool_arg: str | None, recipe, discover) -> ToolRef:
    """The tool, resolved once (a recipe's way where there is one). A tool not found is an error,
    unless a caller's own ``discover`` reads it without running it (a task runner's file, a test)."""
    if recipe is not None:
        from wrapgen.pack.recipe import resolve_tool as resolve_recipe_tool

        return resolve_recipe_tool(recipe)
    try:
        return resolve_tool(tool_arg)
    except ToolNotFoundError:
        if discover is None:
            raise
        return ToolRef(tool_arg, tool_arg, tool_arg)


def _discovered(discover, ref: ToolRef, options: Mapping[str, Any]) -> Tool:
    """``discover``'s tool named as pack.yaml names it: wrapgen's discovery is handed the resolved
    ``ToolRef``, a caller's own ``discover`` the name."""
    if discover is None:
        from wrapgen.probe.discover import discover as discovery

        tool = discovery(ref, **options)
    else:
        tool = discover(ref.bin, **options)
    return replace(tool, name=ref.bin)


# How many left-out candidates the "nothing to propose" error names, each with its reason.
_REASONS_SHOWN = 3
# Rounds of reading the stubs a proposal chose and proposing again: the second round reads the new
# picks the first one's reads made (a topic's commands once its own help is read). Each costs a
# batch of the tool's starts (a cloud CLI: about 3 s quiet, 10 s under load), and on the largest
# CLIs each round's reads change the picks again: a third round took a cloud CLI's cold wrap past
# 30 s
_STUB_ROUNDS = 2


def _left_out_reasons(proposal: Proposal) -> str:
    """`` (show: tried: it crashed ...; list: ...)``: why each candidate was left out, or ""."""
    left = [d for d in proposal.decisions if not d.chosen and d.reason]
    if not left:
        return ""
    shown = "; ".join(f"{d.path or 'the tool itself'}: {d.reason}" for d in left[:_REASONS_SHOWN])
    more = f"; and {len(left) - _REASONS_SHOWN} more" if len(left) > _REASONS_SHOWN else ""
    return f" ({shown}{more})"


def wrap(
    tool_arg: str | None = None,
    *,
    out_dir: str | os.PathLike = "adapters",
    picks: Sequence[str] = (),
    recipe=None,
    check: bool = False,
    discover: Callable[..., Tool] | None = None,
    probe_json_fields: bool = True,
    discover_options: Mapping[str, Any] | None = None,
    runner_dir: str | os.PathLike | None = None,
    runner_file: str | None = None,
    trials: bool = False,
    try_in: str | os.PathLike | None = None,
    trial_timeout_s: float | None = None,
    deadline_s: float | None = WRAP_DEADLINE_S,
    stage: Callable[[str], None] | None = None,
    progress: Callable[..., None] | None = None,
    trial_progress: Callable[..., None] | None = None,
    usage_from: Sequence[str | os.PathLike] = (),
) -> WrapResult:
    """Wrap one tool into ``out_dir/<pack_id>/``; with ``check`` nothing is written.

    ``discover_options`` (depth, style, timeout_s, cache, ...) go to discovery, over a recipe's own.
    A task runner (make, npm, just, task) run where its file is (``runner_dir``, a recipe's
    ``runner.dir``, else the current directory; ``runner_file`` or ``runner.file`` when the file has
    a name the runner does not look for) is read from its database instead of its help: the
    repository's targets become the verbs (``wrapgen.probe.runners``).
    ``trials`` runs the proposal's read verbs in the sandbox and acts on what they show
    (``wrapgen.flows.trials``; ``try_in`` is copied into each trial's working directory); off here,
    on in ``wrapgen wrap`` (batch, promote and the wizard stay reproducible from their recipes).
    ``deadline_s`` bounds the whole wrap (``WRAP_DEADLINE_S``; None for none): discovery's deadline
    is cut to what is left of it, and past it no JSON field probe or trial starts (the trials not run
    say so in their evidence). ``stage(name)`` is told each step as it starts ("discovery", "trials",
    ...), so a caller that gives up on a wrap can say where it was; ``progress(done, total, path)``
    is discovery's (commands read), ``trial_progress(done, total, verb)`` the trials' (verbs tried).
    ``usage_from`` (``--usage-from``): files and folders showing how the tool is used, added to a
    recipe's ``usage_from:``; the proposal reads them through ``wrapgen.usage.evidence_for``.
    """
    import time

    end = None if deadline_s is None else time.monotonic() + float(deadline_s)
    tell = stage or (lambda _name: None)
    from wrapgen.check.rules import lint_manifest
    from wrapgen.pack.emit import write_files
    from wrapgen.pack.manifest import parse_manifest

    where = runner_dir if runner_dir is not None else getattr(recipe, "runner_dir", None)
    if discover is None:
        from wrapgen.probe.runners import runner_discovery

        named = runner_file if runner_file is not None else getattr(recipe, "runner_file", None)
        discover = runner_discovery(
            tool_arg or getattr(recipe, "tool", None), where, file=named, explicit=where is not None
        )
    ref = _resolved(tool_arg, recipe, discover)
    options = {}
    if recipe is not None:
        options = {k: v for k, v in dict(recipe.discover_options).items() if v is not None}
    options.update({k: v for k, v in dict(discover_options or {}).items() if v is not None})
    bin_name = ref.bin
    tell("discovery")
    guide = guiding_paths(
        bin_name, picks, usage_from=(*(getattr(recipe, "usage_from", None) or ()), *usage_from)
    )
    tool = _discovered(discover, ref, _with_deadline(discover, options, end, progress, guide))
    root = tool.root
    if not (root.subcommands or root.flags or root.positionals):
        tried = (
            "; ".join(tool.warnings) or f"{bin_name} --help, -h and help printed nothing readable"
        )
        raise HelpUnreadableError(
            f"could not read any commands or flags from {bin_name}'s help ({tried})",
            hint="write a recipe listing the commands, or check that the tool prints help with --help",
        )
    if picks:
        recipe = recipe_for_picks(bin_name, picks, recipe)
    if usage_from:
        recipe = _with_usage_from(recipe, usage_from)
    tell("proposing")
    notes: list[str] = []
    usage = usage_evidence(tool, recipe, notes=notes)
    proposal = propose(tool, recipe, usage=usage)
    unread = _proposed_unread(tool, proposal)
    for _ in range(_STUB_ROUNDS if discover is None and guide else 0):
        if not unread:
            break
        # a command the proposal chose that discovery, guided by use, left unread (a stub of the
        # rest it judged too slow to read): read, with its flags and operands, and proposed again;
        # what a command's own help says may change the picks (a topic's row said "manage", its
        # help "list"), and a new pick may be a stub too: read in the next round
        from wrapgen.probe.discover import DEFAULT_DEADLINE_S, read_stubs

        tell("reading the proposed commands")
        tool = read_stubs(
            tool,
            unread,
            timeout_s=options.get("timeout_s"),
            sandbox=options.get("sandbox"),
            deadline_s=_with_deadline(None, options, end).get("deadline_s", DEFAULT_DEADLINE_S),
        )
        usage = usage_evidence(tool, recipe, notes=[])
        proposal = propose(tool, recipe, usage=usage)
        unread = tuple(p for p in _proposed_unread(tool, proposal) if p not in unread)
    if proposal.usage_note:
        notes.append(proposal.usage_note)
    fields: dict = {}
    use_cache = (
        options.get("cache", True) is not False
    )  # discovery's cache, the field lists' and the trials'
    if probe_json_fields:
        tell("JSON field probes")
        fields = json_field_lists(
            tool, proposal, bin_path=ref.path, deadline_at=end, notes=notes, cache=use_cache
        )
        if fields:
            proposal = propose(tool, recipe, json_fields=fields, usage=usage)
    report = None
    from wrapgen.propose.runners import is_runner_tool

    runner = is_runner_tool(tool)
    if runner and trials and try_in is None:
        # a target's recipe is tried in a copy of the repository it runs in
        try_in = _runner_try_in(where)
    if trials:  # try before you ship: the one hook where trial evidence changes a proposal
        from wrapgen.flows.trials import try_and_backfill

        tell("trials")
        repropose = _reproposer(
            tool,
            recipe,
            fields,
            usage=usage,
            bin_path=ref.path,
            deadline_at=end,
            probe_json_fields=probe_json_fields,
            cache=use_cache,
        )
        proposal, report = try_and_backfill(
            proposal,
            repropose=repropose,
            bin_path=ref.path,
            try_in=try_in,
            timeout_s=trial_timeout_s,
            deadline_at=end,
            cache=use_cache,
            tool=tool,
            progress=trial_progress,
        )
    if runner:
        from wrapgen.flows.trials import confirm_untried_targets

        proposal = confirm_untried_targets(proposal, report, explicit=_stated_reads(recipe))
    if not proposal.manifest["verbs"]:
        raise HelpUnreadableError(
            f"nothing to propose for {bin_name}: every candidate was left out"
            + _left_out_reasons(proposal),
            hint="pass --pick PATH for the subcommands you want, or write a recipe"
            + (" (--no-try writes the commands untried)" if report is not None else ""),
        )
    tell("writing and checking the pack")
    # the sandbox its calls need, from knowledge and what the trials needed (pack/sandbox.py)
    sandboxed = with_sandbox(
        proposal.manifest,
        tool=bin_name,
        evidence=getattr(report, "evidence", ()),
        tree=_runner_tree(where) if runner else None,
        declared=getattr(recipe, "sandbox", None),
    )
    files = source_files(sandboxed, tool, options)
    pack_id = proposal.manifest["pack_id"]
    pack_dir = Path(out_dir) / pack_id
    changes = write_files(pack_dir, files, check=check)
    manifest, diagnostics = parse_manifest(
        files["pack.yaml"].encode("utf-8"), path=str(pack_dir / "pack.yaml")
    )
    findings = lint_manifest(manifest, diagnostics, directory=pack_dir, derived=not check)
    return WrapResult(
        pack_id, pack_dir, proposal, files, tuple(changes), tuple(findings), report, tuple(notes)
    )


def usage_evidence(tool: Tool, recipe, *, notes: list[str] | None = None):
    """The usage evidence ``propose`` stands on (``wrapgen.usage.evidence_for``): the recipe's
    ``usage_from`` files (read here, so the proposal stays pure), the tool's own top-level EXAMPLES
    and the shipped table, each use read against the discovered model. A file that could not be
    read is one line in ``notes`` (what the evidence was, or that none names the tool, is the
    proposal's ``usage_note``, which ``wrap`` adds to them)."""
    from wrapgen.model.recipe import ProposalRequest
    from wrapgen.propose.runners import is_runner_tool
    from wrapgen.usage import evidence_for

    if is_runner_tool(tool):
        return ()
    request = ProposalRequest.of(recipe)
    skipped: list[str] = []
    names = [tool.name]
    if request.pack_id and request.pack_id != os.path.basename(tool.name):
        names.append(request.pack_id)  # the tool installed under another name (fdfind: fd)
    found: tuple = ()
    for name in names:
        found = (
            evidence_for(
                name,
                usage_from=request.usage_from,
                examples=tool.root.examples,
                model=tool,
                on_skip=lambda skip: skipped.append(skip.message),
            )
            or found
        )  # a pack id naming nothing (a --split family's) keeps the tool's own
        if any(e.source == "tldr-pages" for e in found):
            break
    if notes is not None:
        notes += skipped[:10]
        if len(skipped) > 10:
            notes.append(f"… and {len(skipped) - 10} more usage files skipped")
    return found


def _runner_tree(where) -> str:
    """The repository a task runner's pack works in (its calls' sandbox gives them that directory)."""
    path = os.path.abspath(where if where is not None else os.getcwd())
    return os.path.dirname(path) if os.path.isfile(path) else path


def _runner_try_in(where) -> str | None:
    """The repository a task runner's targets run in, as ``--try-in`` for their trials; None where it
    is too large to copy for each trial (its targets are then not tried, so none stays a read)."""
    from wrapgen.errors import UsageError
    from wrapgen.flows.trials import check_try_in

    try:
        return check_try_in(where if where is not None else os.getcwd())
    except UsageError:
        return None


def _stated_reads(recipe) -> frozenset[str]:
    """The verbs whose read a recipe's ``policy:`` states (an override or a ``commands:`` entry)."""
    if recipe is None:
        return frozenset()
    from wrapgen.model.recipe import ProposalRequest

    request = ProposalRequest.of(recipe)
    named = [(e.name or (e.path[-1] if e.path else ""), e) for e in request.commands or ()]
    named += list(request.overrides.items())
    return frozenset(
        name
        for name, entry in named
        if name and entry.policy is not None and entry.policy.effect == "read"
    )


def _reproposer(
    tool: Tool,
    recipe,
    fields: dict,
    *,
    usage=None,
    bin_path: str,
    deadline_at,
    probe_json_fields: bool,
    cache: bool = True,
):
    """How the trials' backfill proposes again without the commands they left out, or None where the
    commands are not the proposer's to choose (a recipe's or ``--pick``'s list, a task runner's targets)."""
    from wrapgen.model.recipe import ProposalRequest
    from wrapgen.propose.runners import is_runner_tool

    request = ProposalRequest.of(recipe)
    if request.commands is not None or is_runner_tool(tool):
        return None

    def again(excluded: tuple[tuple[str, ...], ...]) -> Proposal:
        asked = replace(request, exclude=tuple(request.exclude) + tuple(excluded))
        proposal = propose(tool, asked, json_fields=fields, usage=usage)
        if probe_json_fields:
            more = json_field_lists(
                tool,
                proposal,
                bin_path=bin_path,
                deadline_at=deadline_at,
                skip=set(fields),
                cache=cache,
            )
            if more:
                fields.update(more)
                proposal = propose(tool, asked, json_fields=fields, usage=usage)
        return proposal

    return again


def guiding_paths(
    tool_name: str, picks: Sequence[str] = (), *, usage_from: Sequence = ()
) -> tuple[tuple[str, ...], ...]:
    """The subcommand paths discovery reads first, most wanted first: every ``--pick``, then the
    paths the tool's usage names (the ``usage_from`` files' first, then the shipped table's), most
    used first, as many as a pack offers commands (``MAX_VERBS``): on a large tool, each read costs
    a start of the tool and its parents' reads come with it, and the commands used less are still
    listed, as stubs, where the rest is not read. A script's words are not yet confirmed as
    commands here: discovery reads a path only where the tool's own listing names it."""
    from collections import Counter

    from wrapgen.propose.select import MAX_VERBS
    from wrapgen.usage import public_usage
    from wrapgen.usage.local import read_paths

    name = os.path.basename(tool_name)
    used: list[tuple[str, ...]] = []
    if usage_from:
        lines, _skipped = read_paths(name, [os.fspath(p) for p in usage_from])  # (said later)
        local = Counter(line.path for line in lines if line.path)
        used += sorted(local, key=lambda p: (-local[p], p))
    evidence = public_usage(name)
    if evidence is not None:
        used += _families_in_turn(evidence.path_counts())
    wanted = list(dict.fromkeys(p for p in used if p))[:MAX_VERBS]
    return tuple(dict.fromkeys([tuple(p.split()) for p in picks if p.split()] + wanted))


def _families_in_turn(counts) -> list[tuple[str, ...]]:
    """The used paths, the most used first; of as many uses, each family's (first word's) best
    before any family's second, a read (``list``, ``show``) before a write: a cloud client's page of
    examples shows each resource's create, list, show and delete once, and by name alone the first
    resources' paths took every place (the servers' list was left for the crawl's deadline)."""
    from wrapgen.knowledge.words import name_effects

    effects = name_effects()

    def ties(path: tuple[str, ...]) -> tuple:  # of as many uses: a read first, then by name
        return (effects.get(path[-1].lower()) != "read", path)

    by_family: dict[str, list[tuple[str, ...]]] = {}
    for path in counts:
        if path:
            by_family.setdefault(path[0], []).append(path)
    turn: dict[tuple[str, ...], int] = {}
    for paths in by_family.values():
        paths.sort(key=lambda p: (-counts[p], *ties(p)))
        turn.update((path, index) for index, path in enumerate(paths))
    return sorted(turn, key=lambda p: (-counts[p], turn[p], *ties(p)))


def _proposed_unread(tool: Tool, proposal) -> tuple[tuple[str, ...], ...]:
    """The paths of the commands ``proposal`` chose that discovery left unread (stubs)."""
    out = []
    for decision in proposal.chosen:
        path = tuple(decision.path.split())
        node = tool.root.find(path) if path else None
        if node is not None and node.stub:
            out.append(path)
    return tuple(out)


def _with_deadline(discover, options: dict, end: float | None, progress=None, priority=()) -> dict:
    """Discovery's options with its deadline cut to what is left of the wrap's, ``progress`` and
    the ``priority`` paths it reads first (only for ``wrapgen.probe.discover.discover``, whose
    options they are; a caller's own ``discover`` is left alone)."""
    import time

    from wrapgen.probe import discover as discovery

    if discover is not None:
        return options  # a caller's own discover: its options are its own
    if progress is not None:
        options = {**options, "progress": progress}
    if priority:
        options = {**options, "priority_paths": priority}
    if end is None:
        return options
    own = options.get("deadline_s", discovery.DEFAULT_DEADLINE_S)
    left = max(round(end - time.monotonic(), 1), 0.1)  # (the warning says it: no 5.52192 s)
    return {**options, "deadline_s": left if own is None else min(float(own), left)}


# --- wrap --split (one pack per command family) ------------------------------------------------


def wrap_split(
    tool_arg: str,
    *,
    out_dir: str | os.PathLike = "adapters",
    check: bool = False,
    discover: Callable[..., Tool] | None = None,
    probe_json_fields: bool = True,
    discover_options: Mapping[str, Any] | None = None,
    usage_from: Sequence[str | os.PathLike] = (),
) -> tuple[WrapResult, ...]:
    """``wrap`` once per command family of a large tool (``wrapgen.propose.split``): discovery runs
    once, each family is proposed on its own and written as ``<tool>-<family>``. A tool with no
    family big enough for a pack of its own is one ``UsageError`` saying so. ``usage_from``: as
    ``wrap``'s, for discovery's order and every family's proposal."""
    from wrapgen.errors import UsageError
    from wrapgen.pack.recipe import Recipe, default_pack_id
    from wrapgen.propose.split import split_tool

    ref = _resolved(tool_arg, None, discover)
    bin_name = ref.bin
    options = {k: v for k, v in dict(discover_options or {}).items() if v is not None}
    guide = guiding_paths(bin_name, usage_from=usage_from)
    tool = _discovered(discover, ref, _with_deadline(discover, options, None, priority=guide))
    parts = split_tool(tool, propose=propose)
    if len(parts) < 2:
        raise UsageError(
            f"{bin_name} has no two command families of 5 or more commands: one pack holds it",
            hint=f"run `wrapgen wrap {tool_arg}` without --split",
        )
    results = []
    for part in parts:
        recipe = Recipe(tool=tool_arg, pack_id=f"{default_pack_id(tool_arg)}-{part.suffix}")
        results.append(
            wrap(
                tool_arg,
                out_dir=out_dir,
                recipe=recipe,
                check=check,
                discover=lambda *_a, _t=part.tool, **_k: _t,
                probe_json_fields=probe_json_fields,
                usage_from=usage_from,
            )
        )
    return tuple(results)
