"""The end-of-options facts (knowledge/data/tools.json) hold for the git installed here."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from wrapgen.knowledge.tools import supports_end_of_options

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def _repo(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", str(tmp_path)], env=env, check=True)
    (tmp_path / "a.txt").write_text("needle\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], env=env, check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(tmp_path),
            "-c",
            "user.name=a",
            "-c",
            "user.email=a@b",
            "commit",
            "-qm",
            "i",
        ],
        env=env,
        check=True,
    )
    return env


def test_git_grep_refuses_end_of_options_and_the_data_says_so(tmp_path):
    env = _repo(tmp_path)
    refused = subprocess.run(
        ["git", "-C", str(tmp_path), "grep", "-eneedle", "--end-of-options", "HEAD", "--"],
        env=env,
        capture_output=True,
        text=True,
    )
    plain = subprocess.run(
        ["git", "-C", str(tmp_path), "grep", "-eneedle", "HEAD", "--"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert plain.returncode == 0 and "needle" in plain.stdout
    if refused.returncode == 0:
        pytest.fail(
            "this git's grep takes --end-of-options: end_of_options_refused in tools.json is out of date"
        )
    assert "--end-of-options" in refused.stderr
    assert not supports_end_of_options("git", (), ("grep",))


def test_git_show_and_diff_take_end_of_options_before_revisions(tmp_path):
    env = _repo(tmp_path)
    for argv in (
        ["show", "--stat", "--end-of-options", "HEAD", "HEAD", "--"],
        ["diff", "--end-of-options", "HEAD", "HEAD", "--"],
    ):
        done = subprocess.run(
            ["git", "-C", str(tmp_path), *argv], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, (argv, done.stderr)
    assert supports_end_of_options("git", (), ("show",)) and supports_end_of_options(
        "git", (), ("diff",)
    )
