"""clap help (rg, fd, cargo): old ``USAGE:/OPTIONS:/SUBCOMMANDS:`` and new ``Usage:/Options:/Commands:``."""

from __future__ import annotations

from wrapgen.model import Command

from ._build import Rules, assemble, read_parts
from ._registry import register_parser

__all__ = ["parse_clap"]

RULES = Rules(
    operands=r"^(?:args|arguments|positional arguments)$",
    listing=r"^(?:subcommands|commands)$|commands?\b",
)


@register_parser("clap")
def parse_clap(text: str, *, prog: tuple[str, ...]) -> Command:
    """``[possible values: ...]``, ``[default: ...]``, ``-v...`` repeatable, ``<ARG>...`` operands."""
    return assemble(read_parts(text, prog=prog, rules=RULES), prog=prog, style="clap")
