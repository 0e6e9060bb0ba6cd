"""wrapgen.parse.exit_status: what a tool's help or man page says its exit statuses mean, from real captures
(tests/fixtures/help/) and the forms they are written in."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.model.tool import Command
from wrapgen.parse import parse_help
from wrapgen.parse.exit_status import exit_statuses
from wrapgen.parse.styles.man import roff_to_text

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def _read(name: str) -> str:
    text = (HELP / name).read_text(encoding="utf-8", errors="replace")
    return roff_to_text(text) if text.lstrip().startswith((".", "'")) or "\n.SH" in text else text


@pytest.mark.parametrize(
    "fixture, expected",
    [
        (
            "man/grep.txt",
            {0: "a line is selected", 1: "no lines were selected", 2: "an error occurred"},
        ),
        (
            "man/rg.txt",
            {0: "ripgrep finds a match", 1: "no match could be found", 2: "an error occurred"},
        ),
        ("man/diff.txt", {0: "inputs are the same", 1: "different", 2: "trouble"}),
        ("man/cmp.txt", {0: "inputs are the same", 1: "different", 2: "trouble"}),
        ("man/tar.txt", {0: "Successful termination", 1: "Some files differ", 2: "Fatal error"}),
        (
            "man/xz.txt",
            {
                0: "All is good",
                1: "An error occurred",
                2: "Something worth a warning occurred, but no actual errors occurred",
            },
        ),
        ("man/ssh.txt", {255: "an error occurred"}),
        ("man/find.txt", {0: "all files are processed successfully"}),
        ("gnu/diff.txt", {0: "inputs are the same", 1: "different", 2: "trouble"}),
        (
            "gnu/grep.txt",
            {
                0: "any line is selected",
                1: "not any line is selected",
                2: "any error occurs and -q is not given",
            },
        ),
        ("gnu/ls.txt", {0: "OK", 1: "minor problems", 2: "serious trouble"}),
        (
            "cobra/restic_backup.txt",
            {
                0: "the command was successful",
                1: "there was a fatal error",
                3: "some source data could not be read",
            },
        ),
    ],
)
def test_real_pages(fixture, expected):
    """Each captured page gives exactly the codes it documents, in the tool's words, sorted."""
    assert exit_statuses(_read(fixture)) == tuple(sorted(expected.items()))


def test_a_statement_inside_a_flags_help_is_read():
    """jq(1) says under -e how jq exits normally; black's --check says what its codes mean; git diff's
    --exit-code that 1 means differences (each clause its own: not "... and 0 means no differences")."""
    assert exit_statuses(_read("man/jq.txt")) == (
        (0, "the jq program ran"),
        (2, "there was any usage problem or system error"),
        (3, "there was a jq program compile error"),
    )
    assert exit_statuses(_read("click/black.txt"))[1:] == (
        (1, "some files would be reformatted"),
        (123, "there was an internal error"),
    )
    assert dict(exit_statuses(_read("man/git_diff.txt")))[1] == "there were differences"
    said = 'Disable all logging (but still exit with status code "1" upon detecting diagnostics.)'
    assert exit_statuses(said.replace("(", "").replace(")", "")) == ((1, "detecting diagnostics"),)


@pytest.mark.parametrize("fixture", ["man/git.txt", "gnu/curl.txt", "clap/rg.txt", "cobra/gh.txt"])
def test_pages_without_a_statement_give_nothing(fixture):
    """Pages that document no exit statuses give ()."""
    path = HELP / fixture
    if not path.exists():
        pytest.skip(f"no fixture {fixture}")
    assert exit_statuses(_read(fixture)) == ()


def test_greater_than_is_no_code():
    """find(1)'s "greater than 0 if errors occur" declares no code 0 for errors."""
    text = "EXIT STATUS\n       find exits with status 0 if all is well, greater than 0 if errors occur.\n"
    assert exit_statuses(text) == ((0, "all is well"),)


def test_otherwise_negates_the_first_condition():
    """ "0 if X, 1 otherwise": 1 means "not X"."""
    assert exit_statuses("Exit status is 0 if a file matched, 1 otherwise.") == (
        (0, "a file matched"),
        (1, "not a file matched"),
    )


def test_first_statement_wins_and_parentheses_go():
    """A code stated twice keeps its first meaning; "(e.g. ...)" asides are dropped."""
    text = (
        "EXIT CODES\n       If nothing was found (e.g. an empty tree), then the exit status is 1.\n\n"
        "       o   1 exit status occurs only when nothing else happened.\n"
    )
    assert exit_statuses(text) == ((1, "nothing was found"),)


def test_long_meaning_is_cut_at_a_word():
    """A meaning longer than 80 characters is cut at a word and ends with an ellipsis."""
    text = "Exit status is 1 if " + "the quick brown fox jumps over the lazy dog " * 4 + "."
    ((code, meaning),) = exit_statuses(text)
    assert code == 1 and len(meaning) <= 80 and meaning.endswith("…") and " dog" in meaning


def test_out_of_range_and_garbage():
    """Numbers above 255 are no exit status; arbitrary or empty text gives () and never raises."""
    assert exit_statuses("Exit status is 300 if odd.") == ()
    assert exit_statuses("") == ()
    assert exit_statuses("\x00" * 50 + "EXIT STATUS\n\n 7\n") == ()


def test_parse_help_records_it_on_the_command():
    """parse_help puts them on the Command, and to_dict/from_dict round-trip them as {"1": ...}."""
    command = parse_help(_read("gnu/diff.txt"), prog=("diff",))
    assert command.exit_status == ((0, "inputs are the same"), (1, "different"), (2, "trouble"))
    data = command.to_dict()
    assert data["exit_status"] == {"0": "inputs are the same", "1": "different", "2": "trouble"}
    assert Command.from_dict(data) == command


def test_man_parser_reads_roff():
    """The man parser reads EXIT STATUS from roff source (what discovery reads), before dropping the section."""
    roff = (HELP / "man/grep.txt").read_text(encoding="utf-8")
    assert (
        dict(parse_help(roff, prog=("grep",), style="man").exit_status)[1]
        == "no lines were selected"
    )


def test_no_statement_leaves_the_model_unchanged():
    """A command without exit statuses serialises without the key (older goldens unchanged)."""
    assert "exit_status" not in Command(path=("x",)).to_dict()
