"""just's option parameters (`[arg("env", long="env")]`, just 1.59) through a pack: passed after `--`,
where just still reads the recipe's options, each call gives what the human command gives."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import require_tool

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "runners" / "just-options"


@pytest.fixture
def pack(cli, tmp_path):
    require_tool("just")
    repo = tmp_path / "release"
    shutil.copytree(FIXTURE, repo)
    result = cli("wrap", "just", "--dir", str(repo), "-o", str(tmp_path / "packs"), "--no-try")
    assert result.exit_code == 0, result.stderr
    return repo, tmp_path / "packs" / "release-just"


@pytest.mark.parametrize(
    "verb, args, by_hand",
    [
        ("preview", ["version=1.4", "env=production"], ["preview", "--env", "production", "1.4"]),
        ("preview", ["version=1.4"], ["preview", "1.4"]),
        ("changelog", ["brief=true"], ["changelog", "--brief"]),
        ("changelog", [], ["changelog"]),
        (
            "publish",
            ["version=2.0", "registry=internal"],
            ["publish", "--registry=internal", "2.0"],
        ),
    ],
)
def test_option_parameters_give_the_human_commands_output(cli, pack, verb, args, by_hand):
    repo, directory = pack
    human = subprocess.run(
        [shutil.which("just"), *by_hand], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert human.returncode == 0, human.stderr
    called = json.loads(cli("exec", str(directory), verb, "--", *args, "confirm=true").stdout)
    assert called == {"ok": True, "result": human.stdout}


def test_a_required_option_is_required_and_no_value_becomes_an_option(cli, pack):
    _, directory = pack
    missing = json.loads(
        cli("exec", str(directory), "publish", "--", "version=2.0", "confirm=true").stdout
    )
    assert not missing["ok"] and "registry: required" in missing["error"]
    smuggled = json.loads(
        cli(
            "exec",
            str(directory),
            "publish",
            "--",
            "version=--registry=evil",
            "registry=internal",
            "confirm=true",
        ).stdout
    )
    assert not smuggled["ok"] and "pattern" in smuggled["error"]
