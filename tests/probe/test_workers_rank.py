"""The crawl's workers take the waiting tasks by rank, then in the order they came."""

from __future__ import annotations

import threading

from wrapgen.probe.workers import Workers


def test_waiting_tasks_run_by_rank_then_in_order():
    """With one thread held busy, tasks submitted meanwhile run lowest rank first, FIFO within one."""
    release = threading.Event()
    ran: list[str] = []
    with Workers(1) as pool:
        pool.submit(release.wait)
        for name, rank in (("late-a", 2), ("first", 0), ("late-b", 2), ("second", 1)):
            pool.submit(ran.append, name, rank=rank)
        release.set()
        pool.wait()
    assert ran == ["first", "second", "late-a", "late-b"]


def test_wait_hands_on_what_was_notified_before_it_was_called():
    """An item a task notified is handed to ``wait``'s callback even when that task had already
    ended before ``wait`` looked (the crawl's progress lost its last report that way on CI)."""
    seen: list[str] = []
    with Workers(1) as pool:
        pool.submit(pool.notify, "read")
        for _ in range(10_000):  # until the task has ended: nothing is open any more
            if not pool._open:
                break
            threading.Event().wait(0.01)
        assert not pool._open
        pool.wait(seen.append)
    assert seen == ["read"]
