"""click help (flask, many Python CLIs): ``Usage:``, ``Options:``, ``Commands:``, ``--x / --no-x``."""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model import Command, Flag

from ._build import Rules, assemble, read_parts
from ._registry import register_parser

__all__ = ["parse_click"]

RULES = Rules()

# click names a bounded number type in two words: "-W, --workers INTEGER RANGE": the option table
# reads INTEGER as the value and RANGE as the first word of the description.
_RANGE_TYPES = ("INTEGER", "FLOAT")
_RANGE_WORD = re.compile(r"^RANGE(?:\s+|$)")


def _joined_range(flag: Flag) -> Flag:
    if flag.value_name not in _RANGE_TYPES or not _RANGE_WORD.match(flag.description):
        return flag
    return replace(flag, value_name=f"{flag.value_name} RANGE", description=_RANGE_WORD.sub("", flag.description))


@register_parser("click")
def parse_click(text: str, *, prog: tuple[str, ...]) -> Command:
    """Types as value names (``TEXT``, ``INTEGER``), ``[a|b]`` choices, ``[default: x]``, ``[required]``."""
    command = assemble(read_parts(text, prog=prog, rules=RULES), prog=prog, style="click")
    return command.with_changes(flags=tuple(_joined_range(f) for f in command.flags),
                                global_flags=tuple(_joined_range(f) for f in command.global_flags))
