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
    found = cli(
        "exec",
        str(tmp_path / "out" / "rg"),
        "search",
        "--",
        "pattern=needle",
        cwd=tmp_path / "work",
    )
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
    assert any(
        "kept, since without it the pack would hold no command" in v["x-why"]
        for v in verbs.values()
    )


def test_npm_ls_operand_npm_writes_as_required_is_made_optional(tmp_path, cli):
    """npm's usage writes `npm ls <package-spec>` though bare `npm ls` lists the tree: its trial with
    a sample package fails, the retry without it exits 0, and the operand becomes optional, so the
    call an agent makes first (no args) lists what is installed, as `npm ls --json` by hand does."""
    import json
    import subprocess

    if shutil.which("npm") is None or shutil.which("bwrap") is None:
        pytest.skip("npm and bwrap are needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    result = cli("wrap", "npm", "-o", str(tmp_path / "out"), "--try-timeout", "20")
    assert result.exit_code == 0, result.stdout + result.stderr
    ls = yaml.safe_load((tmp_path / "out" / "npm" / "pack.yaml").read_text())["verbs"]["ls"]
    assert "package_spec" in ls["args"]["properties"] and "package_spec" not in ls["args"].get(
        "required", []
    )
    assert "package_spec made optional" in ls["x-why"]
    work = tmp_path / "work"
    (work / "dep").mkdir(parents=True)
    (work / "package.json").write_text(json.dumps({"name": "app", "version": "1.0.0"}))
    (work / "dep" / "package.json").write_text(json.dumps({"name": "dep", "version": "2.1.0"}))
    subprocess.run(
        ["npm", "install", "./dep", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=work,
        check=True,
        capture_output=True,
        timeout=120,
    )
    call = cli("exec", str(tmp_path / "out" / "npm"), "ls", "--json", cwd=work)
    envelope = json.loads(call.stdout)
    by_hand = json.loads(
        subprocess.run(
            ["npm", "ls", "--json"], cwd=work, capture_output=True, text=True, timeout=60
        ).stdout
    )
    assert envelope["ok"] and envelope["result"] == by_hand and "dep" in by_hand["dependencies"]
