"""The spawn helper's pre-forked tool child (wrapgen/runtime/contain.py): the process that becomes a call's
tool exists before the call is sent (no fork on the call's path), it fails an exec the way a forked
tool does, and it never outlives its caller, not even when it never got a call.

Real processes throughout; the other guarantees of a helper-forked call: tests/runtime/test_containment_helper.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from test_containment import _gone
from test_containment_helper import _helper_pid, _parent_of

from wrapgen.runtime import run_process

PY = sys.executable
TICKS = os.sysconf("SC_CLK_TCK")


def _start_ticks(stat: str) -> int:
    """A process's start time (clock ticks since boot) from its /proc/PID/stat text."""
    return int(stat.rsplit(")", 1)[1].split()[19])


def _boot_ticks() -> float:
    with open("/proc/uptime") as handle:
        return float(handle.read().split()[0]) * TICKS


def test_the_tool_s_process_was_forked_before_the_call():
    """The tool's process started well before the call (the helper's spare forked it while idle), yet it
    runs the call's program with the call's PDEATHSIG-bearing parent, the supervisor."""
    helper = _helper_pid()
    time.sleep(0.5)  # the spare and its child for the next call are forked and waiting now
    sent = _boot_ticks()
    result = run_process(["sh", "-c", "cat /proc/$$/stat"], timeout_s=120)
    assert result.exit_code == 0, result.stderr
    stat = result.stdout.decode()
    assert _start_ticks(stat) < sent - 0.2 * TICKS, (stat, sent)
    supervisor = int(stat.rsplit(")", 1)[1].split()[1])
    assert supervisor not in (os.getpid(), helper)


def test_an_exec_that_fails_in_a_pre_forked_child_is_reported_as_such(tmp_path):
    _helper_pid()
    time.sleep(0.2)
    assert run_process(["wrapgen-no-such-tool"], timeout_s=120).not_found == "not found"
    script = tmp_path / "plain"
    script.write_text("not executable\n")
    assert run_process([str(script)], timeout_s=120).not_found == "not executable"
    assert run_process(["true"], timeout_s=120, cwd=str(tmp_path / "gone")).not_found
    later = run_process(["sh", "-c", "echo fine"], timeout_s=120)  # and the helper goes on
    assert later.exit_code == 0 and later.stdout == b"fine\n"


WAITING = textwrap.dedent("""
    import os, sys, time
    from wrapgen.runtime import contain, run_process
    while contain._usable_helper() is None:
        run_process(["true"], timeout_s=120)
        time.sleep(0.05)
    run_process(["true"], timeout_s=120)
    time.sleep(0.5)
    helper = contain._helper[0]
    spares = open(f"/proc/{helper}/task/{helper}/children").read().split()
    children = [c for s in spares for c in open(f"/proc/{s}/task/{s}/children").read().split()]
    print(helper, *spares, "/", *children, flush=True)
    if sys.argv[1] == "wait":
        time.sleep(120)
""")


def test_a_waiting_spare_and_its_child_go_when_the_caller_exits_or_is_killed():
    """Nothing the helper forked ahead of a call is left once its caller is gone: an exit (the socket
    closes) or a SIGKILL (the same, with no goodbye)."""
    for how in ("exit", "wait"):
        proc = subprocess.Popen(
            [PY, "-c", WAITING, how],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            text=True,
        )
        try:
            line = proc.stdout.readline().split()
            assert "/" in line, line
            at = line.index("/")
            helper, spares, children = (
                int(line[0]),
                [int(p) for p in line[1:at]],
                [int(p) for p in line[at + 1 :]],
            )
            assert children, "the spare had no pre-forked child"
            assert all(_parent_of(child) in spares for child in children)
            if how == "wait":
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=300)
            for pid in (helper, *spares, *children):
                assert _gone(pid), f"{pid} outlived its caller ({how})"
        finally:
            proc.kill()
            proc.wait()
