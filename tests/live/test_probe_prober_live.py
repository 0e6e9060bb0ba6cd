"""The probe against real tools: resolving git on PATH, gh's version line and man pages, git's missing one.

The hostile fake tools (tests/fixtures/tools) and the fixed environment are in tests/probe/test_probe.py."""

from __future__ import annotations

import os

import pytest

from conftest import require_tool
from wrapgen.probe.prober import Prober, resolve_tool


def test_resolve_tool_finds_a_name_on_path():
    """A bare name resolves to the absolute path of the executable found on PATH."""
    git = require_tool("git")
    ref = resolve_tool("git")
    assert os.path.isabs(ref.path) and ref.bin == "git" and ref.by_name
    assert os.path.samefile(ref.path, git)


def test_version_and_man_page_of_a_real_tool():
    """--version gives its first line; the man page source of a subcommand is found by name (gh-pr-list)."""
    require_tool("gh")
    require_tool("man")
    with Prober(resolve_tool("gh").path, name="gh") as prober:
        version = prober.version()
        source, page = prober.man_source(("pr", "list"))
    assert version.startswith("gh version ")
    if not source:
        pytest.skip("gh's man pages are not installed")
    assert page == "gh-pr-list"
    assert ".SH" in source and "--state" in source.replace("\\-", "-")


def test_a_missing_man_page_gives_nothing():
    """A tool without a man page for a subcommand gives an empty source, not an error."""
    with Prober(resolve_tool("git").path, name="git") as prober:
        assert prober.man_source(("no-such-subcommand-xyz",)) == ("", "")
