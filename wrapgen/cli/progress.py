"""One status line on a terminal while a long command works: where it is, what it has read, what is left.

``wrapgen wrap``, ``batch`` and ``check --try`` hand its callbacks to the flows (discovery's
``progress(done, total, path)``, the trials' ``progress(done, total, verb)``, wrap's ``stage(name)``,
batch's ``progress(done, total, outcome)``). On a terminal it rewrites one line on stderr
(``\\r`` and an erase), cut to the terminal's width, and erases it when done; piped, or where
``TERM=dumb``, it prints nothing at all, so a script's output stays what it was. Callbacks come
from worker threads: one lock keeps the line whole. (A few lines of our own: a progress library
would bring colour, spinners and a dependency for one line of text.)
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from typing import TextIO

__all__ = ["StatusLine"]


class StatusLine:
    """The status line of one command; ``enabled`` None: on when ``stream`` is a terminal."""

    def __init__(self, stream: TextIO | None = None, *, enabled: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = _is_terminal(self.stream) and os.environ.get("TERM", "") != "dumb"
        self.enabled = enabled
        self._lock = threading.Lock()
        self._stage = ""
        self._detail = ""
        self._shown = False

    # -- the callbacks the flows take ---------------------------------------------------------------

    def stage(self, name: str) -> None:
        """wrap's ``stage(name)``: the step it starts ("discovery", "trials", ...)."""
        with self._lock:
            self._stage, self._detail = name, ""
            self._draw()

    def discovery(self, done: int, total: int, path=()) -> None:
        """discovery's ``progress(done, total, path)``: commands read so far."""
        where = " ".join(path) if isinstance(path, (tuple, list)) else str(path or "")
        self._set(f"{done} of {total} commands read" + (f" ({where})" if where else ""))

    def trials(self, done: int, total: int, verb: str = "") -> None:
        """the trials' ``progress(done, total, verb)``: verbs tried so far and left."""
        self._set(f"{done} tried, {total - done} left" + (f" (last: {verb})" if verb else ""))

    def item(self, done: int, total: int, text: str) -> None:
        """A plain count: batch's recipes, check's packs."""
        self._set(f"[{done}/{total}] {text}")

    def clear(self) -> None:
        """Erase the line (the command's own output follows on a clean line)."""
        with self._lock:
            if self.enabled and self._shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
            self._shown = False

    def __enter__(self) -> "StatusLine":
        return self

    def __exit__(self, *exc) -> None:
        self.clear()

    # -- drawing ------------------------------------------------------------------------------------

    def _set(self, detail: str) -> None:
        with self._lock:
            self._detail = detail
            self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        text = ": ".join(part for part in (self._stage, self._detail) if part)
        width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
        if len(text) > width:
            text = text[: width - 1] + "…"
        self.stream.write("\r\033[K" + text)
        self.stream.flush()
        self._shown = True


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
