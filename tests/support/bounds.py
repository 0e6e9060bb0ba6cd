"""Waiting in tests: for the event a test needs, with a bound that only catches a hang.

No test asserts on wall or CPU time (a busy machine stretches both without bound): a test waits for
what it needs to see (a file, a process gone, a call returned) and gives up only after ``HANG_S``,
far past what any machine this suite runs on takes, so that a hang fails instead of blocking the run.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time

__all__ = ["HANG_S", "Hung", "alarm", "finishes", "wait_until"]

HANG_S = 300.0


def wait_until(predicate, *, what: str, within: float = HANG_S, every: float = 0.02):
    """``predicate()``'s first true value, polled every ``every`` s; fails the test naming ``what``
    when there is none within ``within`` s."""
    end = time.monotonic() + within
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"gave up after {within:g} s waiting for {what}")
        time.sleep(every)


def finishes(function, *args, within: float = HANG_S, **kwargs):
    """``function(*args, **kwargs)``, run in a thread of its own: what it returns, or what it raised,
    raised here; fails the test when it has not returned within ``within`` s (the thread is left to
    end by itself: a daemon, so it cannot hold up the run's exit)."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the caller
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(within)
    if thread.is_alive():
        raise AssertionError(f"{getattr(function, '__name__', function)} hung ({within:g} s)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class Hung(AssertionError):
    """What ``alarm`` raises in the body it bounds."""


@contextlib.contextmanager
def alarm(within: float = HANG_S):
    """Fail the body (``Hung``) when it runs longer than ``within`` s, even inside a regular
    expression's search, which holds the interpreter but checks for signals (SIGALRM; the main thread
    only)."""

    def stop(signum, frame):
        raise Hung(f"still running after {within:g} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, within)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
