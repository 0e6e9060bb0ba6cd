"""Usage evidence for a tool, from every source behind one entry point (issue 26).

``evidence_for(name, usage_from=..., examples=...)`` is what a proposal asks: every source's
``UsageEvidence`` for a program, most specific first (local usage, the tool's own examples, the
public table). ``public_usage(name)`` reads the usage table shipped in the package (distilled from tldr-pages by
``scripts/usage_table.py``; CC BY 4.0, attributed in README.md and the wheel's metadata).
``WRAPGEN_USAGE_EXCLUDE`` (tool names separated by commas or whitespace) hides tools from it: the
benchmark's regime "held-out tools without usage data", i.e. what an internal tool gets.

The table's format (``wrapgen/knowledge/data/usage.json``)::

    {"licence": "...", "source": "...",
     "tools": {"git": [[["log"], ["--max-count", "--oneline"], [["--max-count", "number", "n"]],
                        [["path", "file_or_directory"]], 12], ...]}}

one row per ``Use``, most used first: path, flags (sorted), valued flags as ``[flag, kind, name]``
(sorted; each one of the flags), operands in order as ``[kind, name]`` (``[kind, name, 1]`` for a
placeholder standing for several), count. Kinds and names come from the placeholders
(``wrapgen/usage/kinds.py``); a literal word an example writes (``git add .``) is an operand of
kind ``literal`` named by the word. One tool a line, sorted: the same pages give the same bytes.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Mapping

from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.usage.kinds import value_operand
from wrapgen.usage.local import LocalUsageSkip, Snippet, read_lines, read_paths
from wrapgen.usage.shape import Line, Word, count_uses, sort_key

__all__ = [
    "evidence_for",
    "known_to",
    "public_usage",
    "settle_choices",
    "excluded_tools",
    "flag_spread",
    "LocalUsageSkip",
    "TABLE_SOURCE",
    "LOCAL_SOURCE",
    "EXAMPLES_SOURCE",
]

TABLE_SOURCE = "tldr-pages"
LOCAL_SOURCE = "local"
EXAMPLES_SOURCE = "examples"
EXCLUDE_ENV = "WRAPGEN_USAGE_EXCLUDE"


def excluded_tools(environ=None) -> frozenset[str]:
    """The tool names ``WRAPGEN_USAGE_EXCLUDE`` hides from the public table."""
    value = (os.environ if environ is None else environ).get(EXCLUDE_ENV, "")
    return frozenset(word for word in re.split(r"[\s,]+", value) if word)


@cache
def _table() -> dict:
    path = resources.files("wrapgen.knowledge") / "data" / "usage.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("tools", {})


def _operand(cell) -> UsedOperand:
    return UsedOperand(cell[0], cell[1], bool(cell[2]) if len(cell) > 2 else False)


def _use(row) -> Use:
    path, flags, valued, operands, count = row[:5]
    return Use(
        path=tuple(path),
        flags=tuple(flags),
        valued=tuple(cell[0] for cell in valued),
        operands=tuple(_operand(cell) for cell in operands),
        count=int(count),
        where=(TABLE_SOURCE,),
        values=tuple(_operand(cell[1:]) for cell in valued),
    )


def public_usage(name: str, environ=None, *, table=None, commands=None) -> UsageEvidence | None:
    """The shipped table's evidence for the program ``name`` (its basename), or None where the table
    has no page for it or ``WRAPGEN_USAGE_EXCLUDE`` names it. ``table``: another table's decoded
    JSON (its ``tools``), instead of the shipped one. A path word of several subcommands
    (``start|stop|status``) is settled by ``commands`` (``settle_choices``)."""
    name = os.path.basename(name)
    if name in excluded_tools(environ):
        return None
    rows = (_table() if table is None else table.get("tools", {})).get(name)
    if not rows:
        return None
    uses = settle_choices([_use(row) for row in rows], commands)
    return UsageEvidence(tool=name, source=TABLE_SOURCE, uses=uses)


def flag_spread(environ=None) -> Mapping[str, int]:
    """How many tools of the shipped table pass each long flag (``--prefix``: 13) in their uses,
    ``WRAPGEN_USAGE_EXCLUDE``'s tools left out: a name many tools' examples pass is one people
    reach for, whichever tool it is on (a key-value store's ``get --prefix``)."""
    return _spread(excluded_tools(environ))


@cache
def _spread(excluded: frozenset[str]) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for tool, rows in _table().items():
        if tool in excluded:
            continue
        names = {
            spelling.split("=", 1)[0]
            for row in rows
            for flag in row[1]
            for spelling in flag.split("|")
            if spelling.startswith("--") and len(spelling) > 2
        }
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    return MappingProxyType(counts)  # (one per set of tools left out, read by every verb)


def settle_choices(uses, commands=None) -> tuple[Use, ...]:
    """Each use whose path holds a word of several subcommands (``start|stop|status``: an example
    written for any of them) as one use per subcommand ``commands`` knows there; where it knows
    none (``top pods|nodes``: values, not commands), the path ends before the word, which is an
    operand again. Without ``commands``: one use per word, for discovery to confirm. A literal
    operand ``commands`` knows as the next subcommand (``migration:run``) joins the path.
    Identical uses that result are counted together, most used first."""
    known = None if commands is None else {tuple(path) for path in commands}
    counts: dict[Use, int] = {}
    for use in uses:
        for settled in _settled(use, known):
            settled = _named_commands(settled, known)
            key = replace(settled, count=1)
            counts[key] = counts.get(key, 0) + use.count
    merged = [replace(use, count=n) for use, n in counts.items()]
    return tuple(sorted(merged, key=sort_key))


def _named_commands(use: Use, known) -> Use:
    """A use whose first operands are literal words the model knows as the subcommands at its path,
    with those words in its path: a command named with a colon (``typeorm migration:run``, an oclif
    CLI's ``ps:scale``) is no path word by its look, and the table keeps it as a literal operand."""
    if not known:
        return use
    path, operands = use.path, list(use.operands)
    while operands and operands[0].kind == "literal" and (*path, operands[0].name) in known:
        path = (*path, operands.pop(0).name)
    return use if path == use.path else replace(use, path=path, operands=tuple(operands))


def _settled(use: Use, known) -> list[Use]:
    at = next((i for i, word in enumerate(use.path) if "|" in word), None)
    if at is None:
        return [use]
    head = use.path[:at]
    choices = [c for c in use.path[at].split("|") if c]
    if known is not None:
        choices = [c for c in choices if (*head, c) in known]
    if not choices:
        rest = tuple(UsedOperand("text", "") for _ in use.path[at:])
        return [replace(use, path=head, operands=rest + use.operands)]
    return [
        settled
        for choice in choices
        for settled in _settled(replace(use, path=(*head, choice, *use.path[at + 1 :])), known)
    ]


def _confine(lines: list[Line], commands, flags) -> list[Line]:
    """Lines cut to what the tool's model confirms: the path to its longest prefix that is a known
    command (none without ``commands``), the rest of the path as operands by their look; flag
    spellings outside ``flags`` (when given) dropped. So no word of a script becomes a name unless
    the tool itself has a command or flag of that name."""
    known = {tuple(path) for path in commands} if commands is not None else set()
    spellings = set(flags) if flags is not None else None
    out = []
    for line in lines:
        n = len(line.path)
        while n and line.path[:n] not in known:
            n -= 1
        extra = tuple(Word("operand", operand=value_operand(word)) for word in line.path[n:])
        words = tuple(
            w for w in line.words if w.kind != "flag" or spellings is None or w.text in spellings
        )
        out.append(Line(line.path[:n], extra + words, line.where))
    return out


def known_to(tool) -> tuple[set[tuple[str, ...]], set[str]]:
    """(every subcommand path, aliases too, every flag spelling) of a discovered ``Tool``."""
    paths: set[tuple[str, ...]] = set()
    spellings: set[str] = set()

    def walk(command, prefix: tuple[str, ...]) -> None:
        for flag in (*command.flags, *command.global_flags):
            spellings.update(s for s in (flag.long, flag.short, *flag.aliases) if s)
        for sub in command.subcommands:
            for word in (sub.path[-1] if sub.path else "", *sub.aliases):
                if word:
                    paths.add((*prefix, word))
                    walk(sub, (*prefix, word))

    walk(tool.root, ())
    return paths, spellings


def evidence_for(
    name: str,
    usage_from=(),
    examples=(),
    *,
    model=None,
    commands=None,
    flags=None,
    on_skip=None,
    environ=None,
    table=None,
) -> tuple[UsageEvidence, ...]:
    """Every source's evidence for the program ``name``, most specific first: local usage (the
    files and folders of ``usage_from``), the tool's own examples (command lines from its help or
    man page, ``$ `` prompts allowed), the public table. Sources with no use are left out.

    ``commands``: the tool's discovered subcommand paths (tuples of words); a local or example
    use keeps only the part of its path the tool confirms, since a script's leading word may be a
    value (none is kept without it). ``flags``: the tool's flag spellings; when given, other
    spellings of local uses are dropped. ``on_skip(LocalUsageSkip)`` hears of every file or part of
    one that could not be read (``.message`` is one line saying which and why). ``model``: the
    discovered ``Tool``, which gives ``commands`` and ``flags`` where they are not passed.
    ``table``: a usage table's decoded JSON instead of the shipped one (``public_usage``)."""
    if model is not None:
        paths, spellings = known_to(model)
        commands = paths if commands is None else commands
        flags = spellings if flags is None else flags
    tool = os.path.basename(name)
    found: list[UsageEvidence] = []
    if usage_from:
        lines, skipped = read_paths(tool, [os.fspath(p) for p in usage_from])
        for skip in skipped:
            if on_skip is not None:
                on_skip(skip)
        uses = count_uses(_confine(lines, commands, flags))
        if uses:
            found.append(UsageEvidence(tool=tool, source=LOCAL_SOURCE, uses=uses))
    if examples:
        snippets = [
            Snippet(i, re.sub(r"^\s*[$#]\s+", "", text)) for i, text in enumerate(examples, 1)
        ]
        lines, _ = read_lines(tool, snippets, where=EXAMPLES_SOURCE)
        lines = [Line(ln.path, ln.words, EXAMPLES_SOURCE) for ln in lines]
        uses = count_uses(_confine(lines, commands, flags))
        if uses:
            found.append(UsageEvidence(tool=tool, source=EXAMPLES_SOURCE, uses=uses))
    public = public_usage(tool, environ, table=table, commands=commands)
    if public is not None:
        found.append(public)
    return tuple(found)
