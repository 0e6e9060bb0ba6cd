"""Whether a command takes "--", as its grammar says (Command.double_dash, wrapgen/parse/double_dash.py)."""

from __future__ import annotations

import textwrap

import pytest

from conftest import REPO
from wrapgen.model.tool import Command, Tool
from wrapgen.parse import parse_help
from wrapgen.parse.double_dash import double_dash, said_by_family_only, usage_shows_double_dash
from wrapgen.parse.script import read_shell_script

HELP = REPO / "tests" / "fixtures" / "help"


@pytest.mark.parametrize(
    "line",
    [
        "git log [<options>] [<revision-range>] [[--] <path>...]",
        "npm run-script <command> [-- <args>]",
        "tool [options] -- FILE...",
        "tool [options] [--] PATTERN",
        "tool [OPTIONS] PATTERN --",
    ],
)
def test_a_usage_line_showing_double_dash_says_taken(line):
    """A usage line with a literal "--" word shows the command takes it."""
    assert usage_shows_double_dash([line])
    assert double_dash(Command(usage=(line,), parser="gnu")) is True


@pytest.mark.parametrize(
    "line", ["tool [--all] [--color=WHEN] FILE", "tool --from-file=FILE", "tool [-a|--all]"]
)
def test_long_flags_are_no_double_dash(line):
    """A "--" that begins a long flag says nothing."""
    assert not usage_shows_double_dash([line])
    assert double_dash(Command(usage=(line,), parser="gnu")) is None


def test_a_listed_double_dash_row_or_sentence_says_taken():
    """The help listing "--" as an option, or saying it ends the options, shows it is taken."""
    row = "Options:\n  -a, --all        all\n  --               terminates argument processing\n"
    assert double_dash(Command(parser="gnu"), row) is True
    said = "Use -- to mark the end of the options, before a name that starts with a dash.\n"
    assert double_dash(Command(parser="man"), said) is True
    assert double_dash(Command(parser="gnu"), "  --all   do everything -- quickly\n") is None


@pytest.mark.parametrize(
    ("parser", "expected"),
    [("argparse", True), ("cobra", True), ("clap", True), ("gnu", None), ("man", None), ("", None)],
)
def test_the_parser_family_decides_where_the_usage_is_silent(parser, expected):
    """A parser family that always takes "--" says so; a hand-rolled-looking help says nothing."""
    assert double_dash(Command(usage=("tool [options] FILE",), parser=parser)) is expected


def test_parse_help_records_it_and_a_silent_gnu_page_stays_unknown():
    """parse_help sets double_dash from the grammar; a gnu page that never shows "--" leaves it None."""
    jq = parse_help((HELP / "gnu" / "jq.txt").read_text(), prog=("jq",))
    assert jq.double_dash is True  # its option table lists "--"
    silent = "Usage: widget [OPTIONS] FILE\n\nOptions:\n  -v, --verbose   say more\n"
    assert parse_help(silent, prog=("widget",), style="gnu").double_dash is None
    argparse = (
        "usage: tool [-h] file\n\npositional arguments:\n  file\n\noptions:\n  -h, --help  show\n"
    )
    assert parse_help(argparse, prog=("tool",), style="argparse").double_dash is True


def test_the_model_round_trips_it_and_leaves_it_out_when_unknown():
    """to_dict writes double_dash only when known; from_dict reads it back."""
    for value in (True, False):
        command = Command(path=("x",), double_dash=value)
        assert command.to_dict()["double_dash"] is value
        assert Command.from_dict(command.to_dict()) == command
    assert "double_dash" not in Command(path=("x",)).to_dict()
    tool = Tool(name="t", root=Command(double_dash=False))
    assert Tool.from_dict(tool.to_dict()).root.double_dash is False


_SCRIPT = textwrap.dedent(
    """\
    #!/bin/bash
    usage() { echo "usage: svc COMMAND"; }
    deploy() {
      while [ $# -gt 0 ]; do
        case "$1" in
          -e|--env) env="$2"; shift 2 ;;
          *) name="$1"; shift ;;
        esac
      done
      echo "deploying $name"
    }
    show() {
      while [ $# -gt 0 ]; do
        case "$1" in
          --) shift; name="${1:-}"; break ;;
          *) name="$1"; shift ;;
        esac
      done
    }
    tail_log() {
      while getopts "n:" opt; do :; done
    }
    case "$1" in
      deploy) shift; deploy "$@" ;;
      show) shift; show "$@" ;;
      log) shift; tail_log "$@" ;;
      status) echo ok ;;
      *) usage ;;
    esac
    """
)


def test_a_script_takes_double_dash_only_where_its_code_reads_it():
    """A dispatch arm whose option loop has no "--)" arm (and no getopts) reads "--" as a word."""
    root, _ = read_shell_script(_SCRIPT, prog="svc")
    by_name = {c.name: c.double_dash for c in root.subcommands}
    assert by_name == {"deploy": False, "show": True, "log": True, "status": False}
    assert root.double_dash is False  # no option loop of its own outside the dispatch


def test_a_double_dash_only_the_family_look_says_is_said_by_the_family_only():
    """True from a parser family's look alone is marked so (a trial checks it); one the usage or
    the help shows is the grammar's; a silent gnu help is None, not the family's."""
    family = Command(usage=("tool [OPTIONS] <FILE>",), parser="clap")
    family = Command(usage=family.usage, parser="clap", double_dash=double_dash(family))
    assert family.double_dash is True and said_by_family_only(family)
    shown = Command(usage=("tool [OPTIONS] [--] <FILE>",), parser="clap", double_dash=True)
    assert not said_by_family_only(shown)
    silent = Command(usage=("tool [options] FILE",), parser="gnu")
    assert double_dash(silent) is None and not said_by_family_only(silent)
