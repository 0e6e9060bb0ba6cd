"""What `wrapgen serve` adds per call over the runtime in-process.

Builds a pack over `true` (json false) in a temporary directory, then times N calls of its one
verb (a) through `runtime.execute` in this process and (b) through `python -m wrapgen serve`
driven by the mcp SDK's own stdio client, sequentially (each call waits for its answer).
Prints calls per second for both and the milliseconds per call the server adds.
The server runs with every protection of issue 12 on, as by default: each line screened before
the SDK parses it, the in-flight/queue limits (``--max-in-flight 4 --max-queue 32``), the binding
derived from pack.yaml, tool text cut and marked, ``--confirm auto``. Each served call sends a
progress token, so the server also sends the verb's live and done titles as two progress
notifications per call (issue 14; ``--no-progress`` leaves the token out).
Goal: the server adds <= 1.0 ms per call.

    python bench/serve_overhead.py [--calls 300] [--no-progress]
"""

from __future__ import annotations

import argparse
import os
import statistics
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

GOAL_MS = 1.0


def _make_pack(root: Path) -> Path:
    pack = root / "fast"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    write_files(pack, render_pack_files(PACK.encode("utf-8")))
    return pack


def _server_pid() -> int | None:
    """The pid of our `wrapgen serve` child (stdio_client does not expose its process)."""
    me = str(os.getpid())
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2 :].split()[1] == me.encode() and b"serve" in argv:
            return int(entry)
    return None


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


async def _paired(pack: Path, calls: int, progress: bool = True) -> tuple[list[float], list[float], float, float]:
    """Alternate one in-process call and one served call, so both see the same machine load."""
    binding = runtime.load_binding(pack)  # what the server does: load once, execute per call
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "wrapgen", "serve", "--confirm", "auto", "--max-in-flight", "4", "--max-queue", "32", str(pack)],
    )
    local, served, local_cpu = [], [], []
    titles: list[str] = []

    async def on_progress(value, total, message):
        titles.append(message)

    callback = on_progress if progress else None
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            for _ in range(5):  # warm the worker thread, the session and the runtime
                await session.call_tool("noop", {})
                _local_call(binding, [])
            server = _server_pid()
            cpu_before = _cpu_s(server)
            titles.clear()
            for _ in range(calls):
                local.append(_local_call(binding, local_cpu))
                start = time.perf_counter()
                result = await session.call_tool("noop", {}, progress_callback=callback)
                served.append(time.perf_counter() - start)
                assert not result.is_error, result
            server_cpu_ms = (_cpu_s(server) - cpu_before) * 1000 / calls
    if progress:  # every call's two titles arrived, in order
        assert titles == ["Doing nothing", "Did nothing"] * calls, titles[:4]
    return local, served, server_cpu_ms, statistics.fmean(local_cpu) * 1000


def _line(label: str, times: list[float]) -> str:
    mean_ms = statistics.fmean(times) * 1000
    median_ms = statistics.median(times) * 1000
    return f"{label:<28} {len(times) / sum(times):8.1f} calls/s   mean {mean_ms:6.2f} ms   median {median_ms:6.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--no-progress", action="store_true", help="send no progress token")
    ns = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        pack = _make_pack(Path(tmp))
        local, served, server_cpu_ms, local_cpu_ms = anyio.run(_paired, pack, ns.calls, not ns.no_progress)
    added = [(s - l) * 1000 for l, s in zip(local, served)]
    print(_line("runtime.execute in-process", local))
    print(_line("wrapgen serve (stdio, SDK)", served)
          + ("" if ns.no_progress else "   (2 progress notifications per call)"))
    print(
        f"server adds {statistics.median(added):.2f} ms per call (median of paired differences;"
        f" mean {statistics.fmean(added):.2f} ms); goal <= {GOAL_MS} ms"
    )
    # wall time suffers from other load on the machine; the server's own CPU time per call does less so
    print(
        f"CPU per call, the tool's own not counted: server process {server_cpu_ms:.2f} ms,"
        f" runtime in-process {local_cpu_ms:.2f} ms, so the server adds {server_cpu_ms - local_cpu_ms:.2f} ms"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
