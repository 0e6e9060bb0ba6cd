"""The fast path of ``wrapgen serve`` (hosts/mcp_fast.py): its answers are the SDK's, byte for byte
where the SDK's serializer prints the same JSON, and it takes only what the SDK would do the same with."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("mcp")

import mcp_types as types  # noqa: E402
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS  # noqa: E402

from wrapgen.hosts.mcp import Admission, check_arguments, error_result, tool_result  # noqa: E402
from wrapgen.hosts.mcp_fast import FastPath, error_response, exact_response, plain_response  # noqa: E402

TEXTS = [
    "",
    "hello\n",
    "é ü 中文 🙂",
    'tab\tquote" back\\slash \x00\x1f\x7f \u2028 </script>',
    "x" * 5000,
]
STRUCTURED = [
    {"a": 1, "b": [1, 2, {"c": None}], "d": "é", "e": True, "f": False},
    {"nested": {"deep": [[[[]]]], "empty": {}}, "none": None},
    {"int": 2**53 + 1, "neg": -7, "zero": 0},
]
FLOATS = [{"f": 1.5, "g": -0.0, "h": 1e100, "i": 1e-7, "j": 123456789.125, "k": 1e16}]


def _outcomes():
    for text in TEXTS:
        yield tool_result({"ok": True, "result": text})
        yield tool_result({"ok": True, "result": text}, title=f"Did {text[:10]}")
        yield tool_result({"ok": False, "error": text or "failed"})
        yield tool_result({"ok": False, "error": "exit 1", "exit_code": 1, "output": text or "out"})
    for value in STRUCTURED:
        yield tool_result({"ok": True, "result": value}, title="Listed")
        yield tool_result({"ok": True, "result": [value]})
    verb = {"json": ["--json", "number,title"]}
    yield tool_result(
        {"ok": True, "result": [{"number": 1, "title": "t"}]}, verb, title="Listed rows"
    )
    yield tool_result(
        {"ok": True, "result": {"other": 1}}, verb
    )  # not the promised shape: an error result
    yield error_result("server busy: 1 calls are running and 0 are waiting; nothing ran, try again")


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
@pytest.mark.parametrize("request_id", [7, "req-é", 0, -3])
def test_plain_answers_are_the_sdks_bytes(version, request_id):
    """For every result tool_result makes, the fast answer is byte for byte what the SDK writes."""
    outcomes = list(_outcomes())
    assert len(outcomes) > 25
    for outcome in outcomes:
        fast = plain_response(request_id, outcome)
        assert fast is not None, outcome
        assert fast == exact_response(request_id, outcome, version), outcome
        assert fast.endswith(b"\n") and fast.count(b"\n") == 1  # one line, whatever the text holds


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
def test_floats_give_the_same_json_values(version):
    """Floats print differently in Python and pydantic (1e+100 / 1e100), but the values read back equal."""
    for value in FLOATS:
        outcome = tool_result({"ok": True, "result": value})
        fast, exact = plain_response(1, outcome), exact_response(1, outcome, version)
        assert json.loads(fast) == json.loads(exact)
        assert types.JSONRPCResponse.model_validate_json(
            fast
        ) == types.JSONRPCResponse.model_validate_json(exact)


@pytest.mark.parametrize(
    "outcome",
    [
        {
            "content": [{"type": "text", "text": "x"}],
            "isError": False,
            "structuredContent": {"v": float("nan")},
        },
        {"content": [{"type": "text", "text": "\ud800"}], "isError": False},
        {"content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}], "isError": False},
        {
            "content": [{"type": "text", "text": "x", "annotations": {"priority": 1}}],
            "isError": False,
        },
        {"content": [{"type": "text", "text": "x"}]},
        {"content": [{"type": "text", "text": "x"}], "isError": 0},
        {"content": [{"type": "text", "text": "x"}], "isError": False, "extra": 1},
        {"content": [{"type": "text", "text": "x"}], "isError": False, "_meta": {"n": 1}},
        {"content": [{"type": "text", "text": "x"}], "isError": False, "structuredContent": [1]},
        {"content": "x", "isError": False},
    ],
)
def test_anything_unusual_is_left_to_the_sdks_serializer(outcome):
    """A result not of tool_result's plain shapes gets no cheap answer; the exact one is the SDK's verdict."""
    assert plain_response(5, outcome) is None
    exact = json.loads(exact_response(5, outcome, "2025-11-25"))
    assert exact["id"] == 5 and ("result" in exact or exact["error"]["code"] in (-32602, -32603))


def test_an_invalid_result_is_answered_as_the_sdk_answers_it():
    """A result the SDK's model refuses is INVALID_PARAMS with empty data, as the dispatcher maps it."""
    answer = json.loads(exact_response("a", {"content": 5}, "2025-11-25"))
    assert answer == {
        "jsonrpc": "2.0",
        "id": "a",
        "error": {"code": -32602, "message": "Invalid request parameters", "data": ""},
    }


def test_error_lines_are_the_sdks():
    """The fast path's error answers (shutdown, a raising handler) print as the SDK's JSONRPCError."""
    for request_id, code, message, data in [
        (3, -32000, "Connection closed", None),
        ("x", 0, "boom", None),
        (4, -32602, "Invalid request parameters", ""),
    ]:
        error = (
            types.ErrorData(code=code, message=message)
            if data is None
            else types.ErrorData(code=code, message=message, data=data)
        )  # as the dispatcher makes them
        sdk = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)
        assert (
            error_response(request_id, code, message, data)
            == (sdk.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode()
        )


# --- what the fast path takes -----------------------------------------------------------------


READ = {"pack_id": "p", "verbs": {"look": {"policy": {"effect": "read"}}}}
GATED = {"pack_id": "p", "verbs": {"wipe": {"policy": {"effect": "write", "confirm": True}}}}


class _Recorder:
    """Stands in for the writer (``put``), the workers (``submit``) and ``begin``: records what the path does."""

    def __init__(self):
        self.lines, self.jobs, self.begun = [], [], []

    def put(self, line: bytes) -> bool:
        self.lines.append(json.loads(line))
        return True

    def submit(self, cancel, function, args, done) -> None:
        self.jobs.append(args[:3])

    def begin(self, token, verb, args) -> None:
        self.begun.append(token)

    def nothing(self) -> bool:
        return not (self.lines or self.jobs or self.begun)


def _fast() -> tuple[FastPath, _Recorder]:
    seen = _Recorder()
    admission = Admission(1, 1)
    admission._workers = seen
    fast = FastPath(
        routes={"look": (READ, "look"), "wipe": (GATED, "wipe")},
        admission=admission,
        begin=seen.begin,
        finish=lambda token, verb, args, envelope, hold: tool_result(envelope),
        execute=lambda *args: None,
        writer=seen,
        answered=lambda _id: None,
        check_arguments=check_arguments,
        error_result=error_result,
        versions=frozenset(HANDSHAKE_PROTOCOL_VERSIONS),
    )
    return fast, seen


def _initialize(fast: FastPath, version: str = "2025-11-25", request_id=1) -> None:
    assert not fast.offer(
        {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": {}}
    )
    assert fast.waiting
    fast.note_written(
        json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "result": {"protocolVersion": version}},
            separators=(",", ":"),
        )
        + "\n"
    )


def _call(request_id=2, **params):
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "look", **params},
    }


def test_nothing_is_taken_before_the_sdk_has_answered_initialize():
    """Before the SDK wrote initialize's result its init gate is shut: calls go to it (it refuses them)."""
    fast, seen = _fast()
    assert not fast.offer(_call())
    assert not fast.offer({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
    assert not fast.offer(_call())  # initialize read, its answer not yet written
    fast.note_written('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid"}}\n')
    assert not fast.offer(_call())  # a failed initialize opens nothing
    assert seen.nothing()


def test_a_call_is_taken_once_initialize_is_answered_even_before_initialized():
    """The SDK accepts calls once initialize is answered (notifications/initialized not needed): so does this."""
    fast, seen = _fast()
    _initialize(fast)
    assert fast.version == "2025-11-25"
    assert fast.offer(_call(arguments={}, _meta={"progressToken": "t"}))
    assert seen.jobs == [(READ, "look", {})] and seen.begun == ["t"] and seen.lines == []


@pytest.mark.parametrize(
    "message",
    [
        _call(arguments=None),
        _call(arguments=[1]),
        _call(task={"ttl": 1}),
        _call(_meta={"progressToken": True}),
        _call(_meta={"progressToken": 1.5}),
        _call(_meta={"progressToken": 1, "traceparent": "x"}),
        _call(_meta={"io.modelcontextprotocol/protocolVersion": "2026-07-28"}),
        _call(_meta=None),
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "wipe", "arguments": {}},
        },
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "nope"}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 5}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
    ],
)
def test_what_only_the_sdk_can_answer_goes_to_it(message):
    """Gated or unknown tools, odd params, an envelope, other methods: left to the SDK unchanged."""
    fast, seen = _fast()
    _initialize(fast)
    assert not fast.offer(message)
    assert seen.nothing()


def test_a_modern_connection_is_never_served_here():
    """A first request with the 2026 envelope opens the modern era: every call goes to the SDK."""
    fast, seen = _fast()
    envelope = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    assert not fast.offer(
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": envelope}}
    )
    _initialize(
        fast
    )  # refused by the SDK on a modern connection; even a result would not open the path
    assert not fast.offer(_call())
    assert fast.era == "modern" and seen.nothing()


def test_an_unparsed_line_that_may_be_initialize_turns_the_path_off():
    """What the cheap screen cannot parse, it cannot follow: an initialize among it leaves all to the SDK."""
    fast, _ = _fast()
    _initialize(fast)
    fast.passed_unparsed('{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"x":NaN}}')
    assert fast.offer(_call())
    fast.passed_unparsed('{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"x":NaN}}')
    assert not fast.offer(_call(request_id=3))


def test_a_second_initialize_waits_for_its_answer_and_version():
    """A repeated initialize shuts the path until the SDK answers it, then serves at the new version."""
    fast, _ = _fast()
    _initialize(fast)
    assert not fast.offer({"jsonrpc": "2.0", "id": "again", "method": "initialize", "params": {}})
    assert not fast.offer(_call())
    _initialize(fast, "2025-06-18", request_id="again")
    assert fast.version == "2025-06-18" and fast.offer(_call())


def test_bad_arguments_and_busy_are_answered_here_in_order():
    """check_arguments and the admission limits apply as on the SDK path: the same error results."""
    fast, seen = _fast()
    _initialize(fast)
    assert fast.offer(_call(request_id=10, arguments={"a": "x" * (1024 * 1024 + 10)}))
    assert fast.offer(_call(request_id=11, arguments={}))
    assert fast.offer(_call(request_id=12, arguments={}))
    assert fast.offer(_call(request_id=13, arguments={}))  # max_in_flight 1 + max_queue 1: busy
    assert [line["id"] for line in seen.lines] == [10, 13] and len(seen.jobs) == 2
    too_large, busy = (line["result"] for line in seen.lines)
    assert "arguments too large" in too_large["content"][0]["text"] and too_large["isError"] is True
    assert "server busy" in busy["content"][0]["text"] and busy["isError"] is True


def test_a_cancelled_call_leaves_at_once_and_is_never_answered():
    """notifications/cancelled for a call taken here: its cancel event is set, its place freed, no answer."""
    fast, seen = _fast()
    _initialize(fast)
    assert fast.offer(_call(request_id="c", arguments={}))
    assert fast.admission.admitted == 1
    assert fast.offer(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c"}}
    )
    assert fast.admission.admitted == 0 and seen.lines == []
    assert not fast.offer(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c"}}
    )


def test_a_bug_in_the_fast_path_turns_it_off_and_the_sdk_answers(capfd):
    """An exception inside the fast path never reaches the server: the path turns off, the line goes to the SDK."""
    import os

    import anyio

    from wrapgen.hosts.mcp import PipeLines

    class Broken:
        off = False

        def offer(self, message):
            raise KeyError("boom")

    read_fd, write_fd = os.pipe()
    line = json.dumps(_call(request_id=1, arguments={})) + "\n"
    os.write(write_fd, line.encode())
    os.close(write_fd)

    async def first_line() -> str:
        reader = PipeLines(read_fd)

        async def answer(error):
            raise AssertionError(error)

        reader.answer, reader.fast = answer, Broken()
        got = await reader.__anext__()
        return got, reader.fast.off

    try:
        got, off = anyio.run(first_line)
    finally:
        os.close(read_fd)
    assert got == line and off is True
    assert "fast path is off after an internal error (KeyError" in capfd.readouterr().err
