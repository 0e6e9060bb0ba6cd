"""What `wrapgen serve` adds per call over the runtime in-process.

Builds a pack over `true` (json false) in a temporary directory, then times N calls of its one
verb (a) through `runtime.execute` in this process and (b) through `python -m wrapgen serve`
driven by the mcp SDK's own stdio client, sequentially (each call waits for its answer).
Prints calls per second for both and the milliseconds per call the server adds, and the CPU
per call of the server process and of the SDK client (both beyond the runtime's own).
The server runs with every protection of issue 12 on, as by default: each line screened before
the SDK parses it, the in-flight/queue limits (``--max-in-flight 4 --max-queue 32``), the binding
derived from pack.yaml, tool text cut and marked, ``--confirm auto``. Each served call sends a
progress token, so the server also sends the verb's live and done titles as two progress
notifications per call (issue 14; ``--no-progress`` leaves the token out).
Goal (issue 25): serve, through the SDK's public API, adds <= 5 ms per call over in-process exec.

``--raw-client`` also drives the default server with a minimal
JSON-lines client (no SDK), so what the wall time adds is the server's and not the SDK client's.
``--threads`` also splits each server's CPU per call by thread (from /proc/PID/task): the event-loop
thread and the worker threads (``runtime.execute`` runs on a worker).

    python bench/serve_overhead.py [--calls 300] [--no-progress] [--raw-client] [--threads]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from wrapgen import runtime
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.emit import write_files

PACK = """\
pack_id: fast
description: Does nothing, fast.
bin: "true"
json: false
verbs:
  noop:
    description: Run true.
    cli: ["true"]
    policy: {effect: read}
    title: {live: Doing nothing, done: Did nothing}
"""

GOAL_MS = 5.0
SERVE = ["serve", "--confirm", "auto", "--max-in-flight", "4", "--max-queue", "32"]


def _make_pack(root: Path) -> Path:
    pack = root / "fast"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    write_files(pack, render_pack_files(PACK.encode("utf-8")))
    return pack


def _thread_cpu_s(pid: int | None) -> dict[int, float]:
    """User + system CPU seconds of each thread of the process (thread id -> seconds); {} without /proc."""
    found: dict[int, float] = {}
    if pid is None:
        return found
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            fields = Path(f"/proc/{pid}/task/{tid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        found[int(tid)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


def _cpu_s(pid: int | None) -> float:
    """User + system CPU seconds the process itself used (its children not counted)."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _local_call(binding: dict, cpu: list[float]) -> float:
    start, cpu_start = time.perf_counter(), time.process_time()
    envelope = runtime.execute(binding, "noop", {})
    elapsed = time.perf_counter() - start
    cpu.append(time.process_time() - cpu_start)
    assert envelope["ok"], envelope
    return elapsed


class _RawClient:
    """A minimal MCP client over pipes (no SDK): one request line out, lines in until its answer."""

    def __init__(self, pack: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "wrapgen", *SERVE, str(pack)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.buffer, self.next_id = b"", 0
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        )
        self.process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.process.stdin.flush()

    def request(self, method: str, params: dict, titles: list | None = None) -> dict:
        self.next_id += 1
        line = (
            json.dumps(
                {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params},
                separators=(",", ":"),
            ).encode()
            + b"\n"
        )
        os.write(self.process.stdin.fileno(), line)
        while True:
            while b"\n" not in self.buffer:
                select.select([self.process.stdout], [], [])
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise RuntimeError("the server closed its output")
                self.buffer += chunk
            raw, _, self.buffer = self.buffer.partition(b"\n")
            message = json.loads(raw)
            if message.get("id") == self.next_id:
                return message
            if titles is not None and message.get("method") == "notifications/progress":
                titles.append(message["params"]["message"])

    def call(self, progress: bool, titles: list) -> dict:
        params = {"name": "noop", "arguments": {}}
        if progress:
            params["_meta"] = {"progressToken": self.next_id + 1}
        return self.request("tools/call", params, titles)["result"]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class _Side:
    """One way of serving the calls: its per-call wall times, and the CPU of its server and of the client."""

    def __init__(self, label: str):
        self.label, self.times, self.client_cpu = label, [], []
        self.server_pid: int | None = None
        self.server_cpu_ms = float("nan")
        self.loop_cpu_ms = self.workers_cpu_ms = float(
            "nan"
        )  # --threads: the server's CPU per call by thread
        self.titles: list[str] = []


async def _paired(
    pack: Path, calls: int, progress: bool = True, raw_client: bool = False
) -> tuple[list[float], list[float], dict]:
    """Alternate one in-process call and one call on each way of serving, so all see the same machine load."""
    binding = runtime.load_binding(pack)  # what the server does: load once, execute per call
    local, local_cpu = [], []
    sides = {"serve": _Side("wrapgen serve (stdio, SDK client)")}
    commands = {
        "serve": StdioServerParameters(
            command=sys.executable, args=["-m", "wrapgen", *SERVE, str(pack)]
        )
    }
    raw = _RawClient(pack) if raw_client else None
    if raw is not None:
        sides["raw"] = _Side("wrapgen serve, minimal client")
        sides["raw"].server_pid = raw.process.pid

    async with contextlib.AsyncExitStack() as stack:
        sessions = {}
        for key, params in commands.items():
            known = _children()
            read, write = await stack.enter_async_context(stdio_client(params))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            await session.list_tools()
            sessions[key] = session
            sides[key].server_pid = next(iter(_children() - known), None)

        def callback(side: _Side):
            async def on_progress(value, total, message):
                side.titles.append(message)

            return on_progress if progress else None

        async def one(key: str, side: _Side) -> None:
            start, cpu_start = time.perf_counter(), time.process_time()
            if key == "raw":
                result = raw.call(progress, side.titles)
                error = result["isError"]
            else:
                result = await sessions[key].call_tool("noop", {}, progress_callback=callback(side))
                error = result.is_error
            side.times.append(time.perf_counter() - start)
            side.client_cpu.append(time.process_time() - cpu_start)
            assert not error, result

        for _ in range(5):  # warm the worker threads, the sessions and the runtime
            for key, side in sides.items():
                await one(key, side)
            _local_call(binding, [])
        before = {key: _cpu_s(side.server_pid) for key, side in sides.items()}
        threads_before = {key: _thread_cpu_s(side.server_pid) for key, side in sides.items()}
        for side in sides.values():
            side.times.clear()
            side.client_cpu.clear()
            side.titles.clear()
        for _ in range(calls):
            for key, side in sides.items():
                local.append(_local_call(binding, local_cpu)) if key == "serve" else None
                await one(key, side)
        for key, side in sides.items():
            side.server_cpu_ms = (_cpu_s(side.server_pid) - before[key]) * 1000 / calls
            threads = _thread_cpu_s(side.server_pid)
            if threads:  # the main thread (tid = pid) runs the event loop; the others are workers
                spent = {
                    tid: cpu - threads_before[key].get(tid, 0.0) for tid, cpu in threads.items()
                }
                side.loop_cpu_ms = spent.pop(side.server_pid, 0.0) * 1000 / calls
                side.workers_cpu_ms = sum(spent.values()) * 1000 / calls
    if raw is not None:
        raw.close()
    if progress:  # every call's two titles arrived, in order
        for side in sides.values():
            assert side.titles == ["Doing nothing", "Did nothing"] * calls, side.titles[:4]
    return local, local_cpu, sides


def _children() -> set[int]:
    """The pids of our `wrapgen serve` children."""
    me = str(os.getpid()).encode()
    found = set()
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2 :].split()[1] == me and (b"serve" in argv or b"-c" in argv):
            found.add(int(entry))
    return found


def _line(label: str, times: list[float]) -> str:
    mean_ms = statistics.fmean(times) * 1000
    median_ms = statistics.median(times) * 1000
    return f"{label:<34} {len(times) / sum(times):8.1f} calls/s   mean {mean_ms:6.2f} ms   median {median_ms:6.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--no-progress", action="store_true", help="send no progress token")
    parser.add_argument(
        "--raw-client", action="store_true", help="also drive the server with a minimal client"
    )
    parser.add_argument(
        "--threads", action="store_true", help="also split each server's CPU per call by thread"
    )
    ns = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        pack = _make_pack(Path(tmp))
        local, local_cpu, sides = anyio.run(
            _paired, pack, ns.calls, not ns.no_progress, ns.raw_client
        )
    local_cpu_ms = statistics.fmean(local_cpu) * 1000
    print(
        _line("runtime.execute in-process", local)
        + f"   CPU {local_cpu_ms:.2f} ms"
        + ("" if ns.no_progress else "   (2 progress notifications per served call)")
    )
    for side in sides.values():
        added = [(served - local_s) * 1000 for local_s, served in zip(local, side.times)]
        print(_line(side.label, side.times))
        # wall time suffers from other load on the machine; the processes' own CPU time per call does less so
        print(
            f"    adds {statistics.median(added):.2f} ms wall per call (median of paired differences;"
            f" mean {statistics.fmean(added):.2f} ms); CPU per call beyond the runtime's:"
            f" server {side.server_cpu_ms - local_cpu_ms:.2f} ms (process {side.server_cpu_ms:.2f} ms),"
            f" client {statistics.fmean(side.client_cpu) * 1000:.2f} ms; goal <= {GOAL_MS} ms"
        )
        if ns.threads:
            print(
                f"    server CPU per call by thread: event loop {side.loop_cpu_ms:.2f} ms,"
                f" workers {side.workers_cpu_ms:.2f} ms (the runtime in-process: {local_cpu_ms:.2f} ms)"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
