"""run_process / run_in_pty: no shell, own process group, timeouts and caps that kill the group."""

from __future__ import annotations

import os
import sys
import time

import pytest

from wrapgen.runtime import ProcessResult, run_in_pty, run_process

PY = sys.executable


def _dead(pid: int, *, within: float = 120.0) -> bool:
    """True once ``pid`` is gone or a zombie (killed; only its reaper is left to act); False when it
    still runs after ``within`` s (a bound that only catches a survivor: the sleepers sleep 600 s)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.02)
    return False


def test_captures_stdout_stderr_and_exit_code():
    """stdout, stderr and the exit status come back separately, as bytes."""
    result = run_process(
        [PY, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"],
        timeout_s=120,
    )
    assert isinstance(result, ProcessResult)
    assert (result.stdout, result.stderr, result.exit_code) == (b"out\n", b"err\n", 3)
    assert not result.timed_out and not result.output_capped and result.signal is None


def test_stdin_is_empty_by_default():
    """The tool reads /dev/null, so a tool waiting for input ends at once."""
    result = run_process(["cat"], timeout_s=120)
    assert result.exit_code == 0 and result.stdout == b"" and not result.timed_out


def test_stdin_bytes_are_fed():
    """Given stdin, a large payload is fed concurrently with reading (no pipe deadlock)."""
    payload = b"x" * 300_000
    result = run_process(["cat"], timeout_s=120, stdin=payload)
    assert result.stdout == payload


def test_own_process_group():
    """The tool leads its own session and process group, apart from ours."""
    result = run_process(
        [PY, "-c", "import os; print(os.getpgid(0) == os.getpid(), os.getsid(0) == os.getpid())"],
        timeout_s=120,
    )
    assert result.stdout == b"True True\n"


def test_timeout_kills_the_whole_group():
    """A tool that forks a sleeping child and waits: the timeout kills both, and is reported."""
    result = run_process(["sh", "-c", "sleep 600 & echo $!; wait"], timeout_s=1)
    assert result.timed_out and result.exit_code is None
    child = int(result.stdout.split()[0])
    assert _dead(child), f"child {child} survived the timeout"


def test_background_child_left_behind_is_killed():
    """A tool that exits leaving a child holding its stdout: the call ends with the tool (not at its
    timeout, as it would waiting for the child's end of the pipe) and the child dies."""
    result = run_process(["sh", "-c", "sleep 600 & echo $!"], timeout_s=120)
    assert result.exit_code == 0 and not result.timed_out
    assert _dead(int(result.stdout.split()[0]))


def test_waits_for_a_tool_that_closed_its_pipes():
    """Closing stdout/stderr early does not count as finishing: the exit status is awaited."""
    result = run_process(["sh", "-c", "exec >&- 2>&-; sleep 0.3; exit 4"], timeout_s=120)
    assert result.exit_code == 4 and not result.timed_out


def test_killed_by_signal_is_reported():
    """A tool killed by a signal reports the signal number, not an exit code."""
    result = run_process(["sh", "-c", "kill -9 $$"], timeout_s=120)
    assert result.signal == 9 and result.exit_code is None


@pytest.mark.parametrize(
    ("argv", "reason"),
    [(["wrapgen-no-such-tool-xyz"], "not found"), (["/etc/hostname"], "not executable")],
)
def test_cannot_run(argv, reason):
    """A missing or non-executable bin gives a reason and runs nothing."""
    result = run_process(argv, timeout_s=120)
    assert result.not_found == reason and result.exit_code is None


def test_nul_byte_is_refused_before_spawning():
    """An argument with NUL never reaches exec."""
    assert run_process(["echo", "a\0b"], timeout_s=120).not_found == "argument contains a NUL byte"


def test_env_and_cwd_are_passed(tmp_path):
    """The given environment and working directory are the tool's."""
    result = run_process(
        [PY, "-c", "import os; print(os.getcwd(), os.environ['WG_X'])"],
        timeout_s=120,
        cwd=tmp_path,
        env={"WG_X": "1", "PATH": os.environ["PATH"]},
    )
    assert result.stdout.decode().split() == [str(tmp_path), "1"]


def test_pty_makes_the_tool_see_a_terminal():
    """run_in_pty gives the tool a terminal, with LF line ends and a fixed width."""
    result = run_in_pty(
        [PY, "-c", "import os, sys; print(sys.stdout.isatty(), os.get_terminal_size().columns)"],
        timeout_s=120,
    )
    assert result.stdout == b"True 100\n" and result.exit_code == 0


def test_pty_timeout_kills_the_group():
    """A tool waiting on its terminal is killed at the timeout, children included."""
    result = run_in_pty(["sh", "-c", "sleep 600 & echo $!; read x"], timeout_s=1)
    assert result.timed_out
    assert _dead(int(result.stdout.split()[0]))


def test_cancel_kills_the_group():
    """Setting the cancel event ends the call at once and kills the tool's children."""
    import threading

    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    result = run_process(["sh", "-c", "sleep 600 & echo $!; wait"], timeout_s=120, cancel=cancel)
    assert result.cancelled and not result.timed_out and result.signal is None
    assert _dead(int(result.stdout.split()[0]))


def test_without_pidfd_the_polling_path_behaves_the_same(monkeypatch):
    """Where os.pidfd_open is missing (non-Linux), exit, leftovers and timeouts still work."""
    monkeypatch.delattr(os, "pidfd_open")
    assert run_process(["sh", "-c", "echo hi; exit 5"], timeout_s=120).stdout == b"hi\n"
    assert (
        run_process(["sh", "-c", "exec >&- 2>&-; sleep 0.2; exit 4"], timeout_s=120).exit_code == 4
    )
    left = run_process(["sh", "-c", "sleep 600 & echo $!"], timeout_s=120)
    assert left.exit_code == 0 and _dead(int(left.stdout.split()[0]))
    assert run_process(["sleep", "60"], timeout_s=0.5).timed_out


# --- in_memory: the probes' mode (stdout and stderr in sealed in-memory files, read at the end) ---

FLOOD = "import sys\nwhile True:\n    sys.stdout.write('y\\n' * 4096)\n"


def test_in_memory_captures_what_pipes_capture_from_many_small_writes():
    code = (
        "import os, sys\n"
        "for i in range(200): os.write(1, b'%d ' % i)\n"
        "os.write(2, b'err'); sys.exit(3)"
    )
    result = run_process([PY, "-c", code], timeout_s=120, in_memory=True)
    piped = run_process([PY, "-c", code], timeout_s=120)
    assert (result.stdout, result.stderr, result.exit_code) == (piped.stdout, b"err", 3)
    assert result.stdout.split()[-1] == b"199"
    assert not result.timed_out and not result.output_capped and result.signal is None


def test_in_memory_output_past_the_cap_fails_the_tool_and_is_reported():
    """A tool printing without end cannot fill the memory: its writes past the files' end fail, it
    ends long before its timeout, and the call says it was capped, with the cap's worth kept."""
    result = run_process([PY, "-c", FLOOD], timeout_s=120, output_cap=100_000, in_memory=True)
    assert result.output_capped and not result.timed_out
    assert len(result.stdout) == 100_000 and set(result.stdout) == set(b"y\n")


def test_in_memory_timeout_kills_the_group_and_keeps_what_was_printed():
    result = run_process(["sh", "-c", "sleep 600 & echo $!; wait"], timeout_s=1, in_memory=True)
    assert result.timed_out and result.exit_code is None
    assert _dead(int(result.stdout.split()[0]))


def test_in_memory_left_behind_child_killed_signal_and_missing_tool_reported():
    left = run_process(["sh", "-c", "sleep 600 & echo $!"], timeout_s=120, in_memory=True)
    assert left.exit_code == 0 and _dead(int(left.stdout.split()[0]))
    assert run_process(["sh", "-c", "kill -9 $$"], timeout_s=120, in_memory=True).signal == 9
    assert (
        run_process(["wrapgen-no-such-tool-xyz"], timeout_s=120, in_memory=True).not_found
        == "not found"
    )


def test_in_memory_is_not_taken_with_stdin_and_falls_back_without_memfd(monkeypatch):
    import wrapgen.runtime.process as process

    assert run_process(["cat"], timeout_s=120, stdin=b"fed", in_memory=True).stdout == b"fed"
    monkeypatch.setattr(process, "_MEMFD", False)
    result = run_process([PY, "-c", FLOOD], timeout_s=120, output_cap=50_000, in_memory=True)
    assert result.output_capped and len(result.stdout) == 50_000


def test_in_memory_reads_the_supervisors_records_once_the_call_is_over(monkeypatch, tmp_path):
    """The supervisor's records (its pid and the tool's when the tool starts, the exit when it ends)
    wait in the status pipe: the caller is woken once, by its end, and reads them all then."""
    from wrapgen.runtime import contain

    reads = []
    feed = contain.Supervised.feed
    ended = tmp_path / "ended"

    def recorded(self, data):
        reads.append((ended.exists(), data))  # (whether the tool had finished its work by then)
        feed(self, data)

    monkeypatch.setattr(contain.Supervised, "feed", recorded)
    code = f"import time; time.sleep(0.5); open({str(ended)!r}, 'w').close(); print('done')"
    result = run_process([PY, "-c", code], timeout_s=120, in_memory=True)
    assert result.exit_code == 0 and result.stdout == b"done\n"
    assert reads and all(after for after, _ in reads), reads
    assert (
        b"P " in b"".join(data for _, data in reads)
        and b"X 0 " in reads[0][1]
        and reads[-1][1] == b""
    )


def test_in_memory_timeout_of_a_stopped_supervisor_still_kills_it():
    """A tool that stops its own supervisor: at the timeout the caller reads the supervisor's pid
    from the records that waited in the pipe, and kills it (the tool dies with it)."""
    code = "import os, signal, time; os.kill(os.getppid(), signal.SIGSTOP); print(os.getpid(), flush=True); time.sleep(600)"
    result = run_process([PY, "-c", code], timeout_s=1, in_memory=True)
    assert result.timed_out
    tool = int(result.stdout)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and os.path.exists(f"/proc/{tool}") and not _zombie(tool):
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{tool}") or _zombie(tool)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


@pytest.mark.parametrize("in_memory", [False, True])
def test_a_working_directory_that_does_not_exist_is_named_and_nothing_runs(tmp_path, in_memory):
    """No stat before the spawn: the tool's chdir fails, and the result says which directory."""
    marker = tmp_path / "ran"
    code = f"open({str(marker)!r}, 'w').close()"
    for cwd in (tmp_path / "gone", tmp_path / "file"):
        if cwd.name == "file":
            cwd.write_text("")
        result = run_process([PY, "-c", code], timeout_s=120, cwd=cwd, in_memory=in_memory)
        assert result.not_found == f"working directory {cwd} does not exist"
        assert result.exit_code is None
    assert run_in_pty([PY, "-c", code], timeout_s=120, cwd=tmp_path / "gone").not_found.startswith(
        "working directory"
    )
    assert not marker.exists()
    assert (
        run_process(
            ["wrapgen-no-such-tool-xyz"], timeout_s=120, cwd=tmp_path, in_memory=in_memory
        ).not_found
        == "not found"
    )


# The tool forks a child that spends 0.3 s of CPU and exits, and leaves it unreaped (it waits for
# it with WNOWAIT): the child is reaped by the supervisor once the tool exits, as a sandbox's init
# is. Its CPU is counted all the same (discovery's pace rule reads it: probe/crawl.py).
_UNREAPED_BURNER = """
import os, time
pid = os.fork()
if pid == 0:
    while time.process_time() < 0.3:
        pass
    os._exit(0)
os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
"""


def test_the_cpu_of_every_process_the_call_reaped_is_counted():
    result = run_process([PY, "-c", _UNREAPED_BURNER], timeout_s=120)
    assert result.exit_code == 0
    assert result.cpu_s is not None and result.cpu_s >= 0.3


def test_a_process_that_never_ran_counts_no_cpu():
    result = run_process(["/nonexistent/tool"], timeout_s=5)
    assert result.not_found and result.cpu_s is None
