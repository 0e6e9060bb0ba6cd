"""English words wrapgen knows: effects of command names and summary verbs, verb forms, title words.

Data: ``data/effects.json`` (read / write / destructive words, each list excluding the others),
``data/verbs.json`` (known verbs, irregular forms, the words titles and mode names use) and
``data/fields.json`` (JSON fields a listing shows first, names of kinds). The mappings are built
once; callers treat them as read-only.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from wrapgen.knowledge.table import load

__all__ = [
    "EFFECTS",
    "name_effects",
    "summary_effects",
    "irregular_forms",
    "known_verbs",
    "name_verbs",
    "to_verbs",
    "match_verbs",
    "search_args",
    "place_args",
    "main_names",
    "json_field_preference",
    "json_redundant",
    "kind_names",
    "summary_modifiers",
    "summary_umbrella",
    "opt_in_rewrite",
]

EFFECTS = ("read", "write", "destructive")


def _effects(prefix: str) -> Mapping[str, str]:
    data = load("effects")
    return MappingProxyType(
        {entry.name: effect for effect in EFFECTS for entry in data[f"{prefix}_{effect}"]}
    )


@lru_cache(maxsize=None)
def name_effects() -> Mapping[str, str]:
    """Command name -> the effect it names (``list`` -> read, ``delete`` -> destructive)."""
    return _effects("name")


@lru_cache(maxsize=None)
def summary_effects() -> Mapping[str, str]:
    """A help summary's leading verb -> its effect ("Fetch the logs" reads)."""
    return _effects("summary")


@lru_cache(maxsize=None)
def name_nouns() -> frozenset[str]:
    """Command names whose effect counts only when the summary has no verb ("hugo config: Display ...")."""
    return load("effects")["name_nouns"].names


@lru_cache(maxsize=None)
def summary_self_run() -> frozenset[str]:
    """Words that open a summary and, before the tool's own name, only say it runs itself ("Run Ruff on ...")."""
    return load("effects")["summary_self_run"].names


@lru_cache(maxsize=None)
def opt_in_rewrite() -> frozenset[str]:
    """Switches whose presence says a main mode rewrites its inputs only when asked (``--fix``)."""
    return load("effects")["opt_in_rewrite"].names


@lru_cache(maxsize=None)
def summary_modifiers() -> frozenset[str]:
    """Words that open a summary but leave the effect to the word after them ("force compression")."""
    return load("effects")["summary_modifiers"].names


@lru_cache(maxsize=None)
def summary_umbrella() -> frozenset[str]:
    """Leading verbs of a listing's row that name a topic's range of work ("manage apps"): the
    command's own first line decides its effect where it opens with a verb."""
    return load("effects")["summary_umbrella"].names


@lru_cache(maxsize=None)
def irregular_forms() -> Mapping[str, tuple[str, str]]:
    """verb -> (-ing form, past tense) for verbs the spelling rules get wrong."""
    return MappingProxyType({e.name: (e.value[0], e.value[1]) for e in load("verbs")["irregular"]})


@lru_cache(maxsize=None)
def known_verbs() -> frozenset[str]:
    """Every verb a summary or a name may start with (the irregular ones included)."""
    return frozenset(irregular_forms()) | load("verbs")["known_verbs"].names


@lru_cache(maxsize=None)
def name_verbs() -> Mapping[str, str]:
    """A command name that is no verb -> the verb a title uses (``ps`` -> list)."""
    return MappingProxyType(load("verbs")["name_verbs"].values())


@lru_cache(maxsize=None)
def to_verbs() -> frozenset[str]:
    return load("verbs")["to_verbs"].names


@lru_cache(maxsize=None)
def match_verbs() -> frozenset[str]:
    return load("verbs")["match_verbs"].names


@lru_cache(maxsize=None)
def search_args() -> tuple[str, ...]:
    return tuple(e.name for e in load("verbs")["search_args"])


@lru_cache(maxsize=None)
def place_args() -> tuple[str, ...]:
    return tuple(e.name for e in load("verbs")["place_args"])


@lru_cache(maxsize=None)
def main_names() -> Mapping[str, str]:
    """The verb a tool's description opens with -> the name of its main mode."""
    return MappingProxyType(load("verbs")["main_names"].values())


@lru_cache(maxsize=None)
def json_field_preference() -> tuple[str, ...]:
    """JSON fields a listing shows first, most useful first."""
    return tuple(e.name for e in load("fields")["json_field_preference"])


@lru_cache(maxsize=None)
def json_redundant() -> Mapping[str, tuple[str, ...]]:
    """field -> the fields that say the same."""
    return MappingProxyType({e.name: tuple(e.value) for e in load("fields")["json_redundant"]})


@lru_cache(maxsize=None)
def kind_names() -> Mapping[str, str]:
    """A kind of file (fd --type) -> the short plural a person types."""
    return MappingProxyType(load("fields")["kind_names"].values())
