"""Programs that run their arguments as code, and shell syntax: what check's shell rule (W007) knows.

Data: ``data/shells.json``. A program is recognised by its base name, lower-cased, with a version
suffix taken off (``python3.11`` is python, ``perl5.36`` perl, ``lua5.4`` lua, ``/usr/bin/bash5``
bash). Each shell and interpreter lists the options that take code: short letters count alone
or bundled (``-c``, ``-lc``, ``-c'exit 1'``), long spellings with or without ``=value``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from wrapgen.knowledge.table import Knowledge, KnowledgeError, load, regex_names

__all__ = [
    "Runner",
    "runner",
    "takes_code",
    "is_shell_operator",
    "shell_operator_pattern",
    "build_runners",
    "build_operator_pattern",
]

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
    # switches that confine the program it runs to reading and printing (gawk's --sandbox: no
    # system(), no redirection, no extensions): a command that passes one runs no other code
    confined_by: tuple[str, ...] = ()


_KINDS = ("shells", "interpreters", "program_operand", "command_runners", "split_string")


def build_runners(data: Knowledge) -> dict[str, Runner]:
    """name -> Runner for a shells file; a value that is not ``{short, long}`` is an error."""
    out: dict[str, Runner] = {}
    for kind in _KINDS:
        for entry in data[kind]:
            value = entry.value if entry.value is not None else {}
            if (
                not isinstance(value, dict)
                or set(value) - {"short", "long", "confined_by"}
                or not isinstance(value.get("short", ""), str)
                or not isinstance(value.get("long", []), list)
                or not isinstance(value.get("confined_by", []), list)
            ):
                raise KnowledgeError(
                    f"{data.source}: {kind}: {entry.name!r}: value must be "
                    '{"short": letters, "long": [spellings], "confined_by": [spellings]}'
                )
            out[entry.name.lower()] = Runner(
                kind,
                entry.name,
                entry.why,
                value.get("short", ""),
                tuple(str(s).lower() for s in value.get("long", ())),
                tuple(str(s) for s in value.get("confined_by", ())),
            )
    return out


@lru_cache(maxsize=None)
def _runners() -> dict[str, Runner]:
    return build_runners(load("shells"))


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


def build_operator_pattern(data: Knowledge) -> re.Pattern[str]:
    """The shell-syntax pattern of a shells file; an entry that is no regular expression is an error."""
    return re.compile(r"^(?:%s)$" % "|".join(regex_names(data, "shell_operators")))


@lru_cache(maxsize=None)
def shell_operator_pattern() -> re.Pattern[str]:
    """One anchored pattern: a token that is shell syntax (``|``, ``&&``, ``2>&1``, ``$(...)``)."""
    return build_operator_pattern(load("shells"))


def is_shell_operator(token: str) -> bool:
    return shell_operator_pattern().match(token) is not None
