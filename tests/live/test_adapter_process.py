"""Generated adapter.py run as a real process, with no `wrapgen` on PATH, against real git and jq."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import require_tool

PACKS = Path(__file__).resolve().parent.parent / "packs"


@pytest.fixture
def bare_env(tmp_path):
    """An environment whose PATH holds only python3 (this interpreter), git and jq: no `wrapgen`."""
    git, jq = require_tool("git"), require_tool("jq")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name, target in (("python3", sys.executable), ("git", git), ("jq", jq)):
        (bindir / name).symlink_to(target)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GIT_", "PYENV"))}
    env.update(PATH=str(bindir), HOME=str(tmp_path), LC_ALL="C.UTF-8", GIT_CONFIG_NOSYSTEM="1")
    env.pop("PYTHONPATH", None)
    assert shutil.which("wrapgen", path=env["PATH"]) is None
    return env


def _built(name: str, tmp_path: Path, cli) -> Path:
    pack = tmp_path / "adapters" / name
    shutil.copytree(
        PACKS / name / "", pack, ignore=shutil.ignore_patterns("binding.json", "adapter.py")
    )
    assert cli("build", str(pack)).exit_code == 0
    return pack


def _adapter(pack: Path, *args: str, env, cwd, stdin: str = "") -> tuple[int, dict, str]:
    """Run pack/adapter.py directly (its shebang finds python3 on PATH); (exit, envelope, stderr)."""
    done = subprocess.run(
        [str(pack / "adapter.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )
    assert done.stdout.strip(), done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


@pytest.fixture
def repo(tmp_path, bare_env):
    """A git repository with two commits: one touching a.txt, one touching b.txt."""
    root = tmp_path / "repo"
    root.mkdir()

    def git(*args):
        subprocess.run(["git", *args], cwd=root, env=bare_env, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    for name in ("a.txt", "b.txt"):
        (root / name).write_text(name + "\n")
        git("add", name)
        git(
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-q",
            "-m",
            f"add {name}",
        )
    return root


def test_git_log_with_kv_args(tmp_path, cli, bare_env, repo):
    """`adapter.py log --json -- limit=1 paths=a.txt`: the one commit touching a.txt, as text."""
    pack = _built("git", tmp_path, cli)
    code, envelope, _ = _adapter(
        pack, "log", "--json", "--", "limit=5", "paths=a.txt", env=bare_env, cwd=repo
    )
    assert code == 0 and envelope["ok"] is True
    lines = envelope["result"].splitlines()
    assert len(lines) == 1 and lines[0].endswith(" add a.txt")
    code, envelope, _ = _adapter(pack, "log", "--json", "--", "limit=1", env=bare_env, cwd=repo)
    assert envelope["result"].splitlines()[0].endswith(" add b.txt")


def test_git_status_from_an_envelope_on_stdin(tmp_path, cli, bare_env, repo):
    """`adapter.py --envelope -` reads one envelope; status shows the branch and an untracked file."""
    pack = _built("git", tmp_path, cli)
    (repo / "new.txt").write_text("x\n")
    request = json.dumps({"pack_id": "git", "verb_key": "status", "args": {}})
    code, envelope, _ = _adapter(pack, "--envelope", "-", env=bare_env, cwd=repo, stdin=request)
    assert code == 0 and envelope["ok"] is True
    assert envelope["result"].splitlines() == ["## main", "?? new.txt"]
    code, envelope, _ = _adapter(pack, env=bare_env, cwd=repo, stdin=request)
    assert code == 0 and envelope["result"].startswith("## main")


def test_git_add_is_confirm_gated(tmp_path, cli, bare_env, repo):
    """A write verb without confirm=true spawns nothing; with it, the file is staged."""
    pack = _built("git", tmp_path, cli)
    (repo / "new.txt").write_text("x\n")
    code, envelope, _ = _adapter(
        pack, "add", "--json", "--", "paths=new.txt", env=bare_env, cwd=repo
    )
    assert (code, envelope["ok"]) == (1, False)
    assert "confirmation required" in envelope["error"]

    def status():
        return subprocess.run(
            ["git", "status", "--porcelain"], cwd=repo, env=bare_env, capture_output=True, text=True
        ).stdout

    assert status() == "?? new.txt\n"
    code, envelope, _ = _adapter(
        pack, "add", "--json", "--", "paths=new.txt", "confirm=true", env=bare_env, cwd=repo
    )
    assert (code, envelope["ok"]) == (0, True)
    assert status() == "A  new.txt\n"


def test_a_dashed_path_behind_double_dash_is_an_operand(tmp_path, cli, bare_env, repo):
    """`paths=-v` after the literal `--` reaches git as a path, not as an option."""
    pack = _built("git", tmp_path, cli)
    (repo / "-v").write_text("dash\n")
    code, envelope, _ = _adapter(
        pack, "add", "--json", "--", "paths=-v", "confirm=true", env=bare_env, cwd=repo
    )
    assert (code, envelope["ok"]) == (0, True)
    staged = subprocess.run(
        ["git", "diff", "--cached", "--name-only"],
        cwd=repo,
        env=bare_env,
        capture_output=True,
        text=True,
    )
    assert staged.stdout == "-v\n"


def test_git_failure_becomes_its_stderr(tmp_path, cli, bare_env):
    """Outside a repository git exits non-zero; the envelope carries git's own stderr, exit 1."""
    pack = _built("git", tmp_path, cli)
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    env = dict(bare_env, GIT_CEILING_DIRECTORIES=str(tmp_path))
    code, envelope, _ = _adapter(pack, "status", "--json", env=env, cwd=outside)
    assert (code, envelope["ok"]) == (1, False)
    assert "not a git repository" in envelope["error"]


def test_jq_on_a_file_returns_parsed_json(tmp_path, cli, bare_env):
    """jq keys/paths over a real file: the result is parsed JSON, several outputs a list."""
    pack = _built("jq", tmp_path, cli)
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"b": {"c": [1, 2]}, "a": "x"}))
    code, envelope, _ = _adapter(
        pack, "keys", "--json", "--", f"file={data}", env=bare_env, cwd=tmp_path
    )
    assert (code, envelope) == (0, {"ok": True, "result": ["a", "b"]})
    code, envelope, _ = _adapter(
        pack, "paths", "--json", "--", f"file={data}", env=bare_env, cwd=tmp_path
    )
    assert envelope["result"] == ["b.c.0", "b.c.1", "a"]
    request = json.dumps({"pack_id": "jq", "verb_key": "length", "args": {"file": str(data)}})
    code, envelope, _ = _adapter(pack, "--envelope", "-", env=bare_env, cwd=tmp_path, stdin=request)
    assert (code, envelope) == (0, {"ok": True, "result": 2})


def test_jq_invalid_file_gives_jq_error(tmp_path, cli, bare_env):
    """validate on a broken file: ok false with jq's parse error, exit 1."""
    pack = _built("jq", tmp_path, cli)
    broken = tmp_path / "-broken.json"  # a dashed name: it stands after `--`, so it stays a file
    broken.write_text('{"a": 1,,}')
    code, envelope, _ = _adapter(
        pack, "validate", "--json", "--", f"file={broken.name}", env=bare_env, cwd=tmp_path
    )
    assert (code, envelope["ok"]) == (1, False)
    assert "parse error" in envelope["error"]


def test_adapter_matches_wrapgen_exec(tmp_path, cli, bare_env):
    """adapter.py prints exactly what `wrapgen exec DIR VERB --json` prints for the same call."""
    pack = _built("jq", tmp_path, cli)
    data = tmp_path / "data.json"
    data.write_text('{"z": 1, "y": 2}')
    done = subprocess.run(
        [str(pack / "adapter.py"), "keys", "--json", "--", f"file={data}"],
        capture_output=True,
        text=True,
        env=bare_env,
        cwd=tmp_path,
        timeout=60,
    )
    in_process = cli("exec", str(pack), "keys", "--json", "--", f"file={data}")
    assert (done.returncode, done.stdout) == (in_process.exit_code, in_process.stdout)


def test_unknown_verb_and_bad_args_are_envelopes(tmp_path, cli, bare_env, repo):
    """An unknown verb or an arg of the wrong type: ok false, a message, no traceback."""
    pack = _built("git", tmp_path, cli)
    done = subprocess.run(
        [str(pack / "adapter.py"), "push", "--json"],
        capture_output=True,
        text=True,
        env=bare_env,
        cwd=repo,
        timeout=60,
    )
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert "push" in done.stdout + done.stderr
    code, envelope, stderr = _adapter(
        pack,
        "--envelope",
        "-",
        env=bare_env,
        cwd=repo,
        stdin=json.dumps({"pack_id": "git", "verb_key": "log", "args": {"limit": "many"}}),
    )
    assert (code, envelope["ok"]) == (1, False) and "limit" in envelope["error"]
    assert "Traceback" not in stderr


def test_a_stale_binding_is_refused(tmp_path, cli, bare_env, repo):
    """After pack.yaml changes, adapter.py refuses to run until `wrapgen build`."""
    pack = _built("git", tmp_path, cli)
    with open(pack / "pack.yaml", "a") as handle:
        handle.write("# edited\n")
    done = subprocess.run(
        [str(pack / "adapter.py"), "status", "--json"],
        capture_output=True,
        text=True,
        env=bare_env,
        cwd=repo,
        timeout=60,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "binding.json is out of date: run wrapgen build" in done.stdout + done.stderr


def test_adapter_without_the_wrapgen_package_says_so(tmp_path, cli, bare_env):
    """Run by a Python that cannot import wrapgen (-S: no site-packages), adapter.py explains, exit 2."""
    pack = _built("jq", tmp_path, cli)
    done = subprocess.run(
        [sys.executable, "-S", str(pack / "adapter.py"), "keys"],
        capture_output=True,
        text=True,
        env=bare_env,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2
    assert "wrapgen package is not installed" in done.stderr and "Traceback" not in done.stderr
