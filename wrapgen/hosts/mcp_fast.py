"""``tools/call`` answered next to the MCP SDK, on stdio pipes: the fast path of ``wrapgen serve``.

On the SDK's own path a call passes its stdin reader (which parses the line with pydantic), two
memory streams and the tasks between them, the dispatcher's task per request, a validation of the
params against the protocol surface and another into typed params, the handler, a validation of the
result, its dump, the per-version sieve (another validation and dump), the writer task and a last
dump to JSON. The fast path takes a plain ``tools/call`` where the pipe reader (``mcp.PipeLines``)
has already parsed it, runs it through the same handler code as the SDK path (``check_arguments``,
``Admission``, ``runtime.execute`` on the same worker threads, the same progress notifications
and ``tool_result``) and writes the JSON-RPC answer itself through the same ``PipeWriter`` the SDK
writes to, so lines never interleave. The call needs no task of its own, and its end no turn of
the event loop: the worker thread that ran it builds the answer and writes it at once (with the
done title, in one write).

It takes a request only when the SDK would do exactly that with it:

- the connection opened with ``initialize`` (the handshake era; the first request decides, as the
  SDK's era router does) and the SDK has written that initialize's result, so its init gate is open,
  at a protocol version of the handshake era;
- the message is plain (``mcp._plain_request``): parsed by ``json.loads`` and shaped like a request;
- params hold only ``name``, ``arguments`` (an object) and ``_meta`` with at most a ``progressToken``
  (a string or an integer): no 2026 envelope, no task, nothing the SDK would refuse or route otherwise;
- the name is a listed tool whose verb has no confirm gate (nothing needs the SDK's session:
  elicitation, the client's capabilities).

Anything else (initialize, tools/list, ping, gated or unknown tools, odd params, a modern connection,
a line the cheap screen did not parse) goes to the SDK unchanged. A ``notifications/cancelled`` for a
call taken here cancels it (the runtime kills the tool) and, as with the SDK, the call is never
answered; at shutdown a running call is answered ``Connection closed`` (-32000), as the SDK does.

The answer is the SDK's: ``exact_response`` runs the SDK's own serialization (the result model, its
dump, the version's sieve, the JSON-RPC response dump); ``plain_response`` builds the same bytes with
``json.dumps`` for the results ``tool_result`` makes (text content, ``isError``, a string ``_meta``, a
JSON object as ``structuredContent``), and returns None for anything else, which then goes the exact
way. Tests compare the two on many results and every handshake version.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CONNECTION_CLOSED", "FastPath", "error_response", "exact_response", "plain_response"]

CONNECTION_CLOSED = (
    -32000
)  # mcp_types.CONNECTION_CLOSED: a request still running when the connection ends
INVALID_PARAMS, INTERNAL_ERROR = -32602, -32603
_SHUTDOWN_WRITE_S = 1.0  # the SDK's bound for the shutdown answer's write
_PARAM_KEYS = frozenset({"name", "arguments", "_meta"})
_RESULT_KEYS = frozenset({"content", "isError", "structuredContent", "_meta"})
_PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"  # the 2026 envelope's mark
_ID_RE = re.compile(r'"id":(-?\d+|"(?:[^"\\]|\\.)*"),"(?:result|error)":')


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _dumps(value) -> bytes:
    """JSON as the SDK's writer prints it: compact, UTF-8; ValueError/UnicodeEncodeError where pydantic may differ."""
    return (_ENCODER.encode(value) + "\n").encode("utf-8")


def _plain_result(outcome: Any) -> dict | None:
    """The result dict the SDK would put on the wire for this CallToolResult dict, or None when it is
    not one of the plain shapes ``tool_result`` makes (then only the SDK's serializer can say)."""
    if type(outcome) is not dict or not outcome.keys() <= _RESULT_KEYS:
        return None
    content, is_error = outcome.get("content"), outcome.get("isError")
    if type(content) is not list or type(is_error) is not bool:
        return None
    items = []
    for item in content:
        if (
            type(item) is not dict
            or len(item) != 2
            or item.get("type") != "text"
            or type(item.get("text")) is not str
        ):
            return None
        items.append({"text": item["text"], "type": "text"})  # the SDK's field order
    result: dict = {}
    if "_meta" in outcome:
        meta = outcome["_meta"]
        if type(meta) is not dict or any(
            type(k) is not str or type(v) is not str for k, v in meta.items()
        ):
            return None
        result["_meta"] = meta
    result["content"] = items
    result["isError"] = is_error
    if "structuredContent" in outcome:
        structured = outcome["structuredContent"]
        if type(structured) is not dict:
            return None
        result["structuredContent"] = structured
    return result


def plain_response(request_id, outcome: Any) -> bytes | None:
    """The JSON-RPC response line for a plain result at a handshake-era version, or None."""
    result = _plain_result(outcome)
    if result is None:
        return None
    try:
        return _dumps({"jsonrpc": "2.0", "id": request_id, "result": result})
    except (ValueError, TypeError, UnicodeEncodeError, RecursionError):
        return None  # NaN, a lone surrogate, a non-JSON value: the SDK's serializer decides


def error_response(request_id, code: int, message: str, data: Any = None) -> bytes:
    """A JSON-RPC error line as the SDK writes one (``data`` only when given)."""
    error: dict = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return _dumps({"jsonrpc": "2.0", "id": request_id, "error": error})


def exact_response(request_id, outcome: Any, version: str) -> bytes:
    """The SDK's own answer for a handler that returned ``outcome`` (``CallToolResult.model_validate``
    in wrapgen's handler, then the runner's dump and per-version sieve, then the writer's dump)."""
    import mcp_types as types
    from mcp_types import methods
    from pydantic import ValidationError

    try:
        model = types.CallToolResult.model_validate(outcome)
    except (
        ValidationError
    ):  # the dispatcher's ladder: a ValidationError is INVALID_PARAMS with empty data
        return error_response(request_id, INVALID_PARAMS, "Invalid request parameters", "")
    dumped = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    try:
        dumped = methods.serialize_server_result("tools/call", version, dumped)
    except ValidationError:
        return error_response(request_id, INTERNAL_ERROR, "Handler returned an invalid result")
    try:
        text = types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=dumped).model_dump_json(
            by_alias=True, exclude_unset=True
        )
        return (text + "\n").encode("utf-8")
    except Exception as error:  # noqa: BLE001 - the SDK's writer would die here; we answer instead
        return error_response(
            request_id, INTERNAL_ERROR, f"the result cannot be written as JSON: {error}"
        )


def _running_loop():
    """The running event loop (None outside one: the unit tests' calls never reach a worker)."""
    import asyncio

    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def response(request_id, outcome: Any, version: str) -> bytes:
    return plain_response(request_id, outcome) or exact_response(request_id, outcome, version)


_coerce_id = None


def _coerce(request_id):
    """The SDK's correlation key of a request id ("7" and 7 are one id: ``coerce_request_id``)."""
    global _coerce_id
    if _coerce_id is None:
        from mcp.shared.dispatcher import coerce_request_id as _coerce_id
    return _coerce_id(request_id)


class _Cancel:
    """What makes the runtime kill the tool: the part of ``threading.Event`` it uses (``is_set``, ``set``;
    it polls), without the lock and condition an Event builds for waiters no one here has."""

    __slots__ = ("_set",)

    def __init__(self):
        self._set = False

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True


@dataclass
class _Call:
    cancel: Any  # the _Cancel that makes the runtime kill the tool
    cancelled: bool = (
        False  # cancelled by the client (never answered) or by shutdown (answered closed)
    )


@dataclass
class FastPath:
    """The fast path of one connection. Used from the event loop, but for the end of each call.

    A call taken here runs without a task of its own: ``begin(token, verb, args)`` (the live title),
    then, on one of the admission's workers, ``execute(binding, verb_key, args, cancel, None)`` and
    right after it, on that same worker thread, ``finish(token, verb, args, envelope, hold=True)``
    (the done title, queued, and the tool result) and the answer, written with ``writer.put`` at once
    (one write for both) or, when the pipe is full, by a flush the loop is asked to run. The loop is
    not woken for a call's end. These are the SDK path's own pieces (``mcp._run_stdio``).
    ``answered(id)`` tells the reader a request has its answer out.

    What the worker shares with the loop is locked: the running calls (``_calls``, and whether one
    was cancelled, under ``_lock``: a call is answered by its worker or cancelled, never both), the
    admission's count, the writer's pending bytes; ``answered`` and ``begin`` are the reader's and
    the loop's, and the worker only calls ``answered``, which is safe from a thread.
    """

    routes: Mapping[str, tuple[Mapping, str]]
    admission: Any
    begin: Callable
    finish: Callable
    execute: Callable
    writer: Any  # mcp.PipeWriter
    answered: Callable
    check_arguments: Callable
    error_result: Callable
    versions: frozenset = (
        frozenset()
    )  # the handshake-era versions (mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS)
    era: str | None = None  # "legacy" or "modern" once the first request has decided it
    off: bool = (
        False  # something went to the SDK that this path cannot follow: leave every call to it
    )
    version: str | None = None  # the negotiated version, once the SDK has answered initialize
    _init_ids: list = field(default_factory=list)
    _calls: dict = field(default_factory=dict)  # coerced request id -> (request id, _Call)
    _drains: set = field(default_factory=set)  # tasks writing answers the pipe did not take at once
    _lock: Any = field(default_factory=threading.Lock)  # guards _calls and each _Call.cancelled
    _loop: Any = (
        None  # the event loop the calls' answers hand their leftovers to (a full pipe, a hang-up)
    )
    _answering: int = (
        0  # workers between taking their call out of _calls and writing its answer (under _lock)
    )

    @property
    def waiting(self) -> bool:
        """Whether an initialize's answer is awaited (``note_written`` wants the SDK's lines)."""
        return bool(self._init_ids)

    def note_written(self, text: str) -> None:
        """See the SDK's answer to an initialize go out: from then on its init gate is open."""
        match = _ID_RE.search(text, 0, 4096)
        if match is None:
            return
        try:
            answer = json.loads(text)
        except ValueError:
            return
        if not isinstance(answer, dict):
            return
        request_id, result = answer.get("id"), answer.get("result")
        for pending in self._init_ids:
            if type(pending) is type(request_id) and pending == request_id:
                self._init_ids.remove(pending)
                version = result.get("protocolVersion") if isinstance(result, dict) else None
                if version in self.versions and self.era == "legacy":
                    self.version = version
                return

    def passed_unparsed(self, line: str) -> None:
        """A line the cheap screen did not parse went to the SDK: if it may decide the era or be an
        initialize, this path can no longer know the SDK's state, so it stays out of the way."""
        if self.era is None or "initialize" in line or "\\u" in line:
            self.off = True

    def offer(self, message: dict) -> bool:
        """Take ``message`` (a plain request or notification) and answer it here: True; or leave it to the SDK."""
        method = message["method"]
        if "id" not in message:
            return method == "notifications/cancelled" and self._cancel(message.get("params"))
        params = message.get("params")
        if method == "initialize":
            self.era = self.era or "legacy"
            self.version = None  # a new handshake: wait for its answer
            self._init_ids.append(message["id"])
            return False
        if self.era is None:
            modern = (
                isinstance(params, dict)
                and isinstance(params.get("_meta"), dict)
                and _PROTOCOL_VERSION_KEY in params["_meta"]
            )
            self.era = "modern" if modern else "legacy"
        if method != "tools/call" or self.off or self.version is None or self.era != "legacy":
            return False
        return self._take_call(message["id"], params)

    def _take_call(self, request_id, params) -> bool:
        if type(params) is not dict or not params.keys() <= _PARAM_KEYS:
            return False
        name = params.get("name")
        route = self.routes.get(name) if type(name) is str else None
        if route is None:
            return False
        binding, verb_key = route
        if (binding["verbs"][verb_key].get("policy") or {}).get("confirm"):
            return False  # the confirm gate may need the SDK's session (elicitation, capabilities)
        token = None
        if "_meta" in params:
            meta = params["_meta"]
            if type(meta) is not dict or not meta.keys() <= {"progressToken"}:
                return False
            token = meta.get("progressToken")
            if token is not None and type(token) is not str and type(token) is not int:
                return False
        arguments = params.get("arguments")
        if "arguments" in params and type(arguments) is not dict:
            return False
        problem = self.check_arguments(arguments)
        if problem is not None:
            self._write(request_id, response(request_id, self.error_result(problem), self.version))
        elif not self.admission.try_enter():
            self._write(
                request_id,
                response(
                    request_id, self.error_result(self.admission.busy_message()), self.version
                ),
            )
        else:
            self._start(request_id, binding, verb_key, dict(arguments or {}), token)
        return True

    def _start(self, request_id, binding, verb_key: str, args: dict, token) -> None:
        verb = binding["verbs"][verb_key]
        call = _Call(_Cancel())
        key = _coerce(request_id)
        try:
            self.begin(token, verb, args)
        except Exception as error:  # noqa: BLE001 - the SDK answers a raising handler with code 0
            self.admission.leave()
            self._write(request_id, error_response(request_id, 0, str(error)))
            return
        with self._lock:
            self._calls[key] = (request_id, call)
        if self._loop is None:
            self._loop = _running_loop()
        job = (
            binding,
            verb_key,
            args,
            call.cancel,
            None,
            call,
            key,
            request_id,
            token,
            verb,
            self._loop,
        )
        self.admission.workers.submit(call.cancel, self._run, job, None)

    def _run(
        self,
        binding,
        verb_key: str,
        args: dict,
        cancel,
        expected_argv,
        call: _Call,
        key,
        request_id,
        token,
        verb,
        loop,
    ) -> None:
        """On a worker thread: the call, then its answer (unless it was cancelled meanwhile)."""
        try:
            envelope, error = self.execute(binding, verb_key, args, cancel, expected_argv), None
        except BaseException as raised:  # noqa: BLE001 - answered as the SDK answers a raising handler
            envelope, error = None, raised
        with self._lock:
            if self._calls.get(key, (None, None))[1] is call:
                del self._calls[key]
            if call.cancelled:
                return  # cancelled: its admission was left then, and it is never answered
            self._answering += (
                1  # shutdown waits for this answer, as it answers the calls still running
            )
        try:
            self.admission.leave()
            if error is not None:
                line = error_response(request_id, 0, str(error))
            else:
                try:
                    outcome = self.finish(token, verb, args, envelope, hold=True)
                    line = response(request_id, outcome, self.version)
                except Exception as raised:  # noqa: BLE001
                    line = error_response(request_id, 0, str(raised))
            if self.writer.put(line, later=loop.call_soon_threadsafe):
                self.answered(request_id)
                return
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(self._drain_soon, request_id)
        finally:
            with self._lock:
                self._answering -= 1

    def _write(self, request_id, line: bytes) -> None:
        """Write an answer now (on the loop); when the pipe is full, a flush writes it (and then it
        counts as answered)."""
        if self.writer.put(line):
            self.answered(request_id)
            return
        self._drain_soon(request_id)

    def _drain_soon(self, request_id) -> None:
        import asyncio

        task = asyncio.get_running_loop().create_task(self._drain(request_id))
        self._drains.add(task)
        task.add_done_callback(self._drains.discard)

    async def _drain(self, request_id) -> None:
        import anyio

        try:
            await self.writer.flush()
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the client went away
        finally:
            self.answered(request_id)

    def _cancel(self, params) -> bool:
        from mcp.shared.dispatcher import coerce_request_id
        from mcp.shared.jsonrpc_dispatcher import cancelled_request_id_from_params

        request_id = cancelled_request_id_from_params(params if isinstance(params, dict) else None)
        if request_id is None:
            return False
        with self._lock:
            entry = self._calls.pop(coerce_request_id(request_id), None)
            if entry is None:
                return False  # not ours (the SDK's, or nobody's), or answered already
            _, call = entry
            call.cancelled = True
        call.cancel.set()  # the runtime kills the tool's process group and returns
        self.admission.leave()  # as on the SDK path, a cancelled call leaves at once
        self.answered(request_id)
        return True

    async def close(self) -> None:
        """The connection ended: calls still running get "Connection closed" (as the SDK answers its
        own), their tools are killed, and answers still being written (on the loop or by the worker
        of a call that has just ended) get their chance."""
        import anyio

        with self._lock:
            entries, self._calls = list(self._calls.values()), {}
            for _, call in entries:
                call.cancelled = True
        for request_id, call in entries:
            call.cancel.set()
            self.admission.leave()
            self.writer.put(error_response(request_id, CONNECTION_CLOSED, "Connection closed"))
        with anyio.move_on_after(_SHUTDOWN_WRITE_S, shield=True):
            while self._answering:  # a call that ended just now: its worker is writing the answer
                await anyio.sleep(0.001)
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                await self.writer.flush()
        for task in list(self._drains):
            task.cancel()
