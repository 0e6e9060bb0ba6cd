"""``wrapgen wrap rg`` with trials: rg's search verbs exit with their usage without a pattern (the
schema cannot require it: ``rg --files`` takes none), so the trial retries with one, and the verbs stay
with ``pattern`` required instead of being dropped (the pack kept 2 of 7 verbs before)."""

from __future__ import annotations

import shutil

import pytest
import yaml

from wrapgen.probe.sandbox import reset_sandbox_status, sandbox_status


def test_rg_search_verbs_are_repaired_not_dropped(tmp_path, cli):
    if shutil.which("rg") is None or shutil.which("bwrap") is None:
        pytest.skip("rg and bwrap are needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    result = cli("wrap", "rg", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "rg" / "pack.yaml").read_text())["verbs"]
    assert 5 <= len(verbs) <= 12, list(verbs)
    assert verbs["search"]["args"]["required"] == ["pattern"]
    assert "pattern made required" in verbs["search"]["x-why"]
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "a.txt").write_text("needle here\n")
    found = cli("exec", str(tmp_path / "out" / "rg"), "search", "--", "pattern=needle", cwd=tmp_path / "work")
    assert found.exit_code == 0 and "needle here" in found.stdout, found.stdout + found.stderr
