"""wrapgen serve's fast path (hosts/mcp_fast.py) against the SDK's own path, on real servers over pipes:
the same answers, progress in order, cancellation, the busy limits, malformed input and calls before
initialization, and with the SDK's own client: progress callbacks and its outputSchema validation."""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from support.serve import CALL_TIMEOUT_S, START_TIMEOUT_S, PipeClient, dead, find_process, make_pack  # noqa: E402

TOOL = """\
import json, sys, time
mode, rest = sys.argv[1], sys.argv[2:]
if mode == "text":
    print("hello " + rest[0])
elif mode == "obj":
    print(json.dumps({"a": 1, "b": [None, 2.5, "\\u00e9"], "c": {"d": True}}) if "--as-object" in rest else "plain")
elif mode == "rows":
    print(json.dumps([{"number": 1, "title": "first"}, {"number": 2, "title": "second"}]))
elif mode == "fail":
    print("it went wrong", file=sys.stderr)
    sys.exit(3)
elif mode == "nap":
    time.sleep(float(rest[0]))
"""

PACK = """\
pack_id: fx
description: Fixtures for the fast path.
bin: {python}
json: false
verbs:
  text:
    description: Say hello.
    cli: [{python}, {script}, text, '{{{{word}}}}']
    args:
      type: object
      properties:
        word: {{type: string}}
      required: [word]
      additionalProperties: false
    policy: {{effect: read}}
    title: {{live: 'Greeting {{{{word}}}}', done: 'Greeted {{{{word}}}}'}}
  obj:
    description: Print an object.
    cli: [{python}, {script}, obj]
    json: [--as-object]
    policy: {{effect: read}}
  rows:
    description: List rows.
    cli: [{python}, {script}, rows]
    json: [--json, 'number,title']
    policy: {{effect: read}}
    title: {{live: Listing rows, done: Listed rows}}
  fail:
    description: Fail.
    cli: [{python}, {script}, fail]
    policy: {{effect: read}}
  nap:
    description: Sleep.
    cli: [{python}, {script}, nap, '{{{{seconds}}}}']
    args:
      type: object
      properties:
        seconds: {{type: string}}
      required: [seconds]
      additionalProperties: false
    policy: {{effect: read}}
    timeout_s: 60
  wipe:
    description: A gated write.
    cli: [{python}, {script}, text, wiped]
    policy: {{effect: write, confirm: true}}
"""

# Serves with or without the fast path and says on stderr which calls the fast path took.
LAUNCH = """
import json, sys
from wrapgen.hosts import mcp_fast
from wrapgen.hosts.export import load_packs
from wrapgen.hosts.mcp import serve
offer = mcp_fast.FastPath.offer
def logged(self, message):
    taken = offer(self, message)
    if taken and message.get("method") == "tools/call":
        sys.stderr.write("fast-path took " + json.dumps(message.get("id")) + "\\n")
        sys.stderr.flush()
    return taken
mcp_fast.FastPath.offer = logged
mode, in_flight, queue, packs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
sys.exit(serve(load_packs(packs), confirm="arg", max_in_flight=in_flight, max_queue=queue, fast_path=mode == "fast"))
"""

INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    if not os.path.isdir("/proc"):
        pytest.skip("these tests read /proc")
    root = tmp_path_factory.mktemp("fx")
    script = root / "fx.py"
    script.write_text(TOOL)
    return make_pack(root / "fx", PACK.format(python=sys.executable, script=script))


def _env(cwd: Path) -> dict:
    env = {"HOME": str(cwd), "PATH": os.environ.get("PATH", "")}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


class Raw(PipeClient):
    """One server over pipes, driven by hand; ``mode`` "fast" or "sdk" (the fast path off)."""

    def __init__(
        self, pack: Path, mode: str, *, in_flight: int = 4, queue: int = 32, initialize: bool = True
    ):
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, mode, str(in_flight), str(queue), str(pack)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=pack.parent,
            env=_env(pack.parent),
        )
        self.buffer = b""
        if initialize:
            self.send(INIT)
            assert self.read(START_TIMEOUT_S)["id"] == "init"
            self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def exchange(self, messages, answers: int) -> list[dict]:
        for message in messages:
            self.send(message)
        return [self.read(START_TIMEOUT_S) for _ in range(answers)]


def _taken(stderr: str) -> list:
    return [
        json.loads(line.split("fast-path took ", 1)[1])
        for line in stderr.splitlines()
        if "fast-path took " in line
    ]


def _call(request_id, name, arguments=None, token=None, **extra) -> dict:
    params: dict = {"name": name, **extra}
    if arguments is not None:
        params["arguments"] = arguments
    if token is not None:
        params["_meta"] = {"progressToken": token}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


SCRIPT = [  # (message, how many lines it gets: answers plus progress notifications)
    (_call(1, "text", {"word": "you"}, token="p1"), 3),  # live + done title, then the answer
    (_call(2, "text", {"word": "again"}), 1),  # no token: no progress, the done title in _meta
    (_call(3, "obj", {}), 1),  # a JSON object: structuredContent
    (_call(4, "rows", {}, token=44), 3),  # --json FIELDS: structuredContent {result: [...]}
    (_call(5, "fail"), 1),  # isError with the tool's words
    (_call(6, "text", {"word": 5}), 1),  # the runtime's schema refusal
    (_call(7, "text", {"word": "x", "extra": 1}), 1),
    (_call(8, "text", {"word": "y" * (1024 * 1024 + 10)}), 1),  # too large
    (_call(9, "nope", {}), 1),  # unknown tool: the SDK path
    (_call(10, "wipe", {"confirm": True}), 1),  # gated: the SDK path
    (_call(11, "text", None), 1),  # no arguments at all
    (_call(12, "text", {"word": "t"}, task={"ttl": 1000}), 1),  # a param only the SDK knows
    (
        {
            "jsonrpc": "2.0",
            "id": 13,
            "method": "tools/call",
            "params": {"name": "text", "arguments": None},
        },
        1,
    ),
    (
        {
            "jsonrpc": "2.0",
            "id": 14,
            "method": "tools/call",
            "params": {"name": "text", "arguments": [1]},
        },
        1,
    ),
    (
        {
            "jsonrpc": "2.0",
            "id": "s-é",
            "method": "tools/call",
            "params": {
                "name": "text",
                "arguments": {"word": "é"},
                "_meta": {"progressToken": "tok"},
            },
        },
        3,
    ),
    (
        {
            "jsonrpc": "2.0",
            "id": 15,
            "method": "tools/call",
            "params": {
                "name": "text",
                "arguments": {"word": "m"},
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
            },
        },
        1,
    ),  # the envelope on a legacy connection
    (
        b'{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"text","arguments":{"word":',
        1,
    ),  # broken JSON
    (
        b'{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"text","arguments":{"word":"\\ud800"}}}',
        1,
    ),
    ({"jsonrpc": "2.0", "id": 18, "method": "ping"}, 1),
]


def _by_request(lines: list[dict]) -> dict:
    """Each request's lines (its progress notifications, then its answer), keyed by id or token."""
    grouped: dict = {}
    for line in lines:
        key = (
            line["params"]["progressToken"]
            if line.get("method") == "notifications/progress"
            else line["id"]
        )
        grouped.setdefault(json.dumps(key), []).append(line)
    return grouped


def test_the_fast_path_answers_exactly_as_the_sdk_path(pack):
    """The same requests to a server with the fast path and one without: the same answers and progress,
    line for line per request (results, isError, structuredContent, _meta, errors with their ids)."""
    transcripts, taken = {}, {}
    for mode in ("fast", "sdk"):
        server = Raw(pack, mode)
        try:
            lines = []
            for message, count in SCRIPT:
                lines += server.exchange([message], count)
        finally:
            err = server.close()
        assert "Traceback" not in err, err
        transcripts[mode], taken[mode] = lines, _taken(err)
    assert taken["sdk"] == []
    assert sorted(map(json.dumps, taken["fast"])) == sorted(
        map(json.dumps, [1, 2, 3, 4, 5, 6, 7, 8, 11, "s-é"])
    )
    fast, sdk = _by_request(transcripts["fast"]), _by_request(transcripts["sdk"])
    assert fast == sdk
    assert [line["params"]["message"] for line in fast['"p1"']] == ["Greeting you", "Greeted you"]
    assert fast["1"][0]["result"]["_meta"] == {"wrapgen/title": "Greeted you"}
    assert fast["3"][0]["result"]["structuredContent"] == {
        "a": 1,
        "b": [None, 2.5, "é"],
        "c": {"d": True},
    }
    assert fast["4"][0]["result"]["structuredContent"]["result"][1] == {
        "number": 2,
        "title": "second",
    }
    assert fast["5"][0]["result"]["isError"] is True
    assert fast["16"][0]["error"]["code"] == -32700 and fast["15"][0]["error"]["code"] == -32600


def test_calls_before_initialize_are_the_sdks_to_refuse(pack):
    """A call before initialize gets the SDK's refusal in both modes; one after initialize's answer but
    before notifications/initialized runs, as the SDK runs it."""
    answers = {}
    for mode in ("fast", "sdk"):
        server = Raw(pack, mode, initialize=False)
        try:
            early = server.exchange([_call("early", "text", {"word": "a"})], 1)[0]
            init = server.exchange([INIT], 1)[0]
            between = server.exchange([_call("between", "text", {"word": "b"})], 1)[0]
        finally:
            err = server.close()
        answers[mode] = (early, init, between, _taken(err))
    assert answers["fast"][:3] == answers["sdk"][:3]
    early, _, between, taken = answers["fast"]
    assert (
        early["error"]["code"] == -32602 and between["result"]["content"][0]["text"] == "hello b\n"
    )
    assert taken == ["between"]


def test_a_cancelled_fast_call_has_its_tool_killed_and_no_answer(pack):
    """notifications/cancelled for a call on the fast path kills its tool; the call is never answered
    and the server answers on (as the SDK does with its own calls)."""
    server = Raw(pack, "fast")
    marker = f"{40 + random.random():.6f}"
    try:
        server.send(_call("slow", "nap", {"seconds": marker}, token="slow-token"))
        deadline = time.monotonic() + CALL_TIMEOUT_S
        while (found := find_process(marker)) is None:
            assert time.monotonic() < deadline, "the tool never started"
            time.sleep(0.02)
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}}
        )
        deadline = time.monotonic() + 5
        while not dead(found[0]):
            assert time.monotonic() < deadline, "the cancelled call's tool still runs"
            time.sleep(0.02)
        after = server.exchange(
            [
                _call("after", "text", {"word": "on"}),
                {"jsonrpc": "2.0", "id": "ping", "method": "ping"},
            ],
            2,
        )
        assert sorted(a["id"] for a in after) == ["after", "ping"]  # nothing for "slow"
        time.sleep(0.3)
        ready, _, _ = select.select([server.process.stdout], [], [], 0)
        assert not ready and b"slow" not in server.buffer, "a cancelled call was answered"
    finally:
        err = server.close()
    assert _taken(err) == ["slow", "after"] and "Traceback" not in err


def test_the_busy_limits_hold_on_the_fast_path(pack):
    """--max-in-flight 1 --max-queue 1: of four slow calls two are admitted and two answered busy at once;
    only one tool runs; closing the input answers the admitted ones "Connection closed", as the SDK does."""
    server = Raw(pack, "fast", in_flight=1, queue=1)
    marker = f"{40 + random.random():.6f}"
    try:
        for n in range(4):
            server.send(_call(n, "nap", {"seconds": marker}))
        busy = [server.read() for _ in range(2)]
        assert sorted(a["id"] for a in busy) == [2, 3]
        assert all(
            a["result"]["isError"] and "server busy" in a["result"]["content"][0]["text"]
            for a in busy
        )
        deadline = time.monotonic() + CALL_TIMEOUT_S
        while find_process(marker) is None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.3)
        running = [p for p in os.listdir("/proc") if p.isdigit() and _cmdline_has(p, marker)]
        assert len(running) == 1  # only max-in-flight tools run
        server.process.stdin.close()
        closed = [server.read() for _ in range(2)]
        assert sorted(a["id"] for a in closed) == [0, 1]
        assert all(a["error"] == {"code": -32000, "message": "Connection closed"} for a in closed)
    finally:
        err = server.close()
    assert sorted(_taken(err)) == [0, 1, 2, 3] and "Traceback" not in err
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _cmdline_has(p, marker)]


def _cmdline_has(pid: str, marker: str) -> bool:
    try:
        return marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False


def test_the_sdk_client_gets_progress_and_validated_structured_content(pack):
    """The mcp SDK's own client, against the fast path and the SDK path: the same results, progress in
    order, and the client's outputSchema check of structuredContent passes."""

    async def scenario(mode: str):
        params = StdioServerParameters(
            command=sys.executable,
            args=["-c", LAUNCH, mode, "4", "32", str(pack)],
            cwd=str(pack.parent),
            env=_env(pack.parent),
        )
        log = pack.parent / f"{mode}.log"
        with open(log, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    with anyio.fail_after(START_TIMEOUT_S):
                        await session.initialize()
                        await session.list_tools()  # the client learns the outputSchemas
                    seen = []

                    async def on_progress(progress, total, message):
                        seen.append((progress, total, message))

                    with anyio.fail_after(CALL_TIMEOUT_S):
                        rows = await session.call_tool("rows", {}, progress_callback=on_progress)
                        text = await session.call_tool(
                            "text", {"word": "w"}, progress_callback=on_progress
                        )
                        obj = await session.call_tool("obj", {})
        return (
            seen,
            [r.model_dump(by_alias=True, exclude_none=True) for r in (rows, text, obj)],
            _taken(log.read_text()),
        )

    fast = anyio.run(scenario, "fast")
    sdk = anyio.run(scenario, "sdk")
    assert fast[:2] == sdk[:2]
    seen, results, taken = fast
    assert [message for _, _, message in seen] == [
        "Listing rows",
        "Listed rows",
        "Greeting w",
        "Greeted w",
    ]
    assert results[0]["structuredContent"] == {
        "result": [{"number": 1, "title": "first"}, {"number": 2, "title": "second"}]
    }
    assert len(taken) == 3 and sdk[2] == []
