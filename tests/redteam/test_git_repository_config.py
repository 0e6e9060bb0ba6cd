"""Red team, high and medium: configuration a repository or a submodule names runs a program, or moves
the work tree, during a git read (issue 27 item 3).

Each attack is performed for real on a hostile repository, first with plain git (the attack is
real), then through the shipped git pack (``wrapgen exec adapters/git``):

- a submodule's own config defines ``filter.evil.clean`` and its ``.gitattributes`` says ``* filter=evil``:
  ``git status`` in the superproject runs git inside the submodule, which runs the filter (the
  superproject's config guard never sees a submodule's config);
- ``diff.submodule=diff`` in the superproject and ``diff.external`` in the submodule: ``git diff
  --no-ext-diff`` runs the external diff inside the submodule;
- ``submodule.sub.ignore=none`` in ``.gitmodules`` beats a ``diff.ignoreSubmodules`` override;
- ``core.worktree=../../home`` in the repository's config: ``git diff`` prints a file of HOME.

The defence, as a class: a read never runs git inside a submodule (``--ignore-submodules=dirty`` on
the read verbs, ``diff.submodule=short`` and the other overrides in ``env.set``), and a repository
whose own config moves its work tree is refused by the config guard.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_tool
from tests.support.git import isolated_git_env

REPO_ROOT = Path(__file__).resolve().parents[2]
PACK = REPO_ROOT / "adapters" / "git"


def _git(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=isolated_git_env(home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done


def _exec(verb: str, cwd: Path, home: Path, *args: str) -> dict:
    command = [sys.executable, "-m", "wrapgen", "exec", str(PACK), verb, "--json", "--", *args]
    done = subprocess.run(
        command, cwd=cwd, env=isolated_git_env(home), capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout)


def _marker_script(path: Path, marker: Path, then: str = "cat") -> Path:
    path.write_text(f"#!/bin/sh\necho ran >> '{marker}'\n{then}\n")
    path.chmod(0o755)
    return path


def _touch_same_size(path: Path, text: str) -> None:
    """Change a tracked file keeping its size, so git must read it (and run its clean filter) to know."""
    assert len(text) == len(path.read_text())
    path.write_text(text)
    stat = path.stat()
    os.utime(path, (stat.st_atime + 5, stat.st_mtime + 5))


@pytest.fixture
def superproject(tmp_path):
    """A superproject with one submodule, both committed; a HOME; a marker path."""
    require_tool("git")
    home = tmp_path / "home"
    home.mkdir()
    sub = tmp_path / "sub-origin"
    sub.mkdir()
    _git(sub, home, "init", "-q")
    (sub / "f.txt").write_text("hello\n")
    (sub / ".gitattributes").write_text("* filter=evil\n")
    _git(sub, home, "add", ".")
    _git(sub, home, "commit", "-qm", "sub")
    top = tmp_path / "top"
    top.mkdir()
    _git(top, home, "init", "-q")
    (top / "readme").write_text("top\n")
    _git(top, home, "add", "readme")
    added = _git(
        top, home, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "sub"
    )
    assert added.returncode == 0, added.stderr
    _git(top, home, "commit", "-qm", "top")
    return top, home, tmp_path / "marker"


def test_a_submodule_s_filter_does_not_run_from_status_or_diff(superproject, tmp_path):
    top, home, marker = superproject
    evil = _marker_script(tmp_path / "evil-clean", marker)
    assert _git(top / "sub", home, "config", "filter.evil.clean", str(evil)).returncode == 0
    _touch_same_size(top / "sub" / "f.txt", "jello\n")
    _git(top, home, "status")
    assert marker.exists(), "the attack is real: plain git status runs the submodule's filter"
    marker.unlink()
    _touch_same_size(top / "sub" / "f.txt", "hello\n")
    for verb in ("status", "diff"):
        envelope = _exec(verb, top, home)
        assert envelope["ok"], envelope
        assert not marker.exists(), f"the pack's {verb} ran the submodule's filter"


def test_a_submodule_s_external_diff_does_not_run_from_diff(superproject, tmp_path):
    top, home, marker = superproject
    evil = _marker_script(tmp_path / "evil-diff", marker, then="true")
    _git(top, home, "config", "diff.submodule", "diff")
    _git(top / "sub", home, "config", "diff.external", str(evil))
    (top / "sub" / "f.txt").write_text("changed content\n")
    _git(top / "sub", home, "-c", "filter.evil.clean=cat", "commit", "-qam", "two")
    _git(top, home, "diff", "--no-ext-diff")
    assert marker.exists(), (
        "the attack is real: diff.submodule=diff runs the submodule's diff.external"
    )
    marker.unlink()
    for verb, args in (("diff", ()), ("log", ()), ("show", ("objects=HEAD",))):
        envelope = _exec(verb, top, home, *args)
        assert envelope["ok"], envelope
        assert not marker.exists(), f"the pack's {verb} ran the submodule's external diff"


def test_a_gitmodules_ignore_none_does_not_reopen_the_submodule(superproject, tmp_path):
    """submodule.<name>.ignore=none in .gitmodules beats diff.ignoreSubmodules, but not the verbs' flag."""
    top, home, marker = superproject
    evil = _marker_script(tmp_path / "evil-clean", marker)
    _git(top, home, "config", "-f", ".gitmodules", "submodule.sub.ignore", "none")
    _git(top / "sub", home, "config", "filter.evil.clean", str(evil))
    _touch_same_size(top / "sub" / "f.txt", "jello\n")
    _git(top, home, "-c", "diff.ignoreSubmodules=dirty", "status")
    assert marker.exists(), "the attack is real: .gitmodules' ignore=none beats the config override"
    marker.unlink()
    _touch_same_size(top / "sub" / "f.txt", "hello\n")
    envelope = _exec("status", top, home)
    assert envelope["ok"], envelope
    assert not marker.exists()


def test_a_repository_s_core_worktree_is_refused(tmp_path):
    """core.worktree=../../home makes git diff print a file of HOME: the call is refused, nothing printed."""
    require_tool("git")
    home = tmp_path / "home"
    home.mkdir()
    (home / "secret.txt").write_text("the user's secret\n")
    repo = tmp_path / "content" / "repo"
    repo.mkdir(parents=True)
    _git(repo, home, "init", "-q")
    (repo / "secret.txt").write_text("public\n")
    _git(repo, home, "add", "secret.txt")
    _git(repo, home, "commit", "-qm", "x")
    _git(repo, home, "config", "core.worktree", "../../../home")
    plain = _git(repo, home, "diff")
    assert "the user's secret" in plain.stdout, (
        "the attack is real: plain git diff prints HOME's file"
    )
    for verb in ("diff", "status"):
        envelope = _exec(verb, repo, home)
        assert not envelope["ok"] and "core.worktree" in envelope["error"], envelope
        assert "the user's secret" not in json.dumps(envelope)
