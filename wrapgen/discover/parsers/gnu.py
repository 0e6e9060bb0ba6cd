"""GNU getopt help (``ls``, ``tar``, ``curl``, ``jq``, optparse's ``pip``): options anywhere."""

from __future__ import annotations

from wrapgen.model import Command

from ._build import Rules, assemble, read_parts
from ._registry import register_parser

__all__ = ["parse_gnu"]

RULES = Rules()


@register_parser("gnu")
def parse_gnu(text: str, *, prog: tuple[str, ...]) -> Command:
    """``-a, --all``, ``--color[=WHEN]``, ``-o FILE`` tables, headed or not."""
    return assemble(read_parts(text, prog=prog, rules=RULES), prog=prog, style="gnu")
