"""The dangerous-flags catalogue: flags that write a file, run a program or load code.

Such a flag is never exposed on a read verb: a "read" command that can be told to write
``~/.bashrc`` (``git log --output``) or to run a program (``rg --pre``, ``find -exec``) is not a read.
Two layers decide: a catalogue of known spellings (per tool, and for every tool), and the words in
a flag's help that mark one (``execute``, ``write the output to FILE``, ``configuration file``).
The catalogue and the value guards are data (``data/dangerous_flags.json``, one group per row of
the README's table); the help-word patterns stay here, beside the code that reads them.
``wrapgen check`` runs the same test over every token of a verb's ``cli[]`` (rule W030 in
``wrapgen/check/dangerous_flags.py``). docs/packs-and-check.md lists this catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wrapgen.knowledge.phrases import danger_words
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Flag

__all__ = [
    "DangerEntry",
    "CATALOGUE",
    "DANGER_WORDS",
    "ValueGuard",
    "VALUE_GUARDS",
    "dangerous_reason",
    "token_danger",
    "value_guard",
]


@dataclass(frozen=True)
class DangerEntry:
    tool: str  # "*" for every tool
    spellings: tuple[str, ...]
    why: str


def _catalogue() -> tuple[DangerEntry, ...]:
    return tuple(
        _grouped(
            load("dangerous_flags")["catalogue"],
            lambda first, spellings: DangerEntry(first.tool, spellings, first.why),
        )
    )


def _grouped(table, make):
    """One record per group of the data file, in file order."""
    out, run = [], []
    for entry in table:
        if run and entry.group != run[0].group:
            out.append(make(run[0], tuple(e.name for e in run)))
            run = []
        run.append(entry)
    if run:
        out.append(make(run[0], tuple(e.name for e in run)))
    return out


@dataclass(frozen=True)
class ValueGuard:
    """A flag that is fine to offer, but some of its values make the tool read a local file and
    send it away (``curl -H @/etc/passwd``). ``pattern`` (a JSON Schema pattern, searched) is what
    a safe value matches; the runtime refuses any other value before anything runs."""

    tool: str
    spellings: tuple[str, ...]
    pattern: str
    why: str
    max_length: int | None = None  # a pattern with an unbounded quantifier needs one (check's W053)


def _guard(first, spellings: tuple[str, ...]) -> ValueGuard:
    value = first.value
    if isinstance(value, dict):  # {"pattern": ..., "max_length": N}
        return ValueGuard(
            first.tool, spellings, value["pattern"], first.why, value.get("max_length")
        )
    return ValueGuard(first.tool, spellings, value, first.why)


def _value_guards() -> tuple[ValueGuard, ...]:
    return tuple(_grouped(load("dangerous_flags")["value_guards"], _guard))


# Read once, from data/dangerous_flags.json (validated: a spelling twice for one tool is an error).
CATALOGUE: tuple[DangerEntry, ...] = _catalogue()
VALUE_GUARDS: tuple[ValueGuard, ...] = _value_guards()


def value_guard(flag: Flag, *, tool: str) -> ValueGuard | None:
    """The guard on ``flag``'s values for ``tool``, or None when every value is harmless."""
    base = tool.rsplit("/", 1)[-1]
    for guard in VALUE_GUARDS:
        if guard.tool in ("*", base) and any(s in guard.spellings for s in flag.spellings):
            return guard
    return None


# Help words that mark a flag as dangerous in any tool (data/phrases.json), and the flag and value
# names that write the output to a file or load a configuration (data/dangerous_flags.json).
DANGER_WORDS = danger_words()
_FILE_VALUE = re.compile(
    "^(?:%s)$" % "|".join(e.name for e in load("dangerous_flags")["file_values"]), re.IGNORECASE
)
_OUTPUT_FLAGS = load("dangerous_flags")["output_flags"].names
_CONFIG_FLAGS = load("dangerous_flags")["config_flags"].names
_CONFIG_FLAGS_IF_SAID = load("dangerous_flags")["config_flags_if_said"].names


def _catalogue_hit(spelling: str, tool: str) -> str | None:
    base = tool.rsplit("/", 1)[-1]
    for entry in CATALOGUE:
        if entry.tool in ("*", base) and spelling in entry.spellings:
            return f"{spelling} {entry.why} (catalogue: {entry.tool})"
    return None


def dangerous_reason(flag: Flag, *, tool: str) -> str | None:
    """Why ``flag`` must stay off a read verb, or None when it is harmless."""
    for spelling in flag.spellings:
        hit = _catalogue_hit(spelling, tool)
        if hit:
            return hit
    if (
        flag.takes_value
        and flag.name in _OUTPUT_FLAGS
        and (
            _FILE_VALUE.match(flag.value_name or "")
            or re.search(r"\bfile\b", flag.description, re.I)
        )
        and not re.search(r"\bformat\b", flag.description, re.I)
    ):
        return f"{flag.spellings[0]} writes the output to a file"
    if flag.takes_value and (
        flag.name in _CONFIG_FLAGS
        or flag.name in _CONFIG_FLAGS_IF_SAID
        and re.search(r"config", flag.description, re.I)
    ):
        return f"{flag.spellings[0]} loads a configuration file"
    match = DANGER_WORDS.search(flag.description or "")
    if match:
        return f"{flag.spellings[0]}: help says '{match.group(0).strip()}'"
    return None


def token_danger(token: str, *, tool: str) -> str | None:
    """The catalogue reason for one literal ``cli[]`` token (``--output=x`` counts as ``--output``)."""
    if not token.startswith("-") or token == "--":
        return None
    spelling = token.split("=", 1)[0]
    return _catalogue_hit(spelling, tool)
