"""What every reader of command lines shares: prefixes that run the rest, and words as ``Word``s.

``strip_prefix(words)`` drops ``sudo``, ``env VAR=value``, ``time`` and the like (data:
``usage_kinds.json`` ``command_prefixes``) and leading ``VAR=value`` assignments, so the command
word is the program that runs. ``tool_word(word)`` is the program's name as a basename.
"""

from __future__ import annotations

import posixpath
import re
from functools import cache

from wrapgen.knowledge.table import load

__all__ = ["strip_prefix", "tool_word", "ASSIGNMENT"]

ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@cache
def _prefixes() -> dict[str, frozenset[str]]:
    return {e.name: frozenset(e.value or ()) for e in load("usage_kinds")["command_prefixes"]}


def strip_prefix(words: list[str]) -> list[str]:
    """The words from the program that runs: prefixes, their options and assignments dropped."""
    prefixes = _prefixes()
    i = 0
    while i < len(words):
        word = words[i]
        if ASSIGNMENT.match(word):
            i += 1
        elif word in prefixes:
            valued = prefixes[word]
            i += 1
            while i < len(words) and words[i].startswith("-") and words[i] != "-":
                i += 2 if words[i] in valued else 1
                if words[i - 1] == "--":
                    break
        else:
            break
    return words[i:]


def tool_word(word: str) -> str:
    """The program a command word runs, by its basename (``/usr/bin/git`` -> ``git``)."""
    return posixpath.basename(word)
