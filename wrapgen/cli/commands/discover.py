"""``wrapgen discover TOOL``: read a tool's help, recursively, and print the model or an outline."""

from __future__ import annotations

import json
import sys

from wrapgen.errors import ExitStatus
from wrapgen.model.tool import Command, Tool

__all__ = ["add_arguments", "run", "render_tree", "render_json"]


def add_arguments(parser) -> None:
    parser.add_argument("tool", help="a program name on PATH, or a path to one")
    parser.add_argument(
        "--format",
        choices=("json", "tree"),
        default="tree",
        help="json: the full model (Tool.to_dict()); tree: a readable outline (default)",
    )
    parser.add_argument(
        "--depth", type=int, default=3, help="how many subcommand levels to read (default 3)"
    )
    parser.add_argument(
        "--max-nodes", type=int, default=500, help="stop after probing this many commands"
    )
    parser.add_argument(
        "--jobs", type=int, default=None, help="help probes run at once (default: 2 per CPU)"
    )
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per help probe (default 5)"
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="seconds for the whole discovery; past it what was read is kept, with a warning (default 120)",
    )
    parser.add_argument(
        "--style",
        default=None,
        help="force one help parser (gnu, argparse, click, cobra, clap, git, man, docopt)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="probe again even when the tool is unchanged"
    )
    parser.add_argument(
        "--no-man", action="store_true", help="read --help only, never the man pages"
    )


def run(ns) -> int:
    from wrapgen.probe.discover import discover

    progress = _Progress(ns.tool) if sys.stderr.isatty() else None
    try:
        tool = discover(
            ns.tool,
            depth=ns.depth,
            max_nodes=ns.max_nodes,
            jobs=ns.jobs,
            cache=not ns.no_cache,
            progress=progress,
            style=ns.style,
            timeout_s=ns.timeout,
            man=not ns.no_man,
            deadline_s=ns.deadline,
        )
    finally:
        if progress is not None:
            progress.clear()
    if ns.format == "json":
        sys.stdout.write(render_json(tool))
        return ExitStatus.OK
    sys.stdout.write(render_tree(tool))
    for warning in tool.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return ExitStatus.OK


def render_json(tool: Tool) -> str:
    """The model as stable JSON: sorted keys, two-space indent, final newline."""
    return json.dumps(tool.to_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_tree(tool: Tool) -> str:
    """An outline: one line per command with its summary and how many flags it has."""
    root = tool.root
    head = tool.name + (f" ({tool.version})" if tool.version else "")
    total = sum(1 for _ in root.walk()) - 1
    lines = [f"{head}: {_counts(root)}, {total} commands"]
    for sub in root.subcommands:
        _tree_lines(sub, 1, lines)
    return "\n".join(lines) + "\n"


def _counts(command: Command) -> str:
    own = len(command.flags)
    text = f"{own} flag" + ("" if own == 1 else "s")
    if command.global_flags:
        text += f" + {len(command.global_flags)} global"
    return text


def _tree_lines(command: Command, level: int, lines: list[str]) -> None:
    name = command.name + (f" ({', '.join(command.aliases)})" if command.aliases else "")
    detail = "not read" if command.stub else _counts(command)
    summary = f"  {command.summary}" if command.summary else ""
    lines.append(f"{'  ' * level}{name}{summary}  [{detail}]")
    for sub in command.subcommands:
        _tree_lines(sub, level + 1, lines)


class _Progress:
    """One self-overwriting status line on stderr (used only when stderr is a terminal)."""

    def __init__(self, tool: str):
        self.tool = tool
        self.shown = False

    def __call__(self, done: int, total: int, path: tuple) -> None:
        text = f"discovering {self.tool}: {done}/{total} {' '.join(path)}"[:99]
        sys.stderr.write("\r" + text.ljust(99))
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 99 + "\r")
            sys.stderr.flush()
