"""cobra help (gh, kubectl, docker, hugo): ``Flags:`` / ``Global Flags:`` and command groups."""

from __future__ import annotations

import re

from wrapgen.model import Command

from ._build import Rules, assemble, read_parts
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


@register_parser("cobra")
def parse_cobra(text: str, *, prog: tuple[str, ...]) -> Command:
    """Own flags, inherited flags apart, grouped subcommands; kubectl's ``--x=default:`` tables too."""
    parts = read_parts(text, prog=prog, rules=RULES)
    if _GLOBAL_LIST.search(text[:500]):
        # `kubectl options` lists the flags every command inherits: they are global by nature.
        parts.global_flags, parts.flags = parts.global_flags + parts.flags, []
    return assemble(parts, prog=prog, style="cobra")
