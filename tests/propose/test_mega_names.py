"""A command named like a mega-command (``run``, ``exec``, ``eval``, ``x``) is one only where its
summary does not say it does other work: an archiver's one-letter ``x`` extracts, a YAML
processor's ``eval`` applies an expression; ``docker run``-like and ``exec``-like summaries that
speak of running keep the name's reading, and so does a command with no summary."""

from __future__ import annotations

import pytest
from support.propose import checked, chosen

from wrapgen.knowledge.commands import MEGA_REASON
from wrapgen.model.tool import Command, Positional, Tool
from wrapgen.propose import propose
from wrapgen.propose.select import Candidate, exclusion_reason


def _reason(name: str, summary: str) -> str | None:
    command = Command(path=(name,), summary=summary)
    return exclusion_reason(Candidate(path=(name,), command=command), "tool")


@pytest.mark.parametrize(
    "name, summary",
    [
        ("x", "eXtract files with full paths"),
        ("eval", "(default) Apply the expression to each document in each yaml file in sequence"),
        ("x", "Unpack the archive into the current folder"),
    ],
)
def test_a_mega_name_whose_summary_names_other_work_is_proposed(name, summary):
    assert _reason(name, summary) is None


@pytest.mark.parametrize(
    "name, summary",
    [
        ("run", "Create and run a new container from an image"),
        ("exec", "Execute a command in a running container"),
        ("x", "Execute a package binary, installing it if needed"),
        ("eval", "Evaluate the arguments as a shell command"),
        ("run", "Runs a defined package script."),
        ("x", ""),
        ("exec", "Enter the container's namespaces"),  # a verb the tables do not know
    ],
)
def test_a_mega_name_whose_summary_speaks_of_running_or_says_nothing_stays_out(name, summary):
    assert _reason(name, summary) == MEGA_REASON


def test_the_verb_of_such_a_command_is_named_for_its_work_and_checks_clean():
    """Named ``x`` with a list operand, check's W008 would refuse it as a forwarded command line:
    the verb is named for the work its summary names as well (the full held-out run found one)."""
    extract = Command(
        path=("x",),
        summary="eXtract files with full paths",
        positionals=(
            Positional(name="archive", required=True),
            Positional(name="files", required=False, variadic=True),
        ),
    )
    listing = Command(path=("l",), summary="List contents of archive")
    proposal = propose(Tool(name="archiver", root=Command(subcommands=(extract, listing))))
    assert "x-extract" in chosen(proposal), chosen(proposal)
    assert checked(proposal.manifest) == []
