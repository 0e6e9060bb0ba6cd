"""Checkers (linters, type checkers, test runners) wrapped as reads: a cache folder they tag with
CACHEDIR.TAG is no write, and a main mode with an opt-in --fix reads without it."""

from __future__ import annotations

import os
import shutil

import pytest
import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES

pytestmark = pytest.mark.live


def _verbs(tmp_path, cli, tool, *extra):
    result = cli("wrap", tool, "-o", str(tmp_path / "out"), "--no-cache", *extra)
    assert result.exit_code == 0, result.stdout + result.stderr
    return yaml.safe_load((tmp_path / "out" / tool / "pack.yaml").read_text())["verbs"]


def test_a_linter_that_tags_its_cache_folder_stays_a_read(tmp_path, cli, monkeypatch):
    """wg-lint makes .wglintcache-store/CACHEDIR.TAG in its cwd on every run: its trial is no write."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-lint", bin_dir / "wg-lint")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    verbs = _verbs(tmp_path, cli, "wg-lint")
    reads = {k: v for k, v in verbs.items() if "--fix" not in v["cli"]}
    assert reads and all(v["policy"]["effect"] == "read" for v in reads.values())
    # the rewrite switch is a write command of its own, never on a read
    assert all(v["policy"]["effect"] != "read" for k, v in verbs.items() if k not in reads)
    assert "wglintcache" not in str(verbs)


@pytest.mark.skipif(shutil.which("eslint") is None, reason="eslint is not installed")
def test_eslint_main_mode_is_a_read(tmp_path, cli):
    """eslint's help has no summary, but --fix: its main mode reports (a read), --fix off it."""
    verbs = _verbs(tmp_path, cli, "eslint")
    main = verbs["eslint"]
    assert main["policy"]["effect"] == "read", main["x-why"]
    assert "--fix" not in main["cli"]
