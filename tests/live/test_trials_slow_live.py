"""wrap against a tool whose reads are slow or endless (tests/fixtures/tools/wg-slow): a read that
printed a first line and was still working at the trial's bound is tried once more with a longer one
and kept when it then answers; a stream that never ends is still left out as long-running."""

from __future__ import annotations

import os
import shutil

import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES


def test_a_slow_read_is_kept_and_a_stream_left_out(tmp_path, cli, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-slow", bin_dir / "wg-slow")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    # the bound is 2 s, the slow read takes 2.5 s after its first line: a second trial of 3x the
    # bound (6 s) sees it answer
    picks = [a for name in ("list", "stream", "count") for a in ("--pick", name)]
    result = cli(
        "wrap", "wg-slow", "-o", str(tmp_path / "out"), "--no-cache", "--try-timeout", "2", *picks
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "wg-slow" / "pack.yaml").read_text())["verbs"]
    assert "list" in verbs and "count" in verbs, result.stdout
    assert "stream" not in verbs
    assert "still running at the trial's timeout" in result.stdout  # the stream's reason
