"""What a call's processes hold at its timeout (runtime/waiting.py), on real processes: a tool
asleep on a timer holds nothing; a server holds its listening socket, a watcher its inotify
descriptor, a busy tool the CPU; in a network namespace of its own (bubblewrap's), a tool that tried
to reach the network has that counted. Read through run_process's on_timeout, before the sweep."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from conftest import require_tool
from wrapgen.runtime.process import run_process
from wrapgen.runtime.waiting import TreeState, tree_state

TIMEOUT = 10.0  # (the tools below sleep far longer: time for them to start, on a busy machine too)


def _state_at_timeout(source: str) -> TreeState:
    seen = []
    result = run_process(
        [sys.executable, "-c", source],
        timeout_s=TIMEOUT,
        on_timeout=lambda pid: seen.append(tree_state(pid)),
    )
    assert result.timed_out and len(seen) == 1 and seen[0] is not None
    return seen[0]


def test_a_tool_asleep_between_retries_holds_nothing():
    state = _state_at_timeout("import time\nfor _ in range(1200): time.sleep(0.5)")
    assert state.processes >= 1 and state.sockets == 0 and state.watches == 0
    assert state.sleeping(TIMEOUT)
    assert state.net_attempts is None and not state.retrying_network(
        TIMEOUT
    )  # it shares our namespace


def _launched(source: str, ready) -> TreeState:
    """``tree_state`` below a launcher whose child runs ``source`` and then makes ``ready``."""
    tool = f"{source}\nopen({str(ready)!r}, 'w').close()\nimport time\ntime.sleep(600)"
    launcher = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {tool!r}])"
    return _tree_once_ready([sys.executable, "-c", launcher], ready)


def test_a_server_holds_its_listening_socket(tmp_path):
    state = _launched(
        "import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()",
        tmp_path / "ready",
    )
    assert state.sockets >= 1 and not state.sleeping(TIMEOUT)


def test_a_watcher_holds_its_inotify_descriptor(tmp_path):
    watched = tmp_path / "log"
    watched.write_text("")
    state = _launched(
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nfd = libc.inotify_init()\n"
        f"assert fd >= 0\nlibc.inotify_add_watch(fd, {str(watched).encode()!r}, 2)",
        tmp_path / "ready",
    )
    assert state.watches >= 1 and not state.sleeping(TIMEOUT)


def _tree_once_ready(argv: list[str], ready) -> TreeState:
    """``tree_state`` of a process started with ``argv`` once it has made the file ``ready`` (waited
    for with a bound that only catches a hang); the process is killed after."""
    import subprocess

    from support.bounds import wait_until

    process = subprocess.Popen(argv, start_new_session=True)
    try:

        def ready_or_ended():
            assert process.poll() is None, f"the tool ended ({process.returncode})"
            return ready.exists()

        wait_until(ready_or_ended, what="the tool to get ready")
        return tree_state(process.pid)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the launcher's session: the tool below it too
        process.wait()


def test_a_tool_at_work_is_not_asleep(tmp_path):
    """The CPU a busy tool has spent counts as work: once its process (a child of the one looked at)
    has spent 0.3 s of CPU, as it measures itself, the tree holds that much and is not asleep."""
    ready = tmp_path / "spent"
    busy = (
        f"import time\nwhile time.process_time() < 0.3: pass\nopen({str(ready)!r}, 'w').close()\n"
        "while True: pass"
    )
    launcher = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {busy!r}])"
    state = _tree_once_ready([sys.executable, "-c", launcher], ready)
    # (/proc counts CPU in clock ticks, user and system time each cut to a whole tick)
    assert state.processes == 1 and state.cpu_s >= 0.3 - 2 / os.sysconf("SC_CLK_TCK")
    assert not state.sleeping(0.5)


def test_the_children_of_the_tool_count_and_nothing_outlives_the_call():
    pids = []

    def look(pid):
        state = tree_state(pid)
        pids.append(state)

    source = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\ntime.sleep(600)"
    )
    result = run_process([sys.executable, "-c", source], timeout_s=TIMEOUT, on_timeout=look)
    assert result.timed_out and pids[0].processes >= 2 and pids[0].sleeping(TIMEOUT)


def test_an_observer_that_fails_still_leaves_no_process_behind(tmp_path):
    import time

    pid_file = tmp_path / "pid"

    def boom(_pid):
        raise RuntimeError("observer failed")

    source = (
        f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)"
    )
    with pytest.raises(RuntimeError):  # (10 s: time for the tool to start, on a busy machine too)
        run_process([sys.executable, "-c", source], timeout_s=10.0, on_timeout=boom)
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 120
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}"), "the tool outlived its call"


def test_a_pid_with_no_children_is_an_empty_tree():
    state = tree_state(2**22 + 7)  # above any pid Linux hands out by default: no such process
    assert state == TreeState(processes=0, sockets=0, watches=0, cpu_s=0.0)
    assert not state.sleeping(TIMEOUT)


RETRY = (
    "import socket, time\n"
    "for _ in range(3):\n"
    "    try:\n"
    "        socket.create_connection(('192.0.2.1', 80), timeout=0.2)\n"  # TEST-NET-1: never routed here
    "    except OSError:\n"
    "        pass\n"
)


def _in_own_network(source: str, tmp_path) -> TreeState:
    """The state of ``source``, run in a network namespace of its own, once it has run (then it sleeps)."""
    bwrap = require_tool("bwrap")
    ready = tmp_path / "ready"
    source += f"\nopen({str(ready)!r}, 'w').close()\nimport time\ntime.sleep(600)"
    argv = [bwrap, "--ro-bind", "/", "/", "--bind", str(tmp_path), str(tmp_path), "--dev", "/dev"]
    argv += ["--proc", "/proc", "--unshare-net", "--unshare-pid", "--die-with-parent"]
    return _tree_once_ready([*argv, sys.executable, "-c", source], ready)


@pytest.mark.live
def test_a_tool_that_tried_the_network_in_a_sandbox_is_retrying_it(tmp_path):
    state = _in_own_network(RETRY, tmp_path)
    assert state.net_attempts and state.net_attempts >= 1
    assert state.retrying_network(60.0)


# a resolver between its retries: the UDP socket it asked with is still held while it sleeps
RETRY_HOLDING = (
    "import socket\n"
    "held = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
    "try:\n"
    "    held.sendto(b'q', ('192.0.2.1', 53))\n"  # TEST-NET-1: never routed here
    "except OSError:\n"
    "    pass\n"
)


@pytest.mark.live
def test_a_tool_holding_the_socket_it_tried_the_network_with_is_retrying_it(tmp_path):
    state = _in_own_network(RETRY_HOLDING, tmp_path)
    assert state.sockets >= 1 and state.net_attempts and state.net_attempts >= 1
    assert not state.sleeping(60.0) and state.retrying_network(60.0)


@pytest.mark.live
def test_a_sleeper_in_a_sandbox_never_tried_the_network(tmp_path):
    state = _in_own_network("", tmp_path)
    assert state.net_attempts == 0 and state.sleeping(60.0) and not state.retrying_network(60.0)


def test_a_tool_at_work_on_a_busy_cpu_is_not_asleep(tmp_path):
    """A tool at work that shares its CPU with three others gets a quarter of it: its CPU time alone
    is under half the time it has been running, as a sleeper's is, but the time it waited in the run
    queue is work too (a node CLI's reads, four at once on a loaded machine, were all called waiting
    on the network and kept as long-running)."""
    import subprocess
    import time

    cpu = min(os.sched_getaffinity(0))
    # each in a session of its own: the scheduler shares a CPU between sessions first (autogroups)
    pinned = {"preexec_fn": lambda: os.sched_setaffinity(0, {cpu}), "start_new_session": True}
    others = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], **pinned) for _ in range(3)
    ]
    try:
        ready = tmp_path / "spent"
        busy = (
            f"import time\nstart = time.monotonic()\nwhile time.process_time() < 0.3: pass\n"
            f"open({str(ready)!r}, 'w').write(repr(start))\nwhile True: pass"
        )
        launcher = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {busy!r}])"
        process = subprocess.Popen([sys.executable, "-c", launcher], **pinned)
        try:
            from support.bounds import wait_until

            wait_until(
                lambda: ready.exists() and ready.read_text(), what="the tool to spend its CPU"
            )
            state = tree_state(process.pid)
            wall = time.monotonic() - float(ready.read_text())
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    finally:
        for other in others:
            other.kill()
            other.wait()
    assert state.processes == 1
    assert state.cpu_s < wall / 2, (state, wall)  # by its CPU alone it would read as asleep
    assert state.queued_s > 0 and not state.sleeping(wall), (state, wall)
