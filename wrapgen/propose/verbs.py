"""English verbs for titles and policy: conjugation and the words that name an action.

Titles read "Listing pull requests" while a command runs and "Listed pull requests" once it is
done, so every verb needs its -ing form and its past tense. The irregular and doubled forms are a
table (guessing them from spelling gets "Runing" and "Finded"); regular verbs follow the spelling
rules below.
"""

from __future__ import annotations

import re
from typing import Mapping

from wrapgen.knowledge.words import irregular_forms, known_verbs

__all__ = ["ing", "past", "is_verb", "KNOWN_VERBS"]

# verb -> (-ing form, past tense), for every verb the spelling rules get wrong; and the verbs a
# command summary or name starts with (a word outside it is not treated as a verb). Both are data:
# wrapgen/knowledge/data/verbs.json.
_IRREGULAR: Mapping[str, tuple[str, str]] = irregular_forms()
KNOWN_VERBS: frozenset[str] = known_verbs()

_VOWELS = set("aeiou")


def is_verb(word: str) -> bool:
    return word.lower() in KNOWN_VERBS


def _doubles(word: str) -> bool:
    """Short consonant-vowel-consonant words double their last letter: stop -> stopping."""
    return (
        len(word) <= 4
        and len(word) >= 3
        and word[-1] not in _VOWELS | set("wxy")
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
        and not word.endswith(("en", "er", "it"))
    )


def ing(verb: str) -> str:
    """The -ing form: list -> listing, get -> getting, create -> creating, tie -> tying."""
    word = verb.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word][0]
    if "-" in word:
        head, _, tail = word.partition("-")
        return f"{ing(head)}-{tail}"
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        return word[:-1] + "ing"
    if _doubles(word):
        return word + word[-1] + "ing"
    return word + "ing"


def past(verb: str) -> str:
    """The past tense: list -> listed, get -> got, apply -> applied, stop -> stopped."""
    word = verb.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word][1]
    if "-" in word:
        head, _, tail = word.partition("-")
        return f"{past(head)}-{tail}"
    if word.endswith("e"):
        return word + "d"
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ied"
    if _doubles(word):
        return word + word[-1] + "ed"
    return word + "ed"
