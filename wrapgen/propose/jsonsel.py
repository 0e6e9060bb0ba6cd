"""How a command selects JSON output: ``--json``, ``--json FIELDS``, ``-o json``, ``--format json``.

The result is the argv tokens the runtime appends (docs/contract.md §7), or ``False`` when the tool has no JSON
output, and the reason in words. ``--json FIELDS`` (hubcli) must name its fields: they come from the
help's "JSON FIELDS" list, or from the list the tool printed when asked for ``--json`` alone
(``wrapgen wrap`` asks; the proposal itself runs nothing), and a sensible few are chosen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from wrapgen.knowledge.phrases import input_json_words, json_output_switch_words
from wrapgen.knowledge.words import json_field_preference, json_redundant
from wrapgen.model.tool import Command, Flag
from wrapgen.propose.rules import rule

__all__ = ["JsonChoice", "select_json", "pick_fields", "fields_from_text", "FIELD_PREFERENCE"]

# Fields a person wants first in a listing, most useful first, and fields that say the same as one
# chosen before them: wrapgen/knowledge/data/fields.json.
FIELD_PREFERENCE = json_field_preference()
_REDUNDANT = json_redundant()
MAX_FIELDS = 8

# The names of a value flag that picks the form of what the command prints, most preferred first:
# -o/--output, --format, then output-format, print_format, outfmt (never --log-format, whose json is
# the log's, nor --date-format); each matched against the whole name
_FORMAT_NAMES = (
    re.compile(r"output|o"),
    re.compile(r"format"),
    re.compile(r"(?:(?:output|out|print)[-_]?)?(?:format|fmt)"),
)
_JSON_SWITCH = json_output_switch_words()  # "-J  Prints out an JSON representation of the tree"
_INPUT_JSON = input_json_words()  # "data items ... serialized as a JSON object": the request's
_JSON_WORD = re.compile(r"(?<![\w-])json(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class JsonChoice:
    selection: tuple[str, ...] | bool  # argv tokens, or False for text output
    flag: str  # the flag spelling it came from ("" when none)
    reason: str
    fields: tuple[str, ...] = ()  # the fields named, for --json FIELDS


def fields_from_text(text: str) -> tuple[str, ...]:
    """Field names from a "JSON FIELDS" block or the list printed for a bare ``--json``."""
    match = re.search(
        r"(?:JSON FIELDS|fields for `?--json`?:?)\s*\n(?P<body>(?:[ \t]+\S.*\n?)+)", text
    )
    if not match:
        return ()
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", match.group("body"))
    return tuple(dict.fromkeys(words))


def pick_fields(available: Sequence[str]) -> tuple[str, ...]:
    """At most 8 fields: the preferred ones present, in the tool's own order, else the first few."""
    chosen = [f for f in available if f in FIELD_PREFERENCE]
    chosen.sort(key=FIELD_PREFERENCE.index)
    chosen = [f for f in chosen if not any(o in chosen for o in _REDUNDANT.get(f, ()))]
    if not chosen:
        chosen = list(available[:6])
    return tuple(chosen[:MAX_FIELDS])


def _mentions_json(flag: Flag) -> bool:
    return any(c.lower() == "json" for c in flag.choices) or bool(
        _JSON_WORD.search(flag.description)
    )


@rule("how does a command select JSON output?")
def select_json(command: Command, *, fields: Sequence[str] = ()) -> JsonChoice:
    """The JSON selection of ``command`` (its own flags first, then global ones)."""
    flags = list(command.flags) + list(command.global_flags)
    for flag in flags:
        # "--json", or "-json" where the tool spells its long options with one dash
        spelling = next((s for s in ("--json", "-json") if s in flag.spellings), "")
        if spelling and not _INPUT_JSON.search(flag.description or ""):
            if not flag.takes_value or flag.value_optional:
                return JsonChoice((spelling,), spelling, f"the help lists {spelling}")
            available = tuple(fields) or fields_from_text(command.description)
            chosen = pick_fields(available)
            if not chosen:
                return JsonChoice(
                    False,
                    spelling,
                    f"{spelling} needs field names and the help lists none; text output",
                )
            return JsonChoice(
                (spelling, ",".join(chosen)),
                spelling,
                f"{spelling} takes fields; chose {', '.join(chosen)} from {len(available)}",
                chosen,
            )
    # -o json first, then --format json, then a name that says it picks the form of what the
    # command prints (--output-format, -print_format, outfmt)
    for rank, names in enumerate(_FORMAT_NAMES):
        for flag in flags:
            if flag.takes_value and names.fullmatch(flag.name) and _mentions_json(flag):
                # -o json is how clusterctl users write it; --format json (containerctl) reads better long
                spelling = (
                    (flag.short if rank == 0 else None)
                    or flag.long
                    or flag.short
                    or flag.spellings[0]
                )
                return JsonChoice((spelling, "json"), spelling, f"{spelling} offers json")
    if _PRINTS_JSON.search(f"{command.summary} {command.description}"):
        for flag in flags:
            if (
                flag.name in ("compact-output", "c")
                and not flag.takes_value
                and "compact" in ((flag.long or "") + flag.description)
            ):
                spelling = flag.spelling
                return JsonChoice(
                    (spelling,),
                    spelling,
                    f"the tool prints JSON; {spelling} makes several results JSON lines",
                )
    for flag in flags:
        # a switch of another name whose help says it prints JSON (-J, -j)
        if not flag.takes_value and _JSON_SWITCH.search(flag.description or ""):
            spelling = flag.spelling
            return JsonChoice((spelling,), spelling, f"the help of {spelling} says it prints JSON")
    return JsonChoice(False, "", "no JSON output in the help; results are text")


# "producing the filter's results as JSON on standard output" (jsonq)
_PRINTS_JSON = re.compile(
    r"\bas JSON\b|\bJSON (?:text|output)s? on standard output\b", re.IGNORECASE
)
