"""What the command line's directory options name, checked before any work starts."""

from __future__ import annotations

from pathlib import Path

from wrapgen.errors import UsageError

__all__ = ["check_out_dir"]


def check_out_dir(out, *, option: str = "-o") -> None:
    """``out`` names a directory, or a path where one can be made: a file there (or above it) is a
    UsageError said at once, not a traceback after a full discovery."""
    if out is None:
        return
    path = Path(out)
    for place in (path, *path.parents):
        if place.exists():
            if not place.is_dir():
                raise UsageError(
                    f"{option} {out}: {place} is a file, not a directory",
                    hint=f"name a directory for the output (it is made when missing), e.g. {option} adapters",
                )
            return
