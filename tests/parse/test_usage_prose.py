"""Words of a usage line that are prose are no operands (wrapgen/parse/usage.py ``_prose_words``)."""

from __future__ import annotations

import pytest

from wrapgen.parse import parse_help
from wrapgen.parse.usage import usage_literals, usage_positionals, usage_subcommands


def _operands(line: str, prog=("tool",)) -> list[tuple[str, bool, bool]]:
    return [(p.name, p.required, p.variadic) for p in usage_positionals([line], prog=prog)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a remark in brackets, with a sentence's punctuation and prose words
        (
            "tool [-h] [-v] [more options; see below] [-m MODULE] [files ...]",
            [("files", False, True)],
        ),
        # a remark in braces and bare prose words: no operand "zero", "file" or "names"
        ("tool [flags] {more flags; see the manual}", []),
        ("tool [options] see the manual for more", []),
        ("tool [one or more options]", []),
        # a phrase about options among other words
        ("tool [verb-dependent options ...] FILE", [("FILE", True, False)]),
        # the tool's own name again starts another form
        ("tool [options] [file ...] | tool --version", [("file", False, True)]),
        ("tool tool", []),
    ],
)
def test_prose_is_no_operand(line, expected):
    """A remark, a phrase about options or the tool's name repeated names no operand."""
    assert _operands(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("prog [-h] infile outfile", [("infile", True, False), ("outfile", True, False)]),
        # "or" alone joins two operands given one of two ways
        (
            "gdb [options] [executable-file [core-file or process-id]]",
            [("executable-file", False, False), ("core-file|process-id", False, False)],
        ),
        ("tool [options] <source> <dest>", [("source", True, False), ("dest", True, False)]),
    ],
)
def test_grammar_stays_operands(line, expected):
    """Placeholders, bare argparse operands and alternatives joined by "or" are still operands."""
    assert _operands(line, prog=(line.split()[0],)) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("tool [flags] {zero or more file names}", [("FILE", False, True)]),
        ("tool [options] zero or more file names", [("FILE", False, True)]),
        ("tool [more options; see below] [zero or more file names]", [("FILE", False, True)]),
        ("tool [options] one or more input files", [("FILE", True, True)]),
        ("tool [options] [one or more paths]", [("PATH", False, True)]),
        ("tool [options] any number of directories", [("DIRECTORY", False, True)]),
        ("tool [options] zero or more widgets", []),  # no path noun: a remark, no operand
    ],
)
def test_a_remark_that_counts_files_is_their_operand(line, expected):
    """ "zero or more file names" is one optional FILE... operand (never "zero", "file", "names")."""
    assert _operands(line) == expected


def test_no_subcommand_or_literal_from_prose_or_the_tools_name():
    """A remark names no subcommand; the tool's name repeated is no literal subcommand word."""
    assert "more" not in usage_subcommands(
        ["tool [-h] [more options; see below] [files ...]"], prog=("tool",)
    )
    assert usage_literals(["tool tool", "tool ship new <name>"], prog=("tool",)) == ["ship"]


def test_a_parsed_page_keeps_its_real_operands_only():
    """An argparse page whose usage holds a remark gets only its real operands."""
    page = (
        "usage: checker [-h] [-v] [more options; see below]\n"
        "               [-m MODULE] [files ...]\n\n"
        "positional arguments:\n  files       files to check\n\n"
        "options:\n  -h, --help  show this help\n  -v          verbose\n"
        "  -m MODULE   a module\n"
    )
    command = parse_help(page, prog=("checker",), style="argparse")
    assert [p.name for p in command.positionals] == ["files"]
    assert not any(p.required for p in command.positionals)


def test_a_remark_naming_an_operand_in_passing_is_prose():
    """ "put [options] <key> <value> (<value> can also be given from stdin)": the remark names
    <value> in passing, its other words are no operands ("can", "also", "be", ...); a group of
    operands joined by "or" is still one operand."""
    from wrapgen.parse.usage import usage_positionals

    line = "kvctl put [options] <key> <value> (<value> can also be given from stdin) [flags]"
    names = [p.name for p in usage_positionals([line], prog=("kvctl", "put"))]
    assert names == ["key", "value"]
    joined = usage_positionals(["kvctl get <a> [<b> or <c>]"], prog=("kvctl", "get"))
    assert [p.name for p in joined] == ["a", "b|c"]
