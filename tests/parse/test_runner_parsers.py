"""Task runners' databases -> targets: golden tests on captured output of the example repository.

The captures (tests/fixtures/runners/shop/) are `make -pRrq`, `just --dump --dump-format json` and
`task --list-all --json` run in recipes/examples/shop (the repository path replaced by /repo/shop);
tests/live/test_runners_live.py checks that they still match what the runners print today.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wrapgen.errors import RunnerFileError
from wrapgen.parse.runners import leading_comment, prerequisites
from wrapgen.parse.runners.just import parse_just_dump
from wrapgen.parse.runners.make import make_help, parse_make_database
from wrapgen.parse.runners.npm import parse_package_json
from wrapgen.parse.runners.taskfile import parse_task_list, parse_taskfile

REPO = Path(__file__).resolve().parents[2]
CAPTURED = REPO / "tests" / "fixtures" / "runners" / "shop"
SHOP = REPO / "recipes" / "examples" / "shop"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def make_targets():
    return parse_make_database(
        _text(CAPTURED / "make-database.txt"), {"Makefile": _text(SHOP / "Makefile")}
    )


def just_targets():
    return parse_just_dump(_text(CAPTURED / "just-dump.json"), _text(SHOP / "justfile"))


def task_targets():
    return parse_task_list(_text(CAPTURED / "task-list.json"), _text(SHOP / "Taskfile.yml"))


def test_every_runner_matches_its_golden_targets():
    expected = json.loads(_text(CAPTURED / "expected-targets.json"))
    got = {
        "make": [c.to_dict() for c in make_targets()],
        "just": [c.to_dict() for c in just_targets()[0]],
        "npm": [c.to_dict() for c in parse_package_json(_text(SHOP / "package.json"))[0]],
        "task": [c.to_dict() for c in task_targets()],
    }
    assert got == expected


def test_make_targets_keep_the_file_order_with_their_help_and_prerequisites():
    targets = {c.name: c for c in make_targets()}
    assert [c.name for c in make_targets()] == [
        "help",
        "test",
        "lint",
        "build",
        "status",
        "deploy",
        "clean",
    ]
    assert targets["deploy"].summary == "Deploy VERSION to ENV (staging or production)"
    assert prerequisites(targets["deploy"]) == ("build",)
    assert prerequisites(targets["test"]) == ()
    assert all(c.parser == "runner-make" for c in targets.values())
    # the makefile itself, `.PHONY` and make's own `::` / `.DEFAULT` are no targets
    assert not {"Makefile", ".PHONY", "::", ".DEFAULT"} & set(targets)


def test_make_parameters_are_the_conditional_variables_a_recipe_refers_to():
    targets = {c.name: c for c in make_targets()}
    # ENV ?= staging and VERSION ?= dev are parameters; OUT := dist is the makefile's own
    assert [(f.long, f.default) for f in targets["status"].flags] == [
        ("ENV", "staging"),
        ("VERSION", "dev"),
    ]
    assert [f.long for f in targets["build"].flags] == ["VERSION"]
    # deploy's own recipe names both, and its prerequisite build names VERSION too
    assert [f.long for f in targets["deploy"].flags] == ["ENV", "VERSION"]
    assert targets["clean"].flags == () and targets["test"].flags == ()


def test_make_help_convention_and_a_prerequisite_only_parameter():
    makefile = (
        "REGION ?= eu\nall: build ## Build everything\nbuild:\n\t@echo $(REGION)\n"
        "x.o: x.c\n\tcc -c x.c\n.PHONY: all build\n"
    )
    db = (
        "# Variables\n\n# makefile (from 'Makefile', line 1)\nREGION = eu\n\n# Files\n\n"
        "all: build\n#  Phony target (prerequisite of .PHONY).\n\n"
        "build:\n#  Phony target (prerequisite of .PHONY).\n#  recipe to execute (from 'Makefile', line 4):\n\t@echo $(REGION)\n\n"
        "x.o: x.c\n#  recipe to execute (from 'Makefile', line 6):\n\tcc -c x.c\n\n"
        "# files hash-table stats:\n"
    )
    targets = {c.name: c for c in parse_make_database(db, {"Makefile": makefile})}
    assert set(targets) == {"all", "build"}  # x.o is a file the build makes
    assert targets["all"].summary == "Build everything"
    assert [f.long for f in targets["all"].flags] == ["REGION"]  # through its prerequisite
    assert make_help({"Makefile": "a b: c ## two at once\n"}) == {
        "a": (0, 1, "two at once"),
        "b": (0, 1, "two at once"),
    }


def test_just_recipes_with_parameters_doc_comments_and_no_private_ones():
    targets, warnings, doc = just_targets()
    by_name = {c.name: c for c in targets}
    assert [c.name for c in targets] == [
        "default",
        "test",
        "lint",
        "build",
        "status",
        "deploy",
        "clean",
    ]
    assert "_sign" not in by_name and warnings == ()
    deploy = by_name["deploy"]
    assert deploy.summary == "Deploy a version to an environment (staging or production)"
    assert [(p.name, p.required) for p in deploy.positionals] == [("env", True), ("version", False)]
    assert "default: dev" in deploy.positionals[1].description
    assert prerequisites(deploy) == ("build",)


def test_just_option_parameters_are_flags():
    """Captured from just 1.59 (tests/fixtures/runners/just-options): `[arg("env", long="env")]` is a
    flag with a value, one with `value="yes"` a switch, and a required option stays required."""
    folder = CAPTURED.parent / "just-options"
    targets, warnings, _ = parse_just_dump(
        _text(folder / "just-dump.json"), _text(folder / "justfile")
    )
    by_name = {c.name: c for c in targets}
    assert list(by_name) == ["preview", "changelog", "publish"] and warnings == ()
    preview = by_name["preview"]
    assert [(p.name, p.required) for p in preview.positionals] == [("version", True)]
    [env] = preview.flags
    assert (env.long, env.takes_value, env.required) == ("--env", True, False)
    assert (
        env.description.startswith("The environment to look at")
        and "default: staging" in env.description
    )
    [brief] = by_name["changelog"].flags
    assert (brief.long, brief.takes_value, brief.type, brief.required) == (
        "--brief",
        False,
        "boolean",
        False,
    )
    [registry] = by_name["publish"].flags
    assert registry.required and registry.takes_value


def test_npm_scripts_without_their_hooks():
    targets, about = parse_package_json(_text(SHOP / "package.json"))
    assert about == "The shop service."
    assert [c.name for c in targets] == [
        "test",
        "lint",
        "build",
        "format",
        "start",
        "clean",
    ]  # no prebuild
    build = next(c for c in targets if c.name == "build")
    assert prerequisites(build) == ("prebuild",) and "writeFileSync" in build.description


def test_taskfile_tasks_with_required_variables_with_and_without_go_task():
    listed = {c.name: c for c in task_targets()}
    assert list(listed) == [
        "test",
        "build",
        "deploy",
        "clean",
    ]  # by line; the internal helper is not listed
    assert [(f.long, f.required) for f in listed["deploy"].flags] == [("ENV", True)]
    assert prerequisites(listed["deploy"]) == ("build",)
    alone, warnings = parse_taskfile(_text(SHOP / "Taskfile.yml"))
    assert [c.name for c in alone] == ["test", "build", "deploy", "clean"]
    assert [c.to_dict() for c in alone] == [c.to_dict() for c in listed.values()]
    assert "go-task is not installed" in warnings[0]


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: parse_just_dump("error: Unknown start of token"), "just --dump printed no JSON"),
        (lambda: parse_just_dump("[]"), "without recipes"),
        (
            lambda: parse_package_json("{", source="pkg/package.json"),
            "pkg/package.json is not JSON",
        ),
        (lambda: parse_package_json('{"scripts": []}'), "`scripts` is not an object"),
        (lambda: parse_task_list("task: No Taskfile found"), "printed no JSON"),
        (lambda: parse_taskfile("tasks: [unclosed"), "is not valid YAML"),
    ],
)
def test_unreadable_runner_output_is_a_runner_file_error(call, words):
    with pytest.raises(RunnerFileError) as caught:
        call()
    assert words in caught.value.message and caught.value.hint


def test_the_leading_comment_describes_the_file():
    assert leading_comment(_text(SHOP / "Makefile")).startswith("The shop service's internal tasks")
    assert leading_comment("#!/usr/bin/env just\n\n# Tasks\nx:\n") == "Tasks"
    assert leading_comment("all:\n# not a description\n") == ""
