"""Containment through a warm supervisor (wrapgen/runtime/contain.py): a process that has already run a
tool keeps a supervisor forked ahead of time; every guarantee of a cold one holds for it.

Each test performs the attack with real processes: a tool that starts a daemon (double fork and
setsid()), a SIGKILL of the caller while a tool runs, a caller that changed its cwd and environment
after the warm supervisor was forked, a fork of the caller.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from wrapgen.runtime import contain, run_process, stop_all

from test_containment import ESCAPE, _alive, _escaper_pids, _gone, _kill_all, _wait_file

PY = sys.executable


def _warm_pid() -> int:
    """Make sure this process holds a warm supervisor and return its pid."""
    for _ in range(3):
        run_process(["true"], timeout_s=20)
        mine = [entry[0] for entry in contain._idle if entry[3] == os.getpid()]
        if mine:
            return mine[0]
    raise AssertionError("no warm supervisor after three spawns")


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        return int(handle.read().rsplit(")", 1)[1].split()[1])


def test_a_second_spawn_keeps_a_warm_supervisor_and_the_next_call_uses_it(tmp_path):
    """The supervisor forked ahead of time runs the next call: the tool's parent is that very process."""
    warm = _warm_pid()
    result = run_process([PY, "-c", "import os; print(os.getppid())"], timeout_s=20)
    assert result.exit_code == 0 and int(result.stdout) == warm


def test_daemon_of_a_tool_run_by_a_warm_supervisor_is_gone_after_the_call(tmp_path):
    """A tool that double-forks a setsid() daemon and exits: the warm supervisor's sweep kills the daemon."""
    warm = _warm_pid()
    pidfile = tmp_path / "pids"
    result = run_process([PY, "-c", ESCAPE, str(pidfile), "exit"], timeout_s=30)
    pids = _escaper_pids(pidfile)
    try:
        assert result.exit_code == 0 and result.stdout == b"tool done\n"
        assert pids[0] == warm or not _alive(pids[0])  # the daemon was reparented to the warm supervisor
        assert all(_gone(pid, within=0.5) for pid in pids), f"survivors: {[p for p in pids if _alive(p)]}"
    finally:
        _kill_all(pids)


def test_daemon_dies_on_timeout_under_a_warm_supervisor(tmp_path):
    _warm_pid()
    pidfile = tmp_path / "pids"
    result = run_process([PY, "-c", ESCAPE, str(pidfile), "sleep"], timeout_s=3)
    pids = _escaper_pids(pidfile)
    try:
        assert result.timed_out
        assert all(_gone(pid, within=0.5) for pid in pids)
    finally:
        _kill_all(pids)


CALLER = textwrap.dedent("""
    import sys
    from wrapgen.runtime import run_process
    run_process(["true"], timeout_s=20)
    run_process(["true"], timeout_s=20)  # from here on the process keeps a warm supervisor
    print("warm", flush=True)
    run_process([sys.executable, "-c", sys.argv[1], sys.argv[2], "sleep"], timeout_s=120)
""")


def test_sigkill_of_a_caller_with_a_warm_supervisor_kills_tool_and_daemon(tmp_path):
    """kill -9 of a long-lived caller mid-call: the warm supervisor sweeps the tool and its daemon, and exits."""
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen([PY, "-c", CALLER, ESCAPE, str(pidfile)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    pids = []
    try:
        assert proc.stdout.readline() == b"warm\n"
        pids = _escaper_pids(pidfile)
        supervisor = _parent_of(pids[-1])
        assert supervisor != proc.pid and _parent_of(supervisor) == proc.pid
        assert all(_alive(pid) for pid in pids[1:])
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert all(_gone(pid) for pid in pids[1:]), f"survivors: {[p for p in pids if _alive(p)]}"
        assert _gone(supervisor)
    finally:
        proc.kill()
        proc.wait()
        _kill_all(pids)


def test_warm_supervisor_uses_the_callers_cwd_and_environment_at_call_time(tmp_path, monkeypatch):
    """Forked before the caller changed directory and environment, it still runs the tool where and how the caller is now."""
    _warm_pid()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WG_WARM_PROBE", "now")
    code = "import os; print(os.getcwd()); print(os.environ.get('WG_WARM_PROBE'))"
    result = run_process([PY, "-c", code], timeout_s=20)
    assert result.stdout.decode().splitlines() == [str(tmp_path), "now"]


def test_warm_supervisor_gives_the_same_limit_session_and_stdin(tmp_path):
    """The tool of a warm supervisor has its hard memory limit, its own session, PDEATHSIG and the stdin given."""
    from test_containment import PDEATHSIG_PROBE
    import json

    _warm_pid()
    result = run_process([PY, "-c", PDEATHSIG_PROBE], timeout_s=30, memory_mb=1024)
    assert json.loads(result.stdout) == [signal.SIGKILL, 1024, True], result.stderr
    _warm_pid()
    echoed = run_process([PY, "-c", "import sys; print(sys.stdin.read().upper())"], timeout_s=20, stdin="abc")
    assert echoed.stdout == b"ABC\n"


def test_a_big_call_message_reaches_the_warm_supervisor():
    """argv and environment larger than one socket message arrive whole."""
    _warm_pid()
    big = "x" * 100_000  # (one argument may have at most 128 KiB)
    result = run_process([PY, "-c", "import sys, os; print(len(sys.argv[1]), len(os.environ['BIG']))", big],
                         timeout_s=20, env={"PATH": os.environ["PATH"], "BIG": big})
    assert result.stdout == b"100000 100000\n"


def test_a_forked_child_does_not_inherit_the_warm_supervisor(tmp_path):
    """A child forked from the caller closes the caller's channels: the warm supervisor stays the caller's alone."""
    _warm_pid()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        mine = [entry for entry in contain._idle]
        os.write(write, b"%d" % len(mine))
        os._exit(0)
    os.close(write)
    assert os.read(read, 16) == b"0"
    os.close(read)
    os.waitpid(pid, 0)
    assert [entry for entry in contain._idle if entry[3] == os.getpid()]


def test_stop_all_ends_the_warm_supervisor():
    """stop_all() (a host's shutdown) lets the warm supervisor go too: nothing of ours is left running."""
    warm = _warm_pid()
    assert stop_all() == 0
    assert _gone(warm)
    assert not [entry for entry in contain._idle if entry[3] == os.getpid()]


def test_a_killed_warm_supervisor_is_replaced_by_a_cold_spawn():
    """A warm supervisor that died while idle (someone killed it) does not fail the call."""
    warm = _warm_pid()
    os.kill(warm, signal.SIGKILL)
    assert _gone(warm)
    result = run_process([PY, "-c", "print('ran')"], timeout_s=20)
    assert result.stdout == b"ran\n"
