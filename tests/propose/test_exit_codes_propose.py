"""propose's exit codes (wrapgen/propose/exitcodes.py, knowledge/data/exit_codes.json): documented statuses that
are answers become pack exit_codes with a short meaning and a reason; errors never do."""

from __future__ import annotations

import pytest
from support.propose import checked

from conftest import FIXTURES
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command, Tool
from wrapgen.parse import parse_help
from wrapgen.propose import propose
from wrapgen.propose.exitcodes import answer_codes, exit_codes_why


def _root(*statuses) -> Command:
    return Command(exit_status=tuple(statuses))


@pytest.mark.parametrize(
    "meaning, declared",
    [
        ("no lines were selected", "no matches"),  # grep(1)
        ("no match could be found", "no matches"),  # rg(1)
        ("not any line is selected", "no matches"),  # grep --help: "1 otherwise"
        ("nothing was found", "no matches"),
        ("different", "differences found"),  # diff(1), cmp(1)
        ("Some files differ", "differences found"),  # tar(1)
        ("some files would be reformatted", "changes needed"),  # a formatter's --check
        ("detecting diagnostics", "findings reported"),  # a linter
        ("lint errors were found", "findings reported"),  # "errors", yet an answer
        ("some of the tests failed", "tests failed"),  # a test runner: "failed", yet an answer
    ],
)
def test_answers(meaning, declared):
    """Meanings that say the tool answered "no" are declared, with the knowledge entry's short meaning."""
    assert answer_codes(_root((1, meaning))) == {"1": declared}


@pytest.mark.parametrize(
    "meaning",
    [
        "trouble",
        "an error occurred",
        "An error occurred",
        "Fatal error",
        "minor problems",
        "serious trouble",
        "Something worth a warning occurred, but no actual errors occurred",
        "some source data could not be read",
        "there was a fatal error",
        "the command was successful",
        "inputs differ but one could not be read",
        "there was an internal error",
        "errors occur",
        "A problem was detected in the HTTP/3 layer",  # curl(1) 95: no linter's finding
        "errors were found",
    ],
)
def test_errors_and_unknown_meanings_stay_errors(meaning):
    """Error words win over answer words; a meaning that is neither is not declared."""
    assert answer_codes(_root((1, meaning))) == {}


def test_zero_is_never_declared():
    """Status 0 is success: not declarable, whatever it means."""
    assert answer_codes(_root((0, "no matches were found"))) == {}


def test_why_quotes_the_tools_words():
    """The reason names the status and the tool's own words."""
    why = exit_codes_why(
        _root((0, "a line is selected"), (1, "no lines were selected"), (2, "an error occurred"))
    )
    assert (
        why
        == "exit 1: the tool documents it as 'no lines were selected', an answer (declared 'no matches')"
    )


def test_every_group_has_a_reason():
    """Each knowledge entry carries its reason; answers carry the meaning they declare."""
    data = load("exit_codes")
    assert all(entry.why for table in ("errors", "answers") for entry in data[table])
    assert {entry.value for entry in data["answers"]} == {"no matches", "differences found"}


def _tool(fixture: str, name: str, style: str) -> Tool:
    text = (FIXTURES / "help" / fixture).read_text(encoding="utf-8", errors="replace")
    return Tool(name=name, root=parse_help(text, prog=(name,), style=style))


@pytest.mark.parametrize(
    "fixture, name, style, expected",
    [
        ("man/grep.txt", "grep", "man", {"1": "no matches"}),
        ("gnu/diff.txt", "diff", "gnu", {"1": "differences found"}),
        ("man/tar.txt", "tar", "man", {"1": "differences found"}),
    ],
)
def test_propose_declares_them_and_the_pack_is_valid(fixture, name, style, expected):
    """A proposal from a page documenting answers declares them at pack level, says why, and passes check."""
    manifest = propose(_tool(fixture, name, style)).manifest
    assert manifest["exit_codes"] == expected
    assert manifest["x-why-exit_codes"].startswith("exit 1: the tool documents it as")
    assert checked(manifest) == []


@pytest.mark.parametrize(
    "fixture, name, style", [("gnu/ls.txt", "ls", "gnu"), ("man/xz.txt", "xz", "man")]
)
def test_propose_declares_nothing_for_error_statuses(fixture, name, style):
    """ls's and xz's documented statuses are all errors or warnings: no exit_codes in the pack."""
    manifest = propose(_tool(fixture, name, style)).manifest
    assert "exit_codes" not in manifest and "x-why-exit_codes" not in manifest


def test_a_mode_that_inverts_the_answer_declares_its_own_meaning():
    """rg's files-without-match exits 1 when every file matched: still an answer, with that meaning."""
    from wrapgen.propose.exitcodes import inverts_answers

    assert inverts_answers(("--files-without-match",)) and not inverts_answers(
        ("--files-with-matches",)
    )
    root = _tool("clap/rg.txt", "rg", "clap").root
    root = root.with_changes(
        exit_status=((0, "ripgrep finds a match"), (1, "no match could be found"))
    )
    manifest = propose(Tool(name="rg", root=root)).manifest
    assert manifest["exit_codes"] == {"1": "no matches"}
    by_mode = {
        verb["cli"][1] if len(verb["cli"]) > 1 else "": verb for verb in manifest["verbs"].values()
    }
    inverted = [v for v in manifest["verbs"].values() if "--files-without-match" in v["cli"]]
    assert inverted and all(v["exit_codes"] == {"1": "every file matched"} for v in inverted)
    others = [v for v in manifest["verbs"].values() if "--files-without-match" not in v["cli"]]
    assert others and all("exit_codes" not in v for v in others), by_mode
    assert checked(manifest) == []
