"""What the discovered tool says about each proposed verb that its trials need: pure.

A proposal's manifest holds the verbs as pack.yaml does; the trials also need what discovery read
of each verb's command: whether its grammar says it takes ``--`` (``Command.double_dash``: where it
says nothing, a trial with the same operand with and without ``--`` decides), and which of its flags
may select JSON although the help never says so (``json_candidates``: tried one by one, and the
first whose output parses as JSON becomes the verb's selection).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from wrapgen.knowledge.trials import format_flag_names
from wrapgen.model.tool import Command, Tool
from wrapgen.parse.double_dash import said_by_family_only
from wrapgen.propose.policy import escape_guards

__all__ = ["VerbFacts", "verb_facts", "json_candidates", "MAX_JSON_CANDIDATES"]

MAX_JSON_CANDIDATES = 3
_JSON = re.compile(r"(?<![a-z])json(?![a-z])", re.IGNORECASE)
_FORMAT_WORDS = re.compile(r"\b(?:format|formats|style|print|printed|output as|render)\b", re.I)
_PATH_VALUE = re.compile(r"\b(?:file|path|dir|directory|filename|out)\b", re.IGNORECASE)


@dataclass(frozen=True)
class VerbFacts:
    double_dash: bool | None = None  # what the command's grammar says of "--" (None: nothing)
    json_candidates: tuple[tuple[str, ...], ...] = ()  # selections a trial may try, best first
    # a write no word decided, tried as a read: a silent run tells nothing, so it is tried with its
    # optional operands filled (a filter that read the empty stdin prints what it does with a file)
    unsure: bool = False
    # switches of its command that keep its statements from reaching outside ("enable safe-mode"):
    # a read form that fails with one and answers without it goes on without it
    guards: tuple[str, ...] = ()


def json_candidates(command: Command) -> tuple[tuple[str, ...], ...]:
    """JSON selections of ``command`` worth a trial, best first, at most ``MAX_JSON_CANDIDATES``:
    a switch spelled with "json" (``-json``, ``--as-json``), a switch whose description says JSON
    (``-j  print JSON``), then a flag that chooses the output format (``knowledge/data/trials.json``'s
    ``format_flags``: ``--format``, ``-of``, ``--output``) with the value ``json``; never a flag whose
    value is a file."""
    out: list[tuple[str, ...]] = []
    flags = list(command.flags) + list(command.global_flags)
    for flag in flags:
        named = next((s for s in flag.spellings if _JSON.search(s.lstrip("-"))), "")
        if named and not flag.takes_value:
            out.append((named,))
    for flag in flags:
        if not flag.takes_value and _JSON.search(flag.description) and flag.spelling:
            out.append((flag.spelling,))
    names = format_flag_names()
    for flag in flags:
        if not flag.takes_value or flag.value_optional:
            continue
        if flag.choices and not any(c.lower() == "json" for c in flag.choices):
            continue
        value = flag.value_name or ""
        if _PATH_VALUE.search(value) or _PATH_VALUE.search(flag.name.replace("-", " ")):
            if not flag.choices and not _JSON.search(flag.description):
                continue
        if flag.name.lower() in names or (
            _FORMAT_WORDS.search(flag.description) and _JSON.search(flag.description)
        ):
            out.append((flag.spelling, "json"))
    return tuple(dict.fromkeys(c for c in out if c[0]))[:MAX_JSON_CANDIDATES]


def _command_of(tool: Tool, path: str) -> Command | None:
    if not path or path.startswith("-"):
        return tool.root  # the tool itself, or one of its modes (--files)
    return tool.root.find(tuple(path.split()))


def verb_facts(tool: Tool | None, proposal) -> Mapping[str, VerbFacts]:
    """The facts of each chosen verb of ``proposal`` (by verb name) from its command in ``tool``."""
    if tool is None:
        return {}
    out: dict[str, VerbFacts] = {}
    for decision in proposal.chosen:
        command = _command_of(tool, decision.path)
        if command is not None:
            # a "--" only its parser family's look stands for is checked by a trial, as a silent one
            said = None if said_by_family_only(command) else command.double_dash
            out[decision.name] = VerbFacts(
                said, json_candidates(command), guards=escape_guards(command)
            )
    return out
