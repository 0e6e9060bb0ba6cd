"""From one command line's words to the shape of a use, and from many to counted ``Use`` rows.

Shared by the usage table (tldr-pages) and local usage (scripts, CI, history): each reader turns a
command line into ``Word`` items (a flag, an operand, ``--``) after the subcommand path, and
``count_uses`` settles which flags took a value and counts identical shapes.

Which flag takes a value is not written on a command line: ``-r PATTERN`` and ``-o FILE`` look
alike. The rule: a flag followed by a word took it as its value, unless some use of the same tool
shows the flag bare (followed by another flag, ``--``, or nothing), in which case the word is an
operand. A consumer that knows the tool's options (discovery's model) can correct the guess from
``Use.values``.

The subcommand path is the leading bare words (``git commit``, ``aws s3 ls``) that look like
subcommand words (lower-case letters, digits, inner hyphens); it stops at the first flag, operand
or other word. Its limits: a literal operand written first (``kubectl get pods``) joins the path,
and a global option before the subcommand (``git -C DIR log``) leaves the path empty; a consumer
matches the path against the tool's discovered commands and keeps the prefix it knows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from wrapgen.model.usage import Use, UsedOperand

__all__ = ["Word", "Line", "split_path", "count_uses", "PATH_WORD", "sort_key"]

# a subcommand word: lower-case letters and digits, inner hyphens, colons or dots not allowed
PATH_WORD = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_MAX_PATH = 4


@dataclass(frozen=True)
class Word:
    """One word after the path: a ``flag`` (``text`` its spelling; ``operand`` its ``=value``'s
    kind when attached), an ``operand``, or ``end`` (``--``)."""

    kind: str
    text: str = ""
    operand: UsedOperand | None = None


@dataclass(frozen=True)
class Line:
    """One command line of the tool: its path and the words after it, and where it was read."""

    path: tuple[str, ...]
    words: tuple[Word, ...]
    where: str = ""


def split_path(
    bare: list[str],
    *,
    known: Callable[[tuple[str, ...]], bool] = lambda path: False,
    shaped: bool = True,
) -> int:
    """How many of the leading ``bare`` words are the subcommand path: those ``known`` says are a
    path (a subcommand page exists), then, while ``shaped``, those shaped like subcommand words."""
    n = 0
    while n < len(bare) and n < _MAX_PATH:
        path = tuple(bare[: n + 1])
        if known(path) or (shaped and all(PATH_WORD.match(w) for w in bare[n].split("|"))):
            n += 1
        else:
            break
    return n


def _bare_flags(lines: Iterable[Line]) -> set[str]:
    """Flags some line shows bare: followed by another flag, by ``--`` or by nothing."""
    bare = set()
    for line in lines:
        words = line.words
        for i, word in enumerate(words):
            if word.kind == "flag" and word.operand is None:
                after = words[i + 1] if i + 1 < len(words) else None
                if after is None or after.kind != "operand":
                    bare.add(word.text)
    return bare


def _shape(line: Line, bare: set[str]) -> Use:
    flags: set[str] = set()
    valued: dict[str, UsedOperand] = {}
    operands: list[UsedOperand] = []
    words = line.words
    i = 0
    ended = False
    while i < len(words):
        word = words[i]
        if word.kind == "end":
            ended = True
        elif word.kind == "flag" and not ended:
            flags.add(word.text)
            if word.operand is not None:
                valued.setdefault(word.text, word.operand)
            elif (
                word.text not in bare
                and i + 1 < len(words)
                and words[i + 1].kind == "operand"
                and words[i + 1].operand is not None
            ):
                valued.setdefault(word.text, words[i + 1].operand)
                i += 1
        elif word.operand is not None:
            operands.append(word.operand)
        i += 1
    names = tuple(sorted(valued))
    return Use(
        path=line.path,
        flags=tuple(sorted(flags)),
        valued=names,
        operands=tuple(operands),
        values=tuple(valued[name] for name in names),
    )


def _operand_key(op: UsedOperand) -> tuple:
    return (op.kind, op.name, op.repeated)


def sort_key(use: Use) -> tuple:
    """Most used first, then by path, flags, valued flags and operands: a stable order."""
    return (
        -use.count,
        use.path,
        use.flags,
        use.valued,
        tuple(_operand_key(o) for o in use.values),
        tuple(_operand_key(o) for o in use.operands),
    )


def count_uses(lines: Iterable[Line], *, where_limit: int = 3) -> tuple[Use, ...]:
    """Identical shapes counted, most used first; ``where`` keeps up to ``where_limit`` sources."""
    lines = list(lines)
    bare = _bare_flags(lines)
    counts: dict[Use, int] = {}
    wheres: dict[Use, set[str]] = {}
    for line in lines:
        use = _shape(line, bare)
        counts[use] = counts.get(use, 0) + 1
        if line.where:
            wheres.setdefault(use, set()).add(line.where)
    uses = [
        Use(
            path=use.path,
            flags=use.flags,
            valued=use.valued,
            operands=use.operands,
            count=n,
            where=tuple(sorted(wheres.get(use, ()))[:where_limit]),
            values=use.values,
        )
        for use, n in counts.items()
    ]
    return tuple(sorted(uses, key=sort_key))
