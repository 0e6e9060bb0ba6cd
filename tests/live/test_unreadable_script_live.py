"""A shell script the shell reader cannot take apart (tests/fixtures/tools/wg-heredoc: an empty line
in a here-document inside "$(...)", which bash runs and the tokenizer refuses) is wrapped from its
own help, at its top level only, with a warning that says so: before, the wrap stopped with
"cannot read the shell script"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES


def test_an_unreadable_script_is_wrapped_from_its_help(tmp_path, cli, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-heredoc", bin_dir / "wg-heredoc")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    result = cli("wrap", "wg-heredoc", "-o", str(tmp_path / "out"), "--no-cache")
    assert result.exit_code == 0, result.stdout + result.stderr
    said = result.stdout + result.stderr
    assert "cannot read the shell script" in said and "top level only" in said
    pack = yaml.safe_load((tmp_path / "out" / "wg-heredoc" / "pack.yaml").read_text())
    flags = {token.split("=")[0] for verb in pack["verbs"].values() for token in verb["cli"]}
    assert "--lines" in flags


def test_a_script_forced_to_be_read_as_a_script_still_says_why_it_cannot(tmp_path, cli):
    """``--style script`` asks for the script reader: its failure is the answer, with its hint."""
    tool = tmp_path / "wg-heredoc"
    shutil.copy2(FIXTURES / "tools" / "wg-heredoc", tool)
    result = cli("wrap", str(tool), "-o", str(tmp_path / "out"), "--no-cache", "--style", "script")
    assert result.exit_code != 0
    assert "cannot read the shell script" in result.stderr and "bash -n" in result.stderr
    assert not (tmp_path / "out" / "wg-heredoc").exists()


def _dispatcher(tmp_path, monkeypatch) -> Path:
    """wg-dispatch and its command scripts on PATH; a working directory to run in."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-dispatch", bin_dir / "wg-dispatch")
    shutil.copytree(FIXTURES / "tools" / "wg-dispatch.d", bin_dir / "wg-dispatch.d")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def test_a_script_whose_text_shows_no_commands_is_read_from_its_help(tmp_path, cli, monkeypatch):
    """A script that runs its commands from files beside it (tests/fixtures/tools/wg-dispatch) shows
    the reader no dispatch and no usage: its own help is read in the probe sandbox, and the commands
    it lists in columns become the pack's; a command that ignores -h and writes (stamp) writes
    nothing where the wrap ran. Before, the wrap found nothing and stopped."""
    work = _dispatcher(tmp_path, monkeypatch)
    result = cli("wrap", "wg-dispatch", "-o", str(tmp_path / "out"), "--no-cache")
    said = result.stdout + result.stderr
    assert result.exit_code == 0, said
    assert "shows no commands and no usage" in said
    pack = yaml.safe_load((tmp_path / "out" / "wg-dispatch" / "pack.yaml").read_text())
    paths = {tuple(verb["cli"][1:2]) for verb in pack["verbs"].values()}
    assert {("list",), ("show",), ("count",)} <= paths
    assert sorted(p.name for p in work.iterdir()) == []


def test_outside_the_probe_sandbox_such_a_script_is_only_read(tmp_path, cli, monkeypatch):
    """Without the probe sandbox the script is never run: its text is all there is, and the
    message says how to probe it."""
    _dispatcher(tmp_path, monkeypatch)
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    result = cli("discover", "wg-dispatch", "--no-cache")
    said = result.stdout + result.stderr
    assert "read without running it" in said and "0 commands" in said
