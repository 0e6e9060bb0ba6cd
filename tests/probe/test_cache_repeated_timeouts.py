"""A discovery whose subcommand probes timed out is cached once the same ones time out twice running
(`git filter-branch -h` slept past the timeout, so every git discovery crawled again); a timeout seen
once, or a different one the next time, is the machine's and is not cached."""

from __future__ import annotations

from pathlib import Path

from tests.support.tools import python_tool
from wrapgen.probe import cache as disk
from wrapgen.probe.discover import discover

TOOL = """\
import os, sys, time
with open({log!r}, "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
if sys.argv[1:2] == ["hang"] and os.path.exists({hang!r}):
    time.sleep(600)
if sys.argv[1:2] == ["hang"] or sys.argv[1:2] == ["ok"]:
    print("Usage: tooly " + sys.argv[1] + " [OPTIONS]\\n\\nOptions:\\n  -q, --quiet  say less")
    sys.exit(0)
print("Usage: tooly [OPTIONS] COMMAND\\n\\nCommands:\\n  hang  Wait a while\\n  ok    Answer at once\\n\\n"
      "Options:\\n  -v, --verbose  say more\\n  -h, --help     show help")
"""


def _tool(tmp_path: Path) -> tuple[str, Path, Path]:
    log, hang = tmp_path / "calls.log", tmp_path / "hang-now"
    path = tmp_path / "tooly"
    return python_tool(path, TOOL.format(log=str(log), hang=str(hang))), log, hang


def _runs(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_the_same_timeouts_twice_are_cached(tmp_path, own_cache):
    tool, log, hang = _tool(tmp_path)
    hang.write_text("")
    for _ in range(2):  # the first one is noted, the second one repeats it: stored
        found = discover(tool, sandbox=False, timeout_s=3, depth=1)
        assert any("hang" in w and "did not finish" in w for w in found.warnings)
    before = _runs(log)
    again = discover(tool, sandbox=False, timeout_s=3, depth=1)
    assert _runs(log) == before, "answered from the cache: nothing ran"
    assert again.root.find(("ok",)) is not None


def test_a_timeout_seen_once_is_not_cached(tmp_path, own_cache):
    tool, log, hang = _tool(tmp_path)
    hang.write_text("")
    discover(tool, sandbox=False, timeout_s=3, depth=1)  # a busy machine, say
    hang.unlink()
    found = discover(tool, sandbox=False, timeout_s=3, depth=1)  # read in full: cached now
    assert found.root.find(("hang",)).flags
    before = _runs(log)
    discover(tool, sandbox=False, timeout_s=3, depth=1)
    assert _runs(log) == before


def test_other_timeouts_replace_the_note(tmp_path, own_cache):
    assert not disk.repeated_timeouts("k" * 64, [("a",)])
    assert not disk.repeated_timeouts("k" * 64, [("b",)])
    assert disk.repeated_timeouts("k" * 64, [("b",)])
    assert not disk.repeated_timeouts("k" * 64, [("b",)]), "the note is used up once it is answered"
    assert not disk.repeated_timeouts(None, [("a",)]) and not disk.repeated_timeouts("k" * 64, [])
