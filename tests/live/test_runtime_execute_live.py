"""execute() against real tools: git in a temporary repository, jq on a file, head for the output cap.

The pure cases (Python snippets as the tool) are in tests/runtime/test_runtime_execute.py."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from packs_runtime.packtools import binding_dict, verb
from packs_runtime.packtools import binding_of as _pack

from conftest import require_tool
from wrapgen.runtime import execute


def test_output_cap_on_100_mb():
    """A tool printing 100 MB is stopped at the 16 MiB cap."""
    require_tool("head")
    binding = _pack({"v": verb(["head", "-c", "104857600", "/dev/zero"], json_sel=[])}, bin="head")
    assert execute(binding, "v", {}) == {"ok": False, "error": "output exceeded 16 MiB"}


@pytest.fixture
def repo(tmp_path):
    require_tool("git")
    path = tmp_path / "repo"
    path.mkdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    for argv in (
        ["git", "init", "-q"],
        ["git", "commit", "-q", "--allow-empty", "-m", "first commit"],
    ):
        subprocess.run(argv, cwd=path, env=env, check=True)
    (path / "new.txt").write_text("x\n")
    return path


def _git_pack():
    log_args = {
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1},
            "paths": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": False,
    }
    return binding_dict(
        "git",
        "git",
        {
            "log": verb(
                ["git", "log", "--format=%s", "--max-count={{limit}}", "--", "{{paths}}"],
                json_sel=[],
                args=log_args,
            ),
            "status": verb(["git", "status", "--porcelain"], json_sel=[]),
            "log.json": verb(["git", "log", '--format={"subject": "%s"}'], json_sel=["--no-color"]),
        },
    )


def test_git_log_and_status_in_a_repository(repo):
    """git log and git status run for real in a temporary repository."""
    binding = _git_pack()
    assert execute(binding, "log", {"limit": 1}, cwd=repo) == {
        "ok": True,
        "result": "first commit\n",
    }
    assert execute(binding, "status", {}, cwd=repo) == {"ok": True, "result": "?? new.txt\n"}
    assert execute(binding, "log.json", {}, cwd=repo) == {
        "ok": True,
        "result": {"subject": "first commit"},
    }


def test_git_error_is_its_stderr(tmp_path):
    """A real non-zero exit: git's own stderr is the error."""
    require_tool("git")
    envelope = execute(
        _git_pack(),
        "log",
        {},
        cwd=tmp_path,
        env={**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path.parent)},
    )
    assert envelope["ok"] is False and envelope["error"].startswith("fatal: not a git repository")


def test_jq_with_a_file_argument(tmp_path):
    """jq reads a file given as an arg; a bad filter is jq's own error."""
    require_tool("jq")
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"items": [{"name": "a"}, {"name": "b"}]}))
    schema = {
        "type": "object",
        "properties": {"filter": {"type": "string"}, "file": {"type": "string"}},
        "required": ["filter", "file"],
    }
    # jq always prints JSON; its selection -c is already literal in cli[], so it is not appended twice
    binding = binding_dict(
        "jq",
        "jq",
        {"query": verb(["jq", "-c", "{{filter}}", "{{file}}"], json_sel=["-c"], args=schema)},
    )
    assert execute(binding, "query", {"filter": ".items[].name", "file": str(data)}) == {
        "ok": True,
        "result": ["a", "b"],
    }
    bad = execute(binding, "query", {"filter": ".items[", "file": str(data)})
    assert bad["ok"] is False and "jq: error" in bad["error"]
