"""The config guard with real git (wrapgen/runtime/guard.py): a filter driver the repository's own config
names does not run from a read verb; the user's own filters do; a listing that fails refuses the call.

Each attack is shown to be real first: plain git, in the same repository and environment, runs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.recorder import Recorder, recorded

from tests.support.git import isolated_git_env

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKS = [REPO_ROOT / "adapters" / "git", REPO_ROOT / "tests" / "packs" / "git"]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def _git(repo: Path, *args: str, home: Path) -> subprocess.CompletedProcess:
    env = isolated_git_env(home)
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )


def _exec(pack: Path, verb: str, repo: Path, home: Path) -> dict:
    command = [sys.executable, "-m", "wrapgen", "exec", str(pack), verb, "--json"]
    done = subprocess.run(
        command,
        cwd=repo,
        env=isolated_git_env(home, identity=False),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip(), done.stderr
    time.sleep(0.3)  # (what a filter wrote reaches the marker through its recorder's thread)
    return json.loads(done.stdout)


_recorders: list = []


@pytest.fixture(autouse=True)
def _close_recorders():
    yield
    while _recorders:
        _recorders.pop().close()


def _filter_script(path: Path, marker: Path) -> Path:
    """A clean filter that records that it ran and passes the content through (so git goes on). It
    writes to the marker's recorder (``support.recorder``): a filter a pack's git starts runs in the
    call's sandbox, whose file system is read-only."""
    recorder = Recorder(marker)
    _recorders.append(recorder)
    path.write_text(f"#!/bin/sh\necho ran >> '{recorder.fifo}'\ncat\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def repo(tmp_path):
    """A committed repository with one modified tracked file, a.txt, and a home of its own."""
    home = tmp_path / "home"
    home.mkdir()
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", home=home)
    (repo / "a.txt").write_text("one\n")
    (repo / "notes.md").write_text("# notes\n")
    _git(repo, "add", ".", home=home)
    _git(repo, "commit", "-qm", "init", home=home)
    (repo / "a.txt").write_text("one\ntwo\n")
    (repo / "notes.md").write_text("# notes\nmore\n")
    return repo, home


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: str(p.relative_to(REPO_ROOT)))
@pytest.mark.parametrize("how", ["clean", "process", "included"])
def test_a_filter_the_repository_defines_does_not_run(repo, tmp_path, pack, how):
    """`*.txt filter=evil` and filter.evil.* in .git/config (directly, as a long-running process filter,
    or in a file the config includes): plain git diff and status run it; the pack's diff and status
    run nothing and still show the change."""
    repo, home = repo
    marker = tmp_path / "ran"
    script = _filter_script(tmp_path / "evil.sh", marker)
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    if how == "included":
        (tmp_path / "evil.cfg").write_text(f'[filter "evil"]\n\tclean = {script}\n')
        _git(repo, "config", "include.path", str(tmp_path / "evil.cfg"), home=home)
    else:
        key = "filter.evil.clean" if how == "clean" else "filter.evil.process"
        _git(repo, "config", key, str(script), home=home)
    _git(repo, "diff", home=home)
    _git(repo, "status", home=home)
    assert recorded(marker), "plain git did not run the filter: the attack is not real here"
    marker.unlink()
    for verb in ("diff", "status"):
        envelope = _exec(pack, verb, repo, home)
        assert not marker.exists(), f"{verb} ran the repository's filter: {envelope}"
        assert envelope["ok"] is True, envelope
        assert "a.txt" in json.dumps(envelope["result"])
    shown = _exec(pack, "diff", repo, home)["result"]
    assert "+two" in shown or "a.txt | 1 +" in " ".join(shown.split()), shown  # (a --stat diff)


def test_the_users_own_filter_still_runs(repo, tmp_path):
    """A filter in the user's ~/.gitconfig (git-lfs's kind) is the user's, not the content's: it runs."""
    repo, home = repo
    marker = tmp_path / "mine"
    script = _filter_script(tmp_path / "mine.sh", marker)
    (home / ".gitconfig").write_text(f'[filter "mine"]\n\tclean = {script}\n')
    (repo / ".gitattributes").write_text("*.md filter=mine\n")
    envelope = _exec(PACKS[0], "diff", repo, home)
    assert envelope["ok"] is True, envelope
    assert marker.exists(), "the user's own filter was turned off"


def test_a_listing_that_fails_refuses_the_call(repo, tmp_path):
    """When the config guard's listing fails (here git cannot read the user's config), the call is
    refused with what went wrong, and the verb itself never runs."""
    repo, home = repo
    marker = tmp_path / "ran"
    script = _filter_script(tmp_path / "evil.sh", marker)
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    _git(repo, "config", "filter.evil.clean", str(script), home=home)
    (home / ".gitconfig").write_text("[broken\n")
    envelope = _exec(PACKS[0], "diff", repo, home)
    assert envelope["ok"] is False
    assert (
        "config guard could not list" in envelope["error"] and "nothing ran" in envelope["error"]
    ), envelope
    assert "bad config" in envelope["error"]
    assert not marker.exists()


def test_a_required_filter_does_not_fail_the_read(repo, tmp_path):
    """`filter.evil.required = true` with a failing command: plain git diff fails ("clean filter
    failed"); the pack's diff turns the filter off and its requirement with it, and answers."""
    repo, home = repo
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    _git(repo, "config", "filter.evil.clean", "false", home=home)
    _git(repo, "config", "filter.evil.required", "true", home=home)
    plain = _git(repo, "diff", home=home)
    assert plain.returncode != 0 and "filter" in plain.stderr, plain
    envelope = _exec(PACKS[0], "diff", repo, home)
    assert envelope["ok"] is True and "+two" in envelope["result"], envelope


def test_trials_in_a_copy_of_a_hostile_repository_use_the_guard(repo, tmp_path, cli):
    """`check --try --try-in REPO` on the shipped git pack: the copy's required, failing filter would
    fail the diff trial; with the guard the trial runs the diff and it exits 0."""
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap not installed")
    repo, home = repo
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    _git(repo, "config", "filter.evil.clean", "false", home=home)
    _git(repo, "config", "filter.evil.required", "true", home=home)
    result = cli("check", "--try", "--try-in", str(repo), "--format", "json", str(PACKS[0]))
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    lines = [
        line for line in report["trials"] if line.split(": ", 1)[-1].strip().startswith("diff: ")
    ]
    assert lines and "exited 0" in lines[0], report["trials"]
