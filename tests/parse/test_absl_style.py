"""Abseil flags help: switches with their negation, valued flags with choices, defaults and types,
a command's own flags apart from the program's, the command's usage and operands."""

from __future__ import annotations

from conftest import flag_of
from wrapgen.parse import parse_help
from wrapgen.parse.detect import detect_style

PROGRAM = """\
Command-line tool for the widget store.


USAGE: store.py [--global_flags] <command> [--command_flags] [args]



Global flags:

/opt/store/store.py:
  --api: Where the store's API answers.
    (default: 'https://store.example')
  --format: <none|json|pretty>: How to print results.
  --[no]quiet: Say less.
    (default: 'false')

Run 'store.py help' to see the list of available commands.
Run 'store.py help <command>' to get help for <command>.

Try --helpfull to get a list of all flags.
"""

COMMAND = """\
Command-line tool for the widget store.


USAGE: store.py [--global_flags] <command> [--command_flags] [args]


fetch                      Fetch widgets by name.

                           Usage:
                           fetch <widget_name> [<more_names>]

                           Flags for fetch:

                             store.commands.fetch:
                               --[no]dry_run: Only say what would be fetched.
                                 (default: 'false')
                               -n,--max_items: How many widgets to fetch at
                                 most.
                                 (default: '100')
                                 (an integer)
                               --label: A label to match.;
                                 repeat this option to specify a list of values
                                 (default: '[]')
"""


def test_the_style_is_detected():
    """Both pages read as absl."""
    assert detect_style(PROGRAM) == "absl" and detect_style(COMMAND) == "absl"


def test_the_programs_flags_are_global_with_choices_defaults_and_switches():
    """`--[no]quiet` is a switch with `--noquiet`; `--format` takes one of its <choices>."""
    root = parse_help(PROGRAM, prog=("store",))
    assert root.parser == "absl" and root.summary == "Command-line tool for the widget store"
    assert not root.flags
    quiet = flag_of(root, "--quiet")
    assert not quiet.takes_value and "--noquiet" in quiet.spellings and quiet.default == "false"
    fmt = flag_of(root, "--format")
    assert fmt.takes_value and fmt.choices == ("none", "json", "pretty")
    assert flag_of(root, "--api").default == "https://store.example"


def test_a_commands_page_gives_its_flags_usage_and_operands():
    """`help fetch`: its summary, its own flags (a short spelling, an integer), its operands."""
    fetch = parse_help(COMMAND, prog=("store", "fetch"))
    assert fetch.summary == "Fetch widgets by name"
    assert fetch.usage == ("store fetch <widget_name> [<more_names>]",)
    assert [(p.name, p.required) for p in fetch.positionals] == [
        ("widget_name", True),
        ("more_names", False),
    ]
    most = flag_of(fetch, "--max_items")
    assert most.short == "-n" and most.type == "integer" and most.default == "100"
    assert most.description == "How many widgets to fetch at most."
    label = flag_of(fetch, "--label")
    assert label.repeatable and label.description == "A label to match." and label.default is None
    assert not flag_of(fetch, "--dry_run").takes_value
