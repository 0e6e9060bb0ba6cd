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


def test_a_tool_whose_only_read_lacks_a_flag_still_gets_a_pack(tmp_path, cli):
    """cut's one verb exits with its usage without -f/-b/-c; dropping it would leave no command, so wrap
    keeps it and says why (it failed with 'nothing to propose' before)."""
    if shutil.which("cut") is None or shutil.which("bwrap") is None:
        pytest.skip("cut and bwrap are needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    result = cli("wrap", "cut", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "cut" / "pack.yaml").read_text())["verbs"]
    assert len(verbs) >= 1
    assert any("kept, since without it the pack would hold no command" in v["x-why"] for v in verbs.values())
