"""A preamble line about the help page itself ("Printing options tagged with '#basic'.") is no
summary of the tool: read as one, a downloader's main mode was named `show` and proposed as a read
(its help said 'Print'). A command whose work is listing commands keeps its summary."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.parse import parse_help


def test_a_line_about_the_page_is_no_summary():
    text = (FIXTURES / "help" / "gnu" / "aria2c.txt").read_text()
    command = parse_help(text, prog=("aria2c",))
    assert command.summary == ""
    assert any(f.long == "--out" for f in command.flags)  # the page is read all the same


def test_a_summary_that_lists_commands_is_kept():
    text = (FIXTURES / "help" / "symfony" / "composer_list.txt").read_text()
    assert parse_help(text, prog=("composer", "list")).summary == "List commands"
    text = "Show the options of a build profile.\n\nUsage: tool profile NAME\n"
    assert parse_help(text, prog=("tool", "profile")).summary.startswith("Show the options")


def test_a_banner_heading_the_paragraph_does_not_hide_the_summary():
    """clap 2 prints the name and version, the author and what the tool is as one paragraph: the
    banner lines come off and the sentence after them is the summary; a banner alone says nothing."""
    text = (FIXTURES / "help" / "clap" / "hexyl.txt").read_text()
    assert parse_help(text, prog=("hexyl",)).summary == "A command-line hex viewer"
    text = (
        "viewer 1.2.0\nAda Lovelace <ada@example.org>\nShow files as tables\n\n"
        "USAGE:\n    viewer [FILE]\n"
    )
    assert parse_help(text, prog=("viewer",)).summary == "Show files as tables"
    text = "viewer 1.2.0\n\nUSAGE:\n    viewer [FILE]\n"
    assert parse_help(text, prog=("viewer",)).summary == ""
