"""The exception tree, the Diagnostic value and the exit statuses.

Diagnostics are values (parsers and ``check`` return lists of them); only what
stops the work raises a ``WrapgenError``. ``wrapgen.cli.main.main`` (and, for ``wrapgen exec``
and adapter.py, ``wrapgen.runtime.main.exec_main``) turn an exception into ``Error: ...`` plus
the hint with the one printer, ``wrapgen.runtime.output.print_error``, and return its
``ExitStatus``.

Standard library only: the runtime imports this module.
"""

from __future__ import annotations

from collections import namedtuple
from enum import IntEnum

__all__ = [
    "ExitStatus",
    "Diagnostic",
    "WrapgenError",
    "UsageError",
    "ToolNotFoundError",
    "HelpUnreadableError",
    "RunnerFileError",
    "ManifestError",
    "RecipeError",
    "ExecutionError",
]


class ExitStatus(IntEnum):
    """The exit status of every wrapgen command and adapter.py (docs/contract.md §14 fixes exec's 0, 1 and 2)."""

    OK = 0  # the work was done: the envelope is ok, no error finding, nothing drifted
    FAILED = 1  # the work ran and failed: an envelope with ok false, error findings, drift, a WrapgenError
    USAGE = 2  # the command line is wrong: an unknown command, key or value; nothing was run
    # `wrapgen check --drift`: the worst class of change in a pack's tool since it was made
    # (docs/packs-and-check.md); 0 when nothing changed
    DRIFT_METADATA = 3  # the version line or help text changed, nothing a verb uses
    DRIFT_COMPATIBLE = 4  # new flags or commands; everything the verbs use is still there
    DRIFT_BREAKING = 5  # a command or flag a verb uses is gone, an effect escalated, a new required operand, or the tool is gone
    CANNOT_RUN = (
        127  # a forked child whose exec failed (the shell's convention); the parent reads why
    )
    INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as a shell reports it


_DiagnosticFields = namedtuple(
    "_DiagnosticFields",
    ["level", "code", "message", "hint", "path", "line", "field"],
    defaults=("", "", 0, ""),
)


# A frozen value like the model's dataclasses, but built on namedtuple: ``dataclasses`` imports
# ``inspect``, which every adapter call would pay for at start-up.
class Diagnostic(_DiagnosticFields):
    """One finding: ``PATH:LINE: CODE severity message``.

    Fields: ``level`` ("error" | "warning" | "info"), ``code`` ("M026", "W001"), ``message``,
    ``hint``, ``path`` (file the finding is about), ``line`` (1-based, 0 when unknown), ``field``
    (dotted field path inside the file: "verbs.find.title.live[1]").
    """

    __slots__ = ()

    def format(self) -> str:
        where = f"{self.path or '-'}:{self.line or 1}"
        text = f"{where}: {self.code} {self.level} "
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.hint:
            text += f" ({self.hint})"
        return text

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "path": self.path,
            "line": self.line,
            "field": self.field,
        }


class WrapgenError(Exception):
    """A failure a person can act on: ``message`` says what, ``hint`` what to do next."""

    exit_status = ExitStatus.FAILED

    def __init__(self, message: str, *, hint: str = "", diagnostics: tuple[Diagnostic, ...] = ()):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.diagnostics = tuple(diagnostics)

    def __str__(self) -> str:
        return self.message


class UsageError(WrapgenError):
    """The command line itself is wrong (exit 2)."""

    exit_status = ExitStatus.USAGE


class ToolNotFoundError(WrapgenError):
    """The tool to discover or run is not installed, or not executable."""


class HelpUnreadableError(WrapgenError):
    """Discovery could not read any help from the tool."""


class RunnerFileError(WrapgenError):
    """A task runner could not read a repository's file (its Makefile, justfile, package.json or
    Taskfile): the message holds the runner's own words."""


class ManifestError(WrapgenError):
    """A pack.yaml (or a pack directory) is malformed; ``diagnostics`` lists each problem."""


class RecipeError(WrapgenError):
    """A recipe file is malformed or names something that does not exist."""


class ExecutionError(WrapgenError):
    """A command could not be executed (used by the CLI; the runtime returns envelopes)."""


class DeadlineError(WrapgenError):
    """A whole ``wrapgen wrap`` outlived its deadline (``--total-deadline``) and was stopped."""
