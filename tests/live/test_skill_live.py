"""The git skill's worked call, run for real: `python3 /abs/.../scripts/adapter.py log --json -- max_count=5` from the skill folder."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

from conftest import REPO, require_tool


def _git(repo, *args):
    subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1"},
    )


def test_git_skill_worked_call_runs(cli, tmp_path):
    """Exported into a repository's .claude/skills/, the log section's worked call returns the last five commits."""
    require_tool("git")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    for n in range(7):
        (repo / "f.txt").write_text(f"{n}\n")
        _git(repo, "add", "f.txt")
        _git(
            repo,
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-q",
            "-m",
            f"change number {n}",
        )
    skills = repo / ".claude" / "skills"
    result = cli("export", str(REPO / "adapters" / "git"), "--format", "skill", "-o", str(skills))
    assert result.exit_code == 0, result.stderr
    folder = skills / "git"
    text = (folder / "SKILL.md").read_text(encoding="utf-8")
    section = text[text.index("### `log` (") :]
    call = next(
        line for line in section.splitlines() if line.startswith("python3 ") and " log " in line
    )
    assert call == f"python3 {folder}/scripts/adapter.py log --json -- max_count=5"
    argv = shlex.split(call)
    argv[0] = sys.executable  # the python3 that has wrapgen installed, as the skill requires
    run = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    envelope = json.loads(run.stdout)
    assert envelope["ok"] is True, envelope
    subjects = [
        line.strip()
        for line in envelope["result"].splitlines()
        if line.strip().startswith("change number")
    ]
    assert subjects == [f"change number {n}" for n in range(6, 1, -1)]
