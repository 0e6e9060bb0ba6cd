"""A dry run ("perform a trial run with no changes made", "Output the operations but do not execute
anything") makes a preview of a write, and is never offered on a read, which changes nothing:
a cloud copier's listings each offered its global --dry-run. Help strings are real tools'."""

from __future__ import annotations

import pytest

from wrapgen.knowledge.phrases import dry_run_words, preview_words
from wrapgen.model.tool import Command, Flag
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
