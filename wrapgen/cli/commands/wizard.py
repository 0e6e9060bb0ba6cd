"""``wrapgen wizard TOOL [-o DIR]``: wrap a tool interactively, one command at a time."""

from __future__ import annotations

import sys

from wrapgen.errors import ExitStatus

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("tool", metavar="TOOL", help="the tool: a name on PATH or a path")
    parser.add_argument(
        "-o",
        "--out",
        default="adapters",
        metavar="DIR",
        help="write the pack to DIR/PACK_ID (default: adapters)",
    )
    parser.add_argument(
        "--recipe",
        metavar="FILE",
        default=None,
        help="start from a recipe's choices instead of the bare proposal",
    )


def _progress(stream):
    def show(done: int, total: int, path=()) -> None:
        stream.write(f"\r\033[K  read {done}/{total} {' '.join(path)}")
        if done >= total:
            stream.write("\r\033[K")
        stream.flush()

    return show


def run(ns) -> int:
    from wrapgen.errors import UsageError

    if not sys.stdin.isatty():
        raise UsageError(
            "wrapgen wizard is interactive and needs a terminal on stdin",
            hint=f"for a script or CI, run `wrapgen wrap {ns.tool} -o {ns.out}` (or write a recipe for `wrapgen batch`)",
        )
    from wrapgen.cli.paths import check_out_dir
    from wrapgen.flows.wizard import run_wizard
    from wrapgen.pack.recipe import load_recipe

    check_out_dir(ns.out)

    recipe = load_recipe(ns.recipe) if ns.recipe else None

    def say(text: str) -> None:
        print(text, flush=True)

    result = run_wizard(
        ns.tool,
        out_dir=ns.out,
        ask=input,
        say=say,
        recipe=recipe,
        progress=_progress(sys.stderr) if sys.stderr.isatty() else None,
    )
    return ExitStatus.FAILED if result.errors else ExitStatus.OK
