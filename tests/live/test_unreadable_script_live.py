"""A shell script the shell reader cannot take apart (tests/fixtures/tools/wg-heredoc: an empty line
in a here-document inside "$(...)", which bash runs and the tokenizer refuses) is wrapped from its
own help, at its top level only, with a warning that says so: before, the wrap stopped with
"cannot read the shell script"."""

from __future__ import annotations

import os
import shutil

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
