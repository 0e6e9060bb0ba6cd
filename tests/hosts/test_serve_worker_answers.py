"""The fast path's calls end on their worker thread (hosts/mcp_fast.py) and stdin is read by one reader
callback (hosts/mcp.py PipeLines): answers whole and in order however the threads interleave, a call
answered while another still runs, a full pipe drained by the loop, a cancelled call never answered,
and the reader handing lines on one after another, pausing and reading on from a worker's answer."""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS  # noqa: E402

from wrapgen.hosts.mcp import (  # noqa: E402
    Admission,
    PipeLines,
    PipeWriter,
    check_arguments,
    error_result,
    tool_result,
)
from wrapgen.hosts.mcp_fast import CONNECTION_CLOSED, FastPath  # noqa: E402

QUICK = {"pack_id": "p", "verbs": {"quick": {"policy": {"effect": "read"}}}}
SLOW = {"pack_id": "p", "verbs": {"slow": {"policy": {"effect": "read"}}}}
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


class _Tools:
    """``execute`` for the fast path: "slow" blocks until ``gate`` opens (or its cancel is set)."""

    def __init__(self):
        self.gate = threading.Event()
        self.started = threading.Event()
        self.threads: list[str] = []

    def execute(self, binding, verb_key, args, cancel, expected_argv):
        self.threads.append(threading.current_thread().name)
        if verb_key == "slow":
            self.started.set()
            while not self.gate.wait(0.01):
                if cancel.is_set():
                    return {"ok": False, "error": "cancelled"}
        return {"ok": True, "result": f"{verb_key} {args.get('n', '')}".strip()}


_PATHS: list[FastPath] = []
_TOOLS: list[_Tools] = []


@pytest.fixture(autouse=True)
def _close_workers():
    """Whatever a test asserts, its worker threads end (they are not daemons) and no tool stays blocked."""
    yield
    while _PATHS:
        fast = _PATHS.pop()
        fast.admission.workers.close()
    while _TOOLS:
        _TOOLS.pop().gate.set()


def _path(writer, tools: _Tools, answered: list, admission: Admission | None = None) -> FastPath:
    fast = FastPath(
        routes={"quick": (QUICK, "quick"), "slow": (SLOW, "slow")},
        admission=admission or Admission(4, 4),
        begin=lambda token, verb, args: None,
        finish=lambda token, verb, args, envelope, hold: tool_result(envelope),
        execute=tools.execute,
        writer=writer,
        answered=answered.append,
        check_arguments=check_arguments,
        error_result=error_result,
        versions=frozenset(HANDSHAKE_PROTOCOL_VERSIONS),
    )
    assert not fast.offer({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}})
    fast.note_written('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}\n')
    _PATHS.append(fast)
    _TOOLS.append(tools)
    return fast


def _call(request_id, name: str, **arguments) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


class _Lines:
    """Whole lines read from the other end of the writer's pipe."""

    def __init__(self, fd: int):
        self.fd, self.buffer = fd, b""

    def ready(self) -> list[dict]:
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            self.buffer += chunk
        *whole, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in whole]

    async def until(self, count: int, timeout: float = 10.0) -> list[dict]:
        got: list[dict] = []
        with anyio.fail_after(timeout):
            while len(got) < count:
                got += self.ready()
                await anyio.sleep(0.005)
        return got


async def _until(condition, timeout: float = 10.0) -> None:
    """Poll until ``condition()`` holds; fails the test after ``timeout`` seconds."""
    with anyio.fail_after(timeout):
        while not condition():
            await anyio.sleep(0.005)


def _pipe(size: int | None = None) -> tuple[int, int]:
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)
    if size is not None:
        fcntl.fcntl(write_fd, F_SETPIPE_SZ, size)
    return read_fd, write_fd


def _on_fast_path(
    tools: _Tools,
    answered: list,
    body,
    *,
    admission: Admission | None = None,
    pipe_size: int | None = None,
    finish=None,
):
    """``body(fast, writer, lines)`` (async) on a fast path that writes to a fresh pipe, whose other end
    ``lines`` reads; what it returns is returned. Its workers end and the pipe is closed afterwards,
    whatever ``body`` asserts (the tools' gate opened first, so no worker stays blocked)."""
    read_fd, write_fd = _pipe(pipe_size)

    async def main():
        writer = PipeWriter(write_fd)
        fast = _path(writer, tools, answered, admission)
        if finish is not None:
            fast.finish = finish
        try:
            return await body(fast, writer, _Lines(read_fd))
        finally:
            tools.gate.set()
            fast.admission.workers.close()

    try:
        return anyio.run(main)
    finally:
        os.close(read_fd)
        os.close(write_fd)


def test_a_quick_call_is_answered_while_a_slow_one_runs_then_the_slow_one():
    tools, answered = _Tools(), []

    async def body(fast, writer, lines):
        assert fast.offer(_call(1, "slow"))
        await _until(tools.started.is_set)
        assert fast.offer(_call(2, "quick", n="a"))
        first = await lines.until(1)
        assert [line["id"] for line in first] == [2] and answered == [2]
        assert first[0]["result"]["content"][0]["text"] == "quick a"
        assert fast.admission.admitted == 1  # the slow call still holds its place
        tools.gate.set()
        second = await lines.until(1)
        assert [line["id"] for line in second] == [1] and answered == [2, 1]
        assert fast.admission.admitted == 0 and not fast._calls

    _on_fast_path(tools, answered, body)
    assert tools.threads and all(name == "wrapgen serve worker" for name in tools.threads)


def test_many_answers_from_many_workers_stay_whole_lines():
    """Four workers answering at once, with progress lines of the loop in between: every line whole."""
    tools, answered = _Tools(), []
    tools.gate.set()

    async def body(fast, writer, lines):
        got: list[dict] = []
        for n in range(200):
            assert fast.offer(_call(n, "quick", n="x" * (n * 37 % 3000)))
            writer.push(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/progress",
                        "params": {"progressToken": n, "progress": 0, "message": "m"},
                    }
                )
                + "\n"
            )
            got += lines.ready()
        got += await lines.until(400 - len(got))
        answers = sorted(line["id"] for line in got if "id" in line)
        assert answers == list(range(200))
        # an answer the pipe took only in part counts once its drain has run
        await _until(lambda: len(answered) >= 200)
        assert sorted(answered) == answers
        assert sum(1 for line in got if line.get("method") == "notifications/progress") == 200

    _on_fast_path(tools, answered, body, admission=Admission(4, 200))


def test_an_answer_the_full_pipe_does_not_take_is_written_by_the_loop_once_drained():
    tools, answered = _Tools(), []
    tools.gate.set()
    filler = (
        json.dumps(
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "f" * 20000}}
        )
        + "\n"
    ).encode()

    async def body(fast, writer, lines):
        assert writer.put(filler) is False  # the pipe took part of it; the rest is pending
        assert fast.offer(_call(5, "quick"))
        await _until(lambda: not fast._calls)
        await anyio.sleep(0.05)
        assert answered == []  # not out yet: nobody has read the pipe
        got = await lines.until(2)
        assert got[0]["params"]["data"] == "f" * 20000 and got[1]["id"] == 5
        await _until(lambda: answered == [5])

    _on_fast_path(tools, answered, body, pipe_size=4096)


def test_a_call_cancelled_while_it_runs_is_never_answered_and_leaves_once():
    tools, answered = _Tools(), []

    async def body(fast, writer, lines):
        assert fast.offer(_call("c", "slow"))
        await _until(tools.started.is_set)
        assert fast.offer(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c"}}
        )
        assert fast.admission.admitted == 0 and answered == ["c"]
        tools.gate.set()  # the runtime returns (here: after seeing its cancel flag)
        await anyio.sleep(0.2)
        assert fast.admission.admitted == 0  # left once, by the cancel
        assert lines.ready() == []

    _on_fast_path(tools, answered, body)


def test_shutdown_answers_a_running_call_closed_and_its_worker_writes_nothing_after():
    tools, answered = _Tools(), []

    async def body(fast, writer, lines):
        assert fast.offer(_call(9, "slow"))
        await _until(tools.started.is_set)
        await fast.close()
        got = lines.ready()
        assert got == [
            {
                "jsonrpc": "2.0",
                "id": 9,
                "error": {"code": CONNECTION_CLOSED, "message": "Connection closed"},
            }
        ]
        writer.close()  # as _pipe_stdio does before closing the fd
        tools.gate.set()
        await anyio.sleep(0.2)
        assert lines.ready() == [] and fast.admission.admitted == 0

    _on_fast_path(tools, answered, body)


# --- the reader ---------------------------------------------------------------------------------


class _Offers:
    """A fast path that takes the lines whose method is "fast" and records what it saw, in order."""

    off = False

    def __init__(self, events: list):
        self.events = events

    def offer(self, message) -> bool:
        self.events.append(("offered", message["id"]))
        return message["method"] == "fast"

    def passed_unparsed(self, line) -> None:
        self.events.append(("unparsed", line))


def _line(request_id, method: str) -> bytes:
    return (json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method}) + "\n").encode()


async def _no_answer(error):
    raise AssertionError(error)


def _reader(read_fd: int, events: list, *, max_unanswered: int | None = None) -> PipeLines:
    """The reader of ``read_fd`` with ``_Offers(events)`` as its fast path and no answer expected."""
    reader = PipeLines(read_fd)
    reader.answer, reader.fast = _no_answer, _Offers(events)
    if max_unanswered is not None:
        reader.max_unanswered = max_unanswered
    return reader


def test_lines_after_one_for_the_sdk_wait_until_the_sdk_has_taken_it():
    read_fd, write_fd = _pipe()
    os.write(
        write_fd,
        _line(1, "fast") + _line(2, "sdk") + _line(3, "fast") + _line(4, "fast") + _line(5, "sdk"),
    )
    os.close(write_fd)
    events: list = []

    async def main():
        reader = _reader(read_fd, events)
        async for line in reader:
            events.append(("yielded", json.loads(line)["id"]))
            await anyio.sleep(0.01)  # the SDK takes its time: nothing more is handled meanwhile
        return reader

    try:
        reader = anyio.run(main)
    finally:
        os.close(read_fd)
    assert events == [
        ("offered", 1),
        ("offered", 2),
        ("yielded", 2),
        ("offered", 3),
        ("offered", 4),
        ("offered", 5),
        ("yielded", 5),
    ]
    assert not reader._watching


def test_reading_pauses_at_the_unanswered_limit_and_reads_on_when_a_worker_answers():
    read_fd, write_fd = _pipe()
    os.write(write_fd, b"".join(_line(n, "fast") for n in range(1, 6)))
    events: list = []

    async def main():
        reader = _reader(read_fd, events, max_unanswered=2)

        async def sdk():
            async for line in reader:
                events.append(("yielded", line))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sdk)
            await anyio.sleep(0.1)
            assert events == [("offered", 1), ("offered", 2)] and reader.unanswered == {1, 2}
            answering = threading.Thread(target=reader.answered, args=(1,))  # as a worker answers
            answering.start()
            answering.join()
            await _until(lambda: len(events) >= 3)
            await anyio.sleep(0.05)
            assert (
                events[2] == ("offered", 3) and len(events) == 3
            )  # one place freed, one line read
            for request_id in (2, 3, 4):
                reader.answered(request_id)
            os.close(write_fd)
            await _until(lambda: len(events) >= 5)
            assert reader.unanswered == {
                4,
                5,
            }  # at the limit again: the end of the input is not read yet
            reader.answered(4)
            reader.answered(5)
            # the iterator ends at EOF: the task group then closes
            await _until(lambda: tasks.cancel_scope.cancel_called or reader._item is not None)
        return reader

    try:
        reader = anyio.run(main)
    finally:
        os.close(read_fd)
    assert not reader._watching and not reader.unanswered
    assert [event for event in events if event[0] == "offered"] == [
        ("offered", n) for n in range(1, 6)
    ]
    assert not any(event[0] == "yielded" for event in events)


def test_a_hang_up_ends_the_lines_while_the_reader_waits():
    read_fd, write_fd = _pipe()

    async def main():
        reader = PipeLines(read_fd)
        got = []

        async def sdk():
            async for line in reader:
                got.append(line)

        started = time.monotonic()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sdk)
            await anyio.sleep(0.05)
            reader.hang_up()
        return got, time.monotonic() - started, reader

    try:
        got, took, reader = anyio.run(main)
    finally:
        os.close(read_fd)
        os.close(write_fd)
    assert got == [] and took < 5 and not reader._watching


def test_shutdown_waits_for_the_answer_of_a_call_that_has_just_ended():
    """A call whose worker is building its answer when the connection ends still gets that answer out."""
    tools, answered = _Tools(), []
    tools.gate.set()
    building, release = threading.Event(), threading.Event()

    def finish(token, verb, args, envelope, hold):
        building.set()
        release.wait(10)
        return tool_result(envelope)

    async def body(fast, writer, lines):
        assert fast.offer(_call(4, "quick"))
        await _until(building.is_set)
        assert not fast._calls  # out of the running calls: shutdown does not answer it "closed"
        threading.Timer(0.1, release.set).start()
        await fast.close()
        return lines.ready()

    got = _on_fast_path(tools, answered, body, finish=finish)
    assert [line["id"] for line in got] == [4] and got[0]["result"]["content"][0]["text"] == "quick"
    assert answered == [4]


def test_reading_on_after_an_answer_waits_while_the_sdk_holds_its_line():
    """An answer that frees a place while the SDK's reader still holds a line reads nothing before it is back."""
    read_fd, write_fd = _pipe()
    os.write(write_fd, _line(1, "fast") + _line(2, "sdk") + _line(3, "fast"))
    os.close(write_fd)
    events: list = []

    async def main():
        reader = _reader(read_fd, events, max_unanswered=1)

        async def sdk():
            async for line in reader:
                request_id = json.loads(line)["id"]
                events.append(("yielded", request_id))
                answering = threading.Thread(target=reader.answered, args=(request_id,))
                answering.start()
                answering.join()
                await anyio.sleep(0.1)  # the SDK takes its time with the line
                events.append(("taken", request_id))

        with anyio.fail_after(10):
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(sdk)
                while not events:
                    await anyio.sleep(0.005)
                assert events == [("offered", 1)] and reader.unanswered == {1}
                reader.answered(1)
                while len(events) < 5:
                    await anyio.sleep(0.005)
                reader.answered(3)

    try:
        anyio.run(main)
    finally:
        os.close(read_fd)
    assert events == [("offered", 1), ("offered", 2), ("yielded", 2), ("taken", 2), ("offered", 3)]
