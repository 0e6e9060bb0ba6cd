"""What kind of operand a use passes, and the name it goes by: data in ``usage_kinds.json``.

``placeholder_operand(text)`` reads a tldr-pages placeholder (``path/to/file`` -> file "file",
``branch_name`` -> branch "branch_name", ``100`` -> number with no name): the name is kept only
where the placeholder *is* a name (snake_case words, or the last part of ``path/to/<name>``), never
where it shows an example value. ``value_operand(value)`` reads a value seen in local usage by its
look, and keeps no name: the value is never kept, except a word that is syntax (``.``, ``..``: data,
``syntax_values``), kept as a ``literal`` as the usage table keeps one, since only the tool's
grammar says whether it is a directory or a filter. ``variable_operand(name)`` reads ``$OUTPUT_DIR``
by its name, which is a name, not a value.
"""

from __future__ import annotations

import re
from functools import cache

from wrapgen.knowledge.table import load, regex_names
from wrapgen.model.usage import UsedOperand

__all__ = ["placeholder_operand", "value_operand", "variable_operand", "bundled_option_tools"]

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# path/to/<name>[.ext...]: the name is the last part, before any extension
_PATH_NAME = re.compile(r"^path/to/(?:[^/ ]*/)*([a-z][a-z0-9_-]*?)(?:[0-9]+)?(?:\.[^/ ]*)?$")
_REPEATED = re.compile(r"(\.\.\.|…)\s*$")


@cache
def _patterns(table: str) -> tuple[tuple[re.Pattern, str], ...]:
    data = load("usage_kinds")
    regex_names(data, table)
    return tuple((re.compile(e.name), str(e.value)) for e in data[table])


def _kind(text: str, table: str) -> str:
    for pattern, kind in _patterns(table):
        if pattern.search(text):
            return kind
    return "text"


def _name(text: str) -> str:
    match = _PATH_NAME.match(text)
    if match:
        return match.group(1).replace("-", "_")
    if _NAME.match(text):
        return re.sub(r"(?<=[a-z_])[0-9]+$", "", text)
    return ""


def placeholder_operand(text: str) -> tuple[UsedOperand, bool]:
    """(the operand a placeholder stands for, whether it stands for several: ``a b ...``)."""
    text = text.strip().lower()
    repeated = bool(_REPEATED.search(text))
    first = text.split()[0] if text.split() else ""
    first = first.strip("\"'")
    return UsedOperand(_kind(first, "placeholder_kinds"), _name(first)), repeated


def variable_operand(name: str) -> UsedOperand:
    """The operand a shell variable stands for, by its name (``OUTPUT_DIR`` -> directory)."""
    name = name.strip("{}").lower()
    if not _NAME.match(name):
        return UsedOperand("text", "")
    return UsedOperand(_kind(name, "placeholder_kinds"), name)


@cache
def _syntax_values() -> frozenset[str]:
    return load("usage_kinds")["syntax_values"].names


def value_operand(value: str) -> UsedOperand:
    """The operand a literal value stands for, by its look; the value itself is dropped, but for
    a word that is syntax (``.``), kept as a ``literal`` for the tool's grammar to type."""
    if value in _syntax_values():
        return UsedOperand("literal", value)
    return UsedOperand(_kind(value.lower(), "value_kinds"), "")


@cache
def bundled_option_tools() -> frozenset[str]:
    """Programs whose first bare word is a bundle of option letters (``tar xf``), not a subcommand."""
    return load("usage_kinds")["bundled_option_tools"].names
