"""click help (flask, many Python CLIs): ``Usage:``, ``Options:``, ``Commands:``, ``--x / --no-x``."""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command, Flag
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.registry import register_parser

__all__ = ["parse_click"]

RULES = Rules()

# click names a bounded number type in two words: "-W, --workers INTEGER RANGE": the option table
# reads INTEGER as the value and RANGE as the first word of the description.
_RANGE_TYPES = ("INTEGER", "FLOAT")
_RANGE_WORD = re.compile(r"^RANGE(?:\s+|$)")


def _joined_range(flag: Flag) -> Flag:
    if (flag.value_name or "").startswith("list[") and not flag.repeatable:
        return replace(flag, repeatable=True)  # typer: "--tag <list[str]>" is given once per value
    if flag.value_name not in _RANGE_TYPES or not _RANGE_WORD.match(flag.description):
        return flag
    return replace(
        flag,
        value_name=f"{flag.value_name} RANGE",
        description=_RANGE_WORD.sub("", flag.description),
    )


# typer's rich help puts each part of an option in a column of its own (the panel borders are
# gone by now, see sections._unboxed): "--force  -f  <bool>  Skip checks",
# "--dry-run  --no-dry-run  <bool>  Only print", "*  --name  TEXT  [required]".
_TYPER_ROW = re.compile(
    r"""
    ^(?P<lead>[ ]+)
    (?:\*[ ]+)?                                   # the required marker (the text says [required] too)
    (?P<long>--?[\w-]+)
    (?:[ ]{2,}(?P<second>-\w|--[\w-]+))?           # the short or the negation column
    (?:[ ]{2,}(?P<meta><[^<>\s]+>|[A-Z][A-Z_]*|\[[^\]\s]+\]))?  # the value column
    (?=[ ]{2,}\S|$)
    """,
    re.VERBOSE,
)
# An operand's row: "*    env      <str>  Target environment [required]".
_TYPER_ARGUMENT = re.compile(
    r"^(?P<lead>[ ]+)(?:\*[ ]+)?(?P<name>[A-Za-z_][\w-]*)[ ]{2,}<[^<>\s]+>(?=[ ]{2,}\S|$)"
)


def _typer_row(line: str) -> str:
    """One typer row in click's own layout: ``-f, --force``, ``--dry-run / --no-dry-run``, a value
    ``<int>`` kept, ``<bool>`` (a switch) dropped, ``<json|table>`` as click's ``[json|table]``."""
    match = _TYPER_ROW.match(line)
    if match is None or not (match["second"] or match["meta"]):
        return _TYPER_ARGUMENT.sub(lambda m: m["lead"] + m["name"], line)
    spec = match["long"]
    if match["second"]:
        spec += (" / " if match["second"].startswith("--") else ", ") + match["second"]
    meta = match["meta"] or ""
    if meta == "<bool>":
        meta = ""
    elif meta.startswith("<") and "|" in meta:
        meta = f"[{meta[1:-1]}]"
    spec = f"{match['lead']}{spec} {meta}".rstrip()
    return (
        spec.ljust(match.end()) + line[match.end() :]
        if len(spec) < match.end()
        else spec + "  " + line[match.end() :].lstrip()
    )


@register_parser("click")
def parse_click(text: str, *, prog: tuple[str, ...]) -> Command:
    """Types as value names (``TEXT``, ``INTEGER``), ``[a|b]`` choices, ``[default: x]``, ``[required]``."""
    if re.search(r"^ +--?[\w-]+ {2,}(?:-\w|--[\w-]+|<[^<>\s]+>)(?: {2,}|$)", text, re.MULTILINE):
        text = "\n".join(_typer_row(line) for line in text.split("\n"))
    command = assemble(read_parts(text, prog=prog, rules=RULES), prog=prog, style="click")
    return command.with_changes(
        flags=tuple(_joined_range(f) for f in command.flags),
        global_flags=tuple(_joined_range(f) for f in command.global_flags),
    )
