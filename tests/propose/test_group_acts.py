"""A group of subcommands is a command of its own when its usage shows it running without one."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag
from wrapgen.propose.sources import tree_candidates


def _tool(usage: str) -> Command:
    group = Command(
        path=("show",),
        summary="Show the active and installed toolchains",
        usage=(usage,),
        flags=(Flag(long="--verbose", short="-v", description="Enable verbose output"),),
        subcommands=(Command(path=("show", "home"), summary="Display the home directory"),),
    )
    return Command(subcommands=(group,))


def test_a_group_whose_command_slot_is_in_brackets_acts_on_its_own():
    paths = [c.path for c in tree_candidates(_tool("tc show [OPTIONS] [COMMAND]"))]
    assert ("show",) in paths and ("show", "home") in paths


def test_a_group_whose_command_is_required_does_not():
    for usage in ("tc show [OPTIONS] <COMMAND>", "tc show COMMAND [ARGS]"):
        paths = [c.path for c in tree_candidates(_tool(usage))]
        assert ("show",) not in paths and ("show", "home") in paths
