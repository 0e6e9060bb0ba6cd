"""A marker a sandboxed program can leave: a FIFO (a read's file system is read-only, but a FIFO on it
still opens for writing) whose reader, a thread of the test, appends what arrives to a file outside.

A test that asks "did the program run?" gives the program ``recorder.fifo`` to write to and reads
``recorder.marker`` as it would any marker file; ``close()`` (or the context manager's end) stops
the reader.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

__all__ = ["Recorder", "recorded"]


class Recorder:
    def __init__(self, marker: Path):
        self.marker = Path(marker)
        self.fifo = self.marker.with_name(self.marker.name + ".fifo")
        os.mkfifo(self.fifo)
        self._stop = False
        self._busy = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop:
            fd = os.open(self.fifo, os.O_RDONLY)  # (blocks until a writer opens it)
            with self._busy:
                try:
                    data = b""
                    while chunk := os.read(fd, 65536):
                        data += chunk
                finally:
                    os.close(fd)
                if data and not self._stop:
                    with open(self.marker, "ab") as handle:
                        handle.write(data)

    def settle(self, seconds: float = 0.5) -> None:
        """Let what a finished call wrote reach the marker (the reader may still be copying it)."""
        time.sleep(seconds)
        with self._busy:
            pass

    def close(self) -> None:
        self._stop = True
        try:  # wake a reader blocked in open()
            fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass
        self._thread.join(5)

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def recorded(marker: Path, text: str = "", bound: float = 30.0) -> str:
    """What ``marker`` holds once it holds ``text`` (any text, by default): a program that wrote
    before its call returned reaches the marker when the recorder's thread has copied it, later on a
    busy machine. The bound only catches a program that never wrote; then what it holds, or ''."""
    marker = Path(marker)
    deadline = time.monotonic() + bound
    while True:
        held = marker.read_text() if marker.exists() else ""
        if (held and text in held) or time.monotonic() > deadline:
            return held
        time.sleep(0.05)
