"""A listing row that names a topic's range of work ("ps  manage app dynos") is not what the bare
command does: its own help's first line is ("list dynos for an app"). Captured help of an oclif CLI
(tests/fixtures/help/oclif/heroku_*.txt) with the rows its top-level help gives them."""

from __future__ import annotations

import pytest

from conftest import FIXTURES
from wrapgen.model.tool import Command
from wrapgen.parse import parse_help
from wrapgen.propose.policy import classify


def _own(name: str) -> Command:
    text = (FIXTURES / "help" / "oclif" / f"heroku_{name}.txt").read_text()
    return parse_help(text, prog=("heroku", name), style="oclif")


@pytest.mark.parametrize(
    ("name", "row"), [("ps", "manage app dynos"), ("apps", "manage apps on Heroku")]
)
def test_a_topic_row_leaves_the_effect_to_the_commands_own_first_line(name, row):
    command = _own(name).with_changes(path=(name,), summary=row)
    guess = classify(command, tool_name="heroku")
    assert guess.effect == "read", guess.reason
    # the row alone, as a command whose own help says nothing more: the row's verb decides
    alone = command.with_changes(description="")
    assert classify(alone, tool_name="heroku").effect == "write"


def test_a_row_with_no_verb_takes_the_own_line_and_a_row_with_one_keeps_it():
    addons = Command(
        path=("addons",),
        summary="tools and services for developing, extending, and operating your app",
        description="Lists your add-ons and attachments.\n\nThe default filter applies ...",
    )
    assert classify(addons, tool_name="heroku").effect == "read"
    # a row that says what the command does is kept: its own line cannot make a delete a read
    drop = Command(
        path=("drop",),
        summary="Delete a database",
        description="List what would be lost, then drop it",
    )
    assert classify(drop, tool_name="heroku").effect == "destructive"
    # a family's own help that repeats the row adds nothing
    networks = Command(path=("network",), summary="Manage networks", description="Manage networks")
    assert classify(networks).effect == "write"
