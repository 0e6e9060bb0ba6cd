"""``wrapgen batch RECIPES... [-o DIR] [--jobs N] [--check]``: convert many tools from recipes."""

from __future__ import annotations

import sys

from wrapgen.cli.paths import check_out_dir
from wrapgen.cli.progress import StatusLine

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument(
        "recipes",
        nargs="+",
        metavar="RECIPES",
        help="recipe files, or directories searched for *.yaml (subdirectories named "
        "`examples` are skipped unless named directly)",
    )
    parser.add_argument(
        "-o",
        "--out",
        default="adapters",
        metavar="DIR",
        help="write each pack to DIR/PACK_ID (default: adapters)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="recipes converted at once, in worker processes (default: the number of CPUs)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; print unified diffs and fail when any pack under DIR differs",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="convert every recipe again, even when the recipe, the tool and wrapgen are "
        "unchanged since the last conversion (the memo is refreshed)",
    )


def _progress(status: StatusLine):
    def show(done: int, total: int, outcome) -> None:
        name = outcome.pack_id or outcome.source
        said = "failed" if not outcome.ok else "ok"
        status.item(done, total, f"{name}: {said} ({outcome.seconds:.1f}s)")

    return show


def run(ns) -> int:
    from wrapgen.errors import UsageError
    from wrapgen.flows.batch import run_batch, summary_table

    if ns.jobs is not None and ns.jobs < 1:
        raise UsageError(f"--jobs must be 1 or more, not {ns.jobs}", hint="pass --jobs 2")
    check_out_dir(ns.out)
    status = StatusLine()  # on a terminal only
    with status:
        status.stage("converting recipes")
        result = run_batch(
            ns.recipes,
            out_dir=ns.out,
            jobs=ns.jobs,
            check=ns.check,
            progress=_progress(status) if status.enabled else None,
            memo=not ns.no_cache,
        )
    print(summary_table(result))
    warned = [o for o in result.outcomes if o.ok and o.warnings]
    if warned:
        print("\nwarnings:")
        for o in warned:
            for warning in o.warnings:
                print(f"  {o.pack_id}: {warning}")
    if result.orphans:
        print(
            f"\nnot produced by any recipe (left alone): {', '.join(result.orphans)} in {result.out_dir}"
        )
    if result.check and result.drifted:
        print()
        for o in result.drifted:
            if o.drift:
                print(f"drift: {o.drift}")
        for o in result.drifted:
            for diff in o.diffs:
                sys.stdout.write(_prefix(diff, f"{result.out_dir.rstrip('/')}/{o.pack_id}/"))
    failed = result.failed
    ok = len(result.outcomes) - len(failed)
    if failed:
        print(f"\n{len(failed)} of {len(result.outcomes)} recipes failed:", file=sys.stderr)
        for o in failed:
            print(f"  {o.source}: {o.error}", file=sys.stderr)
            if o.hint:
                print(f"    hint: {o.hint}", file=sys.stderr)
    if result.check:
        if result.drifted:
            print(
                f"\n{len(result.drifted)} pack(s) under {result.out_dir} differ from their recipes; "
                f"run `wrapgen batch {' '.join(ns.recipes)} -o {ns.out}` to regenerate",
                file=sys.stderr,
            )
        elif not failed:
            print(
                f"\n{ok} pack(s) under {result.out_dir} match their recipes ({result.seconds:.1f}s)"
            )
    else:
        written = sum(1 for o in result.outcomes if o.ok and o.diffs)
        print(f"\n{ok} pack(s) converted, {written} changed, in {result.seconds:.1f}s")
    return result.exit_status


def _prefix(diff: str, prefix: str) -> str:
    """Point a/ and b/ paths of a unified diff at the pack directory, so the diff names real files."""
    lines = []
    for line in diff.splitlines(keepends=True):
        if line.startswith(("--- a/", "+++ b/")):
            line = line[:6] + prefix.lstrip("/") + line[6:]
        lines.append(line)
    return "".join(lines)
