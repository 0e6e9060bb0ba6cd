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


def test_a_tool_that_refuses_version_has_no_version(tmp_path):
    """A tool that answers --version with an error ("Error: wgdraw: option -- unrecognized") has no
    version: the pack's source.version never quotes the error."""
    tool = tmp_path / "wgdraw"
    tool.write_text(
        "#!/bin/sh\necho 'Error: wgdraw: option -- unrecognized' >&2\n"
        "echo 'Usage: wgdraw [-V] <files>' >&2\nexit 1\n"
    )
    tool.chmod(0o755)
    with Prober(str(tool), name="wgdraw") as prober:
        assert prober.version() == ""
    fine = tmp_path / "wgok"
    fine.write_text("#!/bin/sh\necho 'wgok 1.2.3'\n")
    fine.chmod(0o755)
    with Prober(str(fine), name="wgok") as prober:
        assert prober.version() == "wgok 1.2.3"
