"""cobra help (gh, kubectl, docker, hugo): ``Flags:`` / ``Global Flags:`` and command groups."""

from __future__ import annotations

import re

from wrapgen.model import Command

from ._build import Rules, assemble, read_parts
from ._listing import stub
from ._registry import register_parser

__all__ = ["parse_cobra"]

RULES = Rules(
    # gh: "INHERITED FLAGS"; cobra: "Global Flags:"; docker: "Global Options:".
    globals=r"global|inherited",
    # cobra's "Available Commands:", "Additional Commands:", gh's "CORE COMMANDS",
    # kubectl's "Basic Commands (Beginner):", docker's "Management Commands:".
    listing=r"commands?\b|^available|^subcommands",
    # gh prints "HELP TOPICS" and "JSON FIELDS": not subcommands, not flags.
    skip=r"^(?:help topics|json fields|learn more|environment variables|see also|feedback)$",
)


_GLOBAL_LIST = re.compile(r"^The following options can be passed to any command", re.MULTILINE)
# kubectl lists its global flags under a command it names only in a hint line.
_GLOBAL_HINT = re.compile(r"""^Use "(?P<cmd>[\w -]+)" for a list of (?P<what>global [^(\n]*?options)""", re.MULTILINE)


@register_parser("cobra")
def parse_cobra(text: str, *, prog: tuple[str, ...]) -> Command:
    """Own flags, inherited flags apart, grouped subcommands; kubectl's ``--x=default:`` tables too."""
    parts = read_parts(text, prog=prog, rules=RULES)
    if _GLOBAL_LIST.search(text[:500]):
        # `kubectl options` lists the flags every command inherits: they are global by nature.
        parts.global_flags, parts.flags = parts.global_flags + parts.flags, []
    hint = _GLOBAL_HINT.search(text)
    words = tuple(hint["cmd"].split()) if hint else ()
    # Only where the hint names a child of this very command: every kubectl page repeats it.
    if len(words) == len(prog) + 1 and words[:-1] == tuple(prog) and words[-1] not in {s.name for s in parts.subcommands}:
        parts.subcommands.append(stub(tuple(prog[1:]) + (words[-1],), summary=f"List the {hint['what']}"))
    return assemble(parts, prog=prog, style="cobra")
