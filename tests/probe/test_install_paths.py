"""install.program_paths: what the probe sandbox binds back so a tool kept anywhere runs, and never more."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wrapgen.probe import install
from wrapgen.probe.sandbox import SYSTEM_DIRS


def program_paths(programs, *, search_path="", system=SYSTEM_DIRS):
    return install.program_paths(programs, search_path=search_path, system=system)


def _program(path: Path, first_line: str = "#!/bin/sh") -> Path:
    """A script at ``path``; one in a ``bin/`` gets a ``lib/`` beside it (an install, as a venv is)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent.name == "bin":
        (path.parent.parent / "lib").mkdir(exist_ok=True)
    path.write_text(f"{first_line}\necho hi\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def test_a_program_in_a_prefix_bin_brings_its_whole_prefix(tmp_path, home):
    """A virtual environment's script: its prefix (lib/, pyvenv.cfg) is bound whole."""
    venv = tmp_path / "opt" / "venv"
    tool = _program(venv / "bin" / "tool")
    assert program_paths([str(tool)]) == (str(venv),)


def test_each_symlink_hop_and_the_interpreter_of_the_shebang_are_followed(tmp_path, home):
    """/x/bin/tool -> /y/bin/tool whose #! names /z/bin/python: the three installs are bound."""
    python = _program(tmp_path / "base" / "bin" / "python3")
    venv_python = tmp_path / "venv" / "bin" / "python3"
    venv_python.parent.mkdir(parents=True)
    venv_python.symlink_to(python)
    (tmp_path / "venv" / "pyvenv.cfg").write_text(f"home = {python.parent}\n")
    real = _program(tmp_path / "pkg" / "bin" / "tool", f"#!{venv_python} -IS")
    link = tmp_path / "links" / "tool"
    link.parent.mkdir()
    link.symlink_to(real)
    got = program_paths([str(link)])
    assert set(got) == {
        str(tmp_path / "links"),
        str(tmp_path / "pkg"),
        str(tmp_path / "venv"),
        str(tmp_path / "base"),
    }


@pytest.mark.parametrize(
    "line", ["#!/usr/bin/env python3", "#!/usr/bin/env -S -u X LANG=C python3 -u"]
)
def test_env_finds_the_interpreter_on_the_search_path(tmp_path, home, line):
    """`#!/usr/bin/env python3` binds the python3 the probe's PATH finds (past env's options)."""
    _program(tmp_path / "py" / "bin" / "python3")
    tool = _program(tmp_path / "tools" / "tool", line)
    got = program_paths([str(tool)], search_path=str(tmp_path / "py" / "bin"))
    assert str(tmp_path / "py") in got and str(tmp_path / "tools") in got


def test_a_prefix_that_is_a_dot_directory_of_a_home_gives_only_its_program_parts(home):
    """~/.local/bin/tool: ~/.local/bin and ~/.local/lib, never ~/.local/share or the home."""
    tool = _program(home / ".local" / "bin" / "tool")
    (home / ".local" / "share" / "keyrings").mkdir(parents=True)
    (home / ".cargo" / "bin").mkdir(parents=True)
    (home / ".cargo" / "credentials.toml").write_text("token = 'secret'\n")
    got = program_paths([str(tool)], search_path=str(home / ".cargo" / "bin"))
    assert set(got) == {
        str(home / ".local" / "bin"),
        str(home / ".local" / "lib"),
        str(home / ".cargo" / "bin"),
    }


def test_a_program_lying_in_a_home_or_the_temp_directory_is_bound_as_a_file(home, tmp_path):
    """A tool right in HOME (or /tmp) brings itself, never the directory around it."""
    tool = _program(home / "tool")
    assert program_paths([str(tool)]) == (str(tool),)
    assert program_paths(["/tmp/no-such-tool"]) == ()


def test_the_search_path_brings_its_installs_but_never_a_home_or_relative_entries(tmp_path, home):
    """PATH entries: a venv's bin brings the venv; HOME itself, '.', and missing ones bring nothing."""
    _program(tmp_path / "venv" / "bin" / "python3")
    search = os.pathsep.join([str(tmp_path / "venv" / "bin"), str(home), ".", "/no/such/dir"])
    assert program_paths([], search_path=search) == (str(tmp_path / "venv"),)


def test_paths_inside_the_system_directories_and_nested_ones_are_left_out(tmp_path, home):
    """Nothing under the directories the sandbox shows anyway; nothing inside another bound path."""
    tool = _program(tmp_path / "venv" / "bin" / "tool")
    search = os.pathsep.join([str(tmp_path / "venv" / "bin"), "/usr/bin"])
    got = program_paths([str(tool), "/usr/bin/env"], search_path=search, system=SYSTEM_DIRS)
    assert got == (str(tmp_path / "venv"),)


def test_a_shebang_loop_ends(tmp_path, home):
    """Two scripts naming each other as interpreter: followed a few times, then given up."""
    a, b = tmp_path / "a" / "a", tmp_path / "b" / "b"
    _program(a, f"#!{b}")
    _program(b, f"#!{a}")
    assert set(program_paths([str(a)])) == {str(tmp_path / "a"), str(tmp_path / "b")}


def test_a_folder_holding_a_bin_that_is_no_install_gives_only_the_bin(tmp_path, home):
    """A project or test directory with a bin/ but no lib/, share/ or pyvenv.cfg: only bin/ is bound,
    not what lies beside it (a socket, a .env)."""
    tool = tmp_path / "project" / "bin" / "tool"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\n")
    (tmp_path / "project" / ".env").write_text("TOKEN=x\n")
    assert program_paths([str(tool)]) == (str(tmp_path / "project" / "bin"),)
