"""The parser registry: ``@register_parser("cobra")`` maps a style name to a parse function."""

from __future__ import annotations

from typing import Callable

from wrapgen.model.tool import Command

__all__ = ["ParseFn", "PARSERS", "USAGE_LISTED", "register_parser"]

# parse(cleaned_text, *, prog) -> Command; the text is already cleaned by ``clean_text``.
ParseFn = Callable[..., Command]

PARSERS: dict[str, ParseFn] = {}

# The ``probe`` of a stub a style read from its parent's usage lines (npm's ``npm access list
# packages``, yarn's ``yarn cache [list|clean]``): its help is the parent's page, so the crawl reads
# it from that page (the same parser at the longer path) and never runs it.
USAGE_LISTED: tuple[str, ...] = ("(usage of parent)",)


def register_parser(name: str) -> Callable[[ParseFn], ParseFn]:
    """Register ``fn`` as the parser of help style ``name``."""

    def mark(fn: ParseFn) -> ParseFn:
        PARSERS[name] = fn
        return fn

    return mark
