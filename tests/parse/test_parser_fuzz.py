"""Fuzz: parse_help and detect_style never raise and finish quickly on any text."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.bounds import HANG_S, alarm

from wrapgen.model.tool import Command
from wrapgen.parse import detect_style, parse_help, style_names

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"
FIXTURES = sorted(HELP.glob("*/*.txt"))
TEXTS = [p.read_text(encoding="utf-8", errors="replace") for p in FIXTURES]

# Characters that matter to the grammars, so random text hits the interesting paths.
ALPHABET = st.sampled_from(
    list(" \t\n-=[]<>{}()|,.:;'\"`$#*\\/_") + list("aAzZ09") + ["\x1b[1m", "\x08", "\x00", "é"]
)
HELPISH = st.lists(ALPHABET, max_size=400).map("".join)
LINES = st.lists(
    st.sampled_from(
        [
            "Usage: x [OPTIONS] <a> [b]...",
            "Options:",
            "FLAGS",
            "  -a, --all  all",
            "  --color[=WHEN]  c",
            "      --limit int   n (default 30)",
            "Commands:",
            "  run   Run it",
            "  pr:  prs",
            "    -w, --watch=false:",
            "\tIf true",
            ".SH OPTIONS",
            ".TP",
            "\\fB\\-a\\fR",
            "usage: x [-h] {a,b}",
            "positional arguments:",
            "  {a,b}",
            "    a   aa",
            "",
            "   or: git x",
            "  -h --help  Show",
            "[possible values: a, b]",
        ]
    ),
    max_size=40,
).map("\n".join)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(text, style=None) -> Command:
    with alarm(HANG_S):
        command = parse_help(text, prog=("tool", "sub"), style=style)
        assert detect_style(text) in style_names()
    assert isinstance(command, Command) and command.path == ("sub",)
    command.to_dict()  # the model must serialise whatever was read
    return command


@FAST
@given(HELPISH)
def test_arbitrary_text(text):
    """Random text over the grammar's characters parses without raising."""
    check(text)


@FAST
@given(
    LINES,
    st.sampled_from(sorted(["gnu", "argparse", "click", "cobra", "clap", "git", "man", "docopt"])),
)
def test_help_like_lines_in_every_style(text, style):
    """Shuffled help-like lines parse in every style without raising."""
    check(text, style)


@FAST
@given(st.binary(max_size=600))
def test_binary(data):
    """Binary output (bytes, undecodable) parses without raising."""
    check(data)


@FAST
@given(
    st.integers(0, len(TEXTS) - 1),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 200), HELPISH), max_size=4),
)
def test_mutated_fixtures(index, edits):
    """Real help with slices cut out and junk spliced in parses without raising."""
    text = TEXTS[index]
    for at, cut, junk in edits:
        at %= len(text) + 1
        text = text[:at] + junk + text[at + cut :]
    check(text)


def test_megabytes_finish():
    """Megabytes of help-like text (options, listings, one endless line) are read to the end (a
    reading that is not linear would take hours here: the bound only catches that)."""
    big = ("  -a, --all   every thing [default: x]\n  run   Run it\n" * 60_000) + ("x" * 2_000_000)
    with alarm(HANG_S):
        command = parse_help(big, prog=("tool",))
    assert command.flags  # still read what fits under the cap


USAGE_WORDS = st.sampled_from(
    [
        "[a",
        "b]",
        "[global",
        "options]",
        "<x>",
        "<y z>",
        "|",
        "(",
        ")",
        "{",
        "}",
        "...",
        "...]",
        "-f",
        "--long",
        "[--]",
        "--",
        "[-46A]",
        "[-B",
        "value]",
        "FILE",
        "[FILE]...",
        "cmd",
        "[command",
        "[args]",
        "x=1",
        "'q",
        '"a b"',
        "\\",
        "]]",
        "[[",
        "(-m",
        "--message)",
        "--[no-]x",
        "[=<v>]",
    ]
)


@FAST
@given(st.lists(st.lists(USAGE_WORDS, max_size=25).map(" ".join), min_size=1, max_size=4))
def test_usage_readers_terminate(lines):
    """Usage readers (operands, flags, literals, subcommands) never raise or loop on odd bracket soup."""
    from wrapgen.parse.usage import (
        usage_flags,
        usage_literals,
        usage_positionals,
        usage_subcommands,
    )

    with alarm(HANG_S):
        for prog in (("x",), ("x", "cmd")):
            usage_positionals(["x " + line for line in lines], prog=prog)
            usage_flags(["x " + line for line in lines], prog=prog)
            usage_literals(["x " + line for line in lines], prog=prog)
            usage_subcommands(["x cmd " + line for line in lines], prog=prog)
