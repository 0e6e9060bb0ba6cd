"""Containment through the spawn helper (wrapgen/runtime/contain.py): a process that has already run a
tool gets a small helper process that forks the supervisor of every later call; every guarantee of a
supervisor forked by the caller holds for it.

Each test performs the attack with real processes: a tool that starts a daemon (double fork and
setsid()), a timeout, a SIGKILL of the caller while a tool runs, a caller that changed its cwd and
environment, a fork of the caller, a helper killed by someone else.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

from test_containment import ESCAPE, PDEATHSIG_PROBE, _alive, _escaper_pids, _gone, _kill_all

from wrapgen.runtime import contain, run_process, stop_all

PY = sys.executable


def _helper_pid() -> int:
    """Make sure this process has a ready spawn helper and return its pid."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        run_process(["true"], timeout_s=120)
        helper = contain._usable_helper()
        if helper is not None:
            return helper[0]
        time.sleep(0.05)
    raise AssertionError("no spawn helper after 30 s of spawns")


GRANDPARENT = """
import os
with open(f"/proc/{os.getppid()}/stat") as handle:
    print(int(handle.read().rsplit(")", 1)[1].split()[1]))
"""


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        return int(handle.read().rsplit(")", 1)[1].split()[1])


def test_later_calls_run_under_a_supervisor_the_helper_forked():
    """The tool's parent is a supervisor whose parent is the helper, a child of this process."""
    helper = _helper_pid()
    assert _parent_of(helper) == os.getpid()
    result = run_process([PY, "-c", "import os; print(os.getppid())"], timeout_s=120)
    supervisor = int(result.stdout)
    assert result.exit_code == 0 and supervisor not in (os.getpid(), helper)


def test_a_one_shot_caller_never_starts_a_helper():
    """A process that spawns once (`wrapgen exec`, adapter.py) pays for no helper."""
    code = "from wrapgen.runtime import run_process, contain; run_process(['true'], timeout_s=120); print(contain._helper)"
    assert (
        subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60).stdout
        == "None\n"
    )


def test_daemon_of_a_tool_is_gone_after_the_call(tmp_path):
    """A tool that double-forks a setsid() daemon and exits: the helper-forked supervisor's sweep kills the daemon."""
    _helper_pid()
    pidfile = tmp_path / "pids"
    result = run_process([PY, "-c", ESCAPE, str(pidfile), "exit"], timeout_s=120)
    pids = _escaper_pids(pidfile)
    try:
        assert result.exit_code == 0 and result.stdout == b"tool done\n"
        assert all(_gone(pid) for pid in pids), f"survivors: {[p for p in pids if _alive(p)]}"
    finally:
        _kill_all(pids)


def test_daemon_dies_on_timeout(tmp_path):
    _helper_pid()
    pidfile = tmp_path / "pids"
    # (a timeout long enough for the escape to have happened first, on a busy machine too)
    result = run_process([PY, "-c", ESCAPE, str(pidfile), "sleep"], timeout_s=15)
    pids = _escaper_pids(pidfile)
    try:
        assert result.timed_out
        assert all(_gone(pid) for pid in pids)
    finally:
        _kill_all(pids)


CALLER = textwrap.dedent("""
    import sys, time
    from wrapgen.runtime import contain, run_process
    while contain._usable_helper() is None:
        run_process(["true"], timeout_s=120)
        time.sleep(0.05)
    print(contain._helper[0], flush=True)
    run_process([sys.executable, "-c", sys.argv[1], sys.argv[2], "sleep"], timeout_s=120)
""")


def test_sigkill_of_a_caller_with_a_helper_kills_tool_daemon_supervisor_and_helper(tmp_path):
    """kill -9 of a long-lived caller mid-call: its tool and the tool's daemon die, and so do the supervisor and the helper."""
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen(
        [PY, "-c", CALLER, ESCAPE, str(pidfile)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    pids = []
    try:
        helper = int(proc.stdout.readline())
        pids = _escaper_pids(pidfile)
        supervisor = _parent_of(pids[-1])
        assert _parent_of(supervisor) == helper and _parent_of(helper) == proc.pid
        assert all(_alive(pid) for pid in pids[1:])
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=300)
        assert all(_gone(pid) for pid in pids[1:]), f"survivors: {[p for p in pids if _alive(p)]}"
        assert _gone(supervisor) and _gone(helper)
    finally:
        proc.kill()
        proc.wait()
        _kill_all(pids)


def test_the_tool_runs_in_the_callers_cwd_and_environment_at_call_time(tmp_path, monkeypatch):
    """The helper started elsewhere, with another environment: the tool still runs where and how the caller is now."""
    _helper_pid()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WG_HELPER_PROBE", "now")
    code = "import os; print(os.getcwd()); print(os.environ.get('WG_HELPER_PROBE'))"
    result = run_process([PY, "-c", code], timeout_s=120)
    assert result.stdout.decode().splitlines() == [str(tmp_path), "now"]


def test_the_same_limit_session_pdeathsig_and_stdin():
    """The tool of a helper-forked supervisor has the hard memory limit, its own session, PDEATHSIG and the stdin given."""
    _helper_pid()
    result = run_process([PY, "-c", PDEATHSIG_PROBE], timeout_s=120, memory_mb=1024)
    assert json.loads(result.stdout) == [signal.SIGKILL, 1024, True], result.stderr
    raise_it = "import resource; resource.setrlimit(resource.RLIMIT_DATA, (2 << 30, 2 << 30))"
    assert run_process([PY, "-c", raise_it], timeout_s=120, memory_mb=1024).exit_code != 0
    echoed = run_process(
        [PY, "-c", "import sys; print(sys.stdin.read().upper())"], timeout_s=120, stdin="abc"
    )
    assert echoed.stdout == b"ABC\n"


def test_a_call_larger_than_one_packet_arrives_whole():
    _helper_pid()
    big = "x" * 100_000  # (one argument may have at most 128 KiB)
    result = run_process(
        [PY, "-c", "import sys, os; print(len(sys.argv[1]), len(os.environ['BIG']))", big],
        timeout_s=120,
        env={"PATH": os.environ["PATH"], "BIG": big},
    )
    assert result.stdout == b"100000 100000\n"


def test_a_forked_child_forgets_the_helper():
    """A child forked from the caller closes the caller's socket to the helper: the helper stays the caller's alone."""
    helper = _helper_pid()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.write(write, repr(contain._helper).encode())
        os._exit(0)
    os.close(write)
    assert os.read(read, 64) == b"None"
    os.close(read)
    os.waitpid(pid, 0)
    assert _helper_pid() == helper


def test_a_killed_helper_is_replaced_by_cold_spawns():
    """A helper someone killed does not fail the calls: they run under supervisors the caller forks."""
    helper = _helper_pid()
    os.kill(helper, signal.SIGKILL)
    assert _gone(helper)
    for _ in range(2):
        # the tool reads its supervisor's parent itself, while that supervisor still waits for it
        # (after the call it may be reaped and gone from /proc)
        result = run_process([PY, "-c", GRANDPARENT], timeout_s=120)
        assert result.exit_code == 0 and int(result.stdout) == os.getpid(), result


def test_stop_all_ends_the_helper():
    """stop_all() (a host's shutdown) lets the helper go too: nothing of ours is left running."""
    contain._helper = None  # (the test above left this process without one)
    helper = _helper_pid()
    assert stop_all() == 0
    assert _gone(helper)


LIMITS_AND_UMASK = """
import json, os, resource
mask = os.umask(0)
print(json.dumps([mask, resource.getrlimit(resource.RLIMIT_NOFILE)[0], resource.getrlimit(resource.RLIMIT_CORE)[0]]))
"""


def test_the_tool_gets_the_callers_umask_and_limits_at_call_time():
    """A caller that changes its umask or a soft limit after its helper started: the tool sees the new
    ones, as it would from a supervisor forked by the caller at call time."""
    import resource

    _helper_pid()
    nofile, core = (
        resource.getrlimit(resource.RLIMIT_NOFILE),
        resource.getrlimit(resource.RLIMIT_CORE),
    )
    old_mask = os.umask(0o027)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, nofile[1]))
        resource.setrlimit(resource.RLIMIT_CORE, (0, core[1]))
        result = run_process([PY, "-c", LIMITS_AND_UMASK], timeout_s=120)
        assert contain._usable_helper() is not None  # (the call went through the helper)
    finally:
        os.umask(old_mask)
        resource.setrlimit(resource.RLIMIT_NOFILE, nofile)
        resource.setrlimit(resource.RLIMIT_CORE, core)
    assert json.loads(result.stdout) == [0o027, 200, 0], result.stderr


def test_a_state_read_once_is_what_every_later_call_takes():
    """A caller that read its state once (discovery, for all its probes) passes it to each call: the
    tools take that umask and those limits, not the ones the caller set since."""
    import resource

    _helper_pid()
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)
    old_mask = os.umask(0o027)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, nofile[1]))
        state = contain.caller_state()
    finally:
        os.umask(old_mask)
        resource.setrlimit(resource.RLIMIT_NOFILE, nofile)
    results = [
        run_process(
            [PY, "-c", LIMITS_AND_UMASK], timeout_s=120, caller_state=state, in_memory=in_memory
        )
        for in_memory in (False, True)
    ]
    assert contain._usable_helper() is not None  # (the calls went through the helper)
    for result in results:
        assert json.loads(result.stdout)[:2] == [0o027, 200], result.stderr
    assert json.loads(run_process([PY, "-c", LIMITS_AND_UMASK], timeout_s=120).stdout)[:2] == [
        old_mask,
        nofile[0],
    ]


def test_a_helper_that_stopped_reading_does_not_block_the_call():
    """A helper that no longer reads its socket (here SIGSTOPped) holds a call up for the send timeout
    at most: then it is dropped and the call runs under a supervisor the caller forks."""
    import socket as _socket

    contain._helper = None
    helper = _helper_pid()
    sock = contain._helper[1]
    assert sock.gettimeout() == contain._SEND_TIMEOUT_S  # a send to the helper is bounded
    sock.setsockopt(
        _socket.SOL_SOCKET, _socket.SO_SNDBUF, 4096
    )  # (so the first call already fills it)
    sock.settimeout(0.5)  # (the test's own bound, shorter than the default)
    os.kill(helper, signal.SIGSTOP)
    try:
        big = "x" * 100_000
        result = run_process([PY, "-c", GRANDPARENT, big], timeout_s=600)
        assert result.exit_code == 0, result
        assert int(result.stdout) == os.getpid()  # a cold supervisor: the caller's own child
        assert contain._helper is False  # dropped, never tried again
    finally:
        os.kill(helper, signal.SIGCONT)
        contain._helper = None
