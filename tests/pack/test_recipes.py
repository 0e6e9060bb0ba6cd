"""The recipe format: loading, validation messages, tool resolution."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import REPO
from wrapgen.errors import RecipeError, ToolNotFoundError
from wrapgen.pack.recipe import (
    CommandSpec,
    default_pack_id,
    load_recipe,
    parse_recipe,
    resolve_tool,
)

FULL = """\
tool: gh
pack_id: gh
description: Work with GitHub pull requests.
json: [--json]
search_paths: [bin]
discover: {depth: 2, style: null, max_nodes: 300}
commands:
  - pr list
  - {path: "pr view", name: pr.show, policy: read, timeout_s: 30}
exclude: ["pr create"]
overrides:
  pr.list:
    name: pr.ls
    description: List pull requests.
    policy: {effect: read, confirm: false}
    json: false
    args: {include: [state, limit], exclude: [web]}
    positional_order: [repo]
    title: {live: "Listing pull requests", done: ["Listed {{state}} pull requests", "Listed pull requests"]}
    timeout_s: 60
"""


def _write(tmp_path: Path, text: str, name: str = "r.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_full_recipe_loads_every_field(tmp_path):
    """Every documented field lands in the frozen Recipe with the agreed types."""
    recipe = load_recipe(_write(tmp_path, FULL))
    assert recipe.tool == "gh" and recipe.pack_id == "gh"
    assert recipe.json == ("--json",)
    assert recipe.search_paths == (str((tmp_path / "bin").resolve()),)
    assert recipe.discover_options == {"depth": 2, "style": None, "max_nodes": 300}
    assert recipe.commands[0] == CommandSpec(path=("pr", "list"))
    assert recipe.commands[1].name == "pr.show" and recipe.commands[1].policy == {"effect": "read"}
    assert recipe.commands[1].timeout_s == 30
    assert recipe.exclude == (("pr", "create"),)
    spec = recipe.overrides["pr.list"]
    assert spec.name == "pr.ls" and spec.json is False
    assert spec.include_args == ("state", "limit") and spec.exclude_args == ("web",)
    assert spec.positional_order == ("repo",)
    assert spec.title == {
        "live": ("Listing pull requests",),
        "done": ("Listed {{state}} pull requests", "Listed pull requests"),
    }
    assert recipe.source_path == str(tmp_path / "r.yaml")
    with pytest.raises(AttributeError):
        recipe.tool = "git"  # type: ignore[misc]


def test_minimal_recipe_defaults(tmp_path):
    """Only `tool:` is required; commands default to propose and nothing else is set."""
    recipe = load_recipe(_write(tmp_path, "tool: ./scripts/deploy.sh\n"))
    assert recipe.commands is None and recipe.overrides == {} and recipe.json is None
    assert recipe.resolved_pack_id == "deploy"
    assert default_pack_id("My_Tool") == "my-tool"


@pytest.mark.parametrize(
    "text, field, suggestion",
    [
        ("tool: git\noverides: {}\n", "overides", "overrides"),
        ("tool: git\noverrides:\n  log: {polcy: read}\n", "overrides.log.polcy", "policy"),
        ("tool: git\ncommands:\n  - {path: log, nmae: log}\n", "commands[0].nmae", "name"),
        (
            "tool: git\noverrides:\n  pr.list: {args: {includ: [a]}}\n",
            "overrides['pr.list'].args.includ",
            "include",
        ),
        ("tool: git\ndiscover: {dept: 2}\n", "discover.dept", "depth"),
    ],
)
def test_typo_names_key_field_and_closest(tmp_path, text, field, suggestion):
    """A misspelt key is reported with its field path, its line and the closest valid key."""
    with pytest.raises(RecipeError) as info:
        load_recipe(_write(tmp_path, text))
    error = info.value
    assert field in error.message and f"{suggestion!r}" in error.hint
    bad_line = next(
        i
        for i, line in enumerate(text.splitlines(), 1)
        if field.split(".")[-1].split("'")[-1] in line
    )
    assert f"r.yaml:{bad_line}:" in error.message


def test_yaml_syntax_error_has_line(tmp_path):
    """Broken YAML gives the line number and no traceback-ish text."""
    with pytest.raises(RecipeError) as info:
        load_recipe(_write(tmp_path, "tool: git\ncommands: [log\nexclude: []\n"))
    assert "invalid YAML" in info.value.message and "r.yaml:" in info.value.message
    assert "Traceback" not in info.value.message


@pytest.mark.parametrize(
    "text, needle",
    [
        ("tool: git\njson: --json\n", "json"),
        ("tool: git\npack_id: Git\n", "pack_id"),
        ("tool: git\ncommands: [1]\n", "commands[0]"),
        ("tool: git\noverrides:\n  log: {policy: {effect: rede}}\n", "overrides.log.policy"),
        ("tool: git\ncommands: [log, log]\n", "listed twice"),
        ("tool: git\ncommands: [log]\nexclude: [log]\n", "both in commands and in exclude"),
        ("pack_id: git\n", "tool"),
        ("- tool: git\n", "mapping"),
        ("", "empty"),
    ],
)
def test_invalid_values_are_recipe_errors(tmp_path, text, needle):
    """Wrong values, duplicates and contradictions are RecipeErrors naming the field."""
    with pytest.raises(RecipeError) as info:
        load_recipe(_write(tmp_path, text))
    assert needle in info.value.message
    assert info.value.hint


def test_missing_recipe_file_is_clear(tmp_path):
    """A recipe path that does not exist is a RecipeError, not an OSError."""
    with pytest.raises(RecipeError, match="does not exist"):
        load_recipe(tmp_path / "nope.yaml")


def test_resolve_tool_search_paths_then_path(tmp_path):
    """search_paths (relative to the recipe) win over PATH; a name on PATH resolves otherwise."""
    bin_dir = tmp_path / "tools"
    bin_dir.mkdir()
    script = bin_dir / "git"
    script.write_text("#!/bin/sh\necho fake\n")
    script.chmod(0o755)
    recipe = parse_recipe("tool: git\nsearch_paths: [tools]\n", source=str(tmp_path / "r.yaml"))
    found = resolve_tool(recipe)
    # (PATH's git is another program: pack.yaml names the one the recipe found by its path)
    assert found.path == str(script) and found.bin == str(script) and not found.by_name
    plain = resolve_tool(parse_recipe("tool: sh\n", source=str(tmp_path / "r.yaml")))
    assert os.path.basename(plain.path) == "sh" and plain.bin == "sh" and plain.by_name


def test_a_search_path_that_holds_the_program_on_path_keeps_its_name(tmp_path):
    """A tool found in search_paths that PATH finds by the same name, the very same file, is named."""
    bin_dir = tmp_path / "tools"
    bin_dir.mkdir()
    (bin_dir / "mytool").write_text("#!/bin/sh\necho mine\n")
    (bin_dir / "mytool").chmod(0o755)
    recipe = parse_recipe("tool: mytool\nsearch_paths: [tools]\n", source=str(tmp_path / "r.yaml"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        found = resolve_tool(recipe)
    assert (found.bin, found.path) == ("mytool", str(bin_dir / "mytool"))


def test_resolve_tool_relative_path_and_missing(tmp_path):
    """A path is relative to the recipe; a missing tool names every place looked in."""
    recipe = load_recipe(REPO / "recipes" / "examples" / "deployctl.yaml")
    found = resolve_tool(recipe)
    assert found.path == str(REPO / "recipes" / "examples" / "bin" / "deployctl")
    assert os.path.isabs(found.bin) and found.name == "deployctl"
    missing = parse_recipe(
        "tool: no-such-tool-xyz\nsearch_paths: [a]\n", source=str(tmp_path / "r.yaml")
    )
    with pytest.raises(ToolNotFoundError) as info:
        resolve_tool(missing)
    assert "no-such-tool-xyz" in info.value.message and str(tmp_path / "a") in info.value.message
    assert "PATH" in info.value.message and "search_paths" in info.value.hint
    not_exec = tmp_path / "t.sh"
    not_exec.write_text("#!/bin/sh\n")
    with pytest.raises(ToolNotFoundError, match="not executable"):
        resolve_tool(parse_recipe("tool: ./t.sh\n", source=str(tmp_path / "r.yaml")))


def test_shipped_recipes_all_load():
    """Every recipe under recipes/ is valid."""
    paths = sorted((REPO / "recipes").rglob("*.yaml"))
    assert paths
    for path in paths:
        assert load_recipe(path).tool
