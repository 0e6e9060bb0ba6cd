"""Programs that run their arguments as code, and shell syntax: what check's shell rule (W007) knows.

Data: ``data/shells.json``. A program is recognised by its base name, lower-cased, with a version
suffix taken off (``python3.11`` is python, ``perl5.36`` perl, ``lua5.4`` lua, ``/usr/bin/bash5``
bash). Each shell and interpreter lists the options that take code: short letters count alone
or bundled (``-c``, ``-lc``, ``-c'print(1)'``), long spellings with or without ``=value``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from wrapgen.knowledge.table import KnowledgeError, load

__all__ = ["Runner", "runner", "takes_code", "is_shell_operator", "shell_operator_pattern"]

_VERSIONED = re.compile(r"^(?P<name>[a-z][a-z_]*?)(?:-?\d+(?:\.\d+)*)?$")


@dataclass(frozen=True)
class Runner:
    """A program that runs code: its kind (shell, interpreter, program_operand, command_runners,
    split_string), its name in the data, why, and the options that take code."""

    kind: str
    name: str
    why: str
    short: str = ""  # option letters that take code
    long: tuple[str, ...] = ()  # long spellings that take code, lower-case


_KINDS = ("shells", "interpreters", "program_operand", "command_runners", "split_string")


@lru_cache(maxsize=None)
def _runners() -> dict[str, Runner]:
    data = load("shells")
    out: dict[str, Runner] = {}
    for kind in _KINDS:
        for entry in data[kind]:
            value = entry.value or {}
            if not isinstance(value, dict) or set(value) - {"short", "long"}:
                raise KnowledgeError(f"wrapgen/knowledge/data/shells.json: {kind}: {entry.name!r}: value is "
                                     "{short: letters, long: [spellings]}")
            out[entry.name.lower()] = Runner(kind, entry.name, entry.why, str(value.get("short", "")),
                                             tuple(s.lower() for s in value.get("long", ())))
    return out


def runner(token: str) -> Runner | None:
    """The code-running program ``token`` names (``/usr/bin/python3.11`` -> python), or None."""
    base = token.rsplit("/", 1)[-1].lower()
    found = _runners().get(base)
    if found is None:
        match = _VERSIONED.match(base)
        if match:
            found = _runners().get(match.group("name"))
    return found


def takes_code(token: str, program: Runner) -> bool:
    """Whether option ``token`` makes ``program`` run the following (or attached) text as code."""
    if token.startswith("--") or (program.long and token.lower().split("=", 1)[0] in program.long):
        return token.lower().split("=", 1)[0] in program.long
    if not token.startswith("-") or len(token) < 2 or not program.short:
        return False
    letters = re.match(r"-([A-Za-z]+)", token)
    return bool(letters) and any(letter in program.short for letter in letters.group(1))


@lru_cache(maxsize=None)
def shell_operator_pattern() -> re.Pattern[str]:
    """One anchored pattern: a token that is shell syntax (``|``, ``&&``, ``2>&1``, ``$(...)``)."""
    alternatives = []
    for entry in load("shells")["shell_operators"]:
        try:
            re.compile(entry.name)
        except re.error as error:
            raise KnowledgeError(f"wrapgen/knowledge/data/shells.json: shell_operators: {entry.name!r} is not "
                                 f"a regular expression: {error}") from None
        alternatives.append(entry.name)
    return re.compile(r"^(?:%s)$" % "|".join(alternatives))


def is_shell_operator(token: str) -> bool:
    return shell_operator_pattern().match(token) is not None
