"""What flags are: noise a pack leaves out, and the flags a person reaches for first.

Data: ``data/flags.json``. A noise flag is matched by its long name without dashes; ``no-X`` is
noise wherever ``X`` is (so the table never lists both). The connection and identity names there
are kubectl's, but they are matched for every tool: a caller must not redirect any tool to
another server or hand it credentials.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wrapgen.knowledge.table import Knowledge, KnowledgeError, load, regex_names

__all__ = [
    "is_noise_flag",
    "noise_flag_pattern",
    "noise_letter_words",
    "build_noise_pattern",
    "preferred_weight",
    "primary_flags",
    "kept_when_shown",
    "kept_when_shown_on_text",
    "is_value_kind",
    "leads_commands",
]


def build_noise_pattern(data: Knowledge) -> re.Pattern[str]:
    """The noise pattern of a flags file; a ``no-X`` listed beside ``X`` or a bad regex is an error."""
    names = data["noise_flags"].names
    redundant = sorted(n for n in names if n.startswith("no-") and n[3:] in names)
    if redundant:
        raise KnowledgeError(
            f"{data.source}: noise_flags lists {redundant[0]!r} and {redundant[0][3:]!r}; "
            "'no-X' matches wherever 'X' does, so drop the first"
        )
    alternatives = [re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n))]
    alternatives += regex_names(data, "noise_flag_patterns")
    return re.compile(r"^(?:no-)?(?:%s)$" % "|".join(alternatives))


@lru_cache(maxsize=None)
def noise_flag_pattern() -> re.Pattern[str]:
    """One anchored pattern over a flag name (no dashes): ``color``, ``no-pager``, ``log-level``."""
    return build_noise_pattern(load("flags"))


@lru_cache(maxsize=None)
def noise_letter_words() -> re.Pattern[str]:
    """Help words that confirm a one-letter flag is the noise its letter is by convention."""
    return re.compile("|".join(regex_names(load("flags"), "noise_letter_words")), re.IGNORECASE)


def is_noise_flag(name: str) -> bool:
    """Whether a flag's name (``max-count``, without dashes) is noise for a pack."""
    return noise_flag_pattern().match(name) is not None


@lru_cache(maxsize=None)
def _preferred() -> dict[str, float]:
    return {e.name: float(e.value) for e in load("flags")["preferred_flags"]}


def preferred_weight(name: str) -> float:
    """The rank bonus of a flag a person reaches for first (0.0 for any other)."""
    return _preferred().get(name, 0.0)


@lru_cache(maxsize=None)
def primary_flags() -> tuple[str, ...]:
    """Flag args a title names when a command has no operand, first match wins."""
    return tuple(e.name for e in load("flags")["primary_flags"])


@lru_cache(maxsize=None)
def _kept_when_shown() -> frozenset[str]:
    return frozenset(e.name for e in load("flags")["noise_flags"] if e.value == "kept when shown")


@lru_cache(maxsize=None)
def _kept_on_text() -> frozenset[str]:
    return frozenset(
        e.name for e in load("flags")["noise_flags"] if e.value == "kept when shown on a text verb"
    )


def kept_when_shown_on_text(name: str) -> bool:
    """Whether an output-format flag (``format``, ``template``) is kept on a verb that selects no
    JSON when its uses or examples pass it: there the pack chooses no format, and the flag shapes
    the text answer (a reindented document, a report format)."""
    bare = name[3:] if name.startswith("no-") else name
    return bare in _kept_on_text()


def kept_when_shown(name: str) -> bool:
    """Whether a noise flag (``verbose``) is kept on a verb whose own examples use it (``tar -tvf``):
    the noise groups marked so change what a command prints, not how it talks to a person."""
    bare = name[3:] if name.startswith("no-") else name
    return bare in _kept_when_shown()


def is_value_kind(word: str) -> bool:
    """Whether ``word``, alternated in a value name (``<pkg|glob>``), names a kind of value, not a choice."""
    return word.lower() in load("flags")["value_kinds"].names


@lru_cache(maxsize=None)
def _leading_root_options() -> frozenset[str]:
    return load("flags")["leading_root_options"].names


def leads_commands(name: str) -> bool:
    """Whether a root option of this long name (no dashes) is one every command acts under (table
    ``leading_root_options``: the application a framework's commands act on)."""
    return name in _leading_root_options()
