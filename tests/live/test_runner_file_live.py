"""A runner file with a name the runner does not look for (`make -f ci/release.mk`, `task --taskfile`):
`wrap --runner-file` and a recipe's `runner.file` read it, and the pack names it, so a call runs the
same targets a person runs by hand from the repository."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import require_tool

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "recipes" / "examples" / "shop"


@pytest.fixture
def repo(tmp_path):
    """The example repository with its Makefile and Taskfile moved under ci/ and renamed, so neither
    runner finds them by itself; its recipes still run at the repository's root."""
    root = tmp_path / "shop"
    shutil.copytree(SHOP, root)
    (root / "ci").mkdir()
    (root / "Makefile").rename(root / "ci" / "release.mk")
    (root / "Taskfile.yml").rename(root / "ci" / "tasks.yml")
    return root


def _verbs(pack: Path) -> dict:
    return yaml.safe_load((pack / "pack.yaml").read_text())["verbs"]


def test_make_runner_file_is_named_in_every_verb(cli, repo, tmp_path, monkeypatch):
    make = require_tool("make")
    out = tmp_path / "packs"
    monkeypatch.chdir(repo)
    # tried (in a copy of the repository): its read targets stay reads only so (docs/runners.md)
    result = cli("wrap", "make", "--runner-file", "ci/release.mk", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    [pack] = out.iterdir()
    verbs = _verbs(pack)
    assert verbs["status"]["cli"][:6] == [
        "make",
        "--no-print-directory",
        "-C",
        str(repo),
        "-f",
        str(repo / "ci" / "release.mk"),
    ]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    called = json.loads(cli("exec", str(pack), "status", "--", "env=production").stdout)

    by_hand = subprocess.run(
        [make, "--no-print-directory", "-f", "ci/release.mk", "status", "ENV=production"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert by_hand.returncode == 0, by_hand.stderr
    assert called == {"ok": True, "result": by_hand.stdout}
    checked = cli(
        "check", "--probe", str(pack)
    )  # make's -f is the runner's own flag, not an unknown one
    assert checked.exit_code == 0 and "0 errors, 0 warnings" in checked.stdout, checked.stdout


def test_task_runner_file_via_a_recipe(cli, repo, tmp_path):
    require_tool("task")
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    (recipes / "shop-task.yaml").write_text(
        f"tool: task\nrunner: {{dir: {repo}, file: ci/tasks.yml}}\n"
    )
    out = tmp_path / "packs"
    result = cli("batch", str(recipes), "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    [pack] = out.iterdir()
    some = next(iter(_verbs(pack).values()))
    assert some["cli"][:5] == [
        "task",
        "--dir",
        str(repo),
        "--taskfile",
        str(repo / "ci" / "tasks.yml"),
    ]


def test_default_names_stay_unnamed(cli, tmp_path):
    """A Makefile make finds by itself gets no -f (the packs of earlier versions do not change)."""
    require_tool("make")
    root = tmp_path / "shop"
    shutil.copytree(SHOP, root)
    out = tmp_path / "packs"
    result = cli(
        "wrap", "make", "--dir", str(root), "--runner-file", "Makefile", "-o", str(out), "--no-try"
    )
    assert result.exit_code == 0, result.stderr
    assert "-f" not in _verbs(out / "shop-make")["status"]["cli"]


@pytest.mark.parametrize(
    "args, says",
    [
        (["npm", "--runner-file", "ci/release.mk"], "npm reads only package.json, not release.mk"),
        (["make", "--runner-file", "ci/missing.mk"], "no runner file"),
        (["make", "--dir", "ci/release.mk"], "--dir names the repository"),
        (["rg", "--runner-file", "ci/release.mk"], "rg is not a task runner"),
    ],
)
def test_wrong_runner_files_are_one_clear_error(cli, repo, tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(repo)
    result = cli("wrap", *args, "-o", str(tmp_path / "packs"), "--no-try")
    assert result.exit_code != 0
    assert says in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "packs").exists()
