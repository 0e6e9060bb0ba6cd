#!/usr/bin/env python3
"""What the runtime costs on top of spawning the tool (issue 2's speed goals, as issue 25 reset them).

In one run, interleaved, it times the same call of a real tool:

  direct          subprocess.run(argv, capture_output=True)       the baseline
  in-process      wrapgen.runtime.execute(binding, verb, args)     in its per-call sandbox (bwrap)
  in-process, no sandbox   the same with the supervisor's containment alone (the sandbox's
                  fallback)                                        goal: <= 1.25x direct
  adapter.py      python3 adapter.py VERB --json                    goal: <= direct + 25 ms
  python -c pass  the interpreter's own start-up (same Python, same site)

The sandbox's cost is in-process minus in-process, no sandbox (goal: <= 15 ms, issue 27).

and prints medians in ms and the ratios, and adapter.py's own share of a call over the interpreter's
start-up: adapter.py - direct - python -c pass, wall and CPU (goal: <= 10 ms, issue 14), all from
the same interleaved run. wrapgen's modules are byte-compiled first, so a PYTHONDONTWRITEBYTECODE
environment does not make every adapter call compile them again.
The in-process ratio is also given per round (each in-process call over the direct call just before
it, median of those): a paired figure that a load change during the run shifts far less. On a machine
shared with other work, ``--fifo`` runs the bench and everything it starts under SCHED_FIFO (needs
CAP_SYS_NICE or root): the cases are then not queued behind the other load, so the figures approach a
quiet machine's; both cases get the same treatment, and the output says it was used.
`python3 bench/exec_overhead.py [--runs N] [--tool jq|true|git] [--fifo]`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOOLS = {
    # name -> (argv the pack's cli[] holds, JSON selection); the direct run adds the selection itself
    "jq": (["jq", "-n", "-c", "{a: 1}"], ["-c"]),
    "true": (["true"], []),
    "git": (["git", "--version"], []),
}


def _write_pack(root: Path, argv: list[str], selection: list[str]) -> Path:
    """A pack made the way `wrapgen build` makes one (pack.yaml -> binding.json + adapter.py), so the
    bench runs the generated adapter and a binding with every protection: the env allowlist, the
    default memory limit, and (always, in the runtime) the subreaper supervisor."""
    from wrapgen.pack.build import render_pack_files

    pack = root / "bench"
    pack.mkdir()
    text = (
        json.dumps(
            {
                "pack_id": "bench",
                "description": "bench",
                "bin": argv[0],
                "verbs": {
                    "run": {
                        "description": "bench",
                        "cli": argv,
                        "json": selection,
                        "policy": {"effect": "read"},
                    }
                },
            },
            indent=2,
        )
        + "\n"
    )
    (pack / "pack.yaml").write_text(text)
    for name, body in render_pack_files(text.encode()).items():
        (pack / name).write_text(body)
    return pack


def _cpu() -> float:
    """CPU seconds used by this process and its reaped children: far less load-sensitive than wall time."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _helper_cpu_ms() -> float:
    """CPU of this process's spawn helper and the supervisors and tools it has reaped (wrapgen/runtime/contain.py):
    they are not this process's children, so RUSAGE_CHILDREN never sees them. /proc ticks (10 ms)."""
    from wrapgen.runtime import contain

    helper = getattr(contain, "_helper", None)  # (None in a wrapgen without one)
    if not helper:
        return 0.0
    try:
        with open(f"/proc/{helper[0]}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) * 1000 / os.sysconf("SC_CLK_TCK")


def _time(fn) -> tuple[float, float]:
    """(wall ms, CPU ms) of one call."""
    cpu, started = _cpu(), time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000, (_cpu() - cpu) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument(
        "--tool", choices=sorted(TOOLS), default="jq" if shutil.which("jq") else "true"
    )
    parser.add_argument(
        "--fifo",
        action="store_true",
        help="run under SCHED_FIFO (priority 5), inherited by every child",
    )
    options = parser.parse_args()
    scheduling = "normal"
    if options.fifo:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(5))
            scheduling = "SCHED_FIFO 5 (the bench and everything it starts)"
        except (AttributeError, OSError) as error:
            print(
                f"--fifo: cannot use SCHED_FIFO here ({error}); running with normal scheduling",
                file=sys.stderr,
            )

    import compileall

    import wrapgen
    from wrapgen.runtime import (
        containment_available,
        execute,
        load_binding,
        memory_limit_mb,
        sandbox,
    )

    find_bwrap = sandbox.find_bwrap
    if find_bwrap() is None:
        print("bubblewrap is not installed: the sandbox's row needs it", file=sys.stderr)
        return 1

    compileall.compile_dir(
        os.path.dirname(wrapgen.__file__), quiet=1
    )  # (py_compile writes .pyc whatever the environment says)

    argv, selection = TOOLS[options.tool]
    with tempfile.TemporaryDirectory() as tmp:
        pack = _write_pack(Path(tmp), argv, selection)
        binding = load_binding(pack)
        adapter = [sys.executable, str(pack / "adapter.py"), "run", "--json"]
        direct_argv = argv + [s for s in selection if s not in argv]

        def direct():
            subprocess.run(direct_argv, capture_output=True, stdin=subprocess.DEVNULL, check=True)

        def in_process():
            assert execute(binding, "run", {})["ok"]

        def in_process_bare():
            # the sandbox's fallback: no bubblewrap found, and the setting that lets the call run
            sandbox.find_bwrap, os.environ["WRAPGEN_SANDBOX"] = (
                (lambda environ=None: None),
                "fallback",
            )
            try:
                assert execute(binding, "run", {})["ok"]
            finally:
                sandbox.find_bwrap = find_bwrap
                del os.environ["WRAPGEN_SANDBOX"]

        def in_process_dir():
            assert execute(pack, "run", {})["ok"]

        def via_adapter():
            done = subprocess.run(adapter, capture_output=True, stdin=subprocess.DEVNULL)
            assert done.returncode == 0, done.stderr

        def python_startup():
            subprocess.run([sys.executable, "-c", "pass"], check=True)

        cases = {
            "direct": direct,
            "in-process": in_process,
            "in-process, no sandbox": in_process_bare,
            "in-process (pack dir)": in_process_dir,
            "adapter.py": via_adapter,
            "python -c pass": python_startup,
        }
        for fn in cases.values():  # warm caches (pyc, page cache)
            fn()
        samples = {name: [] for name in cases}
        helper_before = _helper_cpu_ms()
        for _ in range(options.runs):
            for name, fn in cases.items():  # interleaved, so load changes hit every case alike
                samples[name].append(_time(fn))
        time.sleep(1.5)  # the helper reaps its supervisors within a second
        helper_ms = (_helper_cpu_ms() - helper_before) / (
            3 * options.runs
        )  # the in-process cases use it

    med = {name: statistics.median(w for w, _ in values) for name, values in samples.items()}
    cpu = {name: statistics.median(c for _, c in values) for name, values in samples.items()}
    for name in (
        "in-process",
        "in-process, no sandbox",
        "in-process (pack dir)",
    ):  # the supervisors and tools the spawn helper ran
        cpu[name] += helper_ms
    base = med["direct"]
    print(
        f"tool: {' '.join(direct_argv)}   runs: {options.runs}   (medians; CPU = this process + children)"
    )
    print(
        f"spawn helper: {'used' if helper_ms else 'not used'}; its CPU (and its supervisors' and tools')"
        f" per in-process call, added below: {helper_ms:.2f} ms"
    )
    print(
        f"protections: per-call sandbox (bwrap) but where said, subreaper supervisor"
        f" {'on' if containment_available() else 'UNAVAILABLE'},"
        f" RLIMIT_DATA {memory_limit_mb(binding)} MiB, environment allowlist"
    )
    for name, value in med.items():
        print(
            f"  {name:<22} wall {value:8.2f} ms  {value / base:5.2f}x direct   CPU {cpu[name]:7.2f} ms  {cpu[name] / cpu['direct']:5.2f}x"
        )
    ratio = med["in-process, no sandbox"] / base
    paired = statistics.median(
        i[0] / d[0] for d, i in zip(samples["direct"], samples["in-process, no sandbox"])
    )
    cost = med["in-process"] - med["in-process, no sandbox"]
    paired_cost = statistics.median(
        s[0] - b[0] for s, b in zip(samples["in-process"], samples["in-process, no sandbox"])
    )
    print(
        f"the sandbox costs: {cost:.1f} ms a call (median of pairs {paired_cost:.1f} ms; wall: the"
        f" spawn helper's CPU, bwrap's included, is shared out evenly over the in-process cases) (goal <= 15 ms)"
        f"  {'OK' if cost <= 15 else 'MISSED'}"
    )
    print(f"scheduling: {scheduling}")
    print(f"in-process, no sandbox / direct, per round (median of paired ratios): {paired:.2f}x")
    added = med["adapter.py"] - base
    print(
        f"in-process, no sandbox / direct: {ratio:.2f}x (goal <= 1.25x, issue 25)"
        f"  {'OK' if ratio <= 1.25 else 'MISSED'}"
    )
    print(
        f"adapter.py adds:     {added:.1f} ms (goal <= 25 ms)  {'OK' if added <= 25 else 'MISSED'}"
        f"   of which python startup alone: {med['python -c pass']:.1f} ms,"
        f" wrapgen's own share: {added - med['python -c pass']:.1f} ms"
    )
    own_wall = med["adapter.py"] - base - med["python -c pass"] - cost
    own_cpu = (
        cpu["adapter.py"]
        - cpu["direct"]
        - cpu["python -c pass"]
        - (cpu["in-process"] - cpu["in-process, no sandbox"])
    )
    print(
        f"adapter.py's own share over the interpreter's start-up and the sandbox: {own_wall:.1f} ms wall,"
        f" {own_cpu:.1f} ms CPU"
        f" (goal <= 10 ms)  {'OK' if own_wall <= 10 else 'MISSED'}"
    )
    print(
        f"CPU view: in-process / direct {cpu['in-process'] / cpu['direct']:.2f}x;"
        f" adapter.py adds {cpu['adapter.py'] - cpu['direct']:.1f} ms CPU, of which python startup"
        f" {cpu['python -c pass']:.1f} ms and wrapgen {cpu['adapter.py'] - cpu['direct'] - cpu['python -c pass']:.1f} ms"
    )
    print(
        f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores (absolute ms scale with it)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
