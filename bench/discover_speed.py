#!/usr/bin/env python3
"""How much time discovery adds on top of the tool's own processes, as ratios from one run.

1. Own CPU: wrapgen's CPU time (this process: parsing, model, crawl bookkeeping) against the CPU
   time of the tool's processes (measured inside the sandbox, bench/probe_cpu.py), over a full
   crawl with the cache off; the containment (spawn helper, supervisors, bwrap) is printed apart.
   Importing the parsers is a fixed cost, reported apart and included in the ratio.
2. Crawl vs xargs: the wall time of the crawl against running the very same probe command lines
   by hand, all at once, with `xargs -P JOBS` (same environment, same parallelism), outside the
   sandbox (its scratch directories are gone by then). The crawl must read a level before it knows
   the next one and runs each probe in bubblewrap, so this floor is lower than any crawl can reach.
3. Cached rediscovery: `discover()` again with the cache warm, in this process, and the whole
   `wrapgen discover TOOL --format json` command as a new process.

Rounds alternate crawl and xargs, and the median of each is reported, since the machine may be
shared. Usage: python bench/discover_speed.py [--tool gh] [--depth 2] [--rounds 3]
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _recording_probes():
    """Every argv the probe runs, recorded (the tool's own and `man -w`)."""
    from wrapgen.probe import prober as probe

    seen: list[list[str]] = []
    original = probe.run_process

    def recording(argv, **options):
        tool = list(argv)
        if os.path.basename(tool[0]) == "bwrap" and "--" in tool:
            # the tool's own command line: the sandbox's binds name scratch directories that are
            # gone by the time xargs runs, so the floor runs the tool outside it (a lower floor)
            tool = tool[tool.index("--") + 1 :]
        seen.append(tool)
        return original(argv, **options)

    probe.run_process = recording
    return seen, lambda: setattr(probe, "run_process", original)


def crawl_wall(tool: str, depth: int, jobs: int) -> float:
    """The wall time of a crawl without the meter (which adds an interpreter's start-up per probe).
    Its spawn helper is stopped and reaped after it: reaped later, during the next metered crawl,
    the helper would bring this crawl's supervisors' CPU into that crawl's containment."""
    from probe_cpu import _reap_all

    from wrapgen.probe.discover import discover
    from wrapgen.runtime import contain

    started = time.perf_counter()
    discover(tool, depth=depth, jobs=jobs, cache=False)
    wall = time.perf_counter() - started
    contain.stop_all()
    _reap_all()
    return wall


def crawl_once(tool: str, depth: int, jobs: int) -> dict:
    from probe_cpu import metered

    from wrapgen.probe.discover import discover

    seen: list[list[str]] = []

    def run():
        # recorded outside the meter: the argv the probe asked for, as xargs runs it
        recorded, restore = _recording_probes()
        try:
            return discover(tool, depth=depth, jobs=jobs, cache=False)
        finally:
            restore()
            seen.extend(recorded)

    started = time.perf_counter()
    found, cpu = metered(run, shutil.which(tool))
    wall = time.perf_counter() - started
    return {
        "wall": wall,
        "own_cpu": cpu.own,
        "tool_cpu": cpu.tools,
        "containment_cpu": cpu.containment,
        "argvs": seen,
        "nodes": sum(1 for node in found.root.walk() if not node.stub),
    }


def xargs_once(argvs: list[list[str]], jobs: int) -> float:
    """Wall time of running every argv with `xargs -P jobs`, in the probe's environment."""
    from wrapgen.probe.prober import probe_env

    with tempfile.TemporaryDirectory() as scratch:
        listing = os.path.join(scratch, "probes")
        with open(listing, "w", encoding="utf-8") as out:
            for argv in argvs:
                out.write(" ".join(argv) + "\n")  # help probes have no spaces or quotes in them
        started = time.perf_counter()
        with open(listing, "rb") as source:
            # Output goes to a pipe, as in the crawl (some tools behave differently on /dev/null).
            subprocess.run(
                ["xargs", "-P", str(jobs), "-L", "1", "env"],
                stdin=source,
                cwd=scratch,
                env=probe_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
        return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default="gh")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if shutil.which(args.tool) is None:
        print(f"{args.tool} is not installed", file=sys.stderr)
        return 1
    os.environ["WRAPGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="wrapgen-bench-cache-")

    from probe_cpu import warm_up

    import_cpu = (
        warm_up()
    )  # the fixed cost (imports, the sandbox check, the parsers' first use), measured apart

    from wrapgen.probe.crawl import default_jobs

    jobs = default_jobs()
    crawls, floors = [], []
    for _ in range(args.rounds):
        crawls.append(crawl_once(args.tool, args.depth, jobs))
        crawls[-1]["wall"] = crawl_wall(args.tool, args.depth, jobs)
        floors.append(xargs_once(crawls[-1]["argvs"], jobs))
    last = crawls[-1]
    own = statistics.median(c["own_cpu"] for c in crawls)
    tool_cpu = statistics.median(c["tool_cpu"] for c in crawls)
    containment = statistics.median(c["containment_cpu"] for c in crawls)
    median_wall = statistics.median(c["wall"] for c in crawls)
    floor_wall = statistics.median(floors)

    from wrapgen.probe.discover import discover

    discover(args.tool, depth=args.depth, jobs=jobs)  # fill the cache
    started = time.perf_counter()
    discover(args.tool, depth=args.depth, jobs=jobs)
    cached_in_process = time.perf_counter() - started
    wrapgen = [
        sys.executable,
        "-m",
        "wrapgen",
        "discover",
        args.tool,
        "--depth",
        str(args.depth),
        "--format",
        "json",
    ]
    started = time.perf_counter()
    subprocess.run(wrapgen, stdout=subprocess.DEVNULL, check=True)
    cached_process = time.perf_counter() - started

    print(
        f"tool: {args.tool} depth {args.depth}: {last['nodes']} commands read, {len(last['argvs'])} processes, "
        f"jobs {jobs}, {args.rounds} rounds (medians)"
    )
    print(f"own CPU      {own:7.2f} s   (+ {import_cpu:.2f} s importing the parsers, once)")
    print(
        f"tool CPU     {tool_cpu:7.2f} s   (the tool's processes, measured in the sandbox: bench/probe_cpu.py)"
    )
    print(
        f"containment  {containment:7.2f} s   (spawn helper, supervisors, bwrap, manpath; not in the ratio below)"
    )
    print(
        f"ratio        {(own + import_cpu) / tool_cpu:7.3f}   own/tool, goal <= 0.25 "
        f"({own / tool_cpu:.3f} without the import)"
    )
    print(f"crawl wall   {median_wall:7.2f} s")
    print(f"xargs -P{jobs:<3} {floor_wall:7.2f} s   the same {len(last['argvs'])} command lines")
    print(f"ratio        {median_wall / floor_wall:7.3f}   crawl/xargs, goal <= 1.2")
    print(f"cached       {cached_in_process:7.3f} s   discover() in process, goal <= 0.2")
    print(
        f"cached CLI   {cached_process:7.3f} s   `wrapgen discover {args.tool} --format json` as a new process"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
