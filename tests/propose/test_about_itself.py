"""A switch that prints the tool's own documents (its help, version, man page, changelog, licence)
says nothing of what the tool does for its user: never an arg, never a mode of its own. Help
strings are real tools'."""

from __future__ import annotations

import pytest

from wrapgen.model.tool import Flag
from wrapgen.propose.args import flag_noise

ABOUT = "about the tool itself: its help, usage or version"


@pytest.mark.parametrize(
    "description",
    [
        "Print help",
        "output version information and exit",
        "Print man page",  # a task runner's --man
        "Print changelog",  # and its --changelog
        "Show the license",
        "display credits",
    ],
)
def test_a_switch_printing_the_tools_own_documents_is_about_itself(description):
    assert flag_noise(Flag(long="--x", description=description)) == ABOUT


@pytest.mark.parametrize(
    "description",
    [
        "List names of available recipes",  # the same runner's --summary
        "Print recipe usage information",
        "Show the licenses of the project's dependencies",
        "Print the version of each package",
    ],
)
def test_a_switch_printing_what_the_tool_works_on_is_not(description):
    assert flag_noise(Flag(long="--x", description=description)) != ABOUT
