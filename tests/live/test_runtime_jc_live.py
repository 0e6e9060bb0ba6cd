"""jc verbs on real tools (docs/runtime.md): every form of wrapgen/knowledge/data/jc.json, built into a
pack with `jc: PARSER` the way `wrapgen build` does, answers with what jc itself makes of the same
command's output. Stable output (uname -a, ls -l of a fixed directory, git log of a fixed repository)
is compared whole; output that changes between two runs (ps, df, free) by its columns and stable rows."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from wrapgen.knowledge.table import load
from wrapgen.pack.build import render_pack_files
from wrapgen.runtime import execute, load_binding, tool_env

jc = pytest.importorskip("jc")


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")


def _pack(tmp_path, bin_name: str, cli: list[str], parser: str):
    """A pack made as `wrapgen build` makes one (pack.yaml -> binding.json), with `jc: parser` on its verb."""
    pack = tmp_path / "pack"
    pack.mkdir()
    text = (
        json.dumps(
            {
                "pack_id": "jcp",
                "description": "A jc pack.",
                "bin": bin_name,
                "json": False,
                # (what wrap proposes for ps: its calls see the host's processes)
                **({"sandbox": {"host_processes": True}} if bin_name == "ps" else {}),
                "verbs": {
                    "v": {
                        "description": "Run it.",
                        "cli": cli,
                        "jc": parser,
                        "policy": {"effect": "read"},
                    }
                },
            },
            indent=2,
        )
        + "\n"
    )
    (pack / "pack.yaml").write_text(text)
    for name, body in render_pack_files(text.encode()).items():
        (pack / name).write_text(body)
    binding = load_binding(pack)
    assert binding["verbs"]["v"]["jc"] == parser
    return binding


def _jc_of(binding, argv: list[str], parser: str, cwd=None):
    """jc's own parse of the command's output, run with the same environment the runtime gives the tool."""
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        env=tool_env(binding),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=True,
    )
    return jc.parse(parser, done.stdout, quiet=True)


def _call(binding, cwd=None):
    envelope = execute(binding, "v", {}, cwd=cwd)
    assert envelope["ok"], envelope
    return envelope["result"]


def test_the_table_lists_only_forms_tested_here():
    tested = {
        "ps -ef",
        "ps aux",
        "ls -l",
        "ls -la",
        "ls -al",
        "df",
        "free",
        "uname -a",
        "git log --format=fuller --date=default",
    }
    assert {entry.name for entry in load("jc")["forms"]} == tested


def test_uname_a(tmp_path):
    _need("uname")
    binding = _pack(tmp_path, "uname", ["uname", "-a"], "uname")
    assert _call(binding) == _jc_of(binding, ["uname", "-a"], "uname")


@pytest.mark.parametrize("flags", ["-l", "-la", "-al"])
def test_ls_long(tmp_path, flags):
    _need("ls")
    where = tmp_path / "dir"
    where.mkdir()
    for name, size in (("a.txt", 3), ("b b.bin", 1000), (".hidden", 0)):
        (where / name).write_bytes(b"x" * size)
    (where / "sub").mkdir()
    os.symlink("a.txt", where / "link")
    binding = _pack(tmp_path, "ls", ["ls", flags, "--", str(where)], "ls")
    result = _call(binding)
    assert result == _jc_of(binding, ["ls", flags, "--", str(where)], "ls")
    names = {row["filename"] for row in result}
    assert {"a.txt", "b b.bin", "sub"} <= names and (
        "link" in names
        or "link -> a.txt" in names
        or any(row.get("link_to") == "a.txt" for row in result)
    )


def test_git_log_fuller(tmp_path):
    _need("git")
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ann",
        "GIT_AUTHOR_EMAIL": "ann@example.com",
        "GIT_COMMITTER_NAME": "Bob",
        "GIT_COMMITTER_EMAIL": "bob@example.com",
        "GIT_AUTHOR_DATE": "2024-01-02T03:04:05Z",
        "GIT_COMMITTER_DATE": "2024-01-02T03:04:05Z",
    }
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    for n in (1, 2):
        (repo / "f").write_text(f"{n}\n")
        subprocess.run(["git", "-C", str(repo), "add", "f"], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(repo), "commit", "-q", "-m", f"change {n}\n\nbody {n}"],
            check=True,
            env=env,
        )
    cli = ["git", "log", "--format=fuller", "--date=default"]
    binding = _pack(tmp_path, "git", cli, "git_log")
    result = _call(binding, cwd=repo)
    assert result == _jc_of(binding, cli, "git_log", cwd=repo)
    assert [row["author"] for row in result] == ["Ann", "Ann"] and result[0]["commit_by"] == "Bob"
    assert result[0]["message"].startswith("change 2")


@pytest.mark.parametrize("form", ["-ef", "aux"])
def test_ps(tmp_path, form):
    _need("ps")
    binding = _pack(tmp_path, "ps", ["ps", form], "ps")
    ours, theirs = _call(binding), _jc_of(binding, ["ps", form], "ps")
    assert ours and theirs and set(ours[0]) == set(theirs[0])  # the same columns
    assert (
        next(row for row in ours if row["pid"] == 1).keys()
        == next(row for row in theirs if row["pid"] == 1).keys()
    )
    command = "cmd" if form == "-ef" else "command"
    assert next(row[command] for row in ours if row["pid"] == 1) == next(
        row[command] for row in theirs if row["pid"] == 1
    )


def test_df(tmp_path):
    """df in the call's sandbox lists that sandbox's mounts (a read-only / among them): the same
    columns as df outside, and the root file system's size as outside."""
    _need("df")
    binding = _pack(tmp_path, "df", ["df"], "df")
    ours, theirs = _call(binding), _jc_of(binding, ["df"], "df")
    assert [set(row) for row in ours[:1]] == [set(row) for row in theirs[:1]]
    root = [row for row in ours if row["mounted_on"] == "/"]
    assert root and root[0]["1k_blocks"] == next(
        row["1k_blocks"] for row in theirs if row["mounted_on"] == "/"
    )


def test_free(tmp_path):
    _need("free")
    binding = _pack(tmp_path, "free", ["free"], "free")
    ours, theirs = _call(binding), _jc_of(binding, ["free"], "free")
    assert [row["type"] for row in ours] == [row["type"] for row in theirs] and ours[0][
        "type"
    ] == "Mem"
    assert [set(row) for row in ours] == [set(row) for row in theirs]
    assert ours[0]["total"] == theirs[0]["total"]


def test_a_form_the_parser_cannot_read_keeps_the_text(tmp_path):
    """jc.uname on `uname -s` output (a form its parser does not read) is a failure that keeps the text, not a half-filled answer."""
    _need("uname")
    binding = _pack(tmp_path, "uname", ["uname", "-s"], "uname")
    envelope = execute(binding, "v", {})
    assert envelope["ok"] is False
    assert envelope["error"].startswith("could not parse uname output with jc.uname: ")
    assert (
        envelope["output"] == subprocess.run(["uname", "-s"], capture_output=True, text=True).stdout
    )
