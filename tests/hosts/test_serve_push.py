"""PipeWriter.push, the direct path of progress notifications (issue 14): whole lines, in order, never
split by the SDK's own writes, and nothing lost when the pipe is full."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402

from wrapgen.hosts.mcp import PipeWriter  # noqa: E402


def _read_all(fd: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def test_push_writes_at_once_and_keeps_order_with_the_sdk_writes():
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)
    writer = PipeWriter(write_fd)
    try:
        writer.push('{"n":1}\n')
        assert _read_all(read_fd) == b'{"n":1}\n' and not writer.pending

        async def scenario():
            await writer.write('{"n":2}\n')
            writer.push('{"n":3}\n')  # pending holds the SDK's line: this one goes after it
            await writer.flush()

        anyio.run(scenario)
        assert _read_all(read_fd) == b'{"n":2}\n{"n":3}\n'
    finally:
        os.close(read_fd)
        os.close(write_fd)


def test_push_into_a_full_pipe_is_written_by_the_next_flush():
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)
    writer = PipeWriter(write_fd)
    try:
        big = "x" * (1 << 20) + "\n"  # more than a pipe holds
        writer.push(big)
        assert writer.pending  # the rest waits, in order
        writer.push('{"n":1}\n')
        got = bytearray()

        async def scenario():
            async def drain():
                while len(got) < len(big) + 8:
                    await anyio.wait_readable(read_fd)
                    got.extend(_read_all(read_fd))

            async with anyio.create_task_group() as group:
                group.start_soon(drain)
                await writer.write('{"n":2}\n')
                await writer.flush()

        anyio.run(scenario)
        assert bytes(got) + _read_all(read_fd) == big.encode() + b'{"n":1}\n{"n":2}\n'
    finally:
        os.close(read_fd)
        os.close(write_fd)
