"""cobra help (gh, kubectl, docker, hugo): ``Flags:`` / ``Global Flags:`` and command groups."""

from __future__ import annotations

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


@register_parser("cobra")
def parse_cobra(text: str, *, prog: tuple[str, ...]) -> Command:
    """Own flags, inherited flags apart, grouped subcommands; kubectl's ``--x=default:`` tables too."""
    return assemble(read_parts(text, prog=prog, rules=RULES), prog=prog, style="cobra")
