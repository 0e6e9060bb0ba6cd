"""The parser registry: ``@register_parser("cobra")`` maps a style name to a parse function."""

from __future__ import annotations

from typing import Callable

from wrapgen.model.tool import Command

__all__ = ["ParseFn", "PARSERS", "register_parser"]

# parse(cleaned_text, *, prog) -> Command; the text is already cleaned by ``clean_text``.
ParseFn = Callable[..., Command]

PARSERS: dict[str, ParseFn] = {}


def register_parser(name: str) -> Callable[[ParseFn], ParseFn]:
    """Register ``fn`` as the parser of help style ``name``."""

    def mark(fn: ParseFn) -> ParseFn:
        PARSERS[name] = fn
        return fn

    return mark
