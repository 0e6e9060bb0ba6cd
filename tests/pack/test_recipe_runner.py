"""Recipes that name a task runner's repository (`runner: {dir:}`), and batch's walk past a Taskfile."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.errors import RecipeError
from wrapgen.flows.batch import _memo_key, find_recipes
from wrapgen.pack.recipe import load_recipe, parse_recipe

REPO = Path(__file__).resolve().parents[2]


def test_runner_dir_is_relative_to_the_recipe(tmp_path):
    (tmp_path / "repo").mkdir()
    recipe_file = tmp_path / "r.yaml"
    recipe_file.write_text("tool: make\nrunner: {dir: repo}\n")
    recipe = load_recipe(recipe_file)
    assert recipe.runner_dir == str((tmp_path / "repo").resolve())
    assert parse_recipe("tool: git\n").runner_dir is None


@pytest.mark.parametrize(
    "text, words",
    [
        ("tool: git\nrunner: {dir: x}\n", "needs a task runner as the tool"),
        ("tool: make\nrunner: {}\n", "dir"),
        (
            "tool: make\nrunner: {dir: x, makefile: y}\n",
            "makefile",
        ),  # `file` is a key since runner files of other names
    ],
)
def test_a_bad_runner_key_is_a_recipe_error(text, words):
    with pytest.raises(RecipeError) as caught:
        parse_recipe(text, source="r.yaml")
    assert words in str(caught.value) + "".join(d.format() for d in caught.value.diagnostics)


def test_the_shipped_example_recipes_name_the_example_repository():
    for kind in ("make", "just", "npm"):
        recipe = load_recipe(REPO / "recipes" / "examples" / f"shop-{kind}.yaml")
        assert recipe.tool == kind and recipe.runner_dir == str(
            REPO / "recipes" / "examples" / "shop"
        )


def test_batch_never_takes_a_taskfile_for_a_recipe_and_skips_examples():
    found = [p.relative_to(REPO).as_posix() for p in find_recipes([REPO / "recipes" / "examples"])]
    assert "recipes/examples/shop-make.yaml" in found
    assert not any(p.endswith(("Taskfile.yml", "package.json")) for p in found)
    assert not any(
        "/examples/" in p.relative_to(REPO).as_posix() for p in find_recipes([REPO / "recipes"])
    )


def test_the_memo_of_a_runner_recipe_changes_with_the_makefile(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "Makefile").write_text("all:\n\techo hi\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("tool: make\nrunner: {dir: repo}\n")
    before = _memo_key(recipe, tmp_path / "out")
    assert before is not None and before == _memo_key(recipe, tmp_path / "out")
    (repo / "Makefile").write_text("all:\n\techo changed\n")
    assert _memo_key(recipe, tmp_path / "out") != before
