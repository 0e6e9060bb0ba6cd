"""Usage evidence, read onto the discovered model: which command each use runs, with which flags
and operands, and what that says a verb needs.

A ``Use`` (``wrapgen.model.usage``) is written as people write it: a path that may carry an alias
or an operand, flags in any spelling, bundled short switches. ``fold`` reads it against the tool's
command tree: the path the tree knows (aliases resolved), the words after it as operands, each
flag in the model's spelling (``-n`` -> ``--max-count``; ``-tvf`` -> ``-t -v -f``). What follows
from the folded uses is asked of the rules here: which flags a verb offers first (``used_flags``),
which operands it needs and which are required (``operands_from_uses``), which switches of a tool
without subcommands make a mode of their own (``mode_switches``), and the words ``x-why`` gives
(``describe``). Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.model.usage import Use, UsedOperand
from wrapgen.propose.rules import rule

__all__ = [
    "Folded",
    "fold",
    "used_flags",
    "operands_from_uses",
    "mode_switches",
    "describe",
    "kind_type",
    "flags_from_uses",
]

_MODES = load("weights")["modes"].values()

# An operand's kind -> the model's value type (an operand the model lacks is typed from its use).
_KIND_TYPES = {"file": "path", "directory": "path", "path": "path", "number": "integer"}


def kind_type(kind: str) -> str:
    """The model's value type for an operand of this kind ("file" -> "path"; else "string")."""
    return _KIND_TYPES.get(kind, "string")


@dataclass(frozen=True)
class Folded:
    """A use read onto the command tree: the command it runs and the use in the model's spellings."""

    command: Command
    use: Use


def _flags_of(command: Command, root: Command) -> tuple[Flag, ...]:
    return (*command.flags, *command.global_flags, *(root.flags if command is not root else ()))


def _abbreviates(name: str, flags: Sequence[Flag]) -> Flag | None:
    """The one single-dash word flag (``-ps``: neither long nor short) that ``name`` (``-p``) is a
    prefix of, where the model knows no flag spelled ``name``: a tool whose options are single-dash
    words takes their unique abbreviations, as X-style option readers do. None where it is not one."""
    if name.startswith("--") or len(name) < 2:
        return None
    worded = [
        f
        for f in flags
        if not f.long and not f.short and any(a.startswith(name) and a != name for a in f.aliases)
    ]
    return worded[0] if len(worded) == 1 else None


def _spelling(word: str, flags: Sequence[Flag]) -> tuple[str, ...]:
    """The model's spelling(s) of a flag as a use wrote it; bundled short switches split; a flag the
    model does not know stays as written. A use may give several spellings of one flag
    (``-autoskip|-a``, the usage table's): the first the model knows counts."""
    spellings = [s.split("=", 1)[0] for s in word.split("|") if s]
    for name in spellings:
        for flag in flags:
            if name in flag.spellings:
                return (flag.spelling or name,)
    for name in spellings:
        abbreviated = _abbreviates(name, flags)
        if abbreviated is not None:
            return (abbreviated.spelling,)
    name = spellings[0] if spellings else word
    shorts = {f.short: f for f in flags if f.short}
    if re.fullmatch(r"-[A-Za-z0-9]{2,}", name) and all(f"-{c}" in shorts for c in name[1:]):
        return tuple(
            dict.fromkeys(shorts[f"-{c}"].long or f"-{c}" for c in name[1:])
        )  # -tvf: three switches
    return (name,)


def fold(use: Use, root: Command) -> Folded | None:
    """``use`` read onto the tree under ``root``, or None where its path names a command the tree
    lists no such word for (discovery did not read it)."""
    node = root
    path: list[str] = []
    words = list(use.path)
    while words:
        sub = next(
            (s for s in node.subcommands if s.name == words[0] or words[0] in s.aliases), None
        )
        if sub is None:
            break
        node, path = sub, [*path, sub.name]
        words.pop(0)
    if words and (node.subcommands or node.stub):
        # "cloudcli s3 ls" where the tree lists no "s3": not this tool's command as read; nor is
        # "tool family member" where the family is a stub, never read: its members are unknown, and
        # the member's name is no operand of the family (a family's verb with all its members' uses)
        return None
    literals = list(use.operands)
    if not words:
        # a global option's value before the command ("tool --repo DIR backup") left the command
        # among the operands, as a literal word: where the tree has that command, it is the path
        while literals and literals[0].kind == "literal" and node.subcommands:
            sub = next(
                (s for s in node.subcommands if literals[0].name in (s.name, *s.aliases)), None
            )
            if sub is None:
                break
            node, path = sub, [*path, sub.name]
            literals.pop(0)
    flags = _flags_of(node, root)
    by_spelling = {s: f for f in flags for s in f.spellings}
    spelled: list[str] = []
    valued: dict[str, UsedOperand | None] = {}  # spelling -> the kind of value its use gave
    returned: list[UsedOperand] = []
    for word in use.flags:
        names = _spelling(word, flags)
        spelled += names
        if word in use.valued:
            flag = by_spelling.get(names[-1])
            i = use.valued.index(word)
            given = use.values[i] if i < len(use.values) else None
            if flag is not None and not flag.takes_value:
                # a reader without the model took the next word for its value: an operand
                if given is not None:
                    returned.append(given)
            else:
                valued.setdefault(names[-1], given)
    # words after a command are its operands; a tool without subcommands keeps them as the words
    # its uses lead with (its command words, which sources.py weighs: 7-Zip-like "a", "x", "l")
    leading = tuple(words) if not root.subcommands else ()
    extra = () if leading else tuple(UsedOperand("text", "") for _ in words)
    folded = replace(
        use,
        path=leading or tuple(path),
        flags=tuple(dict.fromkeys(spelled)),
        valued=tuple(valued),
        operands=extra + tuple(returned) + tuple(literals),
        # the kinds of the values, where the reader saw every one (flags_from_uses types by them)
        values=tuple(valued.values()) if None not in valued.values() else (),
    )
    return Folded(node, folded)


# -- what the uses say a verb needs --------------------------------------------------------------


@rule("which flags does a command take whose own help was not read?")
def flags_from_uses(command: Command, uses: Sequence[Use]) -> Command:
    """A command discovery kept as a stub (its help could not be read) with the flags its uses pass
    added as they pass them: a switch, or a flag with a value of the kind its uses give (a value
    every use passing it gives). A command whose help was read keeps its own flags only: its help
    knows better than a reader of examples which words take a value."""
    if not command.stub:
        return command
    known = {s for f in command.flags for s in f.spellings}
    passing: dict[str, list[Use]] = {}
    for use in uses:
        for spelling in use.flags:
            if spelling.startswith("-") and spelling not in known:
                passing.setdefault(spelling, []).append(use)
    # a reader of examples takes the word after a flag for its value; where that word is of the
    # kind the command's other uses give as an operand and the use gives no such operand, the word
    # was the operand (``install -V PACKAGE``) and the flag a switch
    operand_kinds = {o.kind for u in uses for o in u.operands}

    def its_value(use: Use, spelling: str) -> bool:
        if spelling not in use.valued:
            return False
        i = use.valued.index(spelling)
        kind = use.values[i].kind if i < len(use.values) else ""
        return not (kind in operand_kinds and kind not in {o.kind for o in use.operands})

    added = []
    for spelling, group in passing.items():
        valued = all(its_value(u, spelling) for u in group)
        kinds = [
            u.values[u.valued.index(spelling)].kind
            for u in group
            if spelling in u.valued and u.valued.index(spelling) < len(u.values)
        ]
        kind = Counter(kinds).most_common(1)[0][0] if kinds else ""
        long = spelling if spelling.startswith("--") else None
        short = spelling if re.fullmatch(r"-[^-]", spelling) else None
        added.append(
            Flag(
                long=long,
                short=short,
                aliases=() if long or short else (spelling,),
                takes_value=valued,
                value_name=kind.upper() or None if valued else None,
                type=kind_type(kind) if valued else "boolean",
                description="",
            )
        )
    return command.with_changes(flags=command.flags + tuple(added)) if added else command


def used_flags(uses: Sequence[Use]) -> dict[str, int]:
    """How many uses pass each flag (the model's spelling), most used first."""
    counts: Counter = Counter()
    for use in uses:
        for flag in use.flags:
            counts[flag] += use.count
    return dict(counts.most_common())


# a use that asks for help runs nothing: it says nothing of what a run needs
_HELP_FLAGS = frozenset({"--help", "-help", "--usage", "-?"})


@rule("which operands does a verb need, and which are required?")
def operands_from_uses(
    positionals: Sequence[Positional],
    uses: Sequence[Use],
    *,
    fixed: Sequence[str] = (),
    own: Sequence[str] = (),
) -> tuple[Positional, ...]:
    """The command's operands as its uses need them: an operand every use passes is required
    (whatever the grammar left optional; its type stays the model's), one a plain use leaves out is
    optional (whatever the grammar required), and one the uses pass beyond the grammar's is added,
    named and typed from its use (a file operand is a path). No uses: the grammar's, unchanged.
    A plain use passes no value flag but the verb's ``own`` (a mode's required flag): one that
    passes another may give the operand through it (``--from-file``, ``-f FILE``)."""
    if not uses:
        return tuple(positionals)
    total = sum(u.count for u in uses)
    widest = max(len(u.operands) for u in uses)
    plain = [u for u in uses if set(u.valued) <= set(own) and not set(u.flags) & _HELP_FLAGS]
    # an operand the grammar requires that plain uses leave out, twice or more, is optional: the
    # tool ran without it (a database shell's FILENAME: without one it works on a database in
    # memory); once is not enough (a page's bare command is often its "display help" example); and
    # only where no optional operand stands before it, since a use's operands are matched by place
    leading = next((i for i, p in enumerate(positionals) if not p.required), len(positionals))
    out = [
        replace(p, required=False)
        if p.required and i < leading and sum(u.count for u in plain if len(u.operands) <= i) >= 2
        else p
        for i, p in enumerate(positionals)
    ]
    for i in range(widest):
        having = [u for u in uses if len(u.operands) > i]
        every = sum(u.count for u in having) == total
        # a literal word an example writes ("." as a filter) is a value, never a name
        kinds = Counter(
            "text" if u.operands[i].kind == "literal" else u.operands[i].kind
            for u in having
            for _ in range(u.count)
        )
        names = Counter(
            u.operands[i].name
            for u in having
            if u.operands[i].name and u.operands[i].kind != "literal"
        )
        kind = kinds.most_common(1)[0][0]
        if i < len(out):
            pos = out[i]
            if pos.variadic:
                break  # the rest of the uses' operands are this one's
            if every and not pos.required:
                out[i] = replace(pos, required=True)  # typed by the model, not by its uses
            continue
        name = names.most_common(1)[0][0] if names else kind
        if any(p.name.strip("<>[]. ").lower() == name.lower() for p in out) or any(
            p.variadic for p in out
        ):
            name = f"{name}_{i + 1}"
        repeated = any(u.operands[i].repeated for u in having)
        out.append(Positional(name=name, required=every, variadic=repeated, type=kind_type(kind)))
    return tuple(out)


def _leads_a_usage_line(root: Command, spelling: str) -> bool:
    """Whether one of the help's usage lines is that switch's own form (``prog -l [-v] [-f file]``,
    beside the tool's plain line): its grammar says the switch is a mode."""
    if len(root.usage) < 2:
        return False
    for line in root.usage:
        words = line.split()
        if len(words) > 1 and words[1] == spelling:
            return True
    return False


@rule("which switches of a tool's uses make a mode of their own?")
def mode_switches(
    root: Command, folded: Sequence[Use], *, is_mode: Callable[[Flag], bool]
) -> frozenset[str]:
    """The switches (model spellings) that make a mode of a tool without subcommands: those its help
    calls an operation or a mode (``is_mode``: the help's rule), or whose own usage line leads with
    them (``prog -l [-v] ...``), and that a use passes, and those
    whose uses take no operand where the tool's other uses take one (``--type-list``, a listing),
    passed by at least ``min_mode_uses`` uses."""
    by_spelling = {f.spelling: f for f in root.flags}
    switches = {s for u in folded for s in u.flags if s in by_spelling and s not in u.valued}
    by_help = {
        s
        for s in switches
        if by_spelling[s].operation or is_mode(by_spelling[s]) or _leads_a_usage_line(root, s)
    }
    # the uses with no switch at all: the tool's plain form, and whether it takes an operand
    plain = [u for u in folded if not set(u.flags) & switches]
    plain_total = sum(u.count for u in plain)
    plain_operands = plain_total and sum(u.count for u in plain if u.operands) * 2 > plain_total
    out = set(by_help)
    for spelling in switches - by_help:
        # alone beside no mode the help names (an operation's options are that operation's)
        with_it = [u for u in folded if spelling in u.flags and not set(u.flags) & by_help]
        count = sum(u.count for u in with_it)
        if (
            plain_operands
            and with_it
            and count >= _MODES["min_mode_uses"]
            and not any(u.operands for u in with_it)
        ):
            out.add(spelling)
    return frozenset(out)


# -- the words of x-why --------------------------------------------------------------------------


_EXAMPLES = "examples"  # wrapgen.usage's source and Use.where of the tool's own EXAMPLES


def _where(use: Use) -> str:
    places = sorted({w.split(":", 1)[0] for w in use.where})
    return ", ".join(places) or "usage"


def _shape(use: Use) -> str:
    # a literal word is a value a use wrote: its kind only, never the word itself
    operands = [f"<{o.kind if o.kind == 'literal' else o.name or o.kind}>" for o in use.operands]
    return " ".join((*use.path, *use.flags, *operands)) or "(bare)"


def describe(uses: Sequence[Use], *, bin: str) -> str:
    """What the evidence says, for ``x-why``: per place the uses come from, how many, and the
    most used shape ("`vcs log --oneline` in 12 tldr-pages examples"; "3 uses in scripts/deploy.sh")."""
    groups: dict[str, list[Use]] = {}
    for use in uses:
        groups.setdefault(_where(use), []).append(use)
    parts = []
    for where, group in sorted(groups.items(), key=lambda kv: -sum(u.count for u in kv[1])):
        total = sum(u.count for u in group)
        top = max(group, key=lambda u: u.count)
        shown = f"`{bin} {_shape(top)}`".replace(" (bare)", "")
        if where == _EXAMPLES:
            place = f"{total} of its help's examples" if total > 1 else "one of its help's examples"
        elif where == "tldr-pages":
            place = f"{total} tldr-pages example" + "s" * (total != 1)
        else:
            place = f"{total} use{'s' * (total != 1)} in {where}"
        most = (
            f"{shown} in {place}" if total == top.count else f"{place} (most: {shown}, {top.count})"
        )
        parts.append(most)
    return "used: " + "; ".join(parts)
