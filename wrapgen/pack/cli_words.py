"""The words of a verb's ``cli[]``: which command of its tool it runs.

A ``cli[]`` is the bin, then the command's words (``pr list``), then its flags, slots and operands.
A root option every command acts under may stand before the words, written with its slot in one
token (``celery --app={{app}} status``: propose/args.py ``leading_options``); it is not a word.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["subcommand_path"]

# A root option before the command's words: its spelling and its slot in one token
_LEADING_OPTION = re.compile(r"-{1,2}[A-Za-z0-9][\w.-]*=\{\{\w+\}\}")


def subcommand_path(cli: Any) -> tuple[str, ...]:
    """The subcommand words of a verb's ``cli[]``: after the bin and any leading root option, the
    literal words before its first flag or placeholder."""
    if not isinstance(cli, (list, tuple)):
        return ()
    tokens = [token for token in cli[1:] if isinstance(token, str)]
    start = 0
    while start < len(tokens) and _LEADING_OPTION.fullmatch(tokens[start]):
        start += 1
    words = []
    for token in tokens[start:]:
        if token.startswith("-") or "{{" in token:
            break
        words.append(token)
    return tuple(words)
