"""Task runners live: `wrapgen wrap make|just|npm|task` on a copy of recipes/examples/shop, then the
packs run from another directory (`make`, PyPI's `rust-just`, node's npm, PyPI's `go-task-bin`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import require_tool
from wrapgen.parse.runners.just import parse_just_dump
from wrapgen.parse.runners.make import parse_make_database
from wrapgen.parse.runners.taskfile import parse_task_list
from wrapgen.probe.runners import _run, find_repository

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "recipes" / "examples" / "shop"
CAPTURED = REPO / "tests" / "fixtures" / "runners" / "shop"


@pytest.fixture
def shop(tmp_path):
    """A copy of the example repository (its targets write dist/ there) and a directory elsewhere."""
    repo = tmp_path / "shop"
    shutil.copytree(SHOP, repo)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return repo, elsewhere, tmp_path / "packs"


def _envelope(result) -> dict:
    return json.loads(result.stdout)


def test_make_targets_become_a_pack_that_runs_from_anywhere(cli, shop, monkeypatch):
    require_tool("make")
    repo, elsewhere, out = shop
    result = cli("wrap", "make", "--dir", str(repo), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "pack shop-make: 7 commands" in result.stdout and "deploy" in result.stdout
    assert "wrapgen check: 0 errors" in result.stdout
    pack = out / "shop-make"
    monkeypatch.chdir(elsewhere)
    status = _envelope(cli("exec", str(pack), "status", "--", "env=production"))
    assert status == {"ok": True, "result": "production: shop dev deployed\n"}
    refused = cli("exec", str(pack), "deploy", "--", "env=production", "version=1.4")
    assert refused.exit_code != 0 and "confirm" in _envelope(refused)["error"]
    assert not (repo / "dist").exists()  # nothing ran
    deployed = _envelope(
        cli("exec", str(pack), "deploy", "--", "env=production", "version=1.4", "confirm=true")
    )
    assert deployed["ok"] and "deployed shop 1.4 to production" in deployed["result"]
    assert (
        repo / "dist" / "shop-1.4.txt"
    ).read_text() == "shop 1.4\n"  # in the repository, not in cwd
    assert not (elsewhere / "dist").exists()
    injected = cli("exec", str(pack), "status", "--", "env=$(shell touch pwned)")
    assert not _envelope(injected)["ok"] and "pattern" in _envelope(injected)["error"]
    cleaned = _envelope(cli("exec", str(pack), "clean", "--", "confirm=true"))
    assert cleaned["ok"] and not (repo / "dist").exists()


def test_wrap_make_in_the_repository_itself(cli, shop, monkeypatch):
    require_tool("make")
    repo, _, out = shop
    monkeypatch.chdir(repo)
    result = cli("wrap", "make", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    import yaml

    verbs = yaml.safe_load((out / "shop-make" / "pack.yaml").read_text())["verbs"]
    assert verbs["test"]["cli"] == ["make", "--no-print-directory", "-C", str(repo), "test"]


def test_just_recipes_with_parameters(cli, shop, monkeypatch):
    require_tool("just")
    repo, elsewhere, out = shop
    result = cli("wrap", "just", "--dir", str(repo), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    pack = out / "shop-just"
    assert "_sign" not in (pack / "pack.yaml").read_text()
    monkeypatch.chdir(elsewhere)
    assert (
        _envelope(cli("exec", str(pack), "status", "--", "env=qa"))["result"]
        == "qa: shop deployed\n"
    )
    assert (
        _envelope(cli("exec", str(pack), "status"))["result"] == "staging: shop deployed\n"
    )  # just's default
    missing = _envelope(cli("exec", str(pack), "deploy", "--", "confirm=true"))
    assert not missing["ok"] and "env" in missing["error"]
    deployed = _envelope(
        cli("exec", str(pack), "deploy", "--", "env=production", "version=2.0", "confirm=true")
    )
    assert deployed["ok"] and "deployed shop 2.0 to production" in deployed["result"]
    assert (repo / "dist" / "shop-2.0.txt").is_file()


def test_npm_scripts_run_with_their_hooks(cli, shop, monkeypatch):
    require_tool("npm")
    repo, elsewhere, out = shop
    result = cli("wrap", "npm", "--dir", str(repo), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    pack = out / "shop-npm"
    monkeypatch.chdir(elsewhere)
    tested = _envelope(cli("exec", str(pack), "test", "--", "confirm=true"))
    assert tested == {"ok": True, "result": "ok: 12 tests passed\n"}  # no npm banner
    built = _envelope(cli("exec", str(pack), "build", "--", "confirm=true"))
    assert built["ok"] and (repo / "dist" / "shop.txt").is_file()  # prebuild made dist/ first


def test_taskfile_tasks_with_a_required_variable(cli, shop, monkeypatch):
    require_tool("task")
    repo, elsewhere, out = shop
    result = cli("wrap", "task", "--dir", str(repo), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    pack = out / "shop-task"
    assert "helper" not in (pack / "pack.yaml").read_text()  # internal
    monkeypatch.chdir(elsewhere)
    deployed = _envelope(cli("exec", str(pack), "deploy", "--", "env=production", "confirm=true"))
    assert deployed["ok"] and "deployed shop to production" in deployed["result"]


def test_a_makefile_make_cannot_read_is_reported_in_makes_words(cli, tmp_path):
    require_tool("make")
    (tmp_path / "Makefile").write_text("all:\n    echo spaces, not a tab\n")
    result = cli("wrap", "make", "--dir", str(tmp_path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "make could not read" in result.stderr and "missing separator" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli("wrap", "make", "--dir", str(empty), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and "no GNUmakefile / makefile / Makefile in" in result.stderr
    result = cli("wrap", "git", "--dir", str(empty), "-o", str(tmp_path / "out"))
    assert result.exit_code != 0 and "not a task runner" in result.stderr


def test_a_makefile_is_read_in_the_sandbox(cli, tmp_path):
    """Reading a makefile runs its $(shell ...): inside the probe sandbox that cannot write the repository."""
    require_tool("make")
    from wrapgen.probe.sandbox import sandbox_status

    (tmp_path / "Makefile").write_text(
        "X := $(shell touch $(CURDIR)/pwned)\nall: ## everything\n\t@true\n"
    )
    result = cli("wrap", "make", "--dir", str(tmp_path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    if sandbox_status().available:
        assert not (tmp_path / "pwned").exists()
    else:
        assert "without a sandbox" in result.stdout


def test_the_captured_databases_are_what_the_runners_print_today():
    """The golden tests' captures (tests/fixtures/runners/shop) still match the example repository."""

    def live(tool: str, args: list[str]) -> str:
        repo = find_repository(tool, SHOP)
        code, out, err, _ = _run(shutil.which(tool), args, repo, timeout_s=30, sandbox=None)
        return out.replace(str(SHOP), "/repo/shop")

    def captured(name: str) -> str:
        return (CAPTURED / name).read_text(encoding="utf-8")

    makefiles = {"Makefile": (SHOP / "Makefile").read_text()}
    require_tool("make")
    db = live("make", ["-C", str(SHOP), "-f", "Makefile", "-pRrq", "--no-print-directory", ":"])
    assert [c.to_dict() for c in parse_make_database(db, makefiles)] == [
        c.to_dict() for c in parse_make_database(captured("make-database.txt"), makefiles)
    ]
    justfile = (SHOP / "justfile").read_text()
    if shutil.which("just"):
        dump = live(
            "just",
            [
                "--justfile",
                str(SHOP / "justfile"),
                "--working-directory",
                str(SHOP),
                "--dump",
                "--dump-format",
                "json",
            ],
        )
        assert parse_just_dump(dump, justfile) == parse_just_dump(
            captured("just-dump.json"), justfile
        )
    if shutil.which("task"):
        listing = live("task", ["--dir", str(SHOP), "--list-all", "--json"])
        taskfile = (SHOP / "Taskfile.yml").read_text()
        assert parse_task_list(listing, taskfile) == parse_task_list(
            captured("task-list.json"), taskfile
        )


def test_batch_converts_runner_recipes_and_checks_them(cli, tmp_path):
    for tool in ("make", "just", "npm"):
        require_tool(tool)
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    shutil.copytree(SHOP, recipes / "shop")
    for kind in ("make", "just", "npm"):
        shutil.copy(REPO / "recipes" / "examples" / f"shop-{kind}.yaml", recipes)
    out = tmp_path / "packs"
    result = cli("batch", str(recipes), "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sorted(os.listdir(out)) == [
        "shop-just",
        "shop-make",
        "shop-npm",
    ]  # Taskfile.yml is no recipe
    assert "warnings:" not in result.stdout
    npm_pack = (out / "shop-npm" / "pack.yaml").read_text()
    assert "start" not in npm_pack.split("verbs:", 1)[1]  # excluded by the recipe
    checked = cli("batch", str(recipes), "-o", str(out), "--check")
    assert checked.exit_code == 0, checked.stdout
    probed = cli("check", "--probe", str(out))  # npm's --prefix is in its manual, not its --help
    assert probed.exit_code == 0 and "3 packs checked: 0 errors, 0 warnings" in probed.stdout, (
        probed.stdout
    )
    makefile = recipes / "shop" / "Makefile"
    makefile.write_text(makefile.read_text().replace("## Run the unit tests", "## Run every test"))
    drifted = cli("batch", str(recipes), "-o", str(out), "--check")
    assert drifted.exit_code == 1, drifted.stdout  # the memo saw the Makefile change
    assert "Run every test" in drifted.stdout
