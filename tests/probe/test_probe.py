"""The probe: resolving a tool, the fixed environment, and hostile tools that hang, flood or misbehave."""

from __future__ import annotations

import os
import random
import textwrap
from pathlib import Path

import pytest
from support.bounds import wait_until

from conftest import FIXTURES, require_tool
from wrapgen.errors import ToolNotFoundError
from wrapgen.probe.prober import PROBE_ENV, Prober, clean_text, probe_env, resolve_tool

TOOLS = FIXTURES / "tools"


def _processes_with(marker: str) -> list[str]:
    """Command lines of live processes that contain ``marker`` as one argument."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if marker.encode() in args:
            found.append(b" ".join(args).decode(errors="replace"))
    return found


def test_resolve_tool_missing_name_gives_a_hint():
    """An unknown name is ToolNotFoundError whose hint says how to fix it."""
    with pytest.raises(ToolNotFoundError) as caught:
        resolve_tool("no-such-tool-wrapgen-xyz")
    assert "not found on PATH" in caught.value.message
    assert "PATH" in caught.value.hint


def test_resolve_tool_refuses_a_file_that_is_not_executable(tmp_path):
    """A path to a non-executable file is refused with a chmod hint."""
    script = tmp_path / "tool.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    with pytest.raises(ToolNotFoundError) as caught:
        resolve_tool(str(script))
    assert "not executable" in caught.value.message
    assert "chmod +x" in caught.value.hint


def test_resolve_tool_refuses_a_directory_and_a_missing_path(tmp_path):
    """A directory or a missing path is not a tool."""
    with pytest.raises(ToolNotFoundError, match="directory"):
        resolve_tool(str(tmp_path))
    with pytest.raises(ToolNotFoundError, match="no such file"):
        resolve_tool(str(tmp_path / "nope"))


def test_the_tool_sees_the_fixed_environment_and_a_scratch_home():
    """Probes run with pager, colour, locale and width fixed, in a private directory, with a scratch
    HOME (issue 12: never the real one), both removed afterwards."""
    env_tool = require_tool("env")
    with Prober(env_tool) as prober:
        workdir, home = prober.workdir, prober.home
        result = prober.run(())
    seen = dict(line.split("=", 1) for line in result.text.splitlines() if "=" in line)
    for key in ("PAGER", "MANPAGER", "GIT_PAGER", "TERM", "NO_COLOR", "LC_ALL", "COLUMNS"):
        assert seen[key] == PROBE_ENV[key], key
    # (the text names the scratch HOME and working directory as ~ and .: the real HOME would show)
    assert (
        seen.get("HOME") == "~" and home != os.environ.get("HOME") and os.environ.get("HOME") != "~"
    )
    assert seen["PWD"] == "."
    assert not os.path.exists(workdir), "the probe's working directory is removed afterwards"
    assert not os.path.exists(home), "the probe's HOME is removed afterwards"


def test_stdin_is_closed_so_a_reader_does_not_hang():
    """A tool that reads stdin (cat) gets end-of-file at once instead of waiting."""
    cat = require_tool("cat")
    with Prober(cat, timeout_s=60) as prober:  # (waiting for input, it would time out)
        result = prober.run((), pty_fallback=False)
    assert result.problem.endswith("printed nothing")


def test_a_hanging_tool_is_killed_with_its_children():
    """A tool that hangs after forking a sleeper is killed at the timeout, the sleeper too."""
    marker = str(random.randint(400000, 499999))
    env = dict(os.environ, WG_SLEEP=marker)
    with Prober(str(TOOLS / "wg-hang"), timeout_s=0.5, env=env) as prober:
        result = prober.run(("--help",))
    assert (
        "did not finish within 0.5 s, nor within 1 s when run again" in result.problem
    )  # (RETRY_UNKNOWN)
    assert result.timed_out and not result.usable
    wait_until(lambda: _processes_with(marker) == [], what="the hanging tool's sleeper to be gone")


def test_binary_output_is_a_problem_not_text():
    """A tool that prints binary data gives a problem saying so, and no text."""
    with Prober(str(TOOLS / "wg-binary")) as prober:
        result = prober.run(("--help",))
    assert "binary data" in result.problem
    assert result.text == ""


def test_megabytes_of_output_are_cut_at_the_cap():
    """A tool that prints 50 MB is stopped at the cap, quickly, with a problem naming the cap."""
    with Prober(str(TOOLS / "wg-huge"), timeout_s=120) as prober:  # (uncapped, it would time out)
        result = prober.run(("--help",))
    assert "more than 2 MiB" in result.problem


def test_ansi_colours_are_stripped():
    """Colour escapes printed regardless of NO_COLOR are removed from the text."""
    with Prober(str(TOOLS / "wg-ansi")) as prober:
        result = prober.run(("--help",))
    assert result.usable
    assert "\x1b" not in result.text
    assert "--color[=WHEN]" in result.text
    assert result.text.startswith("Usage: wg-ansi")


def test_silence_is_reported_after_trying_a_terminal():
    """A tool that prints nothing is also tried on a pseudo-terminal, then reported as silent."""
    with Prober(str(TOOLS / "wg-silent")) as prober:
        result = prober.run(("--help",))
        calls = prober.calls
    assert result.via_pty
    assert "printed nothing, on a pipe or a terminal" in result.problem
    assert calls == 2


def test_help_printed_only_to_a_terminal_is_read_through_a_pty():
    """A tool that prints help only when stdout is a tty is read through a pseudo-terminal."""
    with Prober(str(TOOLS / "wg-ttyonly")) as prober:
        result = prober.run(("--help",))
    assert result.usable and result.via_pty
    assert "-i, --ignore-case" in result.text
    assert "\r" not in result.text


def test_a_tool_that_runs_its_action_writes_only_into_the_probe_directory(tmp_path, monkeypatch):
    """A tool that ignores --help and writes into its cwd writes into a temp dir that is then removed."""
    user_dir = tmp_path / "user"
    user_dir.mkdir()
    log = tmp_path / "log"
    monkeypatch.chdir(user_dir)
    # no sandbox: the tool logs outside its scratch directories (the sandbox would refuse that write)
    with Prober(
        str(TOOLS / "wg-action"), env=dict(os.environ, WG_LOG=str(log)), sandbox=False
    ) as prober:
        result = prober.run(("--help",))
    assert result.text == "did the thing\n"
    assert list(user_dir.iterdir()) == []
    ran_in = log.read_text().strip()
    assert ran_in != str(user_dir) and "wrapgen-probe-" in ran_in
    assert not os.path.exists(ran_in)


def test_clean_text_removes_overstrike_and_keeps_unicode():
    """nroff bold (X\\bX) and underline (_\\bX) are removed; non-ASCII text survives."""
    text, problem = clean_text("B\bBo\bol\bld _\bu é\r\n".encode())
    assert problem == ""
    assert text == "Bold u é\n"


def test_probe_env_overrides_colour_forcing():
    """Variables that force colour in spite of NO_COLOR are dropped from the probe's environment."""
    env = probe_env({"FORCE_COLOR": "1", "CLICOLOR_FORCE": "1", "HOME": "/home/x", "PAGER": "less"})
    assert "FORCE_COLOR" not in env and "CLICOLOR_FORCE" not in env
    assert env["HOME"] == "/home/x"
    assert env["PAGER"] == "cat"


def test_probes_of_programs_but_shell_scripts_write_to_in_memory_files(tmp_path):
    """A program's probes need no pipe (nothing is read until the probe ends); a shell script's
    keep one, since it may write to its output by name, which an in-memory file refuses."""
    import sys

    from tests.support.tools import python_tool
    from wrapgen.probe.prober import _output_in_memory

    script = tmp_path / "by-name"
    script.write_text("#!/bin/sh\necho 'usage: by-name [-q]' > /dev/stderr\n")
    script.chmod(0o755)
    assert _output_in_memory(os.path.realpath(sys.executable))  # a compiled program
    assert _output_in_memory(python_tool(tmp_path / "py-tool", "print('usage: py-tool')\n"))
    assert not _output_in_memory(str(script))
    assert not _output_in_memory(str(tmp_path / "missing"))
    with Prober(str(script), sandbox=False) as prober:
        assert "usage: by-name [-q]" in prober.run(("--help",)).text


def test_the_probes_scratch_directories_read_as_the_tool_would_name_them_anywhere(tmp_path):
    """Help that prints its HOME, working directory or TMPDIR (kubectl's --cache-dir default) reads
    the same every run: ~, . and $TMPDIR, never the scratch directory's random name."""
    from tests.support.tools import python_tool

    tool = python_tool(
        tmp_path / "paths",
        textwrap.dedent("""\
        import os
        print("usage: paths [--cache DIR] [--cwd DIR] [--tmp DIR]")
        print(f"  --cache DIR  cache (default {os.environ['HOME']}/.cache/paths)")
        print(f"  --cwd DIR    working directory (default: {os.getcwd()})")
        print(f"  --tmp DIR    scratch (default {os.environ['TMPDIR']}/paths)")
    """),
    )
    texts = []
    for _ in range(2):
        with Prober(tool, sandbox=False) as prober:
            texts.append(prober.run(("--help",)).text)
    assert texts[0] == texts[1]
    assert "(default ~/.cache/paths)" in texts[0] and "(default: .)" in texts[0]
    assert "(default $TMPDIR/paths)" in texts[0] and "wrapgen-probe" not in texts[0]
