"""A control shell built on Python's cmd module (tests/fixtures/tools/wg-cmdshell): its `--help`
points at the action "help", whose listing is columns of names under an underlined heading, and
each action's help is `help ACTION`, one line per form."""

from __future__ import annotations

import os
import shutil

import pytest
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES
from wrapgen.probe.discover import discover

pytestmark = pytest.mark.live


def test_actions_listed_by_help_are_read_with_their_forms(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-cmdshell", bin_dir / "wg-cmdshell")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    tool = discover("wg-cmdshell", cache=False)
    by_name = {c.name: c for c in tool.root.subcommands}
    assert {"avail", "quit", "start", "status"} <= set(by_name)
    status = by_name["status"]
    assert not status.stub and status.summary == "Get status for a single process"
    assert "wg-cmdshell status <name> <name>" in status.usage
    assert [(p.name, p.required) for p in status.positionals] == [("name", False)]
    start = by_name["start"]
    assert [(p.name, p.required) for p in start.positionals] == [("name", True)]
    assert start.summary.startswith("Start a process")
