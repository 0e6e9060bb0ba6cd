"""Which timed-out trials the trial cache keeps (probe/trial.py ``_cached``), with bubblewrap.

A trial that slept at its timeout after trying to reach the network waits on what no trial's
sandbox gives: the next wrap would wait the same timeout out for the same answer (a repeated pip
wrap spent 3 s of its 5 on one such trial), so that outcome is kept; so is one that printed its
output and kept running at its longer second try, which streams (a process manager's `logs`: a
repeated wrap waited out three such trials, 9 s of its 10); at the first try it is run again, as a
slow read prints its first line too. A trial that timed out silently without trying the network
may have been starved by a busy machine: it is run again.
"""

from __future__ import annotations

import sys

import pytest
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from wrapgen.probe import trial
from wrapgen.probe.sandbox import reset_sandbox_status

pytestmark = pytest.mark.live

# tries a host no sandbox routes to (each send counts in the namespace's snmp), then sleeps
_RETRIES_THE_NETWORK = (
    "import socket, time\n"
    "for _ in range(3):\n"
    "    try:\n"
    "        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('192.0.2.1', 53))\n"
    "    except OSError:\n"
    "        pass\n"
    "time.sleep(600)\n"
)
_JUST_SLEEPS = "import time\ntime.sleep(600)\n"
# prints its first lines, then keeps printing as a log follower does
_STREAMS = "import sys, time\nwhile True:\n    print('line', flush=True)\n    time.sleep(0.5)\n"


def _run_twice(code: str, tmp_path, monkeypatch) -> tuple[trial.TrialOutcome, int]:
    """The outcome of the first run, and how many of the two runs were really run."""
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    reset_sandbox_status()
    runs = []
    real_one = trial._one

    def counted(*args, **kwargs):
        runs.append(1)
        return real_one(*args, **kwargs)

    monkeypatch.setattr(trial, "_one", counted)
    spec = trial.TrialSpec("wait", ("python3", "-c", code))
    first = trial.run_trials([spec], bin_path=sys.executable, timeout_s=4.0).outcomes[0]
    again = trial.run_trials([spec], bin_path=sys.executable, timeout_s=4.0).outcomes[0]
    assert first.timed_out and again.timed_out
    return first, len(runs)


def test_a_trial_asleep_after_trying_the_network_is_answered_from_the_cache(tmp_path, monkeypatch):
    first, runs = _run_twice(_RETRIES_THE_NETWORK, tmp_path, monkeypatch)
    assert first.retrying_network
    assert runs == 1


def test_a_trial_that_only_timed_out_is_run_again(tmp_path, monkeypatch):
    first, runs = _run_twice(_JUST_SLEEPS, tmp_path, monkeypatch)
    assert not first.retrying_network
    assert runs == 2


def test_a_trial_that_printed_and_kept_running_is_kept_from_its_longer_try(tmp_path, monkeypatch):
    """A first try that printed and kept running is no answer yet (a slow search prints its first
    line too): it is run again. The chain's longer try, under the same key, is kept and answers the
    next first try, so a repeated wrap does not wait a stream out again."""
    first, runs = _run_twice(_STREAMS, tmp_path, monkeypatch)
    assert first.stdout.strip() and not first.retrying_network
    assert runs == 2
    spec = trial.TrialSpec("wait", ("python3", "-c", _STREAMS))
    ran = []
    real_one = trial._one
    monkeypatch.setattr(trial, "_one", lambda *a, **k: ran.append(1) or real_one(*a, **k))
    longer = trial.run_trials([spec], bin_path=sys.executable, timeout_s=6.0, key_timeout_s=4.0)
    assert longer.outcomes[0].timed_out and ran == [1]
    again = trial.run_trials([spec], bin_path=sys.executable, timeout_s=4.0).outcomes[0]
    assert again.timed_out and again.stdout.strip() and ran == [1]  # answered by the longer try
