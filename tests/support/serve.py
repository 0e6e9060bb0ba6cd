"""The MCP server's test packs and process helpers, shared by tests/hosts/test_serve.py and
tests/live/test_hosts_serve_live.py (import it after ``pytest.importorskip("mcp")``: it uses anyio)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import time
from pathlib import Path

import anyio

from support.bounds import HANG_S
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.emit import write_files

__all__ = [
    "CALL_TIMEOUT_S",
    "START_TIMEOUT_S",
    "JQ_PACK",
    "SLOW_PACK",
    "make_pack",
    "dead",
    "find_process",
    "wait_for_process",
    "PipeClient",
]

# Bounds that only catch a hang (support/bounds.py): a hung server fails the test instead of hanging it
CALL_TIMEOUT_S = HANG_S
START_TIMEOUT_S = HANG_S  # importing the SDK takes seconds, many more on a loaded machine


JQ_PACK = """\
pack_id: jq
description: Evaluate jq programs.
bin: jq
json: [-c]
verbs:
  eval:
    description: Evaluate a jq program with no input.
    cli: [jq, -n, '{{program}}']
    args:
      type: object
      properties:
        program: {type: string}
      required: [program]
      additionalProperties: false
    policy: {effect: read}
"""


SLOW_PACK = """\
pack_id: slow
description: Takes its time.
bin: sleep
json: false
verbs:
  nap:
    description: Sleep for some seconds.
    cli: [sleep, '{{seconds}}']
    args:
      type: object
      properties:
        seconds: {type: string}
      required: [seconds]
      additionalProperties: false
    policy: {effect: read}
    timeout_s: 900
"""


def make_pack(directory: Path, manifest: str) -> Path:
    """A built pack directory: pack.yaml plus the derived files `wrapgen build` writes."""
    directory.mkdir(parents=True)
    (directory / "pack.yaml").write_text(manifest, encoding="utf-8")
    write_files(directory, render_pack_files(manifest.encode("utf-8")))
    return directory


def dead(pid: int) -> bool:
    """The process is gone, or a zombie nobody has reaped yet (it runs no more)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2 :].split()[0] in (b"Z", b"X")


def find_process(marker: str) -> tuple[int, int] | None:
    """(pid, ppid) of the live process whose argv holds ``marker``."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        if marker.encode() in argv and not dead(int(entry)):
            return int(entry), int(stat[stat.rfind(b")") + 2 :].split()[1])
    return None


async def wait_for_process(marker: str) -> tuple[int, int]:
    """(pid, ppid) of the process whose argv holds ``marker``, once it runs (within CALL_TIMEOUT_S)."""
    with anyio.fail_after(CALL_TIMEOUT_S):
        while (found := find_process(marker)) is None:
            await anyio.sleep(0.02)
    return found


class PipeClient:
    """A server process driven by hand over its pipes, one JSON-RPC message a line, for what the SDK
    client will not send; a subclass starts ``self.process`` (stdin and stdout pipes) and sets
    ``self.buffer = b""``."""

    process: subprocess.Popen
    buffer: bytes
    read_timeout_s: float = CALL_TIMEOUT_S
    close_wait_s: float = 15

    def send(self, message) -> None:
        raw = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.process.stdin.write(raw + b"\n")
        self.process.stdin.flush()

    def read(self, timeout: float | None = None) -> dict:
        deadline = time.monotonic() + (self.read_timeout_s if timeout is None else timeout)
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(left, 0))
            assert ready, "no answer: the client would wait forever"
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            assert chunk, "the server closed its output (crashed?)"
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def close(self) -> str:
        """Close its input, wait for it to end (kill it after ``close_wait_s``); what it wrote to stderr."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(timeout=self.close_wait_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.stderr.read().decode("utf-8", "replace")
