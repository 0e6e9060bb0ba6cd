"""``wrapgen serve``: packs as an MCP server over stdio, on the official ``mcp`` SDK.

One MCP tool per verb, listed exactly as ``wrapgen export --format mcp`` prints them
(``export.mcp_tools``). Each call goes through ``runtime.execute``, the same path as
``wrapgen exec``, in a worker thread so the event loop keeps answering while a tool runs; the
confirm gate, option safety, timeouts and output caps are the runtime's and hold here too.

A call the client cancels sets the runtime's cancel event, which kills that tool's process
group. Shutdown never waits for a tool: when the client goes away (stdin closes) or a SIGTERM/
SIGINT/SIGHUP arrives, in-flight calls are abandoned and every child process group this server
started is killed (the runtime puts each tool in its own group, so the client's kill of our
group would not reach them).

Trust (issue 12):

- What is served is derived from pack.yaml at start (``export.load_packs``); a ``binding.json``
  that says otherwise is refused, and so is a pack whose schema ``pattern`` can backtrack
  catastrophically (``check.trust.pattern_danger``: the regex engine holds the GIL).
- A confirm-gated call is confirmed by the person, not the model, when ``confirm`` is
  ``elicit`` (or ``auto`` with a client that supports MCP elicitation): the server asks through
  ``elicitation/create`` showing the title and the exact argv, ignores any confirm the model
  passed, and runs those args only on "accept" with ``confirm: true``. With ``arg`` the
  model's ``confirm=true`` is accepted (start-up says so on stderr); with ``deny`` gated calls
  are refused.
- At most ``max_in_flight`` calls run and ``max_queue`` wait; past that a call gets a "server
  busy" tool error at once; and while more than that plus ``UNANSWERED_SLACK`` requests wait
  for their answer to be read, the server stops reading, so memory stays bounded however many
  calls arrive, even from a client that never reads.
- Every line read is screened before the SDK sees it: broken JSON, a message of the wrong
  shape or JSON nested too deep gets a JSON-RPC error (-32700 / -32600) with the request's id
  when one can be read, never silence.
- Tools run through ``runtime.execute`` (the runtime's one spawn), so its containment holds here.

The SDK is used through its public API only: ``mcp.server.Server`` with ``on_list_tools`` and
``on_call_tool``, ``mcp.server.stdio.stdio_server`` given the two streams of ``_wire`` (its
``stdin``/``stdout`` parameters: the screening, the size limit and the pause above), progress and
elicitation through the request's session. ``mcp`` is imported only here; ``wrapgen export``
works without it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from wrapgen import __version__
from wrapgen.errors import ExitStatus, ManifestError, UsageError
from wrapgen.hosts.export import (
    CONFIRM_MODES,
    json_fields,
    mcp_tools,
    structured_content,
    tool_refs,
    tool_text,
)
from wrapgen.runtime.contain import stop_all
from wrapgen.runtime.titles import render_title
from wrapgen.runtime.waiting import children_by_parent

__all__ = [
    "ARGS_LIMIT",
    "LINE_LIMIT",
    "TRANSPORTS",
    "ToolTable",
    "build_table",
    "tool_result",
    "error_result",
    "check_arguments",
    "require_mcp",
    "serve",
    "kill_child_groups",
    "CONFIRM_CHOICES",
    "DEFAULT_MAX_IN_FLIGHT",
    "DEFAULT_MAX_QUEUE",
    "Admission",
    "screen_line",
    "unsafe_patterns",
    "elicitation_request",
    "confirm_notice",
    "TITLE_META",
    "call_titles",
]

ARGS_LIMIT = 1024 * 1024  # bytes of JSON arguments per call; a tool's args are short
TRANSPORTS = ("stdio",)
LINE_LIMIT = 16 * 1024 * 1024  # bytes of one JSON-RPC message; past it the message is dropped
_SHUTDOWN_GRACE_S = 2.0  # how long exit waits for worker threads after killing their tools
CONFIRM_CHOICES = ("auto", *CONFIRM_MODES)  # auto: elicit when the client supports it, else arg
DEFAULT_MAX_IN_FLIGHT = 4  # calls whose tool runs at once
DEFAULT_MAX_QUEUE = 32  # calls waiting for a slot (or for the person's answer)
PARSE_ERROR, INVALID_REQUEST = -32700, -32600  # JSON-RPC 2.0
# Requests read but not yet answered beyond the admitted calls (busy answers, pings, lists waiting
# for a client that does not read): past it, reading pauses until answers have gone out.
UNANSWERED_SLACK = 64
TITLE_META = "wrapgen/title"  # the done title, in a call result's _meta
# How the SDK writes an answer: {"jsonrpc":"2.0","id":ID,"result":... (or "error")
_ANSWER_ID_RE = re.compile(r'\{"jsonrpc":"2\.0","id":(-?\d+|"(?:[^"\\]|\\.)*"),"(?:result|error)":')


@dataclass(frozen=True)
class ToolTable:
    """What the server lists, and for each tool name the binding and verb a call runs."""

    tools: tuple[dict, ...]  # MCP tool definitions, in list order (as listed with confirm "arg")
    routes: Mapping[str, tuple[Mapping, str]]  # tool name -> (binding, verb_key)
    server_name: str
    instructions: str
    listings: Mapping[str, tuple[dict, ...]] = None  # confirm mode -> the tool list shown with it

    def listing(self, mode: str) -> tuple[dict, ...]:
        return (self.listings or {}).get(mode, self.tools)

    def gated(self) -> list[str]:
        """The tool names whose verb is confirm-gated."""
        return [
            name
            for name, (binding, verb_key) in self.routes.items()
            if (binding["verbs"][verb_key].get("policy") or {}).get("confirm")
        ]


def build_table(packs: Sequence[tuple[Path, Mapping]], *, prefix: bool | None = None) -> ToolTable:
    """The tool table for loaded packs: ``[(pack_dir, binding), ...]``."""
    bindings = [binding for _, binding in packs]
    refs = tool_refs(bindings, prefix=prefix)
    # Calls run the binding loaded here, so what a call does always matches what was listed;
    # after `wrapgen build`, the host restarts the server to pick up the change.
    routes = {ref.name: (bindings[ref.binding_index], ref.verb_key) for ref in refs}
    pack_ids = [binding["pack_id"] for binding in bindings]
    server_name = f"wrapgen-{pack_ids[0]}" if len(pack_ids) == 1 else "wrapgen"
    instructions = " ".join(
        f"{binding['pack_id']}: {tool_text(binding.get('description', ''))}".rstrip()
        for binding in bindings
    )
    listings = {
        mode: tuple(mcp_tools(bindings, prefix=prefix, confirm=mode)) for mode in CONFIRM_MODES
    }
    return ToolTable(listings["arg"], routes, server_name, instructions, listings)


def tool_result(
    envelope: Mapping, verb: Mapping | None = None, *, title: str | None = None
) -> dict:
    """An envelope as an MCP CallToolResult dict.

    ``ok`` with a string result gives that text; any other result gives its JSON text. A verb whose
    JSON shape is known (``export.output_schema``) gives ``structuredContent`` ``{"result": ...}``
    as its ``outputSchema`` declares; output of another shape is an error, since a client checks
    structured content against the schema. Without a known shape, a JSON object result is its own
    ``structuredContent`` (the only shape older protocol versions allow).
    ``ok: false`` gives ``isError`` with the error text, so the model reads it and can correct itself;
    what the tool printed on stdout (``output``: a linter's findings, the differences of an exit the
    pack declares as an answer) follows as a second text block. ``title`` (the done title) goes in
    ``_meta["wrapgen/title"]``, for a host to show the person what was done.
    """
    result = _tool_result(envelope, verb)
    if title:
        result["_meta"] = {TITLE_META: title}
    return result


def _tool_result(envelope: Mapping, verb: Mapping | None) -> dict:
    if not envelope.get("ok"):
        error = envelope.get("error", "the command failed")
        result = error_result(
            error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)
        )
        output = envelope.get("output")
        if output not in (None, ""):
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            result["content"].append({"type": "text", "text": text})
        return result
    value = envelope.get("result")
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if verb is not None and json_fields(verb):
        structured = structured_content(verb, value)
        if structured is None:
            fields = ", ".join(json_fields(verb))
            return {
                "content": [
                    {
                        "type": "text",
                        "text": f"the tool's output is not the JSON its --json {fields}"
                        " selection promises (an object or a list of objects with those fields)",
                    },
                    {"type": "text", "text": text},
                ],
                "isError": True,
            }
        return {
            "content": [{"type": "text", "text": text}],
            "structuredContent": structured,
            "isError": False,
        }
    result: dict = {"content": [{"type": "text", "text": text}], "isError": False}
    if isinstance(value, dict):
        result["structuredContent"] = value
    return result


def error_result(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def check_arguments(arguments: Any) -> str | None:
    """Why these arguments are refused before the runtime sees them, or None."""
    if arguments is None:
        return None
    if not isinstance(arguments, dict):
        return "arguments must be a JSON object"
    if not arguments:
        return None  # {}: nothing to measure
    try:
        size = len(json.dumps(arguments, ensure_ascii=False).encode("utf-8"))
    except UnicodeEncodeError:
        return (
            "arguments hold a lone UTF-16 surrogate (\\ud800-\\udfff), which no tool can be given"
        )
    except (TypeError, ValueError) as error:
        return f"arguments are not JSON: {error}"
    if size > ARGS_LIMIT:
        return f"arguments too large: {size} bytes of JSON (the limit is {ARGS_LIMIT // 1024} KiB)"
    return None


def call_titles(verb: Mapping, args: Mapping, envelope: Mapping | None = None) -> str | None:
    """The verb's live title for ``args`` (``envelope`` None), or its done title for this envelope.

    The done form reads ``{{result...}}`` from an ok envelope's result; a failed call has no done
    title (nothing was done). None when the pack declares no such title.
    """
    title = verb.get("title")
    if not title:
        return None
    if envelope is None:
        return render_title(title.get("live"), args, done=False)
    if not envelope.get("ok"):
        return None
    return render_title(title.get("done"), args, envelope.get("result"), done=True)


def _execute(
    binding: Mapping, verb_key: str, args: dict, cancel: threading.Event, expected_argv=None
) -> dict:
    """``runtime.execute``, with the promise that nothing raises into the server enforced here too.

    Setting ``cancel`` makes the runtime kill the tool's process group and return. With
    ``expected_argv`` (what the person approved) the call runs only if these args still render
    exactly that argv.
    """
    from wrapgen import runtime

    try:
        if expected_argv is not None:
            argv, _, _ = runtime.prepare(binding, verb_key, args)
            if list(argv) != list(expected_argv):
                return {
                    "ok": False,
                    "error": "the command changed after the person approved it; nothing ran",
                }
        envelope = runtime.execute(binding, verb_key, args, cancel=cancel)
        notice = runtime.sandbox.take_notice()  # calls that ran without the sandbox: said once
        if notice:
            _notice(notice)
        return envelope
    except (
        Exception
    ) as error:  # the runtime promises not to raise; a bug there must not kill the server
        return {"ok": False, "error": f"internal error in wrapgen: {type(error).__name__}: {error}"}


def unsafe_patterns(packs: Sequence[tuple[Path, Mapping]]) -> list[str]:
    """Why each schema ``pattern`` of these packs could freeze the server (check's W052), one line each."""
    from wrapgen.check.trust import pattern_danger, schema_patterns

    problems = []
    for _, binding in packs:
        for verb_key, verb in sorted((binding.get("verbs") or {}).items()):
            for where, schema in schema_patterns(verb.get("args") or {}, f"verbs.{verb_key}.args"):
                why = pattern_danger(schema["pattern"])
                if why:
                    problems.append(
                        f"{binding['pack_id']} {where}.pattern {schema['pattern']!r}: {why}"
                    )
    return problems


class Admission:
    """The in-flight and queue limits of one server, used from its event loop.

    ``admitted`` counts calls past the door: running (at most ``max_in_flight`` at once, on worker
    threads: ``runtime.execute`` blocks) or waiting, for a thread or for the person's answer.
    """

    def __init__(
        self, max_in_flight: int = DEFAULT_MAX_IN_FLIGHT, max_queue: int = DEFAULT_MAX_QUEUE
    ):
        self.max_in_flight, self.max_queue = max_in_flight, max_queue
        self.admitted = 0
        self._limiter = None

    async def run(self, cancel: threading.Event, function, *args):
        """``function(*args)`` on a worker thread, at most ``max_in_flight`` at once. A call
        cancelled meanwhile is abandoned to the runtime, which sees ``cancel`` set, kills its tool
        and returns; one cancelled while it waits for a thread never runs."""
        import anyio

        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.max_in_flight)
        try:
            return await anyio.to_thread.run_sync(
                function, *args, abandon_on_cancel=True, limiter=self._limiter
            )
        except anyio.get_cancelled_exc_class():
            cancel.set()
            raise

    def try_enter(self) -> bool:
        if self.admitted >= self.max_in_flight + self.max_queue:
            return False
        self.admitted += 1
        return True

    def leave(self) -> None:
        self.admitted -= 1

    def busy_message(self) -> str:
        return (
            f"server busy: {self.max_in_flight} calls are running and {self.max_queue} are waiting;"
            " nothing ran, try again when one has finished"
        )


def _printable(text: str) -> str:
    """``text`` with control and invisible formatting characters shown as escapes (\\n, \\u202e)."""
    import unicodedata

    out = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            out.append(json.dumps(char)[1:-1])
        else:
            out.append(char)
    return "".join(out)


def elicitation_request(
    *, title: str | None, argv: Sequence[str], pack_id: str, verb_key: str, effect: str
) -> tuple[str, dict]:
    """(message, requestedSchema) of the question a confirm-gated call puts to the person.

    The argv is shown exactly, as a JSON array with control characters escaped, so an argument
    cannot disguise what runs. The answer must be "accept" with ``confirm: true``.
    """
    shown = (
        "[" + ", ".join(_printable(json.dumps(token, ensure_ascii=False)) for token in argv) + "]"
    )
    head = _printable(" ".join(title.split())) if title else f"{pack_id} {verb_key}"
    message = (
        f"{head}\n\n"
        f"Run this {effect} command ({pack_id} {verb_key})? Exactly this runs:\n\n"
        f"    {shown}\n\n"
        'Nothing runs unless you accept with "Run it" checked.'
    )
    schema = {
        "type": "object",
        "properties": {
            "confirm": {
                "type": "boolean",
                "title": "Run it",
                "description": "Run exactly the command shown",
                "default": False,
            },
        },
        "required": ["confirm"],
    }
    return message, schema


def _client_can_elicit(session) -> bool:
    """Whether the client declared form elicitation and this connection can carry a request to it."""
    try:
        capabilities = session.client_capabilities
        if not session.can_send_request:
            return False
    except Exception:
        return False
    elicitation = getattr(capabilities, "elicitation", None)
    if elicitation is None:
        return False
    # an empty {"elicitation": {}} means form mode (spec 2025-11-25, backwards compatibility)
    return elicitation.form is not None or elicitation.url is None


async def _ask_person(
    ctx, binding: Mapping, verb_key: str, args: dict
) -> tuple[dict | None, list | None, str | None]:
    """(args to run, the argv approved, None) when the person accepts; (None, None, why not) otherwise.

    The model's own ``confirm`` is dropped; the gate is opened with the person's answer only.
    """
    from wrapgen import runtime
    from wrapgen.errors import WrapgenError
    from wrapgen.runtime.titles import render_title

    pack_id = binding.get("pack_id", "?")
    if not _client_can_elicit(ctx.session):
        return (
            None,
            None,
            (
                f"{pack_id} {verb_key} is confirm-gated and this server asks the person (--confirm elicit),"
                " but this client cannot ask (it does not support MCP elicitation); nothing ran"
            ),
        )
    args = {name: value for name, value in args.items() if name != "confirm"}
    args["confirm"] = True
    try:
        argv, verb, full_args = runtime.prepare(binding, verb_key, args)
    except WrapgenError as error:
        return None, None, f"{error.message}; {error.hint}" if error.hint else error.message
    except Exception as error:
        return None, None, f"cannot prepare {verb_key!r}: {type(error).__name__}: {error}"
    title_forms = verb.get("title") or {}
    title = (
        render_title(title_forms.get("live"), full_args, done=False)
        if title_forms.get("live")
        else None
    )
    effect = (verb.get("policy") or {}).get("effect", "write")
    message, schema = elicitation_request(
        title=title, argv=argv, pack_id=pack_id, verb_key=verb_key, effect=effect
    )
    try:
        answer = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
    except Exception as error:  # the client failed the request or went away: no answer is no
        return (
            None,
            None,
            f"could not ask the person ({type(error).__name__}: {error}); nothing ran",
        )
    content = answer.content or {}
    if answer.action == "accept" and content.get("confirm") is True:
        return args, list(argv), None
    if answer.action == "accept":
        return None, None, 'the person did not check "Run it"; nothing ran'
    if answer.action == "decline":
        return None, None, "the person declined to run it; nothing ran"
    return None, None, "the person dismissed the question; nothing ran"


def require_mcp() -> None:
    """Raise a UsageError naming the extra to install when the ``mcp`` SDK is missing."""
    try:
        import mcp.server.lowlevel  # noqa: F401
        import mcp.server.stdio  # noqa: F401
    except ImportError as error:
        raise UsageError(
            f"wrapgen serve needs the MCP SDK, which is not installed ({error})",
            hint="pip install 'wrapgen[mcp]'",
        ) from None


def _child_pids() -> list[int]:
    """This process's direct children: the tools the runtime spawned from our worker threads."""
    me = os.getpid()
    found: list[int] = []
    try:
        return children_by_parent().get(me, [])
    except OSError:
        pass
    try:  # no /proc (macOS): ask ps
        listing = subprocess.run(
            ["ps", "-A", "-o", "pid=,ppid="], capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return found
    for line in listing.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1] == str(me):
            found.append(int(parts[0]))
    return found


def kill_child_groups() -> int:
    """SIGKILL the process group of every child; the safety net of shutdown.

    A child that does not lead its own group is killed alone: killing its group would kill us.
    Returns how many were signalled.
    """
    own_group = os.getpgrp()
    killed = 0
    for pid in _child_pids():
        try:
            group = os.getpgid(pid)
            if group == pid and group != own_group:
                os.killpg(group, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
            killed += 1
        except (ProcessLookupError, PermissionError):
            continue
    return killed


def _settle_workers() -> None:
    """Kill our tools until the worker threads running them have returned, bounded in time."""
    deadline = time.monotonic() + _SHUTDOWN_GRACE_S
    # first the supervisors sweep their calls' subtrees (a setsid() grandchild included); SIGKILL of
    # whatever is left is only the safety net, since a killed supervisor can sweep nothing
    stop_all()
    while True:
        kill_child_groups()
        workers = [
            t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon
        ]
        if not workers:
            return
        if time.monotonic() >= deadline:
            # a worker stuck outside a child process: do not let it hold the exit
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(ExitStatus.OK)
        for worker in workers:
            worker.join(timeout=0.05)


# A tool name no client can send (MCP names hold no NUL): the stand-in for a dropped message.
_OVERSIZED = "\0oversized"
_ID_RE = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


def _readable_id(value) -> Any:
    return (
        value
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
        else None
    )


def _error(request_id, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def screen_line(line: str):
    """``True`` when the SDK can take this line; else the JSON-RPC error answering it; None to drop it.

    What the SDK cannot parse it drops without an answer, and the client would wait forever:
    broken JSON (-32700), a message of the wrong shape, a batch, or JSON nested deeper than the
    SDK's parser allows (-32600). The answer carries the request's id when one can be read. A
    blank line, or a broken *response* (to a request of ours), is dropped: no one awaits an answer.
    """
    if not line.strip():
        return None
    import mcp_types as types
    from pydantic import ValidationError

    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return True
    except ValidationError as error:
        first = (error.errors() or [{}])[0]
        sdk_reason = str(first.get("msg", "invalid"))
    except Exception as error:  # noqa: BLE001 - anything the parser throws is still a bad message
        sdk_reason = f"{type(error).__name__}: {error}"
    try:
        value, parsed = json.loads(line), True
    except RecursionError:
        value, parsed = None, False
        sdk_reason = "recursion limit exceeded"
    except ValueError as error:
        match = _ID_RE.search(line[:65536].split('"params"', 1)[0].encode("utf-8", "replace"))
        request_id = None
        if match:
            try:
                request_id = _readable_id(json.loads(match.group(1)))
            except ValueError:
                request_id = None
        return _error(request_id, PARSE_ERROR, f"Parse error: the message is not JSON ({error})")
    if "recursion limit" in sdk_reason:
        match = _ID_RE.search(line[:65536].split('"params"', 1)[0].encode("utf-8", "replace"))
        request_id = _readable_id(json.loads(match.group(1))) if match else None
        if parsed and isinstance(value, dict):
            request_id = _readable_id(value.get("id"))
        return _error(
            request_id, INVALID_REQUEST, "Invalid Request: JSON nested too deeply for this server"
        )
    if isinstance(value, list):
        return _error(
            None,
            INVALID_REQUEST,
            "Invalid Request: batches are not supported; send one message per line",
        )
    if not isinstance(value, dict):
        return _error(None, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object")
    if "method" not in value and ("result" in value or "error" in value):
        return None  # a broken answer to a request of ours
    request_id = _readable_id(value.get("id"))
    model = types.JSONRPCRequest if "id" in value else types.JSONRPCNotification
    reason = sdk_reason
    try:
        model.model_validate(value, by_name=False)
    except ValidationError as error:
        first = (error.errors() or [{}])[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "message"
        reason = f"{where}: {first.get('msg', 'invalid')}"
    except Exception:
        pass
    return _error(request_id, INVALID_REQUEST, f"Invalid Request: {reason}"[:300])


def _stand_in(head: bytes) -> str:
    """The line in place of one dropped for its size: a tools/call of ``_OVERSIZED`` with the dropped
    request's id when its head shows one, so the client gets an error answer."""
    match = _ID_RE.search(head.split(b'"params"', 1)[0])
    request_id = _readable_id(json.loads(match.group(1))) if match else None
    call = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call"}
    return json.dumps({**call, "params": {"name": _OVERSIZED}}) + "\n"


class _Input:
    """The lines of the client, for the SDK's ``stdio_server(stdin=...)``, with what that reader
    leaves out: each line screened first (``screen_line``: what the SDK would drop unanswered is
    answered here), a line over ``LINE_LIMIT`` bytes dropped without being held (``_stand_in``), and
    reading paused while ``limit`` requests wait for their answer, so a client that sends without
    reading cannot make the server hold answers without bound."""

    def __init__(self, reader, limit: int):
        self.reader, self.limit = reader, limit
        self.output: _Output | None = None
        self.unanswered: set = set()
        self._buffer = bytearray()
        self._room = None  # an asyncio.Event, set when an answer frees a place

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        import asyncio

        while True:
            while len(self.unanswered) >= self.limit:
                self._room = asyncio.Event()
                await self._room.wait()
            line = await self._line()
            if line is None:
                raise StopAsyncIteration
            verdict = screen_line(line)
            if verdict is True:
                self._track(line)
                return line
            if verdict is not None:
                await self.output.send(verdict)

    async def _line(self) -> str | None:
        """The next line (at the end of the input its unended tail, then None)."""
        dropped = None  # the head of a line over the limit, whose rest is read and thrown away
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[: newline + 1])
                del self._buffer[: newline + 1]
                if dropped is None and newline < LINE_LIMIT:
                    return line.decode("utf-8", "replace")
                return _stand_in(line[:65536] if dropped is None else dropped)
            if dropped is None and len(self._buffer) > LINE_LIMIT:
                dropped = bytes(self._buffer[:65536])
            if dropped is not None:
                self._buffer.clear()
            data = await self.reader.read(1 << 16)
            if not data:
                tail = bytes(self._buffer) if dropped is None else b""
                self._buffer.clear()
                return tail.decode("utf-8", "replace") if tail.strip() else None
            self._buffer += data

    def _track(self, line: str) -> None:
        """Remember a request's id; forget one the client cancelled (the SDK never answers it)."""
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            return
        request_id = _readable_id(value.get("id"))
        if request_id is not None and "method" in value:
            self.unanswered.add(request_id)
        elif value.get("method") == "notifications/cancelled" and isinstance(
            value.get("params"), dict
        ):
            self.answered(_readable_id(value["params"].get("requestId")))

    def answered(self, request_id) -> None:
        self.unanswered.discard(request_id)
        if self._room is not None and len(self.unanswered) < self.limit:
            self._room.set()

    def hang_up(self) -> None:
        """The client stopped reading: the input ends too, so the session ends as on its EOF."""
        self.reader.feed_eof()
        self._buffer.clear()
        self.unanswered.clear()
        if self._room is not None:
            self._room.set()


class _Output:
    """The SDK's ``stdio_server(stdout=...)``: each message written as the pipe takes it, an answer
    freeing its request's place in ``_Input``; a client that stopped reading ends the input."""

    def __init__(self, writer, lines: _Input):
        self.writer, self.lines, self.closed = writer, lines, False

    async def write(self, text: str) -> None:
        if self.closed:
            return
        match = _ANSWER_ID_RE.match(text)
        if match is not None:
            self.lines.answered(json.loads(match.group(1)))
        self.writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        if self.closed:
            return
        try:
            await self.writer.drain()
        except (ConnectionError, OSError):
            self.closed = True
            self.lines.hang_up()

    async def send(self, message: dict) -> None:
        """A message of this server's own (an answer to a line the SDK never sees)."""
        await self.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        await self.flush()


@contextlib.asynccontextmanager
async def _wire(limit: int):
    """(stdin, stdout) for the SDK's ``stdio_server`` (``_Input``, ``_Output``) over private copies
    of fds 0 and 1 when both are pipes or sockets; else (None, None): the SDK's own streams. At
    most ``limit`` requests wait for their answer.

    Like the SDK, fd 0 then reads /dev/null and fd 1 goes to stderr while serving, so a stray
    print cannot corrupt the protocol stream; both are put back afterwards.
    """
    import asyncio

    def is_pipe(fd: int) -> bool:
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return False
        return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)

    if not (is_pipe(0) and is_pipe(1)):
        yield None, None
        return
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 16)
    transports = []
    try:
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), io.FileIO(wire_in, "r", closefd=False)
        )
        transports.append(transport)
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()),
            io.FileIO(wire_out, "w", closefd=False),
        )
        transports.append(transport)
        lines = _Input(reader, limit)
        lines.output = _Output(asyncio.StreamWriter(transport, protocol, None, loop), lines)
        yield lines, lines.output
    finally:
        for transport in transports:
            transport.close()
        sys.stdout.flush()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (wire_in, wire_out, saved_in, saved_out):
            os.close(fd)


async def _run_stdio(
    table: ToolTable, *, confirm: str = "auto", admission: Admission | None = None
) -> None:
    import mcp_types as types
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    admission = admission or Admission()
    listed = {
        mode: types.ListToolsResult(
            tools=[types.Tool.model_validate(tool) for tool in table.listing(mode)]
        )
        for mode in CONFIRM_MODES
    }
    told = set()  # start-up-like notices already written to stderr

    def mode_of(ctx) -> str:
        if confirm != "auto":
            return confirm
        if _client_can_elicit(ctx.session):
            return "elicit"
        if "arg" not in told and table.gated():
            told.add("arg")
            _notice(
                "this client does not support MCP elicitation: the model's confirm=true is accepted for "
                + ", ".join(table.gated())
            )
        return "arg"

    async def on_list_tools(ctx, params):
        return listed[mode_of(ctx)]

    async def titled(ctx, binding, verb_key, args, expected_argv=None) -> dict:
        """Run the call; with a progress token, the live title as progress before, the done title after."""
        verb = binding["verbs"][verb_key]
        live = call_titles(verb, args)
        if live:
            await ctx.session.report_progress(0, None, message=live)
        cancel = threading.Event()
        envelope = await admission.run(
            cancel, _execute, binding, verb_key, args, cancel, expected_argv
        )
        done = call_titles(verb, args, envelope)
        if done:
            await ctx.session.report_progress(1, 1, message=done)
        return tool_result(envelope, verb, title=done)

    async def call(ctx, route, args: dict) -> dict:
        binding, verb_key = route
        verb = binding["verbs"][verb_key]
        if not (verb.get("policy") or {}).get("confirm"):
            return await titled(ctx, binding, verb_key, args)
        mode = mode_of(ctx)
        if mode == "deny":
            return error_result(
                f"{binding['pack_id']} {verb_key} is confirm-gated and this server refuses such"
                " commands (--confirm deny); nothing ran"
            )
        if mode == "elicit":
            approved, argv, refusal = await _ask_person(ctx, binding, verb_key, args)
            if refusal is not None:
                return error_result(refusal)
            return await titled(ctx, binding, verb_key, approved, argv)
        return await titled(ctx, binding, verb_key, args)

    async def on_call_tool(ctx, params):
        route = table.routes.get(params.name)
        if params.name == _OVERSIZED:
            outcome = error_result(
                f"request too large: over {LINE_LIMIT // (1024 * 1024)} MiB of JSON; it was dropped unread"
            )
        elif route is None:
            known = ", ".join(table.routes) or "none"
            outcome = error_result(f"unknown tool {params.name!r}; this server has: {known}")
        elif (problem := check_arguments(params.arguments)) is not None:
            outcome = error_result(problem)
        elif not admission.try_enter():
            outcome = error_result(admission.busy_message())
        else:
            try:
                outcome = await call(ctx, route, dict(params.arguments or {}))
            finally:
                admission.leave()
        return types.CallToolResult.model_validate(outcome)

    server = Server(
        table.server_name,
        version=__version__,
        instructions=table.instructions,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    unanswered = admission.max_in_flight + admission.max_queue + UNANSWERED_SLACK
    async with _wire(unanswered) as (lines, output):
        async with stdio_server(stdin=lines, stdout=output) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def _notice(text: str) -> None:
    """One line on stderr, the host's log of this server."""
    try:
        sys.stderr.write(f"wrapgen serve: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def confirm_notice(confirm: str, gated: Sequence[str]) -> str | None:
    """What start-up says about who confirms the gated tools ``gated``; None when there are none."""
    if not gated:
        return None
    names = ", ".join(gated)
    return {
        "arg": f"--confirm arg: the model can pass confirm=true itself, so the confirm-gated tools ({names})"
        " run without asking anyone; use --confirm elicit (or auto) with a client that can ask the person",
        "auto": f"the confirm-gated tools ({names}) ask the person through MCP elicitation when the client"
        " supports it; with a client that does not, the model can pass confirm=true itself"
        " (--confirm elicit refuses them there instead)",
        "elicit": f"the confirm-gated tools ({names}) ask the person through MCP elicitation; a client without"
        " elicitation gets them refused",
        "deny": f"the confirm-gated tools ({names}) are refused (--confirm deny)",
    }[confirm]


def _stop_now(signum, frame) -> None:
    """SIGTERM, SIGINT, SIGHUP: kill our tools and leave at once.

    Not a graceful unwind: with the SDK's own stdin reader (used when stdin is not a pipe) a
    thread sits in a blocking read that only a closed stdin ends, and the host asked us to stop.
    """
    stop_all()  # the supervisors sweep their subtrees; then the safety net
    kill_child_groups()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(128 + signum)  # the shell's convention for "ended by this signal"


def serve(
    packs: Sequence[tuple[Path, Mapping]],
    *,
    transport: str = "stdio",
    prefix: bool | None = None,
    confirm: str = "auto",
    max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
    max_queue: int = DEFAULT_MAX_QUEUE,
) -> int:
    """Serve loaded packs until the client goes away; returns the exit status.

    ``confirm`` is one of ``CONFIRM_CHOICES``; ``max_in_flight`` calls run at once and
    ``max_queue`` more wait, past that a call is answered "server busy".
    """
    if transport not in TRANSPORTS:
        raise UsageError(
            f"unknown transport {transport!r}", hint=f"use one of: {', '.join(TRANSPORTS)}"
        )
    if confirm not in CONFIRM_CHOICES:
        raise UsageError(
            f"unknown confirm mode {confirm!r}", hint=f"use one of: {', '.join(CONFIRM_CHOICES)}"
        )
    if not isinstance(max_in_flight, int) or max_in_flight < 1:
        raise UsageError(
            f"--max-in-flight {max_in_flight!r}: at least 1 call must be able to run",
            hint="e.g. --max-in-flight 4",
        )
    if not isinstance(max_queue, int) or max_queue < 0:
        raise UsageError(
            f"--max-queue {max_queue!r}: not a count of calls",
            hint="e.g. --max-queue 32 (0: no waiting)",
        )
    require_mcp()
    problems = unsafe_patterns(packs)
    if problems:
        raise ManifestError(
            "refusing to serve a schema pattern that can backtrack catastrophically (it would freeze the server): "
            + "; ".join(problems),
            hint="fix the pattern (see `wrapgen check`, code W052), then run `wrapgen build`",
        )
    table = build_table(packs, prefix=prefix)
    notice = confirm_notice(confirm, table.gated())
    if notice:
        _notice(notice)
    import anyio

    stops = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    previous = {signum: signal.signal(signum, _stop_now) for signum in stops}
    try:
        anyio.run(
            lambda: _run_stdio(
                table,
                confirm=confirm,
                admission=Admission(max_in_flight, max_queue),
            )
        )
    finally:
        _settle_workers()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return ExitStatus.OK
