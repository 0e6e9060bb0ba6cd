"""Titles for proposed commands: "Listing pull requests in {{repo}}", then a plain fallback.

The verb comes from the summary's first word when it is a verb ("List pull requests" -> Listing /
Listed), else from the command's name, else a plain "Running vcs status" / "Ran vcs status". The
object is the rest of the summary's first clause. A template names the primary arg (what the
command works on) with a preposition that fits it; the last template of each form has no
placeholder, so every title passes M026.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Sequence

from wrapgen.knowledge.text import title_placeholder, title_problem, unreadable_reason
from wrapgen.knowledge.words import match_verbs, name_verbs, place_args, search_args, to_verbs
from wrapgen.propose.rules import rule
from wrapgen.propose.verbs import KNOWN_VERBS, ing, past

__all__ = ["propose_title"]

_MAX_OBJECT_WORDS = 7
# The words titles are made of (argument names that hold a pattern or a place, command names that
# are no verb) are data: wrapgen/knowledge/data/verbs.json.
_SEARCH_ARGS = search_args()
_PLACE_ARGS = place_args()
_NAME_VERBS = name_verbs()
_CLAUSE = re.compile(
    r"\s+(?:in|from|of|for|to|on|with|by|using|into|that|which|between|matching)\s+|[,;:(.]"
)


def _split_summary(summary: str) -> tuple[str, str]:
    """("List", "pull requests in a repository") from "List pull requests in a repository."."""
    words = summary.strip().split(None, 1)
    if not words:
        return "", ""
    verb = words[0].strip(",.:").lower()
    if verb not in KNOWN_VERBS:
        return "", ""
    rest = words[1] if len(words) > 1 else ""
    # "List, create, or delete branches": the object follows the whole run of verbs
    parts = rest.split()
    while (
        parts
        and (parts[0].strip(",").lower() in KNOWN_VERBS | {"or", "and"})
        and (
            words[0].endswith(",")
            or parts[0].endswith(",")
            or parts[0].lower() in ("or", "and")
            or (len(parts) > 1 and parts[1].lower() in ("or", "and"))
        )
    ):
        parts = parts[1:]
    rest = " ".join(parts)
    return verb, rest.rstrip(". ")


def _first_clause(text: str) -> str:
    head = _CLAUSE.split(" " + text, maxsplit=1)[0].strip()
    of = re.match(
        r"(?P<q>number|list|names|paths|count|details|contents|status|state|logs?|history) of (?P<x>.*)",
        text,
    )
    if of and head == of.group("q"):
        # "the number of lines that match": the quantity alone says nothing
        head = f"{head} of " + _CLAUSE.split(" " + of.group("x"), maxsplit=1)[0].strip()
    return head


def _object(rest: str) -> tuple[str, str]:
    """The first clause of the object and the full (shortened) object."""
    rest = re.sub(r"\s+", " ", re.sub(r"\([^)]*\)", " ", rest)).strip()
    rest = re.sub(
        r"^(?:a|an|the|one or many|one or more|all|various types of|various)\s+",
        "",
        rest,
        flags=re.I,
    )
    head = _first_clause(rest)
    head = re.sub(
        r"^(?:a|an|the|one or many|one or more|all|various types of)\s+", "", head, flags=re.I
    )
    full = rest if len(rest.split()) <= _MAX_OBJECT_WORDS else head
    return head, full


# Verbs whose URL is where something goes, and verbs whose pattern is what the results match.
_TO_VERBS = to_verbs()
_MATCH_VERBS = match_verbs()


def _slot(primary: str, verb: str = "") -> str:
    if primary in _SEARCH_ARGS and verb in _MATCH_VERBS:
        return " matching “{{%s}}”" % primary
    if primary == "url" and verb in _TO_VERBS:
        return " to {{url}}"
    if primary in _SEARCH_ARGS:
        return " for “{{%s}}”" % primary
    if primary in _PLACE_ARGS:
        return " in {{%s}}" % primary
    if primary == "url":
        return " from {{url}}"
    if primary in ("author", "user", "owner"):
        return " by {{%s}}" % primary
    if primary in ("selector", "label"):
        return " matching {{%s}}" % primary
    if primary in ("state", "status"):
        return " ({{%s}})" % primary
    return ": {{%s}}" % primary


@rule("what does a verb say while it runs and once done?")
def propose_title(
    *, name: str, summary: str, display: str, primary: str = "", args: Sequence[str] = ()
) -> dict:
    """``{"live": [...], "done": [...]}`` for one verb; ``display`` is the plain command ("vcs status")."""
    verb, rest = _split_summary(summary)
    head, full = _object(rest) if verb else ("", "")
    if not verb:
        word = name.split(".")[-1].split("-")[0]
        word = _NAME_VERBS.get(word, word)
        if word in KNOWN_VERBS:
            # "Compile the current package" under the name build: Building the current package
            words = summary.strip().rstrip(".").split(None, 1)
            if len(words) == 2:
                head, full = _object(words[1])
                verb = word
            else:
                verb, head, full = word, display, display
    if not verb or not head or head.lower() in ("from", "and", "to"):
        live_plain, done_plain = f"Running {display}", f"Ran {display}"
        live_stem, done_stem = live_plain, done_plain
    else:
        live_plain = f"{ing(verb).capitalize()} {full}".strip()
        done_plain = f"{past(verb).capitalize()} {full}".strip()
        live_stem = f"{ing(verb).capitalize()} {head}".strip()
        done_stem = f"{past(verb).capitalize()} {head}".strip()
    live: list[str] = []
    done: list[str] = []
    if primary and primary in args:
        live.append(live_stem + _slot(primary, verb))
        done.append(done_stem + _slot(primary, verb))
    live.append(live_plain)
    done.append(done_plain)
    plain = (f"Running {display}", f"Ran {display}")
    return {
        "live": _settled(live, args, plain[0]),
        "done": _settled(done, args, plain[1]),
    }


_ANGLED = re.compile(r"<([A-Za-z][\w-]*)>")


def _settled(templates: list[str], args: Sequence[str], plain: str) -> list[str]:
    """Each template with the summary's ``<name>`` placeholders as the ``{{arg}}`` of that name, or
    as the bare word where no arg has it or in the last template ("format <cols> octets per line":
    a host showed the angle brackets); a template that still holds placeholder-like text
    (``{OBJECT}``, ``a|b``), or is no sentence (check's W083: cut off, a negation turned into a
    gerund), becomes the plain one. The same template once."""

    def angled(found: re.Match, named: Sequence[str]) -> str:
        name = found.group(1).lower().replace("-", "_")
        return "{{%s}}" % name if name in named else found.group(1)

    out = []
    for i, template in enumerate(templates):
        # (the last one stays without an arg: it is the one shown when no arg is given)
        named = args if i < len(templates) - 1 else ()
        template = _ANGLED.sub(partial(angled, named=named), template)
        if title_placeholder(template) or unreadable_reason(template) or title_problem(template):
            template = plain
        if template not in out:
            out.append(template)
    return out
