"""click help (flask, many Python CLIs): ``Usage:``, ``Options:``, ``Commands:``, ``--x / --no-x``."""

from __future__ import annotations

from wrapgen.model import Command

from ._build import Rules, assemble, read_parts
from ._registry import register_parser

__all__ = ["parse_click"]

RULES = Rules()


@register_parser("click")
def parse_click(text: str, *, prog: tuple[str, ...]) -> Command:
    """Types as value names (``TEXT``, ``INTEGER``), ``[a|b]`` choices, ``[default: x]``, ``[required]``."""
    return assemble(read_parts(text, prog=prog, rules=RULES), prog=prog, style="click")
