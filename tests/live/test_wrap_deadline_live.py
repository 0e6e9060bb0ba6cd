"""`wrapgen wrap` as a whole has a deadline (`--total-deadline`, default 300 s), with real processes.

Discovery had a 120 s deadline of its own and each spawn a timeout, but nothing bounded their sum
(a loaded machine stretches each probe to its timeout and each trial round to its slowest trial),
and nothing at all bounded a wait without a timeout anywhere in the wrap (a wrap of xz once ran
600 s). Two layers, each shown here with a real process:

- soft: discovery's deadline is cut to what is left of the wrap's, and no JSON field probe or trial
  starts past it; what was not read or tried says so, and the pack is still written;
- hard: a watchdog ends a wrap stuck past the deadline plus its last spawn's timeout, stops the
  tools it runs, says where it was (every thread's stack, in a file) and exits with status 1.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.bounds import wait_until
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict:
    return {**os.environ, "WRAPGEN_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}


def _hanging_tool(tmp_path: Path) -> Path:
    """A tool whose top-level help lists six commands and whose every command's help hangs."""
    tool = tmp_path / "bin" / "slowtool"
    tool.parent.mkdir()
    tool.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import sys, time
        args = sys.argv[1:]
        if args in (["--help"], ["-h"]):
            print("Usage: slowtool <command> [options]\\n\\nCommands:\\n"
                  "  list     List the items\\n  show     Show one item\\n  status   Show the status\\n"
                  "  search   Search the items\\n  info     Print information\\n  version  Print the version\\n")
            sys.exit(0)
        if args == ["--version"]:
            print("slowtool 1.0")
            sys.exit(0)
        time.sleep(600)  # every command's help, and every command, hangs
        """)
    )
    tool.chmod(0o755)
    return tool


def test_total_deadline_bounds_discovery_and_trials_of_a_hanging_tool(tmp_path):
    tool = _hanging_tool(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "wrapgen",
            "wrap",
            str(tool),
            "-o",
            str(tmp_path / "out"),
            "--timeout",
            "120",
            "--total-deadline",
            "20",
        ],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=300,
    )
    # without the total deadline each command's help probe waits its 120 s timeout, and discovery
    # its 120 s: the run's own 300 s bound would end it; the output says the deadline cut it
    assert done.returncode == 0, done.stderr
    # discovery's own deadline (120 s) was cut to what was left of the wrap's 20 s
    cut = re.search(r"discovery stopped at its (\d+(?:\.\d)?) s deadline", done.stdout)
    assert cut and float(cut[1]) <= 20, done.stdout
    assert (tmp_path / "out" / "slowtool" / "pack.yaml").is_file()
    # no trial started past the deadline: each read verb says why it was not tried (not "long-running")
    assert "wrap's deadline passed before it could be tried" in done.stdout
    assert "long-running" not in done.stdout


def test_watchdog_ends_a_wrap_stuck_in_a_wait_without_a_bound(tmp_path):
    """A wait with no timeout inside the wrap (here a contained spawn told to wait ~forever, as a
    stand-in for any unbounded block) is ended by the watchdog: a clear message, status 1, the stack
    of the stuck thread in a file, and the process it waited on is gone."""
    pid_file = tmp_path / "stuck.pid"
    sleeper = tmp_path / "sleeper"
    sleeper.write_text(
        f"#!{sys.executable}\nimport os, time\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)\n"
    )
    sleeper.chmod(0o755)
    # Discovery reads jq's captured help (no probe that a busy machine could make miss the deadline
    # first): the wrap gets to the stuck stage whatever the load, and the deadline (10 s: time for the
    # sleeper to start) ends it there.
    help_text = FIXTURES / "help" / "gnu" / "jq.txt"
    driver = textwrap.dedent(f"""\
        import sys
        import wrapgen.flows.wrap as flow
        import wrapgen.probe.discover as discovery
        from wrapgen.model.tool import Tool
        from wrapgen.parse import parse_help
        from wrapgen.runtime import run_process

        def stuck(*_args, **_kwargs):
            run_process([{str(sleeper)!r}], timeout_s=10**6)
            return {{}}

        def read(*_args, **_kwargs):
            text = open({str(help_text)!r}).read()
            return Tool(name="jq", root=parse_help(text, prog=("jq",), style="gnu"))

        flow.json_field_lists = stuck
        discovery.discover = read
        from wrapgen.cli.main import main
        sys.exit(main(["wrap", "jq", "-o", {str(tmp_path / "out")!r}, "--total-deadline", "10", "--try-timeout", "1"]))
        """)
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    done = subprocess.run(
        [sys.executable, "-c", driver],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Error: wrap jq did not finish within" in done.stderr
    assert "it was stopped during JSON field probes" in done.stderr
    assert "Traceback" not in done.stderr
    where = done.stderr.split("where it was: ")[1].split()[0]
    try:
        assert "run_process" in Path(where).read_text()
    finally:
        Path(where).unlink(missing_ok=True)
    pid = int(pid_file.read_text())
    wait_until(
        lambda: not os.path.exists(f"/proc/{pid}"), what="the process the wrap waited on to be gone"
    )
