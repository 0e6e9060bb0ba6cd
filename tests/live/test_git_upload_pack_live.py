"""Issue 12's remaining git gaps, with real git and the shipped git pack: a repository's
remote.<name>.uploadpack does not run from fetch or pull (the verbs carry --upload-pack=git-upload-pack,
which beats it where a GIT_CONFIG_* override loses), and its merge.<name>.driver does not run from pull
(the config guard sets it to false: the file conflicts instead).

Each attack is shown to be real first: plain git, in the same clone and environment, runs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.git import isolated_git_env

REPO_ROOT = Path(__file__).resolve().parents[2]
PACK = REPO_ROOT / "adapters" / "git"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def _git(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=isolated_git_env(home, identity=False),
        capture_output=True,
        text=True,
        timeout=60,
    )


def _exec(verb: str, cwd: Path, home: Path, *args: str) -> dict:
    command = [sys.executable, "-m", "wrapgen", "exec", str(PACK), verb, "--json", "--", *args]
    done = subprocess.run(
        command,
        cwd=cwd,
        env=isolated_git_env(home, identity=False),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def clone(tmp_path):
    """An upstream repository, a clone of it (its remote a local path) and a home with an identity."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        "[user]\n\tname = a\n\temail = a@example.com\n[pull]\n\trebase = false\n"
    )
    up = tmp_path / "up"
    up.mkdir()
    _git(up, home, "init", "-q")
    (up / "f").write_text("one\n")
    _git(up, home, "add", "f")
    _git(up, home, "commit", "-qm", "init")
    assert _git(tmp_path, home, "clone", "-q", str(up), "down").returncode == 0
    return tmp_path / "down", up, home, tmp_path / "marker"


def _script(path: Path, marker: Path, then: str) -> Path:
    path.write_text(f"#!/bin/sh\necho ran >> '{marker}'\n{then}\n")
    path.chmod(0o755)
    return path


def test_a_repository_s_uploadpack_does_not_run_from_fetch_or_pull(clone):
    down, _, home, marker = clone
    evil = _script(down.parent / "evil-upload-pack", marker, 'exec git-upload-pack "$@"')
    _git(down, home, "config", "remote.origin.uploadpack", str(evil))
    assert _git(down, home, "fetch", "-q").returncode == 0
    assert marker.exists()  # the attack is real
    marker.unlink()
    # and a GIT_CONFIG_* override alone would not stop it (the first value wins)
    env = {
        **isolated_git_env(home, identity=False),
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "remote.origin.uploadpack",
        "GIT_CONFIG_VALUE_0": "git-upload-pack",
    }
    subprocess.run(["git", "fetch", "-q"], cwd=down, env=env, capture_output=True, timeout=60)
    assert marker.exists()
    marker.unlink()
    for verb, args in (
        ("fetch", ["confirm=true"]),
        ("fetch", ["all=true", "confirm=true"]),
        ("pull", ["confirm=true"]),
        ("fetch", ["repository=origin", "confirm=true"]),
    ):
        envelope = _exec(verb, down, home, *args)
        assert envelope["ok"] is True, (verb, args, envelope)
    assert not marker.exists()


def test_a_repository_s_merge_driver_does_not_run_from_pull(clone):
    down, up, home, marker = clone
    driver = _script(down.parent / "evil-merge", marker, "exit 0")
    (down / ".gitattributes").write_text("f merge=evil\n")
    _git(down, home, "add", ".gitattributes")
    _git(down, home, "commit", "-qm", "attributes")
    _git(down, home, "config", "merge.evil.driver", f"{driver} %O %A %B")
    (up / "f").write_text("upstream\n")
    _git(up, home, "commit", "-qam", "upstream")
    (down / "f").write_text("local\n")
    _git(down, home, "commit", "-qam", "local")
    _git(down, home, "pull", "-q", "--no-edit")
    assert marker.exists()  # the attack is real (and its 'exit 0' kept one side silently)
    marker.unlink()
    assert _git(down, home, "reset", "-q", "--hard", "HEAD~1").returncode == 0
    envelope = _exec("pull", down, home, "confirm=true")
    assert envelope["ok"] is False, (
        envelope
    )  # (git prints the CONFLICT line on stdout; the exit is 1)
    assert not marker.exists()
    assert "UU f" in _git(down, home, "status", "--short").stdout
