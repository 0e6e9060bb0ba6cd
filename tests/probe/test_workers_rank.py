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
