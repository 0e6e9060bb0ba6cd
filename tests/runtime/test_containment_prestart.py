"""``contain.prestart()``: a process about to spawn several times (a discovery) starts its spawn helper
early, and its calls go through that helper from the first one, waiting (bounded) for it to be ready
instead of forking the caller. Each test runs a fresh interpreter, so the helper state is its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

PY = sys.executable


def _run(code: str) -> dict:
    done = subprocess.run(
        [PY, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


COUNTING = """
    import json, os, sys, time
    from wrapgen.runtime import contain, run_process
    cold = []
    real = contain._spawn_cold
    contain._spawn_cold = lambda *a, **k: cold.append(a[0]) or real(*a, **k)
"""


def test_after_prestart_no_call_forks_the_caller():
    """Every call, the very first included, runs under a supervisor the helper forked: none is cold,
    and the tool's grandparent is the helper, not this process."""
    out = _run(
        COUNTING
        + """
    contain.prestart()
    helper = contain._helper[0]
    parents = []
    for _ in range(3):
        result = run_process([sys.executable, "-c",
                              "import os; print(open(f'/proc/{os.getppid()}/stat').read().rsplit(')', 1)[1].split()[1])"],
                             timeout_s=20)
        assert result.exit_code == 0, result
        parents.append(int(result.stdout))
    print(json.dumps({"cold": len(cold), "parents": parents, "helper": helper, "me": os.getpid()}))
    """
    )
    assert out["cold"] == 0
    assert out["parents"] == [out["helper"]] * 3  # the supervisor's parent: the helper
    assert out["helper"] != out["me"]


def test_without_prestart_the_first_calls_are_cold():
    """The policy prestart changes: a process that did not call it forks its first calls itself (so the
    test above could fail)."""
    out = _run(
        COUNTING
        + """
    for _ in range(2):
        assert run_process(["true"], timeout_s=20).exit_code == 0
    print(json.dumps({"cold": len(cold)}))
    """
    )
    assert out["cold"] == 2


def test_prestart_twice_starts_one_helper_and_a_one_shot_process_none():
    out = _run("""
    import json
    from wrapgen.runtime import contain
    contain.prestart()
    first = contain._helper[0]
    contain.prestart()
    second = contain._helper[0]
    print(json.dumps({"same": first == second}))
    """)
    assert out["same"] is True
    out = _run("""
    import json
    from wrapgen.runtime import contain
    contain.one_shot()
    contain.prestart()
    print(json.dumps({"helper": contain._helper}))
    """)
    assert out["helper"] is False


def test_a_helper_that_never_gets_ready_holds_the_first_call_up_for_the_bound_only():
    """A helper whose start hangs (here a boot that only waits for its socket to close): the first call waits at most
    ``_READY_WAIT_S`` from the helper's start, then runs under a supervisor the caller forks, and
    later calls do not wait again."""
    out = _run(
        COUNTING
        + """
    contain._READY_WAIT_S = 0.3
    contain._HELPER_BOOT = "import os; os.read(3, 1)"  # (never says it is ready; ends with its socket)
    contain.prestart()
    started = time.monotonic()
    first = run_process(["echo", "one"], timeout_s=20)
    waited = time.monotonic() - started
    started = time.monotonic()
    second = run_process(["echo", "two"], timeout_s=20)
    again = time.monotonic() - started
    contain.stop_all()
    print(json.dumps({"cold": len(cold), "waited": waited, "again": again,
                      "out": [first.stdout.decode(), second.stdout.decode()]}))
    """
    )
    assert out["out"] == ["one\n", "two\n"]
    assert out["cold"] == 2
    assert 0.2 <= out["waited"] < 5
    assert out["again"] < out["waited"]


def test_stop_all_then_prestart_starts_a_new_helper():
    """A bench (or a host) that stops its helper between crawls gets a new one from the next prestart."""
    out = _run(
        COUNTING
        + """
    contain.prestart()
    run_process(["true"], timeout_s=20)
    first = contain._helper[0]
    contain.stop_all()
    contain.prestart()
    run_process(["true"], timeout_s=20)
    print(json.dumps({"cold": len(cold), "new": contain._helper[0] != first}))
    """
    )
    assert out == {"cold": 0, "new": True}
