"""Usage evidence for a tool, from every source behind one entry point (issue 26).

``public_usage(name)`` reads the usage table shipped in the package (distilled from tldr-pages by
``scripts/usage_table.py``; CC BY 4.0, attributed in README.md and the wheel's metadata).
``WRAPGEN_USAGE_EXCLUDE`` (tool names separated by commas or whitespace) hides tools from it: the
benchmark's regime "held-out tools without usage data", i.e. what an internal tool gets.

The table's format (``wrapgen/knowledge/data/usage.json``)::

    {"licence": "...", "source": "...",
     "tools": {"git": [[["log"], ["--max-count", "--oneline"], [["--max-count", "number", "n"]],
                        [["path", "file_or_directory"]], 12], ...]}}

one row per ``Use``, most used first: path, flags (sorted), valued flags as ``[flag, kind, name]``
(sorted; each one of the flags), operands in order as ``[kind, name]`` (``[kind, name, 1]`` for a
placeholder standing for several), count. Kinds and names come from the placeholders
(``wrapgen/usage/kinds.py``); a literal word an example writes (``git add .``) is an operand of
kind ``literal`` named by the word. One tool a line, sorted: the same pages give the same bytes.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from importlib import resources

from wrapgen.model.usage import UsageEvidence, Use, UsedOperand

__all__ = ["public_usage", "excluded_tools", "TABLE_SOURCE"]

TABLE_SOURCE = "tldr-pages"
EXCLUDE_ENV = "WRAPGEN_USAGE_EXCLUDE"


def excluded_tools(environ=None) -> frozenset[str]:
    """The tool names ``WRAPGEN_USAGE_EXCLUDE`` hides from the public table."""
    value = (os.environ if environ is None else environ).get(EXCLUDE_ENV, "")
    return frozenset(word for word in re.split(r"[\s,]+", value) if word)


@cache
def _table() -> dict:
    path = resources.files("wrapgen.knowledge") / "data" / "usage.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("tools", {})


def _operand(cell) -> UsedOperand:
    return UsedOperand(cell[0], cell[1], bool(cell[2]) if len(cell) > 2 else False)


def _use(row) -> Use:
    path, flags, valued, operands, count = row[:5]
    return Use(
        path=tuple(path),
        flags=tuple(flags),
        valued=tuple(cell[0] for cell in valued),
        operands=tuple(_operand(cell) for cell in operands),
        count=int(count),
        where=(TABLE_SOURCE,),
        values=tuple(_operand(cell[1:]) for cell in valued),
    )


def public_usage(name: str, environ=None) -> UsageEvidence | None:
    """The shipped table's evidence for the program ``name`` (its basename), or None where the table
    has no page for it or ``WRAPGEN_USAGE_EXCLUDE`` names it."""
    name = os.path.basename(name)
    if name in excluded_tools(environ):
        return None
    rows = _table().get(name)
    if not rows:
        return None
    return UsageEvidence(tool=name, source=TABLE_SOURCE, uses=tuple(_use(row) for row in rows))
