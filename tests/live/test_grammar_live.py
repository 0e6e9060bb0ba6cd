"""The shipped git pack's revision slots against real git: the pack's answer is the human command's.

`git show HEAD~1` by hand and `show objects=[HEAD~1]` through `wrapgen exec` print the same commit;
before issue 11 the pack rendered `git show -- HEAD~1`, which git reads as a path and answers with
nothing. A file named like the revision does not turn it into a path either.
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


@pytest.fixture
def repo(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    root = tmp_path / "repo"
    root.mkdir()
    env = isolated_git_env(tmp_path)

    def git(*args):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    (root / "a.txt").write_text("one\n")
    git("add", "a.txt")
    git("commit", "-qm", "first")
    git("tag", "v1.0")
    (root / "a.txt").write_text("one\ntwo\n")
    git("commit", "-qam", "second")
    (root / "v1.0").write_text("a file named like the tag\n")  # untracked: the name is both
    return root


def _human(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=repo,
        env=isolated_git_env(repo.parent),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def _pack(repo: Path, verb: str, args: dict) -> dict:
    envelope = {"pack_id": "git", "verb_key": verb, "args": args}
    command = [sys.executable, "-m", "wrapgen", "exec", "--envelope", "-"]
    env = {**isolated_git_env(repo.parent), "WRAPGEN_PATH": str(PACK.parent)}
    done = subprocess.run(
        command,
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        input=json.dumps(envelope),
    )
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout)


def test_show_of_a_revision_is_git_show_of_that_revision(repo):
    want = _human(repo, "show", "--no-ext-diff", "--no-textconv", "HEAD~1")
    assert "first" in want and "+one" in want
    got = _pack(repo, "show", {"objects": ["HEAD~1"]})
    assert got == {"ok": True, "result": want}


def test_show_of_a_tag_that_is_also_a_file_name_shows_the_tag(repo):
    """`git show v1.0 --` by hand: with the file v1.0 present, the trailing '--' keeps it a revision."""
    want = _human(repo, "show", "--no-ext-diff", "--no-textconv", "v1.0", "--")
    got = _pack(repo, "show", {"objects": ["v1.0"]})
    assert got == {"ok": True, "result": want}
    assert "first" in got["result"]


def test_log_of_a_revision_range_and_a_path(repo):
    want = _human(
        repo, "log", "--oneline", "--no-ext-diff", "--no-textconv", "HEAD~1..HEAD", "--", "a.txt"
    )
    got = _pack(
        repo, "log", {"revision_range": "HEAD~1..HEAD", "paths": ["a.txt"], "oneline": True}
    )
    assert got == {"ok": True, "result": want}
    assert "second" in want and "first" not in want


def test_a_dashed_revision_is_refused_before_git_runs(repo):
    got = _pack(repo, "show", {"objects": ["--output=pwned"]})
    assert got["ok"] is False and "option injection refused" in got["error"]
    assert not (repo / "pwned").exists()
