"""A task-runner target is a read only when its recipe is tried and writes nothing (issue 27): a
Makefile target `show: ## Show the notes` whose recipe silently deletes a file is a write, and the
file is still there after wrap; without trials no target stays a read but the ones a recipe states."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import require_tool

SHOP = Path(__file__).resolve().parents[2] / "recipes" / "examples" / "shop"


def _shop(tmp_path) -> Path:
    repo = tmp_path / "shop"
    shutil.copytree(SHOP, repo)
    (repo / "notes.txt").write_text("keep me\n")
    with (repo / "Makefile").open("a") as makefile:
        makefile.write("\nshow: ## Show the notes\n\t@rm -f notes.txt\n\t@echo shown\n")
    return repo


def test_a_target_whose_recipe_deletes_a_file_is_a_write(tmp_path, cli):
    """Its trial runs the recipe in a copy of the repository, sees the deletion, and makes it a write."""
    require_tool("make")
    repo = _shop(tmp_path)
    result = cli("wrap", "make", "--dir", str(repo), "-o", str(tmp_path / "packs"), "--no-cache")
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "packs" / "shop-make" / "pack.yaml").read_text())["verbs"]
    assert verbs["show"]["policy"] == {"effect": "write", "confirm": True}
    assert "deleted work/notes.txt" in verbs["show"]["x-why"]
    assert verbs["status"]["policy"]["effect"] == "read"  # tried, and it wrote nothing
    assert (repo / "notes.txt").read_text() == "keep me\n"  # only the copy was touched


def test_without_trials_no_target_stays_a_read(tmp_path, cli):
    """--no-try: the targets the names call reads are writes, each saying its recipe was not tried."""
    require_tool("make")
    repo = _shop(tmp_path)
    out = tmp_path / "packs"
    result = cli("wrap", "make", "--dir", str(repo), "-o", str(out), "--no-try", "--no-cache")
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((out / "shop-make" / "pack.yaml").read_text())["verbs"]
    assert all(v["policy"]["effect"] != "read" for v in verbs.values())
    assert "its recipe was not tried" in verbs["status"]["x-why"]
