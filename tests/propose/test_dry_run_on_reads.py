"""A dry run ("perform a trial run with no changes made", "Output the operations but do not execute
anything") makes a preview of a write, and is never offered on a read, which changes nothing:
a cloud copier's listings each offered its global --dry-run. Help strings are real tools'."""

from __future__ import annotations

import pytest
from support.propose import chosen

from wrapgen.knowledge.phrases import dry_run_words, preview_words
from wrapgen.model.tool import Command, Flag, Tool
from wrapgen.propose import propose
from wrapgen.propose.args import plan_args

TRIAL_RUNS = [
    "perform a trial run with no changes made",  # a file synchroniser's -n
    "Do a trial run with no permanent changes",  # a cloud copier's global --dry-run
    "Output the operations but do not execute anything (implicitly enables --verbose).",
    "Only show what would be done",
    "Don't actually run any recipe; just print them",  # make -n
]


@pytest.mark.parametrize("description", TRIAL_RUNS)
def test_a_trial_run_is_a_dry_run_and_a_preview(description):
    assert dry_run_words().search(description) and preview_words().search(description)


def test_a_report_instead_of_a_write_is_a_preview_but_no_dry_run():
    # a formatter's --diff: on its read form it shapes the answer, so it stays offered there
    diff = "Don't write the files back, just output a diff for each file on stdout"
    assert preview_words().search(diff) and not dry_run_words().search(diff)


def _listing(description: str) -> Command:
    return Command(
        path=("ls",),
        flags=(
            Flag(long="--dry-run", short="-n", description=description),
            Flag(long="--recursive", short="-R", description="Recurse into the listing"),
        ),
    )


@pytest.mark.parametrize("description", TRIAL_RUNS)
def test_a_read_never_offers_a_dry_run(description):
    plan = plan_args(_listing(description), tool="copier", effect="read", style="gnu")
    assert "recursive" in plan.properties
    assert "dry_run" not in plan.properties
    assert ("--dry-run", "a dry run: a read changes nothing there is to preview") in plan.left_out


def test_a_write_still_offers_its_dry_run():
    command = _listing(TRIAL_RUNS[0]).with_changes(path=("sync",))
    plan = plan_args(command, tool="copier", effect="write", style="gnu")
    assert "dry_run" in plan.properties


def _writer(name: str) -> Command:
    """A package manager's write with its dry run (the help string is a real one's)."""
    return Command(
        path=(name,),
        summary=f"{name.capitalize()} the project's dependencies",
        flags=(
            Flag(
                long="--dry-run",
                description="Output the operations but do not execute anything "
                "(implicitly enables --verbose).",
            ),
        ),
    )


def test_a_writes_dry_run_ranks_after_the_tools_own_reads():
    """Five writes with a dry run each and a family of reads one level deeper: the reads are chosen
    (each dry run still makes a read form of its write, which only fills what is left)."""
    writes = [_writer(n) for n in ("add", "install", "remove", "sync", "update")]
    env = Command(
        path=("env",),
        summary="Interact with the project's environments",
        subcommands=(
            Command(path=("env", "info"), summary="Display information about the environment"),
            Command(path=("env", "list"), summary="List the environments of the project"),
        ),
    )
    reads = [
        Command(path=("show",), summary="Show information about packages"),
        Command(path=("search",), summary="Search for packages on remote repositories"),
    ]
    tool = Tool(name="pkgtool", root=Command(subcommands=(*writes, env, *reads)))
    names = chosen(propose(tool, usage=()))
    assert {"env.info", "env.list", "show", "search"} <= set(names), names
    dry_runs = [n for n in names if n.endswith("dry-run")]
    assert all(names.index(n) > names.index("env.info") for n in dry_runs), names
