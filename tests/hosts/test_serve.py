"""wrapgen serve without a real tool: line reading, result mapping, routing, argument checks, and a server
that stops mid-call killing its tool (`sleep`).

A real MCP client (the mcp SDK's stdio client) against `python -m wrapgen serve` with git and jq packs is in
tests/live/test_hosts_serve_live.py."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402  (the mcp SDK brings anyio)
from support.bounds import HANG_S  # noqa: E402
from support.serve import JQ_PACK, SLOW_PACK, START_TIMEOUT_S, make_pack  # noqa: E402
from support.serve import dead as _dead  # noqa: E402
from support.serve import wait_for_process as _wait_for_process  # noqa: E402

from conftest import require_tool  # noqa: E402
from wrapgen.hosts.mcp import (  # noqa: E402
    ARGS_LIMIT,
    LINE_LIMIT,
    _Input,
    build_table,
    check_arguments,
    tool_result,
)
from wrapgen.pack.build import render_pack_files  # noqa: E402


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


class _Sent:
    """What ``_Input`` answers itself (its ``output``)."""

    def __init__(self):
        self.messages = []

    async def send(self, message):
        self.messages.append(message)


def test_the_input_screens_lines_and_stands_in_for_an_oversized_one():
    """_Input yields each line the SDK can take; a broken one is answered (with its id where it can
    be read) and never handed on; one over LINE_LIMIT is replaced by a stand-in with its id; the
    unended tail at the end of the input is a line."""
    import asyncio

    big = (
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"id":9,"x":"'
        + b"y" * (LINE_LIMIT + 10)
        + b'"}}\n'
    )
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    data = ping + b'{"id": 4, oops\n' + big + b"\n" + ping.rstrip()

    async def collect():
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        lines = _Input(reader, limit=10)
        lines.output = _Sent()
        return [line async for line in lines], lines.output.messages

    lines, answered = anyio.run(collect)
    assert lines[0] == ping.decode() and lines[2] == ping.decode().rstrip() and len(lines) == 3
    stand_in = json.loads(lines[1])
    assert stand_in["id"] == 7 and stand_in["method"] == "tools/call"
    assert stand_in["params"]["name"].startswith("\0")
    assert [(m["id"], m["error"]["code"]) for m in answered] == [(4, -32700)]


def test_the_input_pauses_at_its_limit_until_an_answer_frees_a_place():
    """With ``limit`` requests unanswered the next line waits; an answer (or a cancellation the
    client sends) lets it through."""
    import asyncio

    def request(n):
        return b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % n

    async def scenario():
        reader = asyncio.StreamReader()
        reader.feed_data(request(1) + request(2) + request(3))
        reader.feed_eof()
        lines = _Input(reader, limit=2)
        lines.output = _Sent()
        got = [await lines.__anext__(), await lines.__anext__()]
        third = asyncio.ensure_future(lines.__anext__())
        for _ in range(10):  # (the loop's turns in which an unpaused read would have ended)
            await asyncio.sleep(0)
        waited = not third.done()
        lines.answered(1)
        got.append(await asyncio.wait_for(third, 60))
        return waited, [json.loads(line)["id"] for line in got]

    waited, ids = anyio.run(scenario)
    assert waited and ids == [1, 2, 3]


def test_tool_result_mapping():
    """Envelopes map to results: text as is, JSON as text (+ structured for objects), errors as isError."""
    assert tool_result({"ok": True, "result": "hi\n"}) == {
        "content": [{"type": "text", "text": "hi\n"}],
        "isError": False,
    }
    listed = tool_result({"ok": True, "result": [1, 2]})
    assert listed["content"][0]["text"] == "[1, 2]" and "structuredContent" not in listed
    assert tool_result({"ok": True, "result": {"a": 1}})["structuredContent"] == {"a": 1}
    assert tool_result({"ok": True, "result": None})["content"][0]["text"] == "null"
    failed = tool_result({"ok": False, "error": "exit 3"})
    assert failed == {"content": [{"type": "text", "text": "exit 3"}], "isError": True}
    # an undeclared exit that printed findings: the model reads them too
    findings = tool_result({"ok": False, "error": "exit 1", "output": "a.js:2:3 no-debugger\n"})
    assert findings["isError"] and [c["text"] for c in findings["content"]] == [
        "exit 1",
        "a.js:2:3 no-debugger\n",
    ]


def test_build_table_routes_names_to_verbs():
    """One pack: bare verb names; several: PACK.VERB; each name routes to its binding and verb."""
    slow = json.loads(render_pack_files(SLOW_PACK.encode())["binding.json"])
    jq = json.loads(render_pack_files(JQ_PACK.encode())["binding.json"])
    single = build_table([(Path("slow"), slow)])
    assert [tool["name"] for tool in single.tools] == [
        "nap"
    ] and single.server_name == "wrapgen-slow"
    assert single.routes["nap"] == (slow, "nap")
    both = build_table([(Path("slow"), slow), (Path("jq"), jq)])
    assert list(both.routes) == ["slow.nap", "jq.eval"] and both.routes["jq.eval"] == (jq, "eval")


def test_check_arguments():
    """Arguments are refused before the runtime when not an object, over the cap, or not encodable."""
    assert check_arguments(None) is None and check_arguments({"a": "b"}) is None
    assert "JSON object" in check_arguments(["a"])
    assert "too large" in check_arguments({"a": "x" * ARGS_LIMIT})
    assert "surrogate" in check_arguments({"a": "\ud800"})


# --- shutdown: never a hung server, never a leftover child ------------------------------------


@pytest.fixture
def slow_pack(tmp_path) -> Path:
    require_tool("sleep")
    if not os.path.isdir("/proc"):
        pytest.skip("these tests find processes through /proc")
    return make_pack(tmp_path / "slow", SLOW_PACK)


def _rpc(process, message: dict) -> None:
    process.stdin.write((json.dumps(message) + "\n").encode())
    process.stdin.flush()


@pytest.mark.parametrize("how", ["close-stdin", "stop-reading", "sigterm"])
def test_server_stops_mid_call_and_kills_tool(slow_pack, tmp_path, how):
    """Mid-call, stdin closed or the client no longer reading (exit 0, nobody signals it) or
    SIGTERM (exit 143): the server exits promptly, with no traceback, and the tool is killed."""
    marker = f"{50 + random.random():.6f}"
    process = subprocess.Popen(
        [sys.executable, "-m", "wrapgen", "serve", str(slow_pack)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    try:
        _rpc(
            process,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "0"},
                },
            },
        )
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
        assert ready, "the server never answered initialize"
        assert json.loads(process.stdout.readline())["id"] == 1
        _rpc(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        process.stdin.write(
            b"this is not JSON\n\xff\xfe\x00 nor this\n"
        )  # answered; the server reads on
        process.stdin.flush()
        for _ in range(2):  # issue 12: a parse error answer (id null), never silence
            assert json.loads(process.stdout.readline())["error"]["code"] == -32700
        _rpc(process, {"jsonrpc": "2.0", "id": 9, "method": "ping"})
        assert json.loads(process.stdout.readline())["id"] == 9
        _rpc(
            process,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "nap", "arguments": {"seconds": marker}},
            },
        )
        sleep_pid, parent = anyio.run(_wait_for_process, marker)
        # the tool is this server's: its child, or (docs/contract.md §8 containment) the child of the
        # per-call supervisor the server forked
        assert process.pid in (parent, _parent_of(parent))
        if how == "sigterm":
            process.send_signal(signal.SIGTERM)
        elif how == "stop-reading":
            process.stdout.close()
            _rpc(
                process, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
            )  # its answer hits EPIPE
        else:
            process.stdin.close()
        status = process.wait(timeout=HANG_S)
        assert status == (128 + signal.SIGTERM if how == "sigterm" else 0)
        deadline = time.monotonic() + 30  # (the tool's own sleep is 50 s and more)
        while not _dead(sleep_pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _dead(sleep_pid), "the tool outlived the server"
        assert b"Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_serve_without_mcp_says_what_to_install(cli, monkeypatch, slow_pack):
    """Without the mcp SDK, wrapgen serve names the extra to install; no traceback."""
    for name in ("mcp", "mcp.server", "mcp.server.lowlevel", "mcp.server.stdio"):
        monkeypatch.setitem(sys.modules, name, None)
    result = cli("serve", str(slow_pack))
    assert result.exit_code == 2
    assert "pip install 'wrapgen[mcp]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_answer_exit_keeps_the_tools_output_over_mcp():
    """A declared exit (exit_codes: "differences found") is an error result whose second block is what the tool printed."""
    result = tool_result(
        {
            "ok": False,
            "error": "differences found (exit 1)",
            "exit_code": 1,
            "output": "1c1\n< a\n---\n> b\n",
        }
    )
    assert result["isError"] is True
    assert [c["text"] for c in result["content"]] == [
        "differences found (exit 1)",
        "1c1\n< a\n---\n> b\n",
    ]
    assert tool_result({"ok": False, "error": "exit 2"})["content"] == [
        {"type": "text", "text": "exit 2"}
    ]
    assert (
        len(
            tool_result(
                {"ok": False, "error": "no matches (exit 1)", "exit_code": 1, "output": None}
            )["content"]
        )
        == 1
    )
