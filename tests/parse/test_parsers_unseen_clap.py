"""What the clap, argparse and click parsers learnt from tools they had not seen (ruff, uv, httpie,
black): each test pins one behaviour on a small help text shaped like the real one."""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
from contextlib import redirect_stdout

import pytest

from conftest import flag_of
from wrapgen.parse import detect_style, parse_help
from wrapgen.parse.script import is_launcher
from wrapgen.probe.discover import discover


def _argparse_help(build) -> str:
    """The help argparse itself prints for a parser ``build(parser)`` sets up (this Python's format)."""
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("-v", "--verbose", action="store_true")
    build(parser)
    out = io.StringIO()
    os.environ.setdefault("COLUMNS", "100")
    with redirect_stdout(out):
        parser.print_help()
    return out.getvalue()


def _three_commands(sub) -> None:
    sub.add_parser("init", help="Initialize a thing")
    sub.add_parser("run", help="Run the thing")
    sub.add_parser("list", aliases=["ls"], help="List things")


# -- argparse subparsers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"metavar": "COMMAND"},
        {"metavar": "COMMAND", "help": "the command to run"},
        {"title": "commands", "metavar": "<command>"},
        {"title": "Available commands", "description": "Pick one of these."},
        {},
    ],
)
def test_argparse_subparsers_in_every_layout_are_subcommands(options):
    """A subparsers action is read whatever its metavar, title or help: init, run, list (alias ls)."""
    text = _argparse_help(lambda p: _three_commands(p.add_subparsers(dest="cmd", **options)))
    command = parse_help(text, prog=("tool",))
    assert command.parser == "argparse"
    assert [s.name for s in command.subcommands] == ["init", "run", "list"]
    assert command.find(("list",)).aliases == ("ls",)
    assert command.find(("run",)).summary == "Run the thing"


def test_argparse_wrapped_choices_keep_their_summaries():
    """Long {a,b,...} names wrap the usage line; the listing's summaries still reach the stubs."""
    names = [f"{word}-command" for word in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")]

    def build(parser):
        sub = parser.add_subparsers(dest="cmd")
        for name in names:
            sub.add_parser(name, help=f"do {name}")

    command = parse_help(_argparse_help(build), prog=("tool",))
    assert [(s.name, s.summary) for s in command.subcommands] == [(n, f"do {n}") for n in names]


def test_argparse_choices_without_entries_still_name_the_commands():
    """httpie's `{cli,plugins}` has no entries under it (no help=): the names alone make stubs."""
    text = """usage: httpie [-h] [--debug] {cli,plugins} ...

positional arguments:
  {cli,plugins}

options:
  -h, --help     show this help message and exit
  --debug        Prints the exception traceback should one occur.
"""
    command = parse_help(text, prog=("httpie",))
    assert [s.name for s in command.subcommands] == ["cli", "plugins"]


def test_argparse_positional_with_help_below_is_no_subcommand_listing():
    """A variadic positional (`[FILE ...]`) whose help sits on the next line is an operand, not a listing."""

    def build(parser):
        parser.add_argument(
            "FILE", nargs="*", help="the files to read, one after the other  in order"
        )

    command = parse_help(_argparse_help(build), prog=("tool",))
    assert command.subcommands == ()


def test_argparse_metavar_line_without_its_usage_mark_is_not_a_listing():
    """A word line counts as a subparsers metavar only where the usage shows `WORD ...`."""
    text = """usage: tool [-h] MODE

positional arguments:
  MODE
    fast     go fast
    slow     go slow

options:
  -h, --help  show this help message and exit
"""
    assert parse_help(text, prog=("tool",)).subcommands == ()


# -- httpie (argparse with its own formatter) ----------------------------------------------------

HTTPIE = """usage:
    http [METHOD] URL [REQUEST_ITEM ...]

HTTPie: modern, user-friendly command-line HTTP client for the API era.

Positional arguments:

  URL
      The request URL.

Authentication:

  --auth USER[:PASS] | TOKEN, -a USER[:PASS] | TOKEN
      For username/password based authentication mechanisms.

  --auth-type {basic,bearer,digest}, -A {basic,bearer,digest}
      The authentication mechanism to be used.
"""


def test_httpie_help_is_detected_as_argparse():
    """A bare `usage:` line and `Positional arguments:` (capital P) are argparse's marks too."""
    assert detect_style(HTTPIE) == "argparse"


def test_value_with_two_forms_keeps_the_short_spelling():
    """`--auth USER[:PASS] | TOKEN, -a ...`: one value in two forms, and -a is the same flag."""
    auth = flag_of(parse_help(HTTPIE, prog=("http",)), "--auth")
    assert auth is not None and auth.short == "-a" and auth.takes_value
    assert auth.value_name == "USER[:PASS] | TOKEN"
    assert auth.description.startswith("For username")


# -- clap 4 (ruff, uv) ---------------------------------------------------------------------------

RUFF_CHECK = """Run Ruff on the given files or directories

Usage: ruff check [OPTIONS] [FILES]...

Arguments:
  [FILES]...
          List of files or directories to check [default: .]

Options:
      --fix
          Apply fixes to resolve lint violations. Use `--no-fix` to disable or `--unsafe-fixes` to
          include unsafe fixes

      --preview
          Enable preview mode; checks will include unstable rules and fixes. Use `--no-preview` to
          disable

  -h, --help
          Print help (see a summary with '-h')
"""


RUFF_ANALYZE = """Run analysis over Python source code

Usage: ruff analyze [OPTIONS] <COMMAND>

Commands:
  graph  Generate a map of Python file dependencies or dependents
  help   Print this message or the help of the given subcommand(s)

Options:
  -h, --help
          Print help (see a summary with '-h')

Log levels:
  -v, --verbose
          Enable verbose logging
"""


def test_clap_long_help_summary_line_marks_clap():
    """clap 4's long help says "Print help (see a summary with '-h')": enough to tell clap from click."""
    assert detect_style(RUFF_ANALYZE) == "clap"


def test_use_no_x_to_disable_adds_the_negation():
    """ruff: "Use `--no-fix` to disable" names a hidden switch: --no-fix and --no-preview are found."""
    command = parse_help(RUFF_CHECK, prog=("ruff", "check"))
    spellings = {s for f in command.flags for s in f.spellings}
    assert {"--fix", "--no-fix", "--preview", "--no-preview"} <= spellings
    assert (
        "--unsafe-fixes" not in spellings
    )  # named in the same sentence, but to include, not to disable


UV_PIP_INSTALL = """Install packages into an environment

Usage: uv pip install [OPTIONS] <PACKAGE|--requirements <REQUIREMENTS>|--editable <EDITABLE>>

Arguments:
  [PACKAGE]...  Install all listed packages

Options:
  -r, --requirements <REQUIREMENTS>
          Install the packages listed in the given files
      --prerelease <PRERELEASE>
          The strategy to use when considering pre-release versions [env: UV_PRERELEASE=] [possible
          values: disallow, allow, if-necessary, explicit, if-necessary-or-explicit]
"""


def test_clap_arguments_section_names_the_operand_the_usage_folds():
    """uv pip install's usage hides PACKAGE in a group; its Arguments: entry makes it an operand."""
    command = parse_help(UV_PIP_INSTALL, prog=("uv", "pip", "install"))
    assert command.parser == "clap"
    assert [(p.name, p.required, p.variadic) for p in command.positionals] == [
        ("PACKAGE", False, True)
    ]
    assert command.positionals[0].description == "Install all listed packages"


def test_hyphenated_choice_containing_or_stays_one_word():
    """`if-necessary-or-explicit` is one choice, not split at its `or`."""
    prerelease = flag_of(parse_help(UV_PIP_INSTALL, prog=("uv", "pip", "install")), "--prerelease")
    assert prerelease.choices[-1] == "if-necessary-or-explicit"
    assert len(prerelease.choices) == 5


# -- click (black) -------------------------------------------------------------------------------

BLACK = """Usage: black [OPTIONS] SRC ...

  The uncompromising code formatter.

Options:
  -W, --workers INTEGER RANGE     When Black formats multiple files, it may
                                  use a process pool.  [x>=1]
  -h, --help                      Show this message and exit.
"""


def test_click_integer_range_is_one_value_name():
    """click's `INTEGER RANGE` type is the value name; the description does not start with RANGE."""
    workers = flag_of(parse_help(BLACK, prog=("black",)), "--workers")
    assert workers.value_name == "INTEGER RANGE" and workers.type == "integer"
    assert workers.description.startswith("When Black")


# -- launcher scripts (pyenv shims) --------------------------------------------------------------

PYENV_SHIM = """#!/usr/bin/env bash
set -e
[ -n "$PYENV_DEBUG" ] && set -x

program="${0##*/}"

export PYENV_ROOT="/root/.pyenv"
exec "/root/.pyenv/libexec/pyenv" exec "$program" "$@"
"""


def test_pyenv_shim_is_a_launcher():
    """A script that only execs another program with "$@" is a launcher."""
    assert is_launcher(PYENV_SHIM)


@pytest.mark.parametrize(
    "script",
    [
        '#!/bin/sh\ncase "$1" in\n  deploy) shift; exec ./deploy.sh "$@" ;;\n  *) echo usage ;;\nesac\n',
        '#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  case "$1" in\n    --env) env="$2"; shift 2 ;;\n    *) break ;;\n'
        '  esac\ndone\nexec ./run "$@"\n',
        '#!/bin/sh\nrm -rf "$1"\n',
    ],
)
def test_scripts_with_their_own_dispatch_or_options_are_no_launchers(script):
    """A dispatch, an option loop of its own, or no exec "$@" at all: the script is read, not run."""
    assert not is_launcher(script)


def test_discover_probes_the_program_a_launcher_execs(tmp_path, monkeypatch):
    """discover() on a launcher script reads the help of the program it execs (here argparse)."""
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    program = tmp_path / "real.py"
    program.write_text(
        "import argparse\np = argparse.ArgumentParser(prog='shimmed')\n"
        "p.add_argument('--colour', choices=['red', 'blue'])\np.parse_args()\n"
    )
    shim = tmp_path / "shimmed"
    shim.write_text(f'#!/bin/sh\nexport X=1\nexec "{sys.executable}" "{program}" "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    tool = discover(str(shim), depth=0, cache=False)
    assert tool.root.parser == "argparse"
    assert flag_of(tool.root, "--colour").choices == ("red", "blue")


# -- typer (click under rich's panels) -----------------------------------------------------------

TYPER_DEPLOY = """
 Usage: typer-demo deploy [OPTIONS] {env}

 Deploy the widget to an environment.

\u256d\u2500 Arguments \u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e
\u2502 *    env      <str>  Target environment [required]                       \u2502
\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f
\u256d\u2500 Options \u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e
\u2502    --force     -f                  <bool>        Skip checks                   \u2502
\u2502    --output    -o                  <json|table>  Output format [default: table] \u2502
\u2502 *  --token                         <str>         The API token [required]      \u2502
\u2502    --dry-run       --no-dry-run    <bool>        Only print [default: dry-run] \u2502
\u2502    --help                          <bool>        Show this message and exit.   \u2502
\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f
"""


def test_rich_panels_read_as_click_sections():
    """typer's panels are sections: detected as click, the usage read, the operand found with its help."""
    assert detect_style(TYPER_DEPLOY) == "click"
    command = parse_help(TYPER_DEPLOY, prog=("typer-demo", "deploy"))
    assert command.usage == ("typer-demo deploy [OPTIONS] {env}",)
    assert command.summary == "Deploy the widget to an environment."
    assert [(p.name, p.description) for p in command.positionals] == [
        ("env", "Target environment [required]")
    ]


def test_typer_columns_are_spellings_values_and_switches():
    """typer's columns: -f is --force's short, --no-dry-run its negation, <bool> a switch, <a|b> choices."""
    command = parse_help(TYPER_DEPLOY, prog=("typer-demo", "deploy"))
    force, output = flag_of(command, "--force"), flag_of(command, "--output")
    assert force.short == "-f" and not force.takes_value
    assert (
        output.short == "-o" and output.choices == ("json", "table") and output.default == "table"
    )
    assert flag_of(command, "--token").required and flag_of(command, "--token").takes_value
    dry_run = flag_of(command, "--dry-run")
    assert dry_run.aliases == ("--no-dry-run",) and not dry_run.takes_value


def test_launcher_may_set_variables_for_the_program():
    """`PYTHONPATH=lib exec python app.py "$@"` is a launcher too."""
    assert is_launcher('#!/bin/sh\nPYTHONPATH=/opt/lib exec /usr/bin/python3 /opt/app.py "$@"\n')


def test_clap_subcommand_aliases_after_the_summary():
    """clap's "[aliases: i, add]" after a subcommand's summary: aliases, not summary text."""
    text = """Usage: tool [OPTIONS] <COMMAND>

Commands:
  install  Install a package [aliases: i, add]
  remove   Remove a package [alias: rm]
  help     Print this message or the help of the given subcommand(s)

Options:
  -h, --help  Print help
"""
    command = parse_help(text, prog=("tool",))
    install, remove = command.find(("install",)), command.find(("remove",))
    assert install.aliases == ("i", "add") and install.summary == "Install a package"
    assert remove.aliases == ("rm",) and command.find(("rm",)) is remove


def test_rich_click_rows_with_a_short_column_and_a_slash_negation():
    """rich-click: "--type  -t  [csv|json]  ..." and "--debug/--no-debug" (no spaces round the slash)."""
    text = """
 Usage: sync-tool [OPTIONS] COMMAND [ARGS]...

\u256d\u2500 Options \u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e
\u2502 --type        -t  [csv|json]  Type of file to sync [default: csv] \u2502
\u2502 --debug/--no-debug            Enable debug mode                 \u2502
\u2502 --help                        Show this message and exit.       \u2502
\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f
\u256d\u2500 Commands \u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e
\u2502 download   Pretend to download some files                        \u2502
\u2502 sync       Synchronise all your files                            \u2502
\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f
"""
    command = parse_help(text, prog=("sync-tool",))
    assert command.parser == "click"
    assert [s.name for s in command.subcommands] == ["download", "sync"]
    kind = flag_of(command, "--type")
    assert kind.short == "-t" and kind.choices == ("csv", "json") and kind.default == "csv"
    debug = flag_of(command, "--debug")
    assert debug.aliases == ("--no-debug",) and not debug.takes_value


def test_argparse_default_none_is_no_default():
    """ArgumentDefaultsHelpFormatter's "(default: None)" means the option has no default."""

    def build(parser):
        parser.formatter_class = argparse.ArgumentDefaultsHelpFormatter
        parser.add_argument("--name", help="the name")
        parser.add_argument("--limit", type=int, default=10, help="max items")

    command = parse_help(_argparse_help(build), prog=("tool",))
    assert flag_of(command, "--name").default is None
    assert flag_of(command, "--limit").default == "10"
