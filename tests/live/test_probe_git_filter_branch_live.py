"""`git filter-branch -h` sleeps 10 s after its warning unless FILTER_BRANCH_SQUELCH_WARNING is set:
past the probe timeout, so every git discovery was transient and never cached. The probe
environment sets it; the page reads at once."""

from __future__ import annotations

import shutil

import pytest

from wrapgen.probe.prober import Prober


def test_filter_branch_help_reads_within_the_probe_timeout():
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    with Prober(git, timeout_s=5) as prober:
        result = prober.run(("filter-branch", "-h"))
    assert not result.timed_out, result.problem
    assert result.usable and "git filter-branch" in result.text and "--tree-filter" in result.text
