"""Containment (docs/contract.md §8, issue 12): nothing a tool starts outlives the call, or wrapgen; a memory limit per call.

Each test performs the attack with real processes: a tool that double-forks and calls setsid(), a
SIGKILL of the wrapgen process (exec and serve) while a tool runs, a tool that allocates without end.
These pin the supervisor's own containment, which every call has (run_process has no more), and
which is all a call has where the per-call sandbox cannot run and WRAPGEN_SANDBOX=fallback lets it
run anyway: the tests that go through execute, exec or serve run so (``supervisor_only``), since the
pids the tool records are the host's only outside the sandbox's PID namespace. The sandbox's own
version of the attack: tests/runtime/test_sandbox.py and tests/redteam/test_runtime_containment.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from packs_runtime.packtools import binding_dict, verb, write_pack

from wrapgen.runtime import execute, run_in_pty, run_process
from wrapgen.runtime.contain import containment_available

PY = sys.executable


@pytest.fixture
def supervisor_only(monkeypatch):
    """Calls through execute run with the supervisor's containment alone (the sandbox's fallback)."""
    from wrapgen.runtime import sandbox

    monkeypatch.setattr(sandbox, "find_bwrap", lambda environ=None: None)
    monkeypatch.setenv("WRAPGEN_SANDBOX", "fallback")


# The tool: fork; the child calls setsid() and forks again; the grandchild (now in a session of its
# own, outside the tool's process group, its stdio on /dev/null) records its pid and sleeps. The
# tool records its own pid too, then either exits at once or sleeps (``mode``).
ESCAPE = r"""
import os, sys, time
pidfile, mode = sys.argv[1], sys.argv[2]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        with open(pidfile + ".tmp", "w") as handle:
            handle.write(f"{os.getppid()} {os.getpid()}")
        os.rename(pidfile + ".tmp", pidfile)
        time.sleep(600)
    os._exit(0)
os.wait()
while not os.path.exists(pidfile):
    time.sleep(0.01)
with open(pidfile + ".tool.tmp", "w") as handle:  # renamed into place: a reader never sees it half written
    handle.write(str(os.getpid()))
os.rename(pidfile + ".tool.tmp", pidfile + ".tool")
print("tool done", flush=True)
if mode == "sleep":
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _gone(pid: int, *, within: float = 120.0) -> bool:
    """Whether ``pid`` is gone within ``within`` s (a bound that only catches a survivor: the
    escapers sleep 600 s)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.02)
    return False


def _wait_file(path: Path, *, within: float = 300.0) -> str:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if path.exists():
            return path.read_text()
        time.sleep(0.02)
    raise AssertionError(f"{path} never appeared")


def _escaper_pids(pidfile: Path) -> list[int]:
    return [int(word) for word in _wait_file(pidfile).split()] + [
        int(_wait_file(Path(str(pidfile) + ".tool")))
    ]


def _kill_all(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def test_containment_is_available_here():
    """This is Linux with prctl: every spawn below runs under a subreaper supervisor."""
    assert containment_available()


def test_setsid_grandchild_does_not_survive_the_call(tmp_path):
    """A tool that double-forks a setsid() grandchild and exits: the call returns and the grandchild is dead."""
    pidfile = tmp_path / "pids"
    result = run_process([PY, "-c", ESCAPE, str(pidfile), "exit"], timeout_s=120)
    pids = _escaper_pids(pidfile)
    try:
        # (ended with the tool: waiting for the grandchild it would have timed out)
        assert result.exit_code == 0 and result.stdout == b"tool done\n"
        # the grandchild left the tool's process group and session: only the subreaper finds it
        assert all(_gone(pid) for pid in pids), f"survivors: {[p for p in pids if _alive(p)]}"
    finally:
        _kill_all(pids)


def test_setsid_grandchild_dies_on_timeout(tmp_path):
    """The same escape while the tool is still running: the timeout takes the grandchild too."""
    pidfile = tmp_path / "pids"
    # (a timeout long enough for the escape to have happened first, on a busy machine too)
    result = run_process([PY, "-c", ESCAPE, str(pidfile), "sleep"], timeout_s=15)
    pids = _escaper_pids(pidfile)
    try:
        assert result.timed_out
        assert all(_gone(pid) for pid in pids)
    finally:
        _kill_all(pids)


def test_setsid_grandchild_dies_in_a_pty(tmp_path):
    """run_in_pty (discovery's terminal spawn) is contained the same way."""
    pidfile = tmp_path / "pids"
    result = run_in_pty([PY, "-c", ESCAPE, str(pidfile), "exit"], timeout_s=120)
    pids = _escaper_pids(pidfile)
    try:
        assert result.exit_code == 0
        assert all(_gone(pid) for pid in pids)
    finally:
        _kill_all(pids)


def test_setsid_grandchild_dies_on_cancel(tmp_path, supervisor_only):
    """A cancelled call (what serve does for a cancelled request) sweeps the grandchild as well."""
    import threading

    pidfile = tmp_path / "pids"
    cancel = threading.Event()
    binding = binding_dict(
        "t", PY, {"v": verb([PY, "-c", ESCAPE, str(pidfile), "sleep"], json_sel=[])}
    )
    watcher = threading.Thread(
        target=lambda: (_wait_file(Path(str(pidfile) + ".tool")), cancel.set())
    )
    watcher.start()
    envelope = execute(binding, "v", {}, cancel=cancel)
    watcher.join()
    pids = _escaper_pids(pidfile)
    try:
        assert envelope == {"ok": False, "error": "cancelled"}
        assert all(_gone(pid) for pid in pids)
    finally:
        _kill_all(pids)


def _escape_pack(tmp_path: Path, pidfile: Path) -> Path:
    return write_pack(
        tmp_path / "packs",
        "esc",
        PY,
        {"v": verb([PY, "-c", ESCAPE, str(pidfile), "sleep"], json_sel=[])},
    )


def _wrapgen_env() -> dict:
    """wrapgen's environment, with the supervisor's containment alone (no bubblewrap: the sandbox's
    fallback; see the module's docstring)."""
    env = dict(os.environ)
    env.pop("WRAPGEN_PATH", None)
    env["WRAPGEN_BWRAP"] = ""  # (none: as where bubblewrap is not installed)
    env["WRAPGEN_SANDBOX"] = "fallback"
    return env


def test_sigkill_of_wrapgen_exec_kills_the_tool_and_its_escaped_grandchild(tmp_path):
    """kill -9 of `wrapgen exec` while its tool runs: the tool and its setsid() grandchild die with it."""
    pidfile = tmp_path / "pids"
    pack = _escape_pack(tmp_path, pidfile)
    proc = subprocess.Popen(
        [PY, "-m", "wrapgen", "exec", str(pack), "v"],
        env=_wrapgen_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    pids = []
    try:
        pids = _escaper_pids(pidfile)
        # pids[0] is the grandchild's parent when it wrote the file: the supervisor it was reparented
        # to, or (rarely) the middle child, which exits at once; the grandchild and the tool must live
        assert all(_alive(pid) for pid in pids[1:])
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=300)
        assert all(_gone(pid) for pid in pids), (
            f"survivors of wrapgen exec: {[p for p in pids if _alive(p)]}"
        )
    finally:
        proc.kill()
        proc.wait()
        _kill_all(pids)


def _rpc(proc, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def _built_escape_pack(tmp_path: Path, pidfile: Path) -> Path:
    """The escaping tool as a real pack (pack.yaml + `wrapgen build` output): serve derives the binding
    from pack.yaml and refuses any other, so the stand-in pack.yaml of write_pack will not do."""
    import json as _json

    from support.serve import make_pack

    argv = _json.dumps([PY, "-c", ESCAPE, str(pidfile), "sleep"])
    manifest = (
        f"pack_id: esc\ndescription: Escapes its process group.\nbin: {_json.dumps(PY)}\njson: false\n"
        f"verbs:\n  v:\n    description: Fork a setsid() grandchild and sleep.\n    cli: {argv}\n"
        f"    policy: {{effect: read}}\n"
    )
    return make_pack(tmp_path / "packs" / "esc", manifest)


def test_sigkill_of_wrapgen_serve_kills_the_running_tool(tmp_path):
    """kill -9 of `wrapgen serve` during a tools/call: the tool and its setsid() grandchild die with it."""
    pidfile = tmp_path / "pids"
    pack = _built_escape_pack(tmp_path, pidfile)
    proc = subprocess.Popen(
        [PY, "-m", "wrapgen", "serve", str(pack)],
        env=_wrapgen_env(),
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    pids = []
    try:
        _rpc(
            proc,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            },
        )
        assert json.loads(proc.stdout.readline())["id"] == 1
        _rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _rpc(
            proc,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "v", "arguments": {}},
            },
        )
        pids = _escaper_pids(pidfile)
        # pids[0] is the grandchild's parent when it wrote the file: the supervisor it was reparented
        # to, or (rarely) the middle child, which exits at once; the grandchild and the tool must live
        assert all(_alive(pid) for pid in pids[1:])
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=300)
        assert all(_gone(pid) for pid in pids), (
            f"survivors of wrapgen serve: {[p for p in pids if _alive(p)]}"
        )
    finally:
        proc.kill()
        proc.wait()
        _kill_all(pids)


def test_a_thread_that_exits_does_not_kill_a_call_of_another():
    """Calls run from worker threads (serve) are not tied to a thread's life: each one completes."""
    import threading

    results = []
    threads = [
        threading.Thread(
            target=lambda: results.append(
                run_process([PY, "-c", "import time; time.sleep(0.3); print('ok')"], timeout_s=600)
            )
        )
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.stdout for r in results] == [b"ok\n"] * 4


def test_concurrent_calls_do_not_hold_each_others_pipes(tmp_path):
    """A quick call next to a slow one ends when its own tool ends (supervisors close what is not
    theirs): the slow tool runs until the test lets it go, after the quick call has returned."""
    import threading

    from support.bounds import wait_until

    started, release = tmp_path / "started", tmp_path / "release"
    slow_code = (
        f"import os, time\nopen({str(started)!r}, 'w').close()\n"
        f"for _ in range(6000):\n    if os.path.exists({str(release)!r}): break\n    time.sleep(0.05)"
    )
    slow = threading.Thread(
        target=run_process, args=([PY, "-c", slow_code],), kwargs={"timeout_s": 600}
    )
    slow.start()
    try:
        wait_until(started.exists, what="the slow tool to start")
        result = run_process([PY, "-c", "print('hi')"], timeout_s=600)
        assert result.stdout == b"hi\n"
        assert slow.is_alive(), "the quick call waited for the slow one to end"
    finally:
        release.touch()
        slow.join()


# --- memory ------------------------------------------------------------------------------------


def _memory_pack(code: str, memory_mb=None) -> dict:
    binding = binding_dict("mem", PY, {"v": verb([PY, "-c", code], json_sel=[])})
    if memory_mb is not None:
        binding["limits"] = {"memory_mb": memory_mb}
    return binding


def test_default_memory_limit_reaches_the_tool():
    """Without limits in the pack, the tool runs under the default limit (2048 MiB of RLIMIT_DATA)."""
    from wrapgen.runtime import DEFAULT_MEMORY_MB

    code = "import resource; print(resource.getrlimit(resource.RLIMIT_DATA)[0] >> 20)"
    assert DEFAULT_MEMORY_MB == 2048
    assert execute(_memory_pack(code), "v", {}) == {"ok": True, "result": "2048\n"}


def test_pack_raises_the_memory_limit():
    """limits.memory_mb in the binding replaces the default."""
    code = "import resource; print(resource.getrlimit(resource.RLIMIT_DATA)[0] >> 20)"
    assert execute(_memory_pack(code, 4096), "v", {}) == {"ok": True, "result": "4096\n"}


def test_allocating_without_end_is_a_clear_envelope():
    """A tool that grows past its limit fails with "exceeded the memory limit of N MiB", not a raw trace."""
    code = "chunks = []\nwhile True: chunks.append(bytearray(16 << 20))"
    envelope = execute(_memory_pack(code, 128), "v", {})
    assert envelope["ok"] is False
    assert envelope["error"].startswith("exceeded the memory limit of 128 MiB"), envelope


def test_a_tool_under_the_limit_is_not_blamed_on_memory():
    """A tool that fails for its own reasons keeps its own error, even with a memory limit."""
    envelope = execute(_memory_pack("import sys; sys.exit('plain failure')", 128), "v", {})
    assert envelope == {"ok": False, "error": "plain failure", "exit_code": 1}


PDEATHSIG_PROBE = """
import ctypes, json, os, resource
sig = ctypes.c_int()
ctypes.CDLL(None).prctl(2, ctypes.byref(sig), 0, 0, 0)  # PR_GET_PDEATHSIG
print(json.dumps([sig.value, resource.getrlimit(resource.RLIMIT_DATA)[0] >> 20, os.getsid(0) == os.getpid()]))
"""


def test_tool_has_pdeathsig_its_own_session_and_a_hard_limit(tmp_path):
    """The tool runs with PR_SET_PDEATHSIG(SIGKILL), in its own session, under the limit, in the cwd."""
    result = run_process([PY, "-c", PDEATHSIG_PROBE], timeout_s=120, memory_mb=1024)
    assert json.loads(result.stdout) == [signal.SIGKILL, 1024, True], result.stderr
    raise_it = "import resource; resource.setrlimit(resource.RLIMIT_DATA, (2 << 30, 2 << 30))"
    assert (
        run_process([PY, "-c", raise_it], timeout_s=120, memory_mb=1024).exit_code != 0
    )  # the hard limit holds
    assert (
        run_process([PY, "-c", "import os; print(os.getcwd())"], timeout_s=120, cwd=tmp_path).stdout
        == f"{tmp_path}\n".encode()
    )


def test_path_is_searched_in_the_tools_environment(tmp_path):
    """A bare name is looked up in the PATH of the environment given to the tool (as execvpe does)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "wg-only-here").symlink_to(
        "/bin/echo" if os.path.exists("/bin/echo") else "/usr/bin/echo"
    )
    found = run_process(
        ["wg-only-here", "found"], timeout_s=120, env={"PATH": str(bindir)}, cwd=tmp_path
    )
    assert found.stdout == b"found\n"
    assert (
        run_process(["wg-only-here"], timeout_s=120, env={"PATH": "/nonexistent"}).not_found
        == "not found"
    )


def test_sigkill_of_the_supervisor_still_kills_the_tool(tmp_path):
    """A host that SIGKILLs its children (the supervisors) at shutdown: the tool dies too (PDEATHSIG)."""
    import threading

    pidfile = tmp_path / "pids"
    done = []
    worker = threading.Thread(
        target=lambda: done.append(
            run_process([PY, "-c", ESCAPE, str(pidfile), "sleep"], timeout_s=60)
        )
    )
    worker.start()
    pids = _escaper_pids(pidfile)
    tool = pids[-1]
    try:
        with open(f"/proc/{tool}/stat") as handle:
            supervisor = int(handle.read().rsplit(")", 1)[1].split()[1])
        assert supervisor != os.getpid()
        os.kill(supervisor, signal.SIGKILL)
        assert _gone(tool), "the tool outlived its SIGKILLed supervisor"
        worker.join(timeout=300)
        assert done and not done[0].ok
    finally:
        _kill_all(pids)


def test_stop_all_sweeps_every_call_in_flight(tmp_path):
    """stop_all() (a host's shutdown) ends every running call and its escaped grandchildren, and waits for it."""
    import threading

    from wrapgen.runtime import stop_all

    files = [tmp_path / f"pids{i}" for i in range(2)]
    results = []
    workers = [
        threading.Thread(
            target=lambda f=f: results.append(
                run_process([PY, "-c", ESCAPE, str(f), "sleep"], timeout_s=60)
            )
        )
        for f in files
    ]
    for worker in workers:
        worker.start()
    pids = [pid for f in files for pid in _escaper_pids(f)]
    try:
        assert stop_all() == 2
        assert all(not _alive(pid) for pid in pids), f"survivors: {[p for p in pids if _alive(p)]}"
        for worker in workers:
            worker.join(timeout=300)
        assert len(results) == 2 and not any(r.ok for r in results)
    finally:
        _kill_all(pids)


def test_stop_from_two_threads_closes_the_control_pipe_once(monkeypatch):
    """A wrap's watchdog stops every call (stop_all) while the call's own thread finishes it: the
    second stop(), coming in while the first is closing the control pipe, closes nothing (a second
    close raised EBADF, or closed whatever file had reused the number)."""
    from wrapgen.runtime import contain

    ctl_r, ctl_w = os.pipe()
    st_r, st_w = os.pipe()
    call = contain.Supervised(None, ctl_w, st_r)
    closed = []
    real_close = os.close

    def close_and_interleave(fd):
        closed.append(fd)
        real_close(fd)
        if len(closed) == 1:
            call.stop()  # the other thread, between the first close and its bookkeeping

    monkeypatch.setattr(contain.os, "close", close_and_interleave)
    try:
        call.stop()
        call.stop()
    finally:
        monkeypatch.undo()
        contain._live.discard(call)
        for fd in (ctl_r, st_r, st_w):
            os.close(fd)
    assert closed == [ctl_w]
