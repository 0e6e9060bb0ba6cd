"""Listings read from pages that do not look like one: a comma list broken at a hyphen, man-style
tagged listings of commands and groups."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import _HELP_FOR_COMMAND, _LISTING_POINTER

COMMA_LISTING = """\
A tool for tables.

USAGE: tool.py [--global_flags] <command> [--command_flags] [args]

Any of the following commands:
  add-policy-binding, cancel, cp, remove-policy-
  binding, rm, show


cancel                     Cancel a job.
"""

TAGGED = """\
NAME
    tool - manage the things

SYNOPSIS
    tool GROUP | COMMAND [--project=PROJECT]

GLOBAL FLAGS
     --project=PROJECT
        The project to use.

GROUPS
    GROUP is one of the following:

     config
        Manage the configuration.

     storage
        Manage buckets and objects.

COMMANDS
    COMMAND is one of the following:

     info
        Show what is installed.
"""


def test_a_comma_listing_keeps_a_name_broken_at_its_hyphen_whole():
    """ "remove-policy-" at a line's end and "binding" at the next one's start are one name."""
    names = [c.name for c in parse_help(COMMA_LISTING, prog=("tool",)).subcommands]
    assert "remove-policy-binding" in names and "binding" not in names
    assert names[:3] == ["add-policy-binding", "cancel", "cp"]


def test_man_style_groups_and_commands_are_subcommands():
    """Names alone on their lines under GROUPS / COMMANDS, their summaries below, are listed."""
    command = parse_help(TAGGED, prog=("tool",))
    found = {c.name: (c.group, c.summary) for c in command.subcommands}
    assert found == {
        "config": ("Groups", "Manage the configuration"),
        "storage": ("Groups", "Manage buckets and objects"),
        "info": ("Commands", "Show what is installed"),
    }


def test_a_root_help_pointing_at_its_command_listing_is_understood():
    """ "Run 'tool.py help' to see the list of available commands" names the listing's command;
    "'tool.py help <command>'" says a command's help is `help COMMAND`."""
    text = (
        "Run 'tool.py help' to see the list of available commands.\n"
        "Run 'tool.py help <command>' to get help for <command>.\n"
    )
    assert _LISTING_POINTER.search(text)["args"].split() == ["help"]
    assert _HELP_FOR_COMMAND.search(text)
    assert not _LISTING_POINTER.search("Run 'tool help' to set the global options.")


WIDE_FLAGS = """\
NAME
    tool config list - list the properties

SYNOPSIS
    tool config list [--all] [TOOL_WIDE_FLAG ...]

FLAGS
     --all
        List unset properties too.

TOOL WIDE FLAGS
    These flags are available to all commands: --access-token-file, --account,
    --billing-project, --configuration, --flags-file, --flatten, --format,
    --help, --project, --quiet, --verbosity.
"""


def test_a_sentence_listing_flags_is_no_flag():
    """A wrapped sentence naming the flags every command takes gives no flag with all their names."""
    command = parse_help(WIDE_FLAGS, prog=("tool", "config", "list"))
    assert [f.spellings for f in (*command.flags, *command.global_flags)] == [("--all",)]


PARTIAL_COMMAND = """\
Command "server" matches:
  server add fixed ip
  server add volume
  server create
  server list
  server show
"""


def test_a_partial_commands_page_of_whole_command_lines_lists_its_children():
    """A cloud client's `server --help` answers with the command lines it stands for: the word
    after the page's own is a child, a family once however many rows begin with it."""
    page = parse_help(PARTIAL_COMMAND, prog=("wg-cloud", "server"))
    assert [s.path for s in page.subcommands] == [
        ("server", "add"),
        ("server", "create"),
        ("server", "list"),
        ("server", "show"),
    ]
    assert all(s.stub for s in page.subcommands)
    deeper = parse_help(
        PARTIAL_COMMAND.replace('"server"', '"server add"'), prog=("wg-cloud", "server", "add")
    )
    assert deeper.subcommands == ()  # rows that do not begin with the page's words list nothing
    prose = "Usage notes:\n  server list is slow\n  use it well\n"
    assert parse_help(prose, prog=("wg-cloud", "server")).subcommands == ()
    one = parse_help('Command "server" matches:\n  server list\n', prog=("wg-cloud", "server"))
    assert one.subcommands == ()  # one row is no listing


def test_a_further_help_row_naming_the_listing_command_is_a_pointer():
    """ "gem help commands   list all 'gem' commands", a row of an indented "Further help:" table
    (tests/fixtures/help/gnu/gem.txt): the listing is `TOOL help commands`; a row that shows one
    command's help is none."""
    from wrapgen.probe.crawl import _LISTING_ROW

    text = (FIXTURES / "help" / "gnu" / "gem.txt").read_text()
    assert _LISTING_ROW.search(text)["args"].split() == ["help", "commands"]
    assert not _LISTING_ROW.search("    gem help <COMMAND>     show help on COMMAND\n")


def test_headings_indented_by_two_spaces_are_read():
    """gem's "  Usage:" and "  Examples:" over deeper rows: its usage lines and examples are read
    (before, the page had no heading, and discovery read nothing from it)."""
    command = parse_help((FIXTURES / "help" / "gnu" / "gem.txt").read_text(), prog=("gem",))
    assert "gem command [arguments...] [options...]" in command.usage
    assert "gem install rake" in command.examples
