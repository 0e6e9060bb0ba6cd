"""A hand-written pack for a catalogued tool runs as safely as a generated one (issue 25 item 5).

Five plain git reads, written as a person would write them, with none of the catalogue's
``GIT_CONFIG_*`` lines, flags or config guard: ``wrapgen build`` builds the pack and says, once, as
information, what the runtime adds; then, in a repository whose own config names an fsmonitor
program, a filter driver and an external diff, every read runs without running any of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import require_tool
from tests.support.git import isolated_git_env

pytestmark = pytest.mark.live

VERBS = {
    "log": ["git", "log", "--max-count={{limit}}"],
    "status": ["git", "status", "--short"],
    "diff": ["git", "diff"],
    "branches": ["git", "branch", "--list"],
    "tags": ["git", "tag", "--list"],
}


def _pack(root: Path) -> Path:
    verbs = {}
    for name, cli in VERBS.items():
        verb = {"description": f"Show the repository's {name}.", "cli": cli}
        verb["policy"] = {"effect": "read"}
        if "{{limit}}" in cli[-1]:
            verb["args"] = {
                "type": "object",
                "properties": {"limit": {"type": "integer", "description": "How many commits."}},
                "additionalProperties": False,
            }
        verbs[name] = verb
    pack = root / "git"
    pack.mkdir(parents=True)
    manifest = {
        "pack_id": "git",
        "description": "A repository's history.",
        "bin": "git",
        "json": False,
    }
    manifest["verbs"] = verbs
    (pack / "pack.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    return pack


def _hostile_repository(root: Path, home: Path, marker: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    program = root / "evil.sh"
    program.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    program.chmod(0o755)

    def git(*args):
        subprocess.run(
            ["git", *args], cwd=repo, env=isolated_git_env(home), check=True, capture_output=True
        )

    git("init", "-q")
    (repo / "a.txt").write_text("one\n")
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n")
    git("add", ".")
    git("commit", "-qm", "first")
    (repo / "a.txt").write_text("two\n")
    for key, value in (
        ("core.fsmonitor", str(program)),
        ("filter.evil.clean", str(program)),
        ("filter.evil.smudge", str(program)),
        ("diff.external", str(program)),
        ("diff.evil.textconv", str(program)),
    ):
        git("config", key, value)
    return repo


def test_a_hand_written_git_pack_builds_and_its_reads_run_no_program_of_the_repository(tmp_path):
    require_tool("git")
    home = tmp_path / "home"
    home.mkdir()
    marker = tmp_path / "ran"
    pack = _pack(tmp_path / "packs")
    built = subprocess.run(
        [sys.executable, "-m", "wrapgen", "build", str(pack)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    notes = [line for line in built.stderr.splitlines() if "W040" in line]
    assert len(notes) == 1 and " info " in notes[0] and "config_guard" in notes[0], built.stderr

    repo = _hostile_repository(tmp_path, home, marker)
    # the attack is real: plain git runs the repository's program
    subprocess.run(
        ["git", "diff"], cwd=repo, env=isolated_git_env(home), capture_output=True, timeout=60
    )
    assert marker.exists(), "plain git diff ran no program: the test would show nothing"
    marker.unlink()

    for verb in VERBS:
        args = ["limit=3"] if verb == "log" else []
        done = subprocess.run(
            [sys.executable, "-m", "wrapgen", "exec", str(pack), verb, "--json", "--", *args],
            cwd=repo,
            env=isolated_git_env(home),
            capture_output=True,
            text=True,
            timeout=120,
        )
        envelope = json.loads(done.stdout)
        assert envelope["ok"], (verb, envelope)
        assert not marker.exists(), f"{verb} ran the repository's program"
