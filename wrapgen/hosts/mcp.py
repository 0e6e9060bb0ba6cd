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

``mcp`` is imported only here; ``wrapgen export`` works without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
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
    "PipeLines",
    "PipeWriter",
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
_ARGS_ENCODER = json.JSONEncoder(
    ensure_ascii=False
)  # json.dumps(value, ensure_ascii=False), built once
_LINE_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":")
)  # a compact message line
_ANSWER_ID_RE = re.compile(r'"id":(-?\d+|"(?:[^"\\]|\\.)*"),"(?:result|error)":')


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
    an exit the pack declares as an answer (``exit_codes``: "differences found (exit 1)") also keeps
    what the tool printed, as a second text block. ``title`` (the done title) goes in
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
        if "exit_code" in envelope and output not in (None, ""):
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
        size = len(_ARGS_ENCODER.encode(arguments).encode("utf-8"))
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
        return runtime.execute(binding, verb_key, args, cancel=cancel)
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


class Workers:
    """The threads the calls' tools run from (``runtime.execute`` blocks): at most ``size`` calls at
    once, the others waiting their turn in order. Used from the event loop (``run``, ``close``).

    Costs one hand-off each way (a queue put, then ``call_soon_threadsafe``), where anyio's
    ``to_thread`` with a capacity limiter also passes the limiter's checkpoints; a job submitted
    without ``done`` (the fast path's, which answers from the worker) costs no hand-off back. A call cancelled
    while it waits never runs (its ``cancel`` event is set); one cancelled while it runs is abandoned
    to the runtime, which kills the tool and returns, and holds its thread until then.
    """

    def __init__(self, size: int):
        self.size = size
        self._jobs = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._busy = 0  # jobs handed over and not yet settled
        self._lock = threading.Lock()  # guards _busy (a job without ``done`` settles on its worker)

    async def run(self, cancel: threading.Event, function, *args):
        import asyncio

        future = asyncio.get_running_loop().create_future()
        self.submit(cancel, function, args, lambda result, error: _settle(future, result, error))
        return await future

    def submit(self, cancel: threading.Event, function, args: tuple, done) -> None:
        """Run ``function(*args)`` on a worker; then ``done(result, error)`` on the event loop (error None
        unless it raised; result None when ``cancel`` was set before it started, so it never ran).
        With ``done`` None nothing follows on the loop: ``function`` settles its call itself, and is
        not run when ``cancel`` was set first."""
        import asyncio

        loop = asyncio.get_running_loop() if done is not None else None
        with self._lock:
            self._busy += 1
            spawn = self._busy > len(self._threads) and len(self._threads) < self.size
        if spawn:
            thread = threading.Thread(target=self._work, name="wrapgen serve worker")
            self._threads.append(thread)
            thread.start()
        self._jobs.put((loop, done, cancel, function, args))

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, done, cancel, function, args = job
            try:
                result, error = (None, None) if cancel.is_set() else (function(*args), None)
            except BaseException as raised:  # noqa: BLE001 - handed to the call
                result, error = None, raised
            if done is None:
                with self._lock:
                    self._busy -= 1
                continue
            try:
                loop.call_soon_threadsafe(self._settle, done, result, error)
            except RuntimeError:  # the loop has closed: nobody waits any more
                pass

    def _settle(self, done, result, error) -> None:
        with self._lock:
            self._busy -= 1
        done(result, error)

    def close(self) -> None:
        """Let the threads end once their jobs are done (``_settle_workers`` waits for them)."""
        for _ in self._threads:
            self._jobs.put(None)
        self._threads = []


def _settle(future, result, error) -> None:
    if future.done():  # cancelled: the call was abandoned
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Admission:
    """The in-flight and queue limits of one server. Used from the event loop, except that a fast-path
    call leaves from its worker thread: ``try_enter`` and ``leave`` take a lock.

    ``admitted`` counts calls past the door: running (at most ``max_in_flight``, on the
    ``workers``) or waiting, for a worker or for the person's answer.
    """

    def __init__(
        self, max_in_flight: int = DEFAULT_MAX_IN_FLIGHT, max_queue: int = DEFAULT_MAX_QUEUE
    ):
        self.max_in_flight, self.max_queue = max_in_flight, max_queue
        self.admitted = 0
        self._workers = None
        self._lock = threading.Lock()

    @property
    def workers(self) -> Workers:
        if self._workers is None:
            self._workers = Workers(self.max_in_flight)
        return self._workers

    def try_enter(self) -> bool:
        with self._lock:
            if self.admitted >= self.max_in_flight + self.max_queue:
                return False
            self.admitted += 1
            return True

    def leave(self) -> None:
        with self._lock:
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
_END = object()  # PipeLines: the input has ended
_ID_RE = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


def _readable_id(value) -> Any:
    return (
        value
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
        else None
    )


def _error(request_id, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


_FAST_GUARD_RE = re.compile(r"NaN|Infinity|\\u[dD][89a-fA-F]|\d[eE][+-]?\d{3}")
_FAST_DEPTH = (
    100  # fewer brackets than this: nested less deep than the SDK's parser refuses (about 200)
)


def _plain_request(line: str):
    """The parsed message when it is plainly one the SDK parses (a request or notification of the
    right shape, shallow, no number or escape its parser may treat otherwise), else None.

    The cheap path of ``screen_line``: most lines are answered by ``json.loads`` and a few checks;
    anything unusual goes to the SDK's own parser for the verdict.
    """
    if line.count("[") + line.count("{") >= _FAST_DEPTH or _FAST_GUARD_RE.search(line):
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if (
        not isinstance(value, dict)
        or value.get("jsonrpc") != "2.0"
        or not isinstance(value.get("method"), str)
    ):
        return None
    if "result" in value or "error" in value:
        return None
    if "id" in value and _readable_id(value["id"]) is None:
        return None
    params = value.get("params")
    if params is not None and not isinstance(params, dict):
        return None
    return value


def screen_line(line: str):
    """``True`` when the SDK can take this line; else the JSON-RPC error answering it; None to drop it.

    What the SDK cannot parse it drops without an answer, and the client would wait forever:
    broken JSON (-32700), a message of the wrong shape, a batch, or JSON nested deeper than the
    SDK's parser allows (-32600). The answer carries the request's id when one can be read. A
    blank line, or a broken *response* (to a request of ours), is dropped: no one awaits an answer.
    """
    if not line.strip():
        return None
    if _plain_request(line) is not None:
        return True
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


class PipeLines:
    """Lines from a pipe, read with the event loop rather than a thread per line.

    The SDK's own stdin reader blocks a worker thread on each line; on a pipe, a reader callback
    of the event loop costs less and leaves nothing blocked at shutdown. The fd stays registered
    with the loop's selector while lines are read (not registered and unregistered per read), and
    each ``os.read`` follows a readiness report, so no read ends in EAGAIN. A line over ``limit``
    bytes is dropped without being held: in its place comes a tools/call of a name no client can
    use, with the dropped request's id when it was readable, so the client gets an error answer.

    Once ``answer`` is set (an async function taking a JSON-RPC error dict), each line is
    screened first (``screen_line``): what the SDK would drop unanswered is answered here.

    With ``fast`` set (a ``mcp_fast.FastPath``), the lines it takes are handled right in the reader
    callback and never reach the iterator, so such a call wakes no task. Lines are still handled
    strictly one after another: while a line (or an error answer) waits for the iterator, and until
    the SDK's reader comes back for the next one (or the error answer is written), nothing more is
    read or handled.

    With ``max_unanswered`` set, the ids of requests passed on are remembered until the writer
    sees their answer (``answered``) or the client cancels them; while that many are unanswered,
    reading pauses, so a client that sends without reading cannot make the server hold answers
    (and the tasks waiting to write them) without bound.

    Needs asyncio's event loop (anyio's default backend, which ``serve`` runs on).
    """

    def __init__(self, fd: int, *, limit: int = LINE_LIMIT):
        self.fd, self.limit = fd, limit
        self.buffer = bytearray()
        self.eof = False
        self.dropping = False  # inside an oversized line: discard up to its newline
        self.dropped_head = b""
        self.answer = None
        self.fast = None  # a mcp_fast.FastPath: the tools/call it takes never reach the SDK
        self.max_unanswered: int | None = None
        self.unanswered: set = set()
        self._loop = None  # the event loop whose selector watches ``fd``
        self._watching = False  # ``fd`` is registered with the loop (a reader callback)
        self._item = None  # what the iterator hands on next: a line, an error dict to answer, _END, an OSError
        self._waiter = None  # the future the iterator awaits while there is no item
        self._pumping = False
        self._full = False  # reading paused: ``max_unanswered`` requests wait for their answer
        self._handed = (
            False  # the iterator's caller has the last line (or its error answer) in hand
        )

    def answered(self, request_id) -> None:
        self.unanswered.discard(request_id)
        if (
            self._full
        ):  # reading paused: read on (from the loop, never inside whoever wrote the answer)
            with contextlib.suppress(RuntimeError):  # the loop has closed
                self._loop.call_soon_threadsafe(self._read_on)

    def _read_on(self) -> None:
        if self._full and len(self.unanswered) < self.max_unanswered:
            self._full = False
            self._pump()

    def _track(self, line: str, value=None) -> None:
        """Remember a request's id; forget one the client cancelled (the SDK never answers it)."""
        if value is None:
            if '"method"' not in line:
                return
            try:
                value = json.loads(line)
            except (ValueError, RecursionError):
                return
        if not isinstance(value, dict):
            return
        request_id = _readable_id(value.get("id"))
        if request_id is not None and "method" in value:
            self.unanswered.add(request_id)
        elif value.get("method") == "notifications/cancelled" and isinstance(
            value.get("params"), dict
        ):
            self.answered(_readable_id(value["params"].get("requestId")))

    def __aiter__(self):
        return self

    def _offer(self, message: dict) -> bool:
        """Whether the fast path answers this message; a bug there turns it off rather than the server."""
        try:
            return self.fast.offer(message)
        except Exception as error:  # noqa: BLE001 - the SDK answers this one and every later one
            self.fast.off = True
            _notice(
                f"the fast path is off after an internal error ({type(error).__name__}: {error})"
            )
            return False

    def _stand_in(self) -> str:
        head = self.dropped_head.split(b'"params"', 1)[0]
        match = _ID_RE.search(head)
        request_id = json.loads(match.group(1)) if match else None
        return (
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "method": "tools/call",
                    "params": {"name": _OVERSIZED},
                }
            )
            + "\n"
        )

    async def __anext__(self) -> str:
        import asyncio

        self._handed = False  # the SDK's reader is back for the next line: the last one is taken
        while True:
            if self._item is None:
                if self._loop is None:
                    self._loop = asyncio.get_running_loop()
                self._pump()
            if self._item is None:
                self._waiter = self._loop.create_future()
                try:
                    await self._waiter
                finally:
                    self._waiter = None
                continue
            item = self._item
            if item is _END:
                self._unwatch()
                raise StopAsyncIteration
            self._item = None
            if type(item) is str:
                self._handed = True
                return item
            if isinstance(item, BaseException):
                raise item
            self._handed = True
            try:
                await self.answer(item)
            finally:
                self._handed = False

    def _pump(self) -> None:
        """Handle the lines read so far, one after another, until one is for the iterator (then stop
        reading until it is taken) or more bytes are needed (then read on when the pipe is readable)."""
        if self._pumping:
            return  # an answer written from inside this loop: it checks the limits itself
        self._pumping = True
        try:
            while self._item is None and not self._handed:
                if self.eof and not self.buffer:
                    self._item = _END
                    break
                if self.max_unanswered is not None and len(self.unanswered) >= self.max_unanswered:
                    self._full = True
                    if (
                        len(self.unanswered) >= self.max_unanswered
                    ):  # not answered in between (a worker)
                        self._unwatch()  # ``answered`` reads on once there is room
                        return
                    self._full = False
                line = self._take_line()
                if line is None:
                    if self.eof:
                        self._item = _END
                        break
                    self._watch()
                    return
                try:
                    self._handle(line)
                except Exception as error:  # noqa: BLE001 - raised in the SDK's reader, as before
                    self._item = error
        finally:
            self._pumping = False
        self._unwatch()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def _handle(self, line: str) -> None:
        """One line: answered here (the fast path), an error answer or the line for the iterator, or dropped."""
        if self.answer is None:
            self._item = line
            return
        plain = _plain_request(line) if line.strip() else None
        verdict = True if plain is not None else screen_line(line)
        if verdict is True:
            if self.max_unanswered is not None:
                self._track(line, plain)
            if self.fast is not None:
                if plain is None:
                    self.fast.passed_unparsed(line)
                elif self._offer(plain):
                    return  # answered next to the SDK
            self._item = line
        elif verdict is not None:
            self._item = verdict

    def _on_readable(self) -> None:
        try:
            data = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError as error:  # the iterator raises it, as a failed read did
            self._item = error
            self._unwatch()
            if self._waiter is not None and not self._waiter.done():
                self._waiter.set_result(None)
            return
        if data:
            self.buffer += data
        else:
            self.eof = True
        self._pump()

    def _watch(self) -> None:
        if not self._watching and not self.eof:
            self._loop.add_reader(self.fd, self._on_readable)
            self._watching = True

    def _unwatch(self) -> None:
        if self._watching:
            self._watching = False
            self._loop.remove_reader(self.fd)

    def _take_line(self) -> str | None:
        """The next whole line of the buffer (the stand-in for an oversized one; at EOF the unended tail),
        or None when more must be read first."""
        newline = self.buffer.find(b"\n")
        if newline >= 0:
            if not self.dropping and newline >= self.limit:
                self.dropping, self.dropped_head = True, bytes(self.buffer[:65536])
            line = bytes(self.buffer[: newline + 1])
            del self.buffer[: newline + 1]
            if self.dropping:
                self.dropping = False
                return self._stand_in()
            return line.decode("utf-8", "replace")
        if self.dropping:
            self.buffer.clear()
        elif len(self.buffer) > self.limit:
            self.dropping, self.dropped_head = True, bytes(self.buffer[:65536])
            self.buffer.clear()
        if self.eof and self.buffer and not self.dropping:
            line = bytes(self.buffer)
            self.buffer.clear()
            return line.decode("utf-8", "replace")
        return None

    def close(self) -> None:
        """Stop watching the pipe (before its fd is closed)."""
        self._unwatch()

    def hang_up(self) -> None:
        """The client stopped reading us: end the input too, so the session ends as on EOF."""
        self.eof, self.dropping = True, False
        self.buffer.clear()
        self._full = False
        if self._loop is not None and not self._pumping and self._item is None:
            self._pump()  # nothing more to read: the iterator ends


class PipeWriter:
    """The writing half: ``write`` collects, ``flush`` writes it out as the pipe takes it.

    A client that closed its end gets the session ended (``reader.hang_up``), not a traceback.

    Used from the event loop, except that a fast-path call writes its answer from its worker thread
    (``push`` with ``hold`` and ``put`` with ``later``): what is pending, whether a flush is under way
    and each ``os.write`` are guarded by a lock, so lines stay whole and in order whoever writes them.
    """

    def __init__(self, fd: int, *, reader: PipeLines | None = None):
        self.fd, self.reader = fd, reader
        self.pending = bytearray()
        self.broken = False
        self.fast = None  # a mcp_fast.FastPath waiting to see the SDK answer initialize
        self._flushing = False
        self._idle = (
            None  # an anyio.Event, set when the flush under way ends, while someone waits for it
        )
        self._lock = threading.Lock()

    def push(self, line: str, *, hold: bool = False) -> None:
        """Write one whole message line now, past the SDK's writer task (progress notifications).

        What the pipe does not take at once stays pending, ahead of what the SDK writes next, and goes
        out with it: a line is never split by another. Costs one ``os.write``; the SDK's path
        (a pydantic model, its JSON dump, a memory stream and a task switch) costs several times that.
        ``hold``: only queue it, for a caller that sends its next line at once (one write for both);
        safe from a worker thread.
        """
        data = line.encode("utf-8")
        with self._lock:
            if self.broken:
                return
            self.pending += data
            if self._flushing or hold:
                return  # the flush under way writes it next, in order
            try:
                written = os.write(self.fd, self.pending)
            except BlockingIOError:
                return
            except OSError:
                self.broken = True
            else:
                del self.pending[:written]
                return
        if self.reader is not None:
            self.reader.hang_up()

    async def write(self, text: str) -> None:
        if self.reader is not None and self.reader.unanswered:
            self._note_answer(text)
        if self.fast is not None and self.fast.waiting:
            self.fast.note_written(text)
        data = text.encode("utf-8")
        with self._lock:
            self.pending += data

    def put(self, line: bytes, *, later=None) -> bool:
        """Write one whole message line now if the pipe takes it (True); else it stays pending (False),
        ahead of what is written next, and ``flush`` writes it.

        From a worker thread, ``later`` is ``loop.call_soon_threadsafe``: what must happen on the event
        loop (ending the session when the pipe broke) goes through it.
        """
        with self._lock:
            if self.broken:
                return True
            self.pending += line
            if self._flushing:
                return False
            try:
                written = os.write(self.fd, self.pending)
            except BlockingIOError:
                return False
            except OSError:
                self.broken = True
                self.pending = bytearray()
            else:
                del self.pending[:written]
                return not self.pending
        if self.reader is not None:
            if later is None:
                self.reader.hang_up()
            else:
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    later(self.reader.hang_up)
        return True

    def close(self) -> None:
        """Write nothing more (before the fd is closed; a worker finishing a call may still try)."""
        with self._lock:
            self.broken = True
            self.pending = bytearray()

    async def send(self, line: bytes) -> None:
        """Write one whole message line and wait until it is out (or the pipe broke: ClosedResourceError).

        For writers other than the SDK's (the fast path): the line joins what is pending, in order, and
        goes out with the flush under way or with a flush of its own.
        """
        import anyio

        with self._lock:
            broken = self.broken
            if not broken:
                self.pending += line
        if broken:
            raise anyio.ClosedResourceError
        await self.flush()

    def _note_answer(self, text: str) -> None:
        """Tell the reader which request this line answers (the SDK writes ``"id"`` before the result)."""
        match = _ANSWER_ID_RE.search(text, 0, 4096)
        if match is None:
            return
        try:
            self.reader.answered(json.loads(match.group(1)))
        except ValueError:
            pass

    async def flush(self) -> None:
        import anyio

        while self._flushing:  # one flush at a time; the one under way writes what is pending now
            if self._idle is None:
                self._idle = anyio.Event()
            await self._idle.wait()
        with self._lock:
            if self.broken:
                raise anyio.ClosedResourceError
            if not self.pending:
                return
            self._flushing = True
        try:
            while True:
                with self._lock:
                    if not self.pending:
                        self._flushing = (
                            False  # with the check: a line added from a worker is written by it
                        )
                        break
                    # what is added while we wait goes to a new buffer, written after this one
                    data, self.pending = self.pending, bytearray()
                view = memoryview(data)
                try:
                    while view:
                        try:
                            view = view[os.write(self.fd, view) :]
                        except BlockingIOError:
                            await anyio.wait_writable(self.fd)
                finally:
                    view.release()
        except OSError:  # EPIPE, ECONNRESET: nobody reads our answers any more
            with self._lock:
                self.broken = True
                self.pending = bytearray()
            if self.reader is not None:
                self.reader.hang_up()
            raise anyio.ClosedResourceError from None
        finally:
            with self._lock:
                self._flushing = False
            if self._idle is not None:
                self._idle.set()
                self._idle = None


@contextlib.contextmanager
def _pipe_stdio():
    """(reader, writer) over private copies of fds 0 and 1 when both are pipes or sockets, else None.

    Like the SDK, fd 0 then reads /dev/null and fd 1 goes to stderr while serving, so a stray
    print cannot corrupt the protocol stream; both are put back afterwards.
    """

    def is_pipe(fd: int) -> bool:
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return False
        return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)

    if not (is_pipe(0) and is_pipe(1)):
        yield None
        return
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    blocking = (os.get_blocking(wire_in), os.get_blocking(wire_out))
    os.set_blocking(wire_in, False)
    os.set_blocking(wire_out, False)
    reader = PipeLines(wire_in)
    writer = PipeWriter(wire_out, reader=reader)
    try:
        yield reader, writer
    finally:
        reader.close()
        writer.close()
        os.set_blocking(wire_in, blocking[0])
        os.set_blocking(wire_out, blocking[1])
        sys.stdout.flush()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (wire_in, wire_out, saved_in, saved_out):
            os.close(fd)


async def _run_stdio(
    table: ToolTable,
    *,
    confirm: str = "auto",
    admission: Admission | None = None,
    fast_path: bool = True,
) -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

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

    async def run(binding, verb_key, args, expected_argv=None) -> dict:
        cancel = threading.Event()
        try:
            return await admission.workers.run(
                cancel, _execute, binding, verb_key, args, cancel, expected_argv
            )
        except anyio.get_cancelled_exc_class():
            # the client cancelled this call (or went away): the runtime kills the tool's group
            cancel.set()
            raise

    async def progress(ctx, token, value: int, total: int | None, message: str) -> None:
        if direct is None:
            await ctx.session.report_progress(value, total, message=message)
            return
        push_progress(token, value, total, message)

    async def run_titled(ctx, binding, verb_key, args, expected_argv=None) -> dict:
        meta = ctx.meta
        token = (
            meta.get("progress_token")
            if isinstance(meta, dict)
            else getattr(meta, "progress_token", None)
        )
        return await titled(token, binding, verb_key, args, expected_argv, ctx=ctx)

    def push_progress(
        token, value: int, total: int | None, message: str, *, hold: bool = False
    ) -> None:
        params = {"progressToken": token, "progress": value, "message": message}
        if total is not None:
            params["total"] = total
        direct.push(
            _LINE_ENCODER.encode(
                {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}
            )
            + "\n",
            hold=hold,
        )

    def begin(token, verb: Mapping, args: dict) -> None:
        """Before the call runs (on pipes): with a progress token, the live title as progress."""
        if token is not None and verb.get("title"):
            live = call_titles(verb, args)
            if live:
                push_progress(token, 0, None, live)

    def finish(token, verb: Mapping, args: dict, envelope: Mapping, *, hold: bool = False) -> dict:
        """After it ran (on pipes): with a progress token, the done title as progress; the tool result.

        ``hold``: the done title waits to go out in one write with the answer, written next (the fast path).
        """
        done = call_titles(verb, args, envelope)
        if token is not None and verb.get("title") and done:
            push_progress(token, 1, 1, done, hold=hold)
        return tool_result(envelope, verb, title=done)

    async def titled(token, binding, verb_key, args, expected_argv=None, *, ctx=None) -> dict:
        """Run the call; with a progress token, the live title as progress before, the done title after.

        On pipes this is ``begin``, the call, ``finish``: the fast path (``mcp_fast``) runs its calls
        through those two and the same ``_execute`` on the same workers.
        """
        verb = binding["verbs"][verb_key]
        if direct is not None:
            begin(token, verb, args)
            envelope = await run(binding, verb_key, args, expected_argv)
            return finish(token, verb, args, envelope)
        if token is not None and verb.get("title"):
            live = call_titles(verb, args)
            if live:
                await progress(ctx, token, 0, None, live)
            envelope = await run(binding, verb_key, args, expected_argv)
            done = call_titles(verb, args, envelope)
            if done:
                await progress(ctx, token, 1, 1, done)
            return tool_result(envelope, verb, title=done)
        envelope = await run(binding, verb_key, args, expected_argv)
        return tool_result(envelope, verb, title=call_titles(verb, args, envelope))

    async def call(ctx, route, args: dict) -> dict:
        binding, verb_key = route
        verb = binding["verbs"][verb_key]
        if not (verb.get("policy") or {}).get("confirm"):
            return await run_titled(ctx, binding, verb_key, args)
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
            return await run_titled(ctx, binding, verb_key, approved, argv)
        return await run_titled(ctx, binding, verb_key, args)

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
    # The SDK wraps every request in an OpenTelemetry span (a no-op unless an exporter is set
    # up, which wrapgen never does); dropping it saves a few tenths of a ms on each call.
    server.middleware = []

    with _pipe_stdio() as pipes:
        # on pipes, progress notifications are written straight out (PipeWriter.push), not through the SDK
        direct = None if pipes is None else pipes[1]
        streams = {} if pipes is None else {"stdin": pipes[0], "stdout": pipes[1]}
        calls = None
        async with stdio_server(**streams) as (read_stream, write_stream):
            if pipes is not None:

                async def answer(error: dict) -> None:
                    message = types.JSONRPCError.model_validate(error)
                    with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                        await write_stream.send(SessionMessage(message))

                pipes[0].answer = answer
                pipes[0].max_unanswered = (
                    admission.max_in_flight + admission.max_queue + UNANSWERED_SLACK
                )
                if fast_path:
                    calls = _fast_path(pipes, table, admission, begin, finish)
            try:
                await server.run(read_stream, write_stream, server.create_initialization_options())
            finally:
                if (
                    calls is not None
                ):  # calls still running on the fast path: answered "Connection closed"
                    await calls.close()
                admission.workers.close()


def _fast_path(pipes, table: ToolTable, admission: Admission, begin, finish):
    """Answer plain tools/call requests next to the SDK (``mcp_fast``) on these pipes; returns the FastPath."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    from wrapgen.hosts.mcp_fast import FastPath

    reader, writer = pipes
    fast = FastPath(
        routes=table.routes,
        admission=admission,
        begin=begin,
        finish=finish,
        execute=_execute,
        writer=writer,
        answered=reader.answered,
        check_arguments=check_arguments,
        error_result=error_result,
        versions=frozenset(HANDSHAKE_PROTOCOL_VERSIONS),
    )
    reader.fast = writer.fast = fast
    return fast


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
    fast_path: bool = True,
) -> int:
    """Serve loaded packs until the client goes away; returns the exit status.

    ``confirm`` is one of ``CONFIRM_CHOICES``; ``max_in_flight`` calls run at once and
    ``max_queue`` more wait, past that a call is answered "server busy". ``fast_path`` False
    leaves every message to the SDK (``mcp_fast`` answers plain tools/call next to it otherwise).
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
                fast_path=fast_path,
            )
        )
    finally:
        _settle_workers()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return ExitStatus.OK
