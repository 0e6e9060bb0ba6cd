"""Whether a piece of help text reads as a sentence, or is usage syntax, an option table, a
copyright or a version line; and whether a title holds a placeholder that is not a template.

Propose asks before it makes a command's description, an arg's description or a title out of a
help line (and falls back to words of its own); ``wrapgen check`` asks the same of any pack (W080,
W081, W082 in ``wrapgen/check/text.py``); the wizard refuses a title that fails. The patterns are
data: ``data/phrases.json``, tables ``unreadable_text`` and ``title_placeholders``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wrapgen.knowledge.phrases import compiled
from wrapgen.knowledge.table import load

__all__ = ["unreadable_reason", "title_placeholder", "title_problem", "names_only"]


@lru_cache(maxsize=None)
def _unreadable() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((p, str(v)) for p, v in compiled(load("phrases"), "unreadable_text"))


@lru_cache(maxsize=None)
def _placeholders() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((p, str(v)) for p, v in compiled(load("phrases"), "title_placeholders"))


def unreadable_reason(text: str) -> str | None:
    """Why ``text`` is not a sentence a person or a model can read ("usage syntax", "a copyright
    line" ...), or None when it reads as one."""
    text = re.sub(r"\s+", " ", text or "").strip()
    if not text:
        return None
    for pattern, why in _unreadable():
        if pattern.search(text):
            return why
    return None


@lru_cache(maxsize=None)
def _bad_titles() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((p, str(v)) for p, v in compiled(load("phrases"), "bad_titles"))


def title_problem(template: str) -> str | None:
    """Why a title template is no sentence though it shows no placeholder ("a negation turned into a
    gerund": "Doing not write ..."; "a verb repeated as its own object": "Listing openssl list"),
    or None. Its ``{{arg}}`` templates read as one word."""
    text = re.sub(r"\{\{[^{}]*\}\}", "it", template or "")
    text = re.sub(r"\s+", " ", text).strip().rstrip(".")
    if not text:
        return None
    for pattern, why in _bad_titles():
        if pattern.search(text):
            return why
    return None


def title_placeholder(template: str) -> str | None:
    """The first placeholder-like text in a title template that is not a ``{{arg}}`` template
    (``<revision>``, ``{OBJECT}``, ``[FILE]``, ``a|b|c``), or None."""
    bare = re.sub(r"\{\{[^{}]*\}\}", " ", template or "")
    for pattern, _why in _placeholders():
        found = pattern.search(bare)
        if found:
            return found.group(0)
    return None


def names_only(description: str, name: str) -> bool:
    """Whether an arg's description says no more than its name (``paths`` for ``paths``, ``FILE``)."""

    def words(s):
        return re.findall(r"[a-z0-9]+", (s or "").lower())

    said = words(description)
    if not said:
        return False
    own = words(name)
    singular = [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in own]
    said_singular = [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in said]
    return said_singular == singular or said == own
