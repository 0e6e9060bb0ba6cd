"""What the ``wrapgen`` command prints besides each command's own output: the one error printer,
and the one report of what a command that writes files wrote (or, with ``--check``, would write).

``print_error`` is defined in ``wrapgen.runtime.output`` because adapter.py (which runs without
``wrapgen.cli``) prints errors too; every ``wrapgen`` command uses it through this module.
"""

from __future__ import annotations

import sys
from typing import Iterable, Sequence

from wrapgen.errors import ExitStatus
from wrapgen.runtime.output import print_error

__all__ = ["print_error", "report_written"]


def report_written(
    folder: str, changes: Sequence[str], names: Iterable[str], *, check: bool
) -> ExitStatus:
    """Say what ``emit.write_files`` did in ``folder``: with ``check``, print its diffs on stdout and
    "out of date" on stderr (FAILED); else "wrote NAMES" or "up to date" (OK)."""
    if check:
        sys.stdout.write("".join(changes))
        if changes:
            print(
                f"{folder}: out of date ({len(changes)} file{'s' * (len(changes) != 1)})",
                file=sys.stderr,
            )
            return ExitStatus.FAILED
    elif changes:
        print(f"{folder}: wrote {', '.join(sorted(names))}")
    else:
        print(f"{folder}: up to date")
    return ExitStatus.OK
