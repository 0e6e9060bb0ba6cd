"""A task runner's targets -> a pack: every target a verb, confirm-gated unless it only reads.

The tools are built from the captured databases of recipes/examples/shop (tests/parse/test_runner_parsers.py
reads the same captures), rooted at /repo/shop as wrapgen.probe.runners roots them.
"""

from __future__ import annotations

import re

import pytest

from tests.parse.test_runner_parsers import SHOP, just_targets, make_targets, task_targets
from wrapgen.check.rules import lint_manifest
from wrapgen.knowledge.runners import invocation, target_effect
from wrapgen.model.tool import Command, Tool
from wrapgen.pack.manifest import parse_manifest
from wrapgen.pack.recipe import parse_recipe
from wrapgen.parse.runners.npm import parse_package_json
from wrapgen.propose import propose
from wrapgen.propose.runners import is_runner_tool
from wrapgen.runtime import render_argv, validate_args


def _tool(kind: str, bin_name: str, targets, summary="The shop service's internal tasks.") -> Tool:
    file = {"make": "Makefile", "just": "justfile", "npm": "package.json", "task": "Taskfile.yml"}[
        kind
    ]
    prefix = invocation(kind, directory="/repo/shop", file=f"/repo/shop/{file}")
    root = Command(
        path=(), summary=summary, subcommands=tuple(targets), probe=prefix, parser=f"runner-{kind}"
    )
    return Tool(name=bin_name, root=root, path=f"/usr/bin/{bin_name}")


def make_tool() -> Tool:
    return _tool("make", "make", make_targets())


def test_every_make_target_is_a_verb_that_runs_make_in_the_repository():
    proposal = propose(make_tool())
    verbs = proposal.manifest["verbs"]
    assert list(verbs) == ["help", "test", "lint", "build", "status", "deploy", "clean"]
    assert proposal.manifest["pack_id"] == "shop-make" and proposal.manifest["bin"] == "make"
    assert proposal.manifest["json"] is False
    assert verbs["deploy"]["cli"] == [
        "make",
        "--no-print-directory",
        "-C",
        "/repo/shop",
        "deploy",
        "ENV={{env}}",
        "VERSION={{version}}",
    ]
    assert verbs["deploy"]["timeout_s"] == 600
    argv = render_argv(verbs["deploy"]["cli"], {"env": "production"})
    assert argv == ["make", "--no-print-directory", "-C", "/repo/shop", "deploy", "ENV=production"]


def test_the_effect_rule_gates_everything_but_what_only_reads():
    verbs = propose(make_tool()).manifest["verbs"]
    effects = {name: (v["policy"]["effect"], v["policy"]["confirm"]) for name, v in verbs.items()}
    assert effects == {
        "help": ("read", False),
        "status": ("read", False),
        "lint": ("read", False),  # its help: "Check the code style; changes nothing"
        "test": ("write", True),  # a checking name whose help does not say it changes nothing
        "build": ("write", True),
        "deploy": ("write", True),
        "clean": ("destructive", True),
    }
    assert "often build first" in verbs["test"]["x-why"]


def test_a_reading_target_that_depends_on_a_writing_one_writes():
    targets = [
        Command(path=("compile",), summary="Compile", usage=("compile:",), parser="runner-make"),
        Command(
            path=("status",),
            summary="Show the status",
            usage=("status: compile",),
            parser="runner-make",
        ),
        Command(
            path=("check",),
            summary="Check; changes nothing",
            usage=("check: status",),
            parser="runner-make",
        ),
        Command(
            path=("list",),
            summary="List the files",
            usage=("list: out/files.txt",),
            parser="runner-make",
        ),
    ]
    verbs = propose(_tool("make", "make", targets)).manifest["verbs"]
    assert verbs["status"]["policy"]["effect"] == "write" and "compile" in verbs["status"]["x-why"]
    assert verbs["check"]["policy"]["effect"] == "write"
    assert verbs["list"]["policy"]["effect"] == "write"  # a file prerequisite is made first


@pytest.mark.parametrize(
    "name, help_text, effect",
    [
        ("status", "Show the deployed version", "read"),
        ("status", "Update and show the status", "write"),
        ("version", "", "read"),
        ("test", "Run the tests", "write"),
        ("check", "Verify the config; read-only", "read"),
        ("lint", "Lint and fix", "write"),
        ("typecheck", "", "write"),
        ("clean-docker", "", "destructive"),
        ("reset-db", "Reset the local database", "destructive"),
        ("serve", "Serve the docs", "write"),
        (
            "help",
            "Remove nothing, list the targets",
            "destructive",
        ),  # conservative: a removing word wins
    ],
)
def test_target_effect_cases(name, help_text, effect):
    assert target_effect(name, help_text)[0] == effect


def test_parameter_values_are_words_a_shell_line_cannot_misread():
    verbs = propose(make_tool()).manifest["verbs"]
    schema = verbs["deploy"]["args"]
    assert validate_args(schema, {"env": "production", "version": "1.4.2+build.7"}) == []
    for bad in ("prod;rm -rf ~", "$(shell id)", "a b", "-e", "`id`", "x" * 201):
        assert validate_args(schema, {"env": bad}), bad
    assert "default: staging" in schema["properties"]["env"]["description"]
    assert "default" not in schema["properties"]["env"]  # the runner keeps applying its own


def test_just_recipes_pass_their_operands_after_a_literal_double_dash():
    proposal = propose(_tool("just", "just", just_targets()[0]))
    verbs = proposal.manifest["verbs"]
    assert proposal.manifest["pack_id"] == "shop-just"
    assert verbs["deploy"]["cli"] == [
        "just",
        "--justfile",
        "/repo/shop/justfile",
        "--working-directory",
        "/repo/shop",
        "--",
        "deploy",
        "{{env}}",
        "{{version}}",
    ]
    assert verbs["deploy"]["args"]["required"] == ["env"]
    assert verbs["default"]["policy"]["effect"] == "write"  # `default` could be anything


def test_npm_scripts_and_taskfile_tasks():
    scripts, about = parse_package_json((SHOP / "package.json").read_text(encoding="utf-8"))
    npm = propose(_tool("npm", "npm", scripts, summary=about)).manifest
    assert npm["description"] == "The shop service."
    assert npm["verbs"]["test"]["cli"] == [
        "npm",
        "--silent",
        "--prefix",
        "/repo/shop",
        "run",
        "test",
    ]
    assert npm["verbs"]["test"]["description"].startswith("Run the npm script 'test' (node -e")
    task = propose(_tool("task", "task", task_targets())).manifest["verbs"]
    assert task["deploy"]["cli"] == ["task", "--dir", "/repo/shop", "deploy", "ENV={{env}}"]
    assert task["deploy"]["args"]["required"] == ["env"]


def test_titles_name_the_target_and_the_parameters_given():
    verbs = propose(make_tool()).manifest["verbs"]
    assert (
        verbs["deploy"]["title"]["live"][0]
        == "Running make deploy (env={{env}}, version={{version}})"
    )
    assert verbs["deploy"]["title"]["live"][-1] == "Running make deploy"
    assert verbs["test"]["title"] == {"live": ["Running make test"], "done": ["Ran make test"]}


def test_a_recipe_lists_renames_excludes_and_overrides_targets():
    recipe = parse_recipe(
        "tool: make\npack_id: shop-tasks\ncommands: [deploy, {path: status, name: where}, nope]\n"
        "overrides:\n  deploy:\n    args: {include: [env]}\n    policy: destructive\n"
        "    description: Ship it.\n"
    )
    proposal = propose(make_tool(), recipe)
    verbs = proposal.manifest["verbs"]
    assert list(verbs) == ["deploy", "where"] and proposal.manifest["pack_id"] == "shop-tasks"
    assert verbs["deploy"]["cli"][-1] == "ENV={{env}}" and list(
        verbs["deploy"]["args"]["properties"]
    ) == ["env"]
    assert verbs["deploy"]["policy"] == {"effect": "destructive", "confirm": True}
    assert verbs["deploy"]["description"] == "Ship it."
    assert any("'nope'" in w for w in proposal.warnings)
    excluded = propose(make_tool(), parse_recipe("tool: make\nexclude: [help, clean]\n")).manifest
    assert "help" not in excluded["verbs"] and "clean" not in excluded["verbs"]
    assert excluded["pack_id"] == "shop-make"  # the recipe's default id is the repository's


def test_at_most_twelve_targets_in_the_file_order():
    targets = [Command(path=(f"t{i}",), usage=(f"t{i}:",), parser="runner-make") for i in range(15)]
    proposal = propose(_tool("make", "make", targets))
    assert list(proposal.manifest["verbs"]) == [f"t{i}" for i in range(12)]
    assert sum("already has 12" in d.reason for d in proposal.decisions) == 3


def test_the_pack_passes_check_and_the_help_reading_tool_is_untouched():
    for tool in (
        make_tool(),
        _tool("just", "just", just_targets()[0]),
        _tool("task", "task", task_targets()),
    ):
        from wrapgen.pack.build import pack_files

        files = pack_files(propose(tool).manifest)
        manifest, diagnostics = parse_manifest(files["pack.yaml"].encode(), path="pack.yaml")
        findings = lint_manifest(manifest, diagnostics, directory=None, derived=False)
        assert [d for d in findings if d.level == "error"] == [], findings
        assert not [d for d in findings if d.code in ("W009", "W050", "W052", "W053")], findings
    assert is_runner_tool(make_tool())
    assert not is_runner_tool(Tool(name="make", root=Command(parser="gnu")))
    assert re.match(r"^[a-z]", propose(make_tool()).manifest["pack_id"])
