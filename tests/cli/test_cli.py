"""The wrapgen command line itself: dispatch and usage errors (what README.md promises: tests/docs)."""

from __future__ import annotations

import re


def test_help_lists_every_command(cli):
    """`wrapgen --help` names each subcommand with its summary."""
    from wrapgen.cli.main import COMMANDS

    result = cli("--help")
    assert result.exit_code == 0
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", result.stdout, re.M), name


def test_unknown_command_suggests_the_closest(cli):
    """A typo in the command name is a usage error (exit 2) that suggests the right name."""
    result = cli("wrpa")
    assert result.exit_code == 2
    assert "unknown command 'wrpa'" in result.stderr
    assert "wrapgen wrap" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_command_module_exists():
    """Each subcommand in the table has a module with add_arguments and run."""
    import importlib

    from wrapgen.cli.main import COMMANDS

    for name, (module_name, _) in COMMANDS.items():
        module = importlib.import_module(module_name)
        assert callable(module.add_arguments), name
        assert callable(module.run), name
