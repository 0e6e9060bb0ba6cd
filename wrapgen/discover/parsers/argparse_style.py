"""argparse help: ``usage:``, ``positional arguments:``, ``options:``, ``{a,b}`` subcommand choices."""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model import Command

from ..sections import indent_of
from ..usage import split_usage
from ._build import Rules, assemble, read_parts
from ._listing import parse_listing, stub
from ._registry import register_parser

__all__ = ["parse_argparse"]

RULES = Rules(operands=r"^positional arguments$|^arguments$")

_CHOICES_LINE = re.compile(r"^\s+\{(?P<names>[\w.-]+(?:,[\w.-]+)*)\}(?:\s{2,}(?P<help>.*))?$")


def _subparsers(parts, prog: tuple[str, ...]) -> list[Command]:
    """Subcommands from a ``{a,b,c}`` entry and the deeper entries listed under it."""
    out: list[Command] = []
    for section in parts.sections:
        lines = list(section.lines)
        for i, line in enumerate(lines):
            match = _CHOICES_LINE.match(line)
            if not match:
                continue
            names = match["names"].split(",")
            listed = parse_listing(
                [ln for ln in lines[i + 1:] if not ln.strip() or indent_of(ln) > indent_of(line)][:len(names) * 4],
                parent=tuple(prog[1:]),
                group=section.title,
            )
            summaries = {s.name: s for s in listed}
            for name in names:
                out.append(summaries.get(name) or stub(tuple(prog[1:]) + (name,), group=section.title))
    return out


@register_parser("argparse")
def parse_argparse(text: str, *, prog: tuple[str, ...]) -> Command:
    """Flags from ``options:`` (or ``optional arguments:``), operands, subparsers as stubs."""
    parts = read_parts(text, prog=prog, rules=RULES)
    parts.subcommands.extend(_subparsers(parts, prog))
    parts.operand_docs = {k: v for k, v in parts.operand_docs.items() if not k.startswith("{")}
    command = assemble(parts, prog=prog, style="argparse")
    required = _required_spellings(command.usage)
    if not required:
        return command
    flags = tuple(replace(f, required=True) if set(f.spellings) & required else f for f in command.flags)
    return command.with_changes(flags=flags)


def _required_spellings(usage) -> set[str]:
    """argparse prints a required option bare on its usage line: ``prog [-h] --name NAME``."""
    if len(usage) != 1:
        return set()
    words = split_usage(usage[0])
    depth = 0
    out: set[str] = set()
    for word in words[1:]:
        if depth == 0 and re.fullmatch(r"--?[A-Za-z0-9][\w-]*", word):
            out.add(word)
        depth = max(0, depth + word.count("[") + word.count("(") - word.count("]") - word.count(")"))
    return out
