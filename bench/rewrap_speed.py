#!/usr/bin/env python3
"""What a repeated `wrapgen wrap TOOL` costs once its caches are warm (issue 25's goal: at most 2 s).

For each tool, one `wrapgen wrap TOOL -o DIR` fills the caches a user's first wrap fills (discovery,
the JSON field lists, the trials); then `--rounds` more, each a new process as a user runs it, with
its trials, writing into the same directory, are timed (wall, and the CPU of the process and its
children). Prints each tool's median and the slowest, against the goal, with the load average at
the start and at the end (the machine may be shared: the figure is a wall time, a ratio would hide
that the goal is one).

wrapgen's modules are byte-compiled first, as an installed wrapgen's are: in an environment with
PYTHONDONTWRITEBYTECODE (an editable install under it writes no .pyc), every process would
otherwise compile them again (about a third of a repeated wrap's CPU).

The tools: those of bench/discover_accuracy.py that are installed, or the ones named.
`python3 bench/rewrap_speed.py [TOOL ...] [--rounds 3]`
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GOAL_S = 2.0


def _tools() -> list[str]:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from discover_accuracy import TOOLS

    programs = dict.fromkeys(program for program, *_ in TOOLS.values())
    return [p for p in programs if shutil.which(p)]


def _wrap(tool: str, out: str, env: dict) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall s, CPU s of the wrap and its children, the process) of one `wrapgen wrap TOOL`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "wrapgen", "wrap", tool, "-o", out],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tools", nargs="*")
    parser.add_argument("--rounds", type=int, default=3)
    ns = parser.parse_args(argv)
    tools = ns.tools or _tools()
    import compileall

    import wrapgen

    # (py_compile writes .pyc whatever the environment says)
    compileall.compile_dir(os.path.dirname(wrapgen.__file__), quiet=1)
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    slowest = ("", 0.0)
    with tempfile.TemporaryDirectory(prefix="wrapgen-rewrap-") as tmp:
        env = {**os.environ, "WRAPGEN_CACHE_DIR": os.path.join(tmp, "cache")}
        for tool in tools:
            out = os.path.join(tmp, "out", tool)
            first, _, done = _wrap(tool, out, env)
            if done.returncode != 0:
                print(f"{tool:<18} first wrap failed: {done.stderr.strip()[:160]}")
                continue
            walls, cpus = [], []
            for _ in range(ns.rounds):
                wall, cpu, _ = _wrap(tool, out, env)
                walls.append(wall)
                cpus.append(cpu)
            median = statistics.median(walls)
            if median > slowest[1]:
                slowest = (tool, median)
            print(
                f"{tool:<18} first {first:6.2f} s   repeated: median {median:5.2f} s wall,"
                f" {statistics.median(cpus):5.2f} s CPU (range {min(walls):.2f}-{max(walls):.2f} s)"
            )
    print(
        f"slowest repeated wrap: {slowest[0]} {slowest[1]:.2f} s; goal <= {GOAL_S:g} s:"
        f" {'met' if slowest[1] <= GOAL_S else 'missed'}"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
