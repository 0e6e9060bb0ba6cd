"""The ``wrapgen`` command: argument parsing, errors -> exit status.

Each subcommand lives in ``wrapgen/cli/commands/<name>.py`` with two functions:
``add_arguments(parser)`` and ``run(namespace) -> int``. Only the chosen
subcommand's module is imported, so ``wrapgen exec`` pays for no YAML or
schema library. ``main`` is the one place that turns a ``WrapgenError`` into
``Error: ...`` plus its hint (``wrapgen.cli.output.print_error``) and an ``ExitStatus``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from wrapgen import __version__
from wrapgen.cli.output import print_error
from wrapgen.errors import ExitStatus, UsageError, WrapgenError

__all__ = ["main", "COMMANDS"]

# name -> (module, one-line summary); the order is the order of `wrapgen --help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "discover": (
        "wrapgen.cli.commands.discover",
        "read a tool's help, recursively, and print the tree found",
    ),
    "wrap": (
        "wrapgen.cli.commands.wrap",
        "discover, propose 5 to 12 commands, write a checked pack",
    ),
    "wizard": ("wrapgen.cli.commands.wizard", "the same as wrap, interactively"),
    "batch": ("wrapgen.cli.commands.batch", "convert many tools from recipes"),
    "promote": ("wrapgen.cli.commands.promote", "turn a PATH wrap into named commands"),
    "build": (
        "wrapgen.cli.commands.build",
        "regenerate a pack's derived files (binding.json, adapter.py)",
    ),
    "check": ("wrapgen.cli.commands.check", "lint pack directories"),
    "exec": ("wrapgen.cli.commands.exec_", "run one command of a pack and print its envelope"),
    "title": ("wrapgen.cli.commands.title", "print a command's declared title"),
    "serve": ("wrapgen.cli.commands.serve", "serve packs over MCP (stdio)"),
    "export": (
        "wrapgen.cli.commands.export",
        "print a pack's tools for a host (mcp, openai, hcp), or write it as an Agent Skill",
    ),
}


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting, so main() owns the exit status."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message, hint=f"run `{self.prog} --help` for usage")


def _top_level_help() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [
        "usage: wrapgen COMMAND [ARGS...]",
        "",
        "Turn an existing command-line program into a pack of safe, named commands.",
        "",
        "commands:",
    ]
    lines += [f"  {name.ljust(width)}  {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += [
        "",
        "Run `wrapgen COMMAND --help` for the arguments of one command, `wrapgen --version` for the version.",
    ]
    return "\n".join(lines)


def _dispatch(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_top_level_help())
        return ExitStatus.OK if argv else ExitStatus.USAGE
    if argv[0] == "--version":
        print(f"wrapgen {__version__}")
        return ExitStatus.OK
    name = argv[0]
    if name not in COMMANDS:
        import difflib

        close = difflib.get_close_matches(name, list(COMMANDS), n=1)
        hint = (
            f"did you mean `wrapgen {close[0]}`?" if close else "run `wrapgen --help` for the list"
        )
        raise UsageError(f"unknown command {name!r}", hint=hint)
    module_name, summary = COMMANDS[name]
    module = importlib.import_module(module_name)
    raw_main = getattr(module, "main", None)
    if raw_main is not None:
        # a command whose grammar argparse cannot express (`PACK VERB [--json] -- k=v ...`)
        # parses its own argv; `main(argv) -> int`, raising WrapgenError like `run`
        return int(raw_main(argv[1:]) or ExitStatus.OK)
    parser = _Parser(prog=f"wrapgen {name}", description=summary)
    module.add_arguments(parser)
    namespace = parser.parse_args(argv[1:])
    return int(module.run(namespace) or ExitStatus.OK)


def main(argv: list[str] | None = None) -> int:
    """Run the wrapgen command line; returns the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        return _dispatch(args)
    except WrapgenError as error:
        return print_error(error)
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        return ExitStatus.FAILED
