"""A hostile repository read with every git verb of the shipped packs: its config runs no program.

The repository's .git/config names a program for core.fsmonitor, core.hooksPath (a hooks directory
with post-index-change, pre-commit, commit-msg, post-commit), diff.external, a textconv driver that
.gitattributes assigns, core.pager, gpg.program with log.showSignature on a signed commit, and a
credential helper; each program writes a marker file. Plain git runs them (the attack is real);
every verb of adapters/git and tests/packs/git, run through `wrapgen exec`, runs none, and the
read verbs still answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.git import isolated_git_env

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKS = [REPO_ROOT / "adapters" / "git", REPO_ROOT / "tests" / "packs" / "git"]
PROGRAMS = ("fsmonitor", "hook", "extdiff", "textconv", "pager", "gpg", "credential")

# args for each verb: what makes it reach the code that runs a program (b.dat has the evil diff driver)
SAMPLE_ARGS = {
    "blame": ["file=b.dat"],
    "diff": [],
    "grep": ["pattern=more"],
    "show": [
        "objects=HEAD"
    ],  # a revision (before "--"); its diff touches b.dat, whose driver is evil
    "log": [],
    "status": [],
    "branch.list": [],
    "tag.list": [],
    "ls-files": [],
    "add": ["pathspecs=a.txt", "paths=a.txt", "confirm=true"],
    "commit": ["message=hostile", "all=true", "confirm=true"],
    "fetch": ["confirm=true"],
    "pull": ["confirm=true"],
}


def _git(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )


def _scripts(base: Path, markers: Path) -> dict[str, Path]:
    out = {}
    for name in PROGRAMS:
        script = base / f"{name}.sh"
        # each program records that it ran, then behaves well enough for git to go on
        script.write_text(
            f"#!/bin/sh\necho ran >> '{markers / name}'\ncat >/dev/null 2>&1\nexit 0\n"
        )
        script.chmod(0o755)
        out[name] = script
    return out


def _hostile_repo(tmp_path: Path) -> tuple[Path, Path]:
    markers = tmp_path / "markers"
    markers.mkdir()
    scripts = _scripts(tmp_path, markers)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in (
        "post-index-change",
        "pre-commit",
        "commit-msg",
        "post-commit",
        "reference-transaction",
    ):
        shutil.copy(scripts["hook"], hooks / hook)
    repo = tmp_path / "repo"
    repo.mkdir()
    env = isolated_git_env(tmp_path)
    _git(repo, "init", "-q", env=env)
    (repo / "a.txt").write_text("hello\n")
    (repo / "b.dat").write_text("binary-ish\n")
    (repo / ".gitattributes").write_text("*.dat diff=evil\n")
    _git(repo, "add", ".", env=env)
    _git(repo, "commit", "-qm", "init", env=env)
    (repo / "b.dat").write_text("binary-ish\nmore\n")
    _git(repo, "commit", "-qam", "second", env=env)
    # a signed-looking commit on top: with log.showSignature git log hands the signature to gpg.program
    body = _git(repo, "cat-file", "commit", "HEAD", env=env).stdout
    head, _, message = body.partition("\n\n")
    signature = (
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    )
    signed = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=repo,
        env=env,
        input=f"{head}\n{signature}\n\n{message}",
        capture_output=True,
        text=True,
        check=True,
    )
    _git(repo, "update-ref", "HEAD", signed.stdout.strip(), env=env)
    (repo / "a.txt").write_text("hello\nchanged\n")
    (repo / "b.dat").write_text("binary-ish\nmore\nchanged\n")
    config = {
        "core.fsmonitor": str(scripts["fsmonitor"]),
        "core.hooksPath": str(hooks),
        "diff.external": str(scripts["extdiff"]),
        "diff.evil.textconv": str(scripts["textconv"]),
        "core.pager": str(scripts["pager"]),
        "pager.status": str(scripts["pager"]),
        "log.showSignature": "true",
        "gpg.program": str(scripts["gpg"]),
        "credential.helper": str(scripts["credential"]),
        "remote.origin.url": "https://127.0.0.1:9/nothing.git",
    }
    for key, value in config.items():
        _git(repo, "config", key, value, env=env)
    return repo, markers


def _fired(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


def _verbs(pack: Path) -> list[tuple[str, str]]:
    binding = json.loads((pack / "binding.json").read_text())
    order = {"read": 0, "write": 1, "destructive": 2}
    verbs = [(name, verb["policy"]["effect"]) for name, verb in binding["verbs"].items()]
    return sorted(verbs, key=lambda v: (order.get(v[1], 3), v[0]))


def _pairs(pack: Path, verb: str) -> list[str]:
    binding = json.loads((pack / "binding.json").read_text())
    properties = binding["verbs"][verb]["args"].get("properties", {})
    pairs = [
        p
        for p in SAMPLE_ARGS.get(verb, [])
        if p.split("=", 1)[0] in properties or p.startswith("confirm=")
    ]
    return pairs


def _exec(pack: Path, verb: str, repo: Path, home: Path) -> dict:
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8"}
    command = [
        sys.executable,
        "-m",
        "wrapgen",
        "exec",
        str(pack),
        verb,
        "--json",
        "--",
        *_pairs(pack, verb),
    ]
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def hostile(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    return _hostile_repo(tmp_path)


def test_the_hostile_repository_runs_its_programs_under_plain_git(hostile):
    """The attack is real: plain `git status`, `git diff` and `git log` run fsmonitor, the hook,
    the external diff and gpg.program."""
    repo, markers = hostile
    env = {"PATH": os.environ["PATH"], "HOME": str(repo.parent), "GIT_CONFIG_NOSYSTEM": "1"}
    _git(repo, "status", env=env)
    _git(repo, "diff", env=env)
    _git(repo, "log", "-1", env=env)
    _git(repo, "blame", "b.dat", env=env)
    fired = _fired(markers)
    for name in ("fsmonitor", "hook", "extdiff", "gpg", "textconv"):
        assert name in fired, (name, fired)


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_git_verb_of_the_pack_runs_no_program_of_the_repository(hostile, pack, tmp_path):
    """Every verb (reads first, then the confirmed writes) through `wrapgen exec`: no marker
    appears, and every read verb answers ok."""
    repo, markers = hostile
    home = tmp_path / "home"
    home.mkdir()
    answered = {}
    for verb, effect in _verbs(pack):
        envelope = _exec(pack, verb, repo, home)
        fired = _fired(markers)
        assert fired == [], f"{verb} ran {fired}: {envelope}"
        answered[verb] = envelope
        if effect == "read":
            assert envelope["ok"] is True, (verb, envelope)
    assert len(answered) == len(_verbs(pack))
    # the reads answered with the repository's content, not empty output
    assert "a.txt" in answered["status"]["result"]
    assert "a.txt" in json.dumps(answered["diff"]["result"])


def test_show_and_diff_still_show_the_change_without_the_driver(hostile):
    """With textconv and external diff off, diff and show still print the real change of b.dat."""
    repo, markers = hostile
    home = repo.parent / "home2"
    home.mkdir()
    pack = PACKS[0]
    diff = _exec(pack, "diff", repo, home)
    show = _exec(pack, "show", repo, home)
    assert diff["ok"] and "+changed" in diff["result"]
    assert show["ok"] and "+more" in show["result"]
    assert _fired(markers) == []


def test_a_filter_driver_defined_in_the_repository_config_does_not_run(tmp_path):
    """`*.txt filter=evil` with filter.evil.clean in .git/config: git diff would run the clean filter;
    the pack's config guard turns it off for the call (runtime/guard.py)."""
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    markers = tmp_path / "markers"
    markers.mkdir()
    script = tmp_path / "filter.sh"
    script.write_text(f"#!/bin/sh\necho ran >> '{markers / 'filter'}'\ncat\n")
    script.chmod(0o755)
    repo = tmp_path / "repo"
    repo.mkdir()
    env = isolated_git_env(tmp_path)
    _git(repo, "init", "-q", env=env)
    (repo / "f.txt").write_text("x\n")
    _git(repo, "add", ".", env=env)
    _git(repo, "commit", "-qm", "init", env=env)
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    _git(repo, "config", "filter.evil.clean", str(script), env=env)
    (repo / "f.txt").write_text("x\ny\n")
    home = tmp_path / "home"
    home.mkdir()
    _exec(PACKS[0], "diff", repo, home)
    assert _fired(markers) == []
