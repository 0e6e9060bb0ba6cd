"""The crawl's worker threads: up to ``jobs`` of them, each started only when work finds none idle.

Lighter than ``concurrent.futures`` for the way the crawl works (a node that has been read queues
its children from the thread that read it): no Future per task, no waiter installed on every
pending one at each completion, and the calling thread sleeps until the last task has ended
instead of waking once per node (a wake-up costs a thread on a busy host far more than the few
lines it then runs). What the caller must see as it happens (the crawl's progress) is handed to
it through ``notify``, so that it, not a worker, runs the caller's callback.
"""

from __future__ import annotations

import itertools
import threading
from queue import PriorityQueue, SimpleQueue
from typing import Callable

__all__ = ["Workers"]

_IDLE_CHECK = object()  # put for the caller when the last open task has ended: "look again"
_LAST = float("inf")  # the rank of the "stop" each thread takes once closing: after every task


class Workers:
    """A pool of threads taking tasks in order of their ``rank`` (lowest first), then of submission;
    ``close()`` (or the ``with`` block's end) skips the tasks not started yet, waits for the running
    ones and lets every thread go.

    A task must not raise: what it raises is kept, and raised again by ``wait`` or ``close``.
    """

    def __init__(self, jobs: int, *, name: str = "wrapgen-probe"):
        self._jobs = max(1, jobs)
        self._name = name
        self._tasks: PriorityQueue = PriorityQueue()  # (rank, submission number, task, args)
        self._order = itertools.count()
        self._events: SimpleQueue = SimpleQueue()  # for the caller: notify()'s items, _IDLE_CHECK
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = (
            0  # threads back at the queue, not yet given a task (as the executor's idle count)
        )
        self._open = 0  # tasks submitted and not ended
        self._stopping = False
        self._error: BaseException | None = None

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def submit(self, task: Callable, *args, rank: int = 0) -> None:
        """Run ``task(*args)`` on a worker, before every waiting task of a higher ``rank`` (none once
        closing: a task not started is skipped)."""
        with self._lock:
            if self._stopping:
                return
            self._open += 1
            start = None  # the new thread's number, when one is started
            if self._idle:
                self._idle -= 1
            elif self._threads < self._jobs:
                start = self._threads
                self._threads += 1
        self._tasks.put((rank, next(self._order), task, args))
        if start is not None:
            threading.Thread(target=self._work, name=f"{self._name}_{start}", daemon=True).start()

    def notify(self, item) -> None:
        """Hand ``item`` to the caller's ``wait(on_item)`` (from a task)."""
        self._events.put(item)

    def wait(self, on_item: Callable | None = None) -> None:
        """Block until every task submitted has ended (those they submit included), calling
        ``on_item`` with each ``notify``'d item meanwhile, on this thread."""
        while True:
            with self._lock:
                if not self._open:
                    break
            self._hand(self._events.get(), on_item)
        # a task notifies before it ends: what the last ones notified may still be waiting here
        while not self._events.empty():
            self._hand(self._events.get(), on_item)
        self._raise_kept()

    @staticmethod
    def _hand(item, on_item: Callable | None) -> None:
        if item is not _IDLE_CHECK and on_item is not None:
            on_item(item)

    def close(self) -> None:
        """Skip the tasks not started, wait for the running ones to end, and let the threads exit."""
        with self._lock:
            self._stopping = True
            threads = self._threads
        while True:  # (no callback: what a task notifies now is no one's any more)
            with self._lock:
                if not self._open:
                    break
            self._events.get()
        for _ in range(threads):
            self._tasks.put((_LAST, next(self._order), None, ()))
        self._raise_kept()

    def _raise_kept(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            raise error

    def _work(self) -> None:
        tasks = self._tasks
        while True:
            _, _, task, args = tasks.get()
            if task is None:
                return
            try:
                if not self._stopping:
                    task(*args)
            except (
                BaseException
            ) as error:  # kept for the caller: a dead worker would leave its task open
                with self._lock:
                    self._error = self._error or error
            with self._lock:
                self._open -= 1
                self._idle += 1
                if not self._open:
                    self._events.put(_IDLE_CHECK)
