"""GNU getopt help (``ls``, ``tar``, ``curl``, ``jq``, optparse's ``pip``): options anywhere.

find(1) prints its primaries (single-dash options that take their values as separate words) as
runs, several to a line with no description: ``-amin N -anewer FILE -atime N``. Each run is cut
into one entry per primary before the shared table reading; operators over expressions
(``-not EXPR``, ``EXPR1 -a EXPR2``) are no options and are left out.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command, Flag
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.options import tidy_flags
from wrapgen.parse.registry import register_parser

__all__ = ["parse_gnu", "split_primary_runs", "without_operators"]

# lsblk's "Available output columns:" lists columns, not subcommands.
RULES = Rules(
    listing=r"commands?\b|subcommands|^available(?!.*\b(?:columns?|fields?|formats?|keywords?|values?)\b)"
)

_PRIMARY = re.compile(r"-[A-Za-z][\w-]*$")  # -name, -files0-from, -a
_LONG_PRIMARY = re.compile(r"-[A-Za-z][\w-]+$")  # at least two letters: -name, not -a
_PROSE_WORD = re.compile(
    r"[a-z][a-z'’]+[.,;:]?$"
)  # "same", "as", "lines,": a description, not a value
_OPERATOR_VALUE = re.compile(r"^expr\d*$", re.IGNORECASE)


def _run_groups(line: str) -> list[list[str]] | None:
    """A line of primaries cut into ``[-primary, value...]`` groups, or None if it is no such run."""
    tokens = line.split()
    if sum(1 for t in tokens if _LONG_PRIMARY.match(t)) < 2:
        return None
    if any(t.startswith("--") or _PROSE_WORD.match(t) for t in tokens):
        return None
    groups: list[list[str]] = []
    for token in tokens:
        if _PRIMARY.match(token):
            groups.append([token])
        elif groups:
            groups[-1].append(token)  # words before the first primary ("( EXPR )") are dropped
    return groups


def split_primary_runs(text: str) -> str:
    """find's ``-amin N -anewer FILE`` lines as one entry per line, values marked ``<N>``."""
    out: list[str] = []
    for line in text.split("\n"):
        groups = _run_groups(line) if line.startswith(" ") else None
        if not groups:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        for name, *values in groups:
            marked = [v if re.fullmatch(r"[;+{}()!,]+", v) else f"<{v}>" for v in values]
            out.append(indent + " ".join([name, *marked]))
    return "\n".join(out)


def without_operators(flags: tuple[Flag, ...]) -> tuple[Flag, ...]:
    """The flags, less find's operators: ``-not EXPR``, ``-and EXPR2`` join expressions."""
    return tuple(
        f
        for f in flags
        if not (f.takes_value and _OPERATOR_VALUE.match((f.value_name or "-").split()[0]))
    )


@register_parser("gnu")
def parse_gnu(text: str, *, prog: tuple[str, ...]) -> Command:
    """``-a, --all``, ``--color[=WHEN]``, ``-o FILE`` tables, headed or not; find's primaries."""
    command = assemble(
        read_parts(split_primary_runs(text), prog=prog, rules=RULES), prog=prog, style="gnu"
    )
    flags = without_operators(tidy_flags(command.flags, beside=command.global_flags))
    return replace(command, flags=flags) if flags != command.flags else command
