"""Help-text parsers, one module per style, behind a registry.

``parse_help(text, prog=("gh", "pr", "list"))`` cleans the text, picks the style
(``detect_style``) unless one is given, and returns a ``Command`` whose
subcommands are stubs. It is pure and never raises for any text; only an
unknown style name is an error, because that is the caller's mistake.
"""

from __future__ import annotations

from wrapgen.errors import UsageError
from wrapgen.model.tool import Command
from wrapgen.parse.detect import detect_style as _detect
from wrapgen.parse.double_dash import double_dash
from wrapgen.parse.exit_status import exit_statuses
from wrapgen.parse.registry import PARSERS, register_parser
from wrapgen.parse.sections import clean_text, is_clean
from wrapgen.parse.styles import (  # noqa: F401 (they register)  # noqa: F401 (Node's frameworks)  # noqa: F401 (they register)
    absl,
    argparse_style,
    clap,
    click_style,
    cobra,
    commander,
    docopt,
    git,
    gnu,
    kingpin,
    man,
    npm,
    oclif,
    symfony,
    urfave,
    yargs,
)

__all__ = ["parse_help", "detect_style", "register_parser", "style_names"]


def style_names() -> tuple[str, ...]:
    """The registered style names, sorted. (Not ``styles``: that name is the ``styles`` subpackage's,
    and a function bound to it made ``import wrapgen.parse.styles.urfave as urfave`` fail.)"""
    return tuple(sorted(PARSERS))


def detect_style(text: str | bytes) -> str:
    """The help style this text is written in; ``gnu`` when nothing more specific shows."""
    try:
        return _detect(clean_text(text))
    except Exception:  # noqa: BLE001 - detection must never fail; gnu reads anything
        return "gnu"


def _detect_cleaned(raw: str | bytes, cleaned: str) -> str:
    """``detect_style(cleaned)``, without cleaning the text a second time where that changes nothing."""
    try:
        sure = is_clean(raw, cleaned)
    except Exception:  # noqa: BLE001 - (raw of a type clean_text refused: cleaned is "")
        sure = False
    if not sure:
        return detect_style(cleaned)
    try:
        return _detect(cleaned)
    except Exception:  # noqa: BLE001 - detection must never fail; gnu reads anything
        return "gnu"


def parse_help(text: str | bytes, *, prog: tuple[str, ...], style: str | None = None) -> Command:
    """The ``Command`` this help text describes; ``prog[0]`` is the tool, the rest its path."""
    if style is not None and style not in PARSERS:
        raise UsageError(
            f"unknown help style {style!r}",
            hint=f"use one of: {', '.join(style_names())}",
        )
    prog = tuple(str(p) for p in prog) or ("",)
    try:
        cleaned = clean_text(text)
    except Exception:  # noqa: BLE001 - undecodable input reads as nothing
        cleaned = ""
    chosen = style or _detect_cleaned(text, cleaned)
    for name in dict.fromkeys((chosen, "gnu")):
        try:
            command = PARSERS[name](cleaned, prog=prog)
        except Exception:  # noqa: BLE001 - a parser bug must not stop discovery; gnu is the fallback
            continue
        if (
            not command.exit_status and name != "man"
        ):  # man reads its own rendered EXIT STATUS section
            statuses = exit_statuses(cleaned)
            if statuses:  # (most pages state none: the command stays as it is)
                command = command.with_changes(exit_status=statuses)
        if command.double_dash is None:
            takes = double_dash(command, cleaned)
            if takes is not None:
                command = command.with_changes(double_dash=takes)
        return command
    return Command(path=prog[1:], parser=chosen)
