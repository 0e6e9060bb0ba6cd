"""`wrapgen wrap` gives 5 to 12 commands on a tool of each framework of issue 13 not covered by
test_discover_live_frameworks.py (composer, amtool, mender-artifact): cleo (poetry), urfave/cli
(runc), commander.js (pm2), yargs (typeorm), oclif, yarn v1 and npm; a read verb of some is run
through `wrapgen exec` and compared with the tool run by hand. Skipped only where the tool is absent
(.ci/run installs them)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
import yaml

from conftest import require_tool

# (tool, verbs of which at least one must be offered)
FRAMEWORKS = (
    ("poetry", {"show", "check"}),
    ("runc", {"list", "state", "features"}),
    ("pm2", {"list", "describe", "start"}),
    ("typeorm", {"migration-show", "query"}),
    ("oclif", {"generate.dry-run", "readme.dry-run"}),
    ("yarn", {"list", "outdated", "info"}),
    ("npm", {"view", "explain", "diff"}),
)


# A trial that is still running at its timeout is left out as long-running: npm's reads (a Node
# start-up each, four at a time) pass 3 s on a loaded machine, and its pack fell to 4 commands.
TRY_TIMEOUT = "20"
# Past wrap's deadline (300 s by default) no trial starts: a streaming read whose second trial (pm2
# logs with its print-once switch) comes after a 20 s first one would then be left out as
# long-running. These wraps read some 80 help pages (a Node start-up each) and try a dozen verbs:
# 60-80 s on an idle machine, several times that on a loaded CI runner, so they get the time a
# patient user would give them. (pm2's logs went missing on CI for another reason: discovery left
# most of its pages unread at the loaded machine's pace; see GUIDED_REST_READ.)
TOTAL_DEADLINE = "1200"


def _wrap(cli, out, name: str) -> dict:
    return _wrap_with_report(cli, out, name)[0]


def _wrap_with_report(cli, out, name: str) -> tuple[dict, str]:
    """The pack.yaml wrap wrote, and what it printed (its trials' summary: why a verb is missing)."""
    result = cli(
        "wrap",
        name,
        "-o",
        str(out),
        "--try-timeout",
        TRY_TIMEOUT,
        "--total-deadline",
        TOTAL_DEADLINE,
    )
    assert result.exit_code == 0, result.stderr
    return yaml.safe_load((out / name / "pack.yaml").read_text()), result.stdout + result.stderr


@pytest.mark.parametrize("name,expected", FRAMEWORKS, ids=[name for name, _ in FRAMEWORKS])
def test_wrap_gives_five_to_twelve_commands(cli, tmp_path, name, expected):
    require_tool(name)
    pack, said = _wrap_with_report(cli, tmp_path, name)
    verbs = pack["verbs"]
    assert 5 <= len(verbs) <= 12, (name, list(verbs))
    assert expected & set(verbs), (name, list(verbs))
    if name == "pm2":
        # pm2 logs streams until stopped; its trial turned on the switch pm2 offers to print once
        assert "logs" in verbs, said
        logs = verbs["logs"]
        assert "--nostream" in logs["cli"] and "nostream" not in logs["args"]["properties"], logs
        assert "--nostream fixed in its cli[]" in logs["x-why"]
    if name == "npm":
        # npm search retries the registry the sandbox does not give: kept, not long-running
        assert "search" in verbs and "tried to reach the network" in verbs["search"]["x-why"], (
            verbs.get("search")
        )


def _exec(cli, pack, verb: str, *args: str, cwd) -> dict:
    result = cli("exec", str(pack), verb, "--json", "--", *args, cwd=cwd)
    return json.loads(result.stdout)


def _by_hand(argv: list[str], cwd) -> str:
    return subprocess.run(
        argv,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
    ).stdout


def test_oclif_dry_run_generates_nothing_and_says_what_it_would(cli, tmp_path):
    """Every oclif command writes; its --dry-run forms are the pack's reads (it had 4 commands)."""
    require_tool("oclif")
    pack = tmp_path / "packs"
    verbs = _wrap(cli, pack, "oclif")["verbs"]
    assert verbs["generate.dry-run"]["policy"]["effect"] == "read"
    work = tmp_path / "work"
    work.mkdir()
    envelope = _exec(cli, pack / "oclif", "generate.dry-run", "name=demo", "yes=true", cwd=work)
    assert envelope["ok"], envelope
    assert "demo/package.json" in envelope["result"]
    assert "demo/package.json" in _by_hand(
        ["oclif", "generate", "demo", "--dry-run", "--yes"], work
    )
    assert list(work.iterdir()) == []  # a dry run: nothing written


PYPROJECT = """\
[project]
name = "demo"
version = "0.1.0"
description = "A project for poetry check."
authors = [{name = "A", email = "a@example.org"}]
readme = "README.md"
requires-python = ">=3.9"
dependencies = []
"""


def test_poetry_and_runc_reads_match_the_tool_run_by_hand(cli, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(PYPROJECT)
    (project / "README.md").write_text("demo\n")
    for name, verb, argv, expect in (
        ("poetry", "check", ["poetry", "check"], "All set!"),
        ("runc", "features", ["runc", "features"], "ociVersionMin"),
    ):
        require_tool(name)
        pack = tmp_path / name
        verbs = _wrap(cli, pack, name)["verbs"]
        assert verb in verbs and verbs[verb]["policy"]["effect"] == "read", (name, list(verbs))
        envelope = _exec(cli, pack / name, verb, cwd=project)
        assert envelope["ok"], envelope
        result = envelope["result"]
        text = result if isinstance(result, str) else json.dumps(result)
        assert expect in text and expect in _by_hand(argv, project)
