"""Discovery on real Node CLIs (issue 13): pm2 (commander.js), typeorm (yargs), oclif, npm, yarn v1.

.ci/run installs them with npm at fixed versions; a test skips only where its tool is absent.
"""

from __future__ import annotations

import os

import pytest

from conftest import require_tool
from wrapgen.probe.discover import discover
from wrapgen.probe.sandbox import sandbox_status


def _daemons() -> set[int]:
    """pids of pm2 daemons whose home is a probe's scratch directory."""
    found = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ")
        except OSError:
            continue
        if b"God Daemon" in cmdline and b"wrapgen-probe-" in cmdline:
            found.add(int(pid))
    return found


def test_pm2_commands_are_read_and_no_daemon_is_left_running():
    """pm2's --help starts its daemon: in the sandbox each probe's daemon dies with the probe."""
    require_tool("pm2")
    if not sandbox_status().available:
        pytest.skip("bubblewrap cannot run here: pm2's daemon could not be reaped")
    before = _daemons()
    tool = discover(
        "pm2", depth=1, max_nodes=8, cache=False, timeout_s=30
    )  # each probe starts a daemon
    assert _daemons() <= before, "a pm2 daemon started by discovery is still running"
    names = {s.name for s in tool.root.subcommands}
    assert len(names) >= 75 and {"start", "stop", "logs", "delete"} <= names
    assert tool.root.parser == "commander"
    assert {"--name", "--watch"} <= {s for f in tool.root.flags for s in f.spellings}


def test_typeorm_yargs_commands_and_annotated_options():
    require_tool("typeorm")
    tool = discover("typeorm", depth=1, cache=False)
    run = tool.root.find(("migration:run",))
    assert run is not None and not run.stub and run.parser == "yargs"
    data_source = next(f for f in run.flags if f.long == "--dataSource")
    assert data_source.takes_value and data_source.required


def test_oclif_topics_lead_to_their_two_word_commands():
    require_tool("oclif")
    tool = discover("oclif", depth=2, cache=False)
    deb = tool.root.find(("pack", "deb"))
    assert deb is not None and not deb.stub and deb.flags
    assert tool.root.find(("generate", "command")) is not None


def test_yarn_subcommands_come_from_the_usage_line_without_running_them():
    """`yarn cache list --help` would list the cache: `cache list` is read from `yarn cache --help`."""
    require_tool("yarn")
    tool = discover("yarn", depth=2, max_nodes=12, cache=False)
    assert len(tool.root.subcommands) >= 40
    cache = tool.root.find(("cache",))
    assert cache is not None and not cache.stub
    listed = cache.find(("cache", "list"))
    assert listed is not None and listed.probe == ("cache", "--help")


def test_npm_usage_line_subcommands():
    require_tool("npm")
    tool = discover("npm", depth=3, max_nodes=6, cache=False)
    access = tool.root.find(("access",))
    assert access is not None and not access.stub
    assert [s.name for s in access.subcommands][:3] == ["list", "get", "set"]
    assert tool.root.find(("access", "list", "packages")) is not None
