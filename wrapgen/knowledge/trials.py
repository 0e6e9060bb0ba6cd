"""What a trial's output means, and the sample values a trial gives required args: ``data/trials.json``.

``wrapgen.check.trial_evidence`` asks ``phrase(table, text)`` which phrase of a table (``writes``,
``interactive``, ``unreachable``, ``context``, ``usage``) a tool's output matches, ``ignored_path``
whether a path a trial created is a cache rather than a write, ``sample_for(name, description)``
the sample value of a required string arg, and ``trial_env()`` the variables a trial's sandbox sets
(a language runtime's start-up settings, ``GOGC``). Every pattern is compiled when the table is first read;
one that is no regular expression is a ``KnowledgeError``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wrapgen.knowledge.phrases import compiled
from wrapgen.knowledge.table import load

__all__ = [
    "PHRASE_TABLES",
    "phrase",
    "ignored_path",
    "sample_for",
    "streaming_flags",
    "print_once_flags",
    "trial_env",
]

PHRASE_TABLES = ("state_root", "writes", "interactive", "unreachable", "context", "usage")


@lru_cache(maxsize=None)
def _table(name: str) -> tuple[tuple[re.Pattern[str], object], ...]:
    return tuple(
        (re.compile(p.pattern, re.IGNORECASE | re.MULTILINE), v)
        for p, v in compiled(load("trials"), name)
    )


def phrase(table: str, text: str) -> str:
    """The text the first matching phrase of ``table`` found in ``text`` (lower-cased), or ""."""
    for pattern, _value in _table(table):
        match = pattern.search(text)
        if match:
            return re.sub(r"\s+", " ", match.group(0)).strip().lower()
    return ""


def ignored_path(path: str) -> bool:
    """Whether a path a trial created (``home/.cache/x``) is a cache, not a write."""
    return any(pattern.search(path) for pattern, _ in _table("ignored_paths"))


def sample_for(name: str, description: str = "") -> str:
    """A plausible value for a required string arg, by its name (``_`` read as a word break) and description."""
    words = f"{name.replace('_', ' ')} {description}"
    for pattern, value in _table("samples"):
        if pattern.search(name.replace("_", " ")):
            return str(value)
    for pattern, value in _table("samples"):
        if pattern.search(words):
            return str(value)
    return "sample"


@lru_cache(maxsize=None)
def streaming_flags() -> frozenset[str]:
    """Literal flags that make a read stream (``--follow``, ``-f``, ``--watch``): exact tokens."""
    return load("trials")["streaming_flags"].names


@lru_cache(maxsize=None)
def print_once_flags() -> frozenset[str]:
    """Switches that make a streaming read print once and exit (``--nostream``, ``--no-stream``)."""
    return load("trials")["print_once_flags"].names


@lru_cache(maxsize=None)
def _trial_env() -> tuple[tuple[str, str], ...]:
    return tuple((name, str(value)) for name, value in load("trials")["trial_env"].values().items())


def trial_env() -> dict[str, str]:
    """The variables a trial's sandbox sets over the probe environment (the pack's ``env.set`` wins over them)."""
    return dict(_trial_env())
