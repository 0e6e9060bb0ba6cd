"""Task runners' own databases -> the model: pure functions, one module per runner.

``make.py`` reads ``make -pRrq`` (make's database) with the makefiles' text, ``just.py`` reads
``just --dump --dump-format json``, ``npm.py`` a ``package.json``, ``taskfile.py`` ``task
--list-all --json`` with the Taskfile's text (or the Taskfile alone, where go-task is not
installed). Each returns the targets as ``Command``s under the same conventions, so one proposal
(``wrapgen.propose.runners``) serves them all:

- ``path`` is ``(target,)``, ``summary`` its help (make's ``target: ## help``, just's doc comment,
  a Taskfile's ``desc``; for npm the script's command line is its ``description``), ``aliases``
  the runner's aliases, ``group`` its group;
- ``parser`` is ``runner-<kind>`` (``runner-make``), which is how the proposal knows the tool;
- ``usage`` is one line, ``"target: prerequisite ..."``: what the runner runs first (make's
  prerequisites, just's dependencies, a Taskfile's ``deps``), which the effect rule reads;
- a parameter passed as ``NAME=VALUE`` (a make variable set with ``?=``, a Taskfile's required
  var) is a ``Flag`` whose ``long`` is ``NAME`` with no dashes, ``takes_value=True``;
- a parameter passed as an operand (just's) is a ``Positional``; one passed as an option (just's
  ``[arg(long=...)]``) is a ``Flag`` with its dashes.

``RunnerFileError`` is raised for output the runner printed but that cannot be read (JSON that is
not JSON); what the runner itself refused is reported by the probe in the runner's own words.
"""

from __future__ import annotations

from wrapgen.errors import RunnerFileError
from wrapgen.model.tool import Command

__all__ = ["RunnerFileError", "PARSER_PREFIX", "parser_name", "prerequisites", "leading_comment"]

PARSER_PREFIX = "runner-"


def parser_name(kind: str) -> str:
    return PARSER_PREFIX + kind


def usage_line(name: str, prerequisites: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return (f"{name}: {' '.join(prerequisites)}".rstrip(),)


def prerequisites(command: Command) -> tuple[str, ...]:
    """What the runner runs before ``command`` (read back from its ``usage`` line)."""
    if not command.usage or ":" not in command.usage[0]:
        return ()
    return tuple(command.usage[0].split(":", 1)[1].split())


def leading_comment(text: str) -> str:
    """The first comment line of a runner's file (``# The shop service's tasks``), without the ``#``."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#!"):
            continue
        if stripped.startswith("#"):
            comment = stripped.lstrip("#").strip()
            if comment:
                return comment
            continue
        return ""
    return ""
