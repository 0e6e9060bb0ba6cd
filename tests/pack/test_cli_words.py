"""Which command a verb's cli[] runs: its words after the bin, past a leading root option."""

from __future__ import annotations

from wrapgen.check.drift import verb_path
from wrapgen.model.tool import Command
from wrapgen.pack.cli_words import subcommand_path


def test_the_words_after_the_bin_up_to_a_flag_or_slot():
    assert subcommand_path(["wg", "pr", "list", "--state={{state}}"]) == ("pr", "list")
    assert subcommand_path(["wg", "{{file}}"]) == ()
    assert subcommand_path(["wg", "--all", "list"]) == ()  # a literal flag first: no words
    assert subcommand_path("wg pr list") == ()  # not a cli[]


def test_a_root_option_written_before_the_words_is_passed_over():
    """`wg --app={{app}} inspect active`: the root option leads (propose's leading_options); the
    command is still `inspect active`, for drift, check --probe and the sandbox facts alike."""
    cli = ["wg", "--app={{app}}", "inspect", "active", "--timeout={{timeout}}"]
    assert subcommand_path(cli) == ("inspect", "active")
    root = Command(
        path=(),
        subcommands=(
            Command(
                path=("inspect",),
                subcommands=(Command(path=("inspect", "active"), summary="Active tasks"),),
            ),
        ),
    )
    assert verb_path(root, cli) == ("inspect", "active")
