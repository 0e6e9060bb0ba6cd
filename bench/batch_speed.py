#!/usr/bin/env python3
"""Batch speed: 20 recipes with --jobs 2 against one after another, and a warm --check.

Goals (issue 5): ``--jobs 2`` takes <= 0.6x the serial time; ``--check`` over unchanged recipes
with a warm discovery cache takes <= 1 s.

The 20 recipes are the repository's recipes (those whose tool is installed) and the two example
internal tools, repeated under distinct pack ids until there are 20. A first run warms the
discovery cache (a private one, so the user's is untouched), so that the timed runs compare
conversion work and not who happened to probe first; those runs pass ``--no-cache`` so that every
recipe is really converted. The ``--check`` run is the everyday one: discovery cache and
conversion memo warm. Every timed run is a fresh ``python -m wrapgen batch`` process.

    python3 bench/batch_speed.py [--recipes 20] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


SKIP: set[str] = set()  # recipe paths left out of the timed set


def _sources() -> list[tuple[Path, dict]]:
    out = []
    for path in sorted((REPO / "recipes").glob("*.yaml")) + sorted(
        (REPO / "recipes" / "examples").glob("*.yaml")
    ):
        if str(path) in SKIP:
            continue
        data = yaml.safe_load(path.read_text())
        if path.parent.name == "examples":
            data["search_paths"] = [
                str((path.parent / p).resolve()) for p in data.get("search_paths", [])
            ]
        elif shutil.which(data["tool"]) is None:
            continue
        out.append((path, data))
    return out


def make_recipes(directory: Path, count: int) -> list[str]:
    """``count`` recipes under ``directory``, cycling over the sources with distinct pack ids."""
    sources = _sources()
    if not sources:
        raise SystemExit("no recipes with an installed tool")
    names = []
    for i in range(count):
        path, data = sources[i % len(sources)]
        data = dict(data)
        base = data.get("pack_id") or Path(data["tool"]).name
        data["pack_id"] = f"{base}-{i // len(sources) + 1}" if i >= len(sources) else base
        target = directory / f"{i:02d}-{data['pack_id']}.yaml"
        target.write_text(yaml.safe_dump(data, sort_keys=False))
        names.append(data["tool"])
    return names


def _batch(args: list[str], env: dict) -> tuple[float, int, str]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "wrapgen", "batch", *args], env=env, capture_output=True, text=True
    )
    return time.perf_counter() - start, proc.returncode, proc.stdout + proc.stderr


def _rediscovery_seconds(recipe_path: Path, env: dict) -> float:
    """Seconds for a second discovery of a recipe's tool (the first fills the cache)."""
    code = (
        "import sys, time; from wrapgen.pack.recipe import load_recipe, discover_tool; "
        "r = load_recipe(sys.argv[1]); discover_tool(r); t = time.perf_counter(); discover_tool(r); "
        "print(time.perf_counter() - t)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(recipe_path)], env=env, capture_output=True, text=True
    )
    try:
        return float(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return float("inf")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipes", type=int, default=20)
    parser.add_argument(
        "--repeat", type=int, default=1, help="timed runs of each kind (the median is reported)"
    )
    ns = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wrapgen-bench-batch-") as tmp:
        tmp = Path(tmp)
        # A snapshot of wrapgen's code: the conversion memo is keyed by wrapgen's own files, and in a
        # tree where people are editing, the live code would change under the timed runs.
        shutil.copytree(
            REPO / "wrapgen", tmp / "src" / "wrapgen", ignore=shutil.ignore_patterns("__pycache__")
        )
        env = {
            **os.environ,
            "WRAPGEN_CACHE_DIR": str(tmp / "cache"),
            "PYTHONPATH": str(tmp / "src"),
            "PATH": f"{REPO / 'recipes' / 'examples' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        }
        # A tool whose discovery cannot be cached here (a probe timed out) would re-crawl in every
        # run and measure the machine, not the batch: it is left out and named.
        left_out = []
        for path, data in _sources():
            seconds = _rediscovery_seconds(path, env)
            if seconds > 1.0:
                left_out.append(f"{data['tool']} ({seconds:.1f} s to rediscover: not cached here)")
                SKIP.add(str(path))
        recipes = tmp / "recipes"
        recipes.mkdir()
        tools = make_recipes(recipes, ns.recipes)
        print(f"{ns.recipes} recipes over {len(set(tools))} tools: {', '.join(sorted(set(tools)))}")
        if left_out:
            print(f"left out: {', '.join(left_out)}")
        warm, code, text = _batch([str(recipes), "-o", str(tmp / "warm"), "-j", "2"], env)
        print(f"warm-up (fills the discovery cache): {warm:.2f} s, exit {code}")
        if code != 0:
            print("\n".join(text.splitlines()[:25]))
        rows = {}
        last_out = tmp / "warm"
        configs = (
            ("serial (--jobs 1)", "1", "process"),
            ("--jobs 2, processes", "2", "process"),
            ("--jobs 2, threads", "2", "thread"),
        )
        # cold: every run discovers every tool again (a fresh cache), as a first conversion does;
        # warm: discovery cached, so the runs compare proposing, dumping and checking alone.
        for cache in ("cold", "warm"):
            for label, jobs, executor in configs:
                times = []
                for r in range(ns.repeat):
                    run_env = {**env, "WRAPGEN_BATCH_EXECUTOR": executor}
                    if cache == "cold":
                        run_env["WRAPGEN_CACHE_DIR"] = str(tmp / f"cache-{jobs}-{executor}-{r}")
                    last_out = tmp / f"out-{cache}-{jobs}-{executor}-{r}"
                    seconds, code, text = _batch(
                        [str(recipes), "-o", str(last_out), "-j", jobs, "--no-cache"], run_env
                    )
                    if code != 0:
                        print("\n".join(text.splitlines()[:25]))
                    times.append(seconds)
                rows[(cache, label)] = statistics.median(times)
                print(f"{cache} {label:<22} {rows[(cache, label)]:6.2f} s")
            serial = rows[(cache, "serial (--jobs 1)")]
            for label in ("--jobs 2, processes", "--jobs 2, threads"):
                ratio = rows[(cache, label)] / serial
                print(
                    f"{cache} ratio {label:<20} {ratio:5.2f}  (goal <= 0.60: {'met' if ratio <= 0.6 else 'NOT met'})"
                )
        checks = []
        for _ in range(max(1, ns.repeat)):
            seconds, code, text = _batch([str(recipes), "-o", str(last_out), "--check"], env)
            if code != 0:
                print("\n".join(text.splitlines()[:25]))
            checks.append(seconds)
        check = statistics.median(checks)
        print(
            f"--check, {ns.recipes} unchanged recipes, warm cache: {check:.2f} s "
            f"(goal <= 1 s: {'met' if check <= 1.0 else 'NOT met'})"
        )
        print(
            f"CPUs: {os.cpu_count()}; load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
