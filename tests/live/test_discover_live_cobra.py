"""discover() end to end on cobra tools the parsers were not written against (rclone, restic, hugo:
older cobra, as Debian ships them), checked against each tool's own `__complete` answers."""

from __future__ import annotations

import os
import subprocess

import pytest

from conftest import require_tool
from wrapgen.probe.discover import discover

pytestmark = [pytest.mark.live, pytest.mark.usefixtures("own_cache")]


def _complete(tool: str, *args: str) -> list[str]:
    """The names cobra's hidden completion command offers after ``args``."""
    done = subprocess.run(
        [tool, "__complete", *args],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        cwd="/",
        env=dict(os.environ, NO_COLOR="1"),
    )
    return [
        line.split("\t")[0]
        for line in done.stdout.splitlines()
        if line and not line.startswith(":")
    ]


def _spellings(command) -> set[str]:
    return {s for f in (*command.flags, *command.global_flags) for s in f.spellings}


def test_rclone_global_flags_come_from_help_flags():
    """rclone: its ~650 global and backend flags (in no command's help) are read from `rclone help flags`
    and are every command's global flags, matching what cobra completes for `rclone copy`."""
    require_tool("rclone")
    tool = discover("rclone", depth=1, cache=False)
    copy = tool.root.find(("copy",))
    assert copy is not None and not copy.stub and copy.parser == "cobra"
    assert "--create-empty-src-dirs" in {s for f in copy.flags for s in f.spellings}
    globals_ = {s for f in copy.global_flags for s in f.spellings}
    assert len(globals_) > 500 and {"--dry-run", "-n", "--transfers", "--s3-provider"} <= globals_
    expected = set(_complete("rclone", "copy", "-")) | set(_complete("rclone", "copy", "--"))
    missed = expected - _spellings(copy) - {"-h", "--help"}
    assert not missed, sorted(missed)[:20]
    assert [p.name for p in copy.positionals] == ["source:path", "dest:path"]


def test_rclone_every_command_found_at_depth_2():
    """rclone, depth 2: every command cobra completes, `genautocomplete` (the listing's longest name) and
    the `config` and `backend` subtrees included."""
    require_tool("rclone")
    tool = discover("rclone", depth=2, cache=False)
    found = {node.path for node in tool.root.walk() if node.path}
    expected = {(name,) for name in _complete("rclone", "") if name not in ("help", "completion")}
    expected |= {("config", name) for name in _complete("rclone", "config", "")}
    assert expected <= found, sorted(expected - found)
    assert ("genautocomplete", "bash") in found


def test_restic_rebuild_index_and_backup():
    """restic: `rebuild-index` (one space before its summary) is read, and `backup` keeps its own
    flags apart from the global ones, as cobra completes them."""
    require_tool("restic")
    tool = discover("restic", depth=1, cache=False)
    rebuild = tool.root.find(("rebuild-index",))
    assert rebuild is not None and not rebuild.stub
    assert "--read-all-packs" in {s for f in rebuild.flags for s in f.spellings}
    backup = tool.root.find(("backup",))
    own = {s for f in backup.flags for s in f.spellings}
    assert {"--exclude", "-e", "--files-from", "--stdin"} <= own and "--repo" not in own
    assert "--repo" in {s for f in backup.global_flags for s in f.spellings}
    expected = set(_complete("restic", "backup", "-")) | set(_complete("restic", "backup", "--"))
    assert expected - {"-h", "--help"} <= _spellings(backup)


def test_hugo_gen_subtree():
    """hugo, depth 2: `gen chromastyles` (the longest name of its listing) and `mod` children are read."""
    require_tool("hugo")
    tool = discover("hugo", depth=2, cache=False)
    chroma = tool.root.find(("gen", "chromastyles"))
    assert chroma is not None and not chroma.stub
    assert {"--style", "--highlightStyle"} <= {s for f in chroma.flags for s in f.spellings}
    found = {node.path for node in tool.root.walk() if node.path}
    expected = {("mod", name) for name in _complete("hugo", "mod", "")}
    assert expected and expected <= found, sorted(expected - found)
