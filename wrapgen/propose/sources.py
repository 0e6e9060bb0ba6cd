"""Where candidate commands come from: every source behind one registry, each producing ``Candidate``s.

Usage evidence is the first source of a proposal (issue 26); the help's own listing proposes what
evidence is silent about. A source is a function ``(Context) -> Found`` registered with
``@source(name)``:

- ``help``: every subcommand (and group that acts on its own) and the job a tool does run bare, or
  for a tool without subcommands its main mode and the modes its help names (``modes.py``);
- ``tldr-pages``: the usage table shipped in the package (``wrapgen.usage.public_usage``), unless
  the caller passed the evidence itself;
- ``examples``: the EXAMPLES lines of the tool's own top-level help or man page (``Command.examples``);
- ``local``: uses read from a repository's scripts, CI files and history (``--usage-from``), passed in;
- ``runner-targets``: a task runner's targets, read from its database (``wrapgen.probe.runners``).

``gather`` runs them and merges what they say about the same command (its path and mode tokens):
the help's candidate keeps its words and gains the uses. A use is read onto the discovered model
first (``evidence.fold``); one whose path discovery did not read is a warning, not a candidate. For a
tool without subcommands, the distinct mode switches of its uses are its modes (``mode_switches``).
Pure, but for reading the shipped table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from wrapgen.knowledge.dangerous_flags import dangerous_reason
from wrapgen.knowledge.table import load
from wrapgen.model.proposal import Candidate
from wrapgen.model.recipe import ProposalRequest
from wrapgen.model.tool import Command, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.names import proposed_verb_name
from wrapgen.propose.args import flag_noise
from wrapgen.propose.evidence import flags_from_uses, fold, mode_switches
from wrapgen.propose.forms import help_forms, use_forms
from wrapgen.propose.modes import (
    is_mode_flag,
    main_verb,
    mode_command,
    mode_name,
    mode_summary,
    root_candidates,
    root_value_modes,
    short_only_flags,
    value_mode_candidate,
)
from wrapgen.propose.rules import rule
from wrapgen.propose.runners import is_runner_tool
from wrapgen.propose.select import bare_job, runs_without_a_command
from wrapgen.usage import EXAMPLES_SOURCE, LOCAL_SOURCE, TABLE_SOURCE, evidence_for

# How many modes a tool's uses make verbs of: wrapgen/knowledge/data/weights.json ("modes").
_MAX_USED_MODES = load("weights")["modes"].values()["max_used_modes"]
_MIN_MODE_USES = load("weights")["modes"].values()["min_mode_uses"]

__all__ = ["Context", "Found", "source", "source_names", "gather", "Gathered", "tree_candidates"]


@dataclass(frozen=True)
class Context:
    """What every source sees: the discovered tool, the recipe's request, and the usage evidence the
    caller passed (None: look the tool up in the shipped table)."""

    tool: Tool
    request: ProposalRequest
    usage: tuple[UsageEvidence, ...] | None = None


@dataclass(frozen=True)
class Found:
    """What one source found: candidates, the flags it considered and passed over (flag, why), and
    warnings in words."""

    candidates: tuple[Candidate, ...] = ()
    skips: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()


_SOURCES: dict[str, Callable[[Context], Found]] = {}


def source(name: str) -> Callable:
    """Register a source of candidates under ``name``."""

    def register(fn: Callable[[Context], Found]) -> Callable[[Context], Found]:
        if name in _SOURCES:
            raise ValueError(f"two sources are named {name!r}")
        _SOURCES[name] = fn
        return fn

    return register


def source_names() -> tuple[str, ...]:
    return tuple(_SOURCES)


# -- the help's listing --------------------------------------------------------------------------


def tree_candidates(root: Command) -> list[Candidate]:
    """Every subcommand, and every group that acts on its own, as a candidate, in the help's order."""

    out: list[Candidate] = []

    def add(sub: Command, chain: tuple[str, ...], listed: bool, offset: int) -> None:
        out.append(
            Candidate(
                path=sub.path,
                command=sub,
                group=" / ".join(chain),
                index=len(out),
                common=listed,
                depth=len(sub.path) - offset,
            )
        )

    def walk(node: Command, groups: tuple[str, ...], common: bool, offset: int) -> None:
        for sub in node.subcommands:
            chain = groups + ((sub.group,) if sub.group else ())
            listed = common or sub.common  # a family the short help lists lends it to its members
            if sub.subcommands:
                # its own flags, not only the --help every command answers (clusterctl top has none: bare,
                # it prints help) ... and a usage line without a command slot
                own = [f for f in sub.flags if not set(f.spellings) <= {"--help", "-h", "-help"}]
                acts = (
                    bool(own)
                    and not sub.stub
                    and (not sub.usage or runs_without_a_command(sub.usage))
                )
                if acts:
                    add(sub, chain, listed, offset)
                # the members of a top-level family that does nothing bare (clusterctl top, hubcli pr) stand
                # where the family stands; deeper families get no such pass
                walk(sub, chain, listed, 1 if node is root and not acts else offset)
            else:
                add(sub, chain, listed, offset)

    walk(root, (), False, 0)
    # ... unless it repeats a top-level command (``containerctl container inspect`` beside ``containerctl
    # inspect``): that narrower form stays a level deeper
    top = {sub.name for sub in root.subcommands}
    return [
        replace(c, depth=len(c.path)) if len(c.path) > 1 and c.path[-1] in top else c for c in out
    ]


@source("help")
def _help(ctx: Context) -> Found:
    root = ctx.tool.root
    if root.subcommands:
        candidates = tree_candidates(root)
        bare = bare_job(root, bin=ctx.tool.name)
        if bare is not None:
            candidates = [bare, *(replace(c, index=c.index + 1) for c in candidates)]
        return Found(tuple(candidates))
    candidates, skips = root_candidates(root, bin=ctx.tool.name)
    return Found(tuple(candidates), tuple(skips))


# -- usage evidence ------------------------------------------------------------------------------


def _names(ctx: Context) -> tuple[str, ...]:
    """The names the tool goes by: its program's, and the pack id a recipe gives it (finder: finder)."""
    own = ctx.tool.name.rsplit("/", 1)[-1]
    return tuple(dict.fromkeys(n for n in (own, ctx.request.pack_id or "") if n))


def _evidence(ctx: Context, source: str) -> tuple[Use, ...]:
    """The uses the evidence of ``source`` (tldr-pages, examples, local) counts for the tool: what
    the caller passed, else the shipped table and the tool's own top-level EXAMPLES
    (``wrapgen.usage.evidence_for``; a command's own EXAMPLES show its flags, ``args.py`` ranks
    them, but say nothing of how often it is used: every man page of a VCS's has some)."""
    given = ctx.usage
    if given is None:
        given = ()
        for name in _names(ctx):
            given = evidence_for(name, examples=ctx.tool.root.examples, model=ctx.tool)
            if any(e.source == TABLE_SOURCE for e in given):
                break
    return tuple(u for e in given if e.source == source for u in e.uses)


def _from_uses(ctx: Context, uses: Sequence[Use], origin: str) -> Found:
    """Candidates of the commands (or, for a tool without subcommands, the modes) ``uses`` run."""
    root = ctx.tool.root
    by_key: dict[tuple, tuple[Command, list[Use]]] = {}
    unread: dict[str, int] = {}
    for use in uses:
        folded = fold(use, root)
        if folded is None:
            words = " ".join(use.path)
            unread[words] = unread.get(words, 0) + use.count
            continue
        if root.subcommands and not folded.use.path:
            continue  # the bare tool (--version): a job only where the help says so (bare_job)
        by_key.setdefault(folded.use.path, (folded.command, []))[1].append(folded.use)
    warnings = tuple(
        f"{origin} uses '{ctx.tool.name} {words}' ({n}), a command discovery did not read"
        for words, n in sorted(unread.items(), key=lambda kv: -kv[1])[:3]
    )
    if not root.subcommands:
        return Found(
            _modes_from_uses(ctx, [u for _, us in by_key.values() for u in us], origin),
            (),
            warnings,
        )
    out = [
        Candidate(
            path=path, command=command, index=i, uses=tuple(us), source=origin, depth=len(path)
        )
        for i, (path, (command, us)) in enumerate(by_key.items())
    ]
    return Found(tuple(out), (), warnings)


def _modes_from_uses(ctx: Context, uses: Sequence[Use], origin: str) -> tuple[Candidate, ...]:
    """A tool without subcommands: its uses grouped by the switches that make a mode; the group with
    none is the main mode (absent for a tool run as one of its operations: archiver, packer)."""
    root, bin_name = ctx.tool.root, ctx.tool.name
    short_only = short_only_flags(root)

    def is_mode(flag) -> bool:
        return is_mode_flag(flag, bin=bin_name, short_only=short_only)

    modes = mode_switches(root, uses, is_mode=is_mode)
    # a switch that is noise makes no mode, however many uses pass it alone (a downloader's
    # --enable-rpc turns it into a server), and the uses that pass it are no evidence of any other
    # mode (the server's --rpc-secure); a dangerous one makes a confirmed write (policy.py)
    by_spelling = {f.spelling: f for f in root.flags}
    unfit = {s for s in modes if s in by_spelling and flag_noise(by_spelling[s])}
    if unfit:
        uses = [u for u in uses if not set(u.flags) & unfit]
        modes = mode_switches(root, uses, is_mode=is_mode)
    order = [f.spelling for f in root.flags]
    uses = _command_words(root, uses)
    # a use that passes the flag a value mode of the help owns (a statement flag's `-c SQL`) is a
    # use of that mode, not of the main one
    value_modes = [m for m in root_value_modes(root, bin=bin_name) if m.owns]
    owned = {s: m for m in value_modes for s in m.owns}
    groups: dict[tuple[str, ...], list[Use]] = {}
    of_value_modes: dict[str, list[Use]] = {}
    for use in uses:
        mine = next((s for s in use.flags if s in owned), None) if not use.path else None
        if mine is not None:
            of_value_modes.setdefault(owned[mine].name, []).append(use)
            continue
        key = use.path + tuple(sorted((s for s in use.flags if s in modes), key=order.index))
        groups.setdefault(key, []).append(use)
    # a combination of modes fewer uses show than a mode needs is a use of its most used single
    # mode, the other switches its options (a long listing, recursive once: the long listing's)
    single = {k[0]: sum(u.count for u in us) for k, us in groups.items() if len(k) == 1}
    for key in [k for k in groups if len(k) > 1 and k[0].startswith("-")]:
        if sum(u.count for u in groups[key]) >= _MIN_MODE_USES:
            continue
        home = max(key, key=lambda s: (single.get(s, 0), -key.index(s)))
        groups.setdefault((home,), []).extend(groups.pop(key))
    by_operation = sum(1 for f in root.flags if f.operation) >= 2
    name, summary = main_verb(root, bin=bin_name)
    selectors = _selectors(groups.get((), ()), by_spelling, bin=bin_name)
    most = sorted((k for k in groups if k), key=lambda k: -sum(u.count for u in groups[k]))
    kept = set(most[: int(_MAX_USED_MODES)]) | {()}
    out = []
    for key, group in groups.items():
        if key not in kept:
            continue
        if not key and selectors and not by_operation:
            # value flags some use passes together (a finder's -name beside -type) combine: each
            # stays offered on the others' verbs, as a form's switch does; ones no use combines
            # (a cutter's fields or characters) exclude each other
            combined = {s for u in group if len(set(u.flags) & set(selectors)) > 1 for s in u.flags}
            for spelling, chosen in selectors.items():
                flag = by_spelling[spelling]
                out.append(
                    Candidate(
                        path=(),
                        command=root.with_changes(
                            flags=tuple(
                                replace(f, required=True) if f is flag else f for f in root.flags
                            )
                        ),
                        owns=flag.spellings,
                        name=mode_name(flag),
                        summary=mode_summary(flag),
                        note=f"every use passes a value flag: {spelling} is a mode",
                        uses=tuple(chosen),
                        source=origin,
                        form=spelling in combined,
                    )
                )
            continue
        if not key:
            if not by_operation:
                out.append(
                    Candidate(
                        path=(),
                        command=root,
                        name=name,
                        summary=summary,
                        note="the tool's main mode",
                        uses=tuple(group),
                        source=origin,
                    )
                )
            continue
        if not key[0].startswith("-"):
            out.append(_word_mode(root, key, group, origin))
            continue
        flags = [by_spelling[s] for s in key]
        out.append(
            Candidate(
                path=(),
                command=mode_command(root, key[0]),
                fixed=key,
                name=proposed_verb_name(".".join(mode_name(f) for f in flags)),
                summary=mode_summary(flags[0]),
                note=f"mode {' '.join(key)}",
                uses=tuple(group),
                source=origin,
            )
        )
    for mode in value_modes:
        if mode.name in of_value_modes:
            uses = tuple(of_value_modes.pop(mode.name))
            out.append(value_mode_candidate(mode, uses=uses, source=origin))
    return tuple(out)


_SLOT = re.compile(r"^[<\[]?(?:sub)?command[>\]]?$", re.IGNORECASE)


@rule("does a tool without subcommands lead with command words of its own?")
def _command_words(root: Command, uses: Sequence[Use]) -> tuple[Use, ...]:
    """The uses of a tool the help gave no subcommands, whose uses lead with words (``a``, ``x``,
    ``l``: an archiver's commands in its usage's ``<command>`` slot): kept as command words where
    the uses show two or more of them and the usage line has a command slot; otherwise each word is
    an operand again."""
    words = {u.path[0] for u in uses if u.path}
    slot = any(_SLOT.match(p.name) for p in root.positionals) or any(
        re.search(r"<(?:sub)?command>|\b(?:SUB)?COMMAND\b", u) for u in root.usage
    )
    if len(words) >= 2 and slot:
        return tuple(uses)
    return tuple(
        replace(u, path=(), operands=tuple(UsedOperand("text", "") for _ in u.path) + u.operands)
        if u.path
        else u
        for u in uses
    )


def _word_mode(root: Command, key: tuple[str, ...], uses: Sequence[Use], origin: str) -> Candidate:
    """A verb for a command word (and the mode switches after it): the word fixed after the program,
    the command slot out of its operands, its summary the help's own line for the word."""
    words = [w for w in key if not w.startswith("-")]
    said = ""
    for text in (root.description, *root.usage):
        line = re.search(rf"(?m)^\s*{re.escape(words[0])}\s*(?::|-{{1,2}})\s+(\S.*)$", text or "")
        if line:
            said = line.group(1).strip()
            break
    command = root.with_changes(
        positionals=tuple(p for p in root.positionals if not _SLOT.match(p.name))
    )
    return Candidate(
        path=(),
        command=command,
        fixed=key,
        name=proposed_verb_name(".".join(key).replace("-", "")),
        summary=said,
        note=f"command word '{' '.join(key)}' of its uses",
        uses=tuple(uses),
        source=origin,
    )


@rule("does a tool without subcommands run as one of its value flags?")
def _selectors(plain: Sequence[Use], by_spelling: dict, *, bin: str) -> dict[str, list[Use]]:
    """Where every use of a tool's plain form passes a flag with a value (no use runs it without
    one: a field cutter's characters, fields or bytes), the uses by the value flag each stands on
    (its most used one), each flag a mode of its own with its value required; {} otherwise."""
    if not plain:
        return {}
    dangerous = {s for s, f in by_spelling.items() if dangerous_reason(f, tool=bin)}
    counts: dict[str, int] = {}
    valued_sets = []
    for use in plain:
        # a flag that runs a program or rewrites the files (``--prepipe CMD``) is no selector
        mine = [
            s
            for s in use.flags
            if s in by_spelling and by_spelling[s].takes_value and s not in dangerous
        ]
        if not mine:
            return {}
        valued_sets.append(mine)
        for spelling in mine:
            counts[spelling] = counts.get(spelling, 0) + use.count
    # a flag some use passes alone stands on its own; one only ever passed beside another (a
    # delimiter beside its fields) qualifies that other
    alone = {mine[0] for mine in valued_sets if len(mine) == 1}
    out: dict[str, list[Use]] = {}
    for use, mine in zip(plain, valued_sets):
        home = max(mine, key=lambda s: (counts[s], s in alone, -list(by_spelling).index(s)))
        out.setdefault(home, []).append(use)
    return out


@source("tldr-pages")
def _table(ctx: Context) -> Found:
    return _from_uses(ctx, _evidence(ctx, TABLE_SOURCE), TABLE_SOURCE)


@source("examples")
def _examples(ctx: Context) -> Found:
    return _from_uses(ctx, _evidence(ctx, EXAMPLES_SOURCE), EXAMPLES_SOURCE)


@source("local")
def _local(ctx: Context) -> Found:
    return _from_uses(ctx, _evidence(ctx, LOCAL_SOURCE), LOCAL_SOURCE)


@source("runner-targets")
def _targets(ctx: Context) -> Found:
    return Found(
        tuple(
            Candidate(path=c.path, command=c, index=i, source="runner-targets")
            for i, c in enumerate(ctx.tool.root.subcommands)
        )
    )


# -- gathering -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gathered:
    """Every source's candidates merged, the flags passed over, warnings, and what evidence said."""

    candidates: tuple[Candidate, ...]
    skips: tuple[tuple[str, str], ...]
    warnings: tuple[str, ...]
    usage_note: str


def _key(c: Candidate) -> tuple:
    return (c.path, c.fixed, c.owns[:1], "" if c.fixed else c.name)


def gather(ctx: Context) -> Gathered:
    """Every source's candidates, merged by command: the help's in its order, then what only
    evidence names; each with the uses every source counted for it."""
    if is_runner_tool(ctx.tool):
        found = _SOURCES["runner-targets"](ctx)
        return Gathered(found.candidates, (), found.warnings, "")
    helped = _SOURCES["help"](ctx)
    merged: dict[tuple, Candidate] = {_key(c): c for c in helped.candidates}
    warnings = list(helped.warnings)
    counts: dict[str, int] = {}
    for name in ("tldr-pages", "examples", "local"):
        found = _SOURCES[name](ctx)
        warnings += found.warnings
        for cand in found.candidates:
            counts[cand.source] = counts.get(cand.source, 0) + cand.use_count
            key = _key(cand)
            if key in merged:
                merged[key] = replace(merged[key], uses=merged[key].uses + cand.uses)
            else:
                merged[key] = replace(cand, index=len(merged))
    # a command whose help could not be read takes the flags its uses pass (evidence.py)
    merged = {
        key: replace(c, command=flags_from_uses(c.command, c.uses)) for key, c in merged.items()
    }
    # a tool without subcommands short of a pack: forms of its main mode, from the switches its uses
    # pass, then from those its help ranks (propose/forms.py)
    for forms in (use_forms, help_forms):
        for cand in forms(ctx.tool.root, bin=ctx.tool.name, candidates=list(merged.values())):
            merged[_key(cand)] = replace(cand, index=len(merged))
    if counts:
        note = "usage evidence: " + ", ".join(
            f"{n} use{'s' * (n != 1)} from {where}" for where, n in counts.items()
        )
    else:
        note = f"no usage evidence names {ctx.tool.name}: the proposal comes from its help alone"
    return Gathered(tuple(merged.values()), helped.skips, tuple(warnings), note)
