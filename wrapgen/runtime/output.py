"""The one error printer: ``Error: message``, each diagnostic, ``hint: ...``; and its exit status.

It lives in the runtime because adapter.py must stand alone (standard library only, no
``wrapgen.cli``); ``wrapgen.cli.output`` re-exports it for every other command, so ``wrapgen``
and every adapter print an error the same way.
"""

from __future__ import annotations

import sys

from wrapgen.errors import ExitStatus

__all__ = ["print_error"]


def print_error(error, *, stream=None) -> int:
    """Print a ``WrapgenError`` on ``stream`` (stderr) and return its exit status.

    Standard output is flushed first, so that what a command printed before it failed comes first.
    """
    sys.stdout.flush()
    stream = stream or sys.stderr
    lines = [f"Error: {error.message}"]
    lines += [f"  {diagnostic.format()}" for diagnostic in getattr(error, "diagnostics", ())]
    if getattr(error, "hint", ""):
        lines.append(f"  hint: {error.hint}")
    stream.write("\n".join(lines) + "\n")
    stream.flush()
    return getattr(error, "exit_status", ExitStatus.FAILED)
