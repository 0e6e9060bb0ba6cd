#!/usr/bin/env python3
"""What the probe sandbox (bubblewrap) costs discovery: wall time, with and without it.

Rounds alternate a crawl with the sandbox and one without (the cache off, the same depth and
jobs); the medians and their ratio are printed, and the two trees are compared (the sandbox must
not change what is read). Usage: python bench/discover_sandbox_cost.py [--tool gh --tool git]
[--depth 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _once(tool: str, depth: int, sandbox: bool) -> tuple[float, float, object]:
    from wrapgen.probe.discover import discover

    cpu, started = _children_cpu(), time.perf_counter()
    found = discover(
        tool, depth=depth, cache=False, sandbox=None if sandbox else False, deadline_s=None
    )
    return time.perf_counter() - started, _children_cpu() - cpu, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", action="append", dest="tools")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    from wrapgen.probe.sandbox import sandbox_status

    status = sandbox_status()
    if not status.available:
        print(f"no sandbox here: {status.reason}", file=sys.stderr)
        return 1
    os.environ["WRAPGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="wrapgen-bench-cache-")
    for tool in args.tools or ["gh", "git"]:
        if shutil.which(tool) is None:
            print(f"{tool}: not installed, skipped")
            continue
        runs = {True: [], False: []}
        trees = {}
        for _ in range(args.rounds):
            for sandbox in (False, True):
                wall, cpu, found = _once(tool, args.depth, sandbox)
                runs[sandbox].append((wall, cpu))
                trees[sandbox] = found
        nodes = sum(1 for node in trees[True].root.walk() if not node.stub)
        same = trees[True].root == trees[False].root
        plain_wall = statistics.median(w for w, _ in runs[False])
        boxed_wall = statistics.median(w for w, _ in runs[True])
        plain_cpu = statistics.median(c for _, c in runs[False])
        boxed_cpu = statistics.median(c for _, c in runs[True])
        print(f"{tool} (depth {args.depth}, {nodes} commands read, same tree: {same}):")
        print(
            f"  wall: {plain_wall:.2f} s without, {boxed_wall:.2f} s with the sandbox: {boxed_wall / plain_wall:.2f}x"
        )
        # a sandboxed tool runs under bwrap's own init in its PID namespace, which is killed, not
        # waited for: its CPU never reaches RUSAGE_CHILDREN, so only the unsandboxed figure means much
        print(
            f"  child CPU: {plain_cpu:.2f} s without the sandbox ({boxed_cpu:.2f} s counted with it: "
            "not comparable, see the comment)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
