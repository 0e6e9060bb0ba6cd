"""Whether a command takes ``--`` as the end of its options, as its grammar says: help -> bool or None.

Pure, and never raises. The grammar says so when

- a usage line shows it: ``git log [<options>] [<revision-range>] [[--] <path>...]``,
  ``npm run-script <command> [-- <args>]``, ``tool [options] -- FILE``;
- the help lists ``--`` itself (an option row ``  --   end of options``, or a sentence such as
  "``--`` marks the end of the options");
- the parser family that printed the help always takes it (argparse, click, cobra, clap, ...:
  ``knowledge/data/tools.json``'s ``styles_with_double_dash``, each with its reason).

Nothing here says a command does *not* take it: a help page rarely says so, and the look of a
hand-rolled parser (``gnu``, ``man``) is shared by getopt tools that do. That is ``None``, and a
trial decides (``wrapgen.flows.trials``); a shell script's reading says False where its dispatch
reads ``--`` as a word (``wrapgen.parse.script``).
"""

from __future__ import annotations

import re

from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command

__all__ = ["double_dash", "usage_shows_double_dash", "said_by_family_only"]

# "[--]", "[-- <args>]", " -- FILE", a line ending in " --", "[[--] <path>...]"
_IN_USAGE = re.compile(r"(?:^|[\s\[(|])--(?=$|[\s\])|])")
# An option row for "--" itself: "  --      end of options" / "  --\tstop reading options".
_ROW = re.compile(r"^[ \t]+--(?:[ \t]{2,}|\t)\S", re.MULTILINE)
# A sentence about it: "-- marks the end of the options", "Use -- to stop option parsing",
# "arguments after -- are operands", "the end of options (--)".
_SENTENCE = re.compile(
    r"""
    (?:^|[\s'"`(])--(?:[\s'"`)]|$)              # a bare "--", maybe quoted
    [^.\n]{0,40}?                              # a few words
    \b(?:end|stop|terminat\w*|signal\w*|mark\w*|denot\w*|separat\w*)\b
    [^.\n]{0,30}?
    \b(?:options?|flags?|switches|option\s+parsing|arguments?|operands?)\b
  | \bend\s+of\s+(?:the\s+)?(?:options?|flags?)\b[^.\n]{0,20}?(?:^|[\s'"`(])--(?:[\s'"`)]|$)
    """,
    re.VERBOSE | re.IGNORECASE | re.MULTILINE,
)


def _families() -> frozenset[str]:
    return load("tools")["styles_with_double_dash"].names


def usage_shows_double_dash(lines) -> bool:
    """Whether any usage line holds a literal ``--`` word (not part of a flag such as ``--all``)."""
    return any(_IN_USAGE.search(line) for line in lines if "--" in line)


def double_dash(command: Command, text: str = "") -> bool | None:
    """True where the command's grammar (its usage lines, ``text``: its cleaned help, or the parser
    family that printed it) shows it takes ``--``; None where nothing says."""
    try:
        if usage_shows_double_dash(command.usage):
            return True
        if text and "--" in text and (_ROW.search(text) or _SENTENCE.search(text)):
            return True
        if command.parser in _families():
            return True
    except (RecursionError, ValueError):  # never fail discovery over prose
        return None
    return None


def said_by_family_only(command: Command) -> bool:
    """Whether the command's True stands only on the parser family its help looks like: its usage
    lines and help text say nothing of ``--``. A help that looks like a family's may be printed by
    another parser, so a trial checks such a ``--`` as it would a silent grammar's."""
    if command.double_dash is not True or command.parser not in _families():
        return False
    text = command.description
    try:
        return not (
            usage_shows_double_dash(command.usage)
            or (text and "--" in text and (_ROW.search(text) or _SENTENCE.search(text)))
        )
    except (RecursionError, ValueError):
        return False
