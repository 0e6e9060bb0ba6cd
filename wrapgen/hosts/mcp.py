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

``mcp`` is imported only here; ``wrapgen export`` works without it.
"""

from __future__ import annotations

import contextlib
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
from wrapgen.errors import ExitStatus, UsageError
from wrapgen.hosts.export import mcp_tools, tool_refs

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
]

ARGS_LIMIT = 1024 * 1024  # bytes of JSON arguments per call; a tool's args are short
TRANSPORTS = ("stdio",)
LINE_LIMIT = 16 * 1024 * 1024  # bytes of one JSON-RPC message; past it the message is dropped
_SHUTDOWN_GRACE_S = 2.0  # how long exit waits for worker threads after killing their tools


@dataclass(frozen=True)
class ToolTable:
    """What the server lists, and for each tool name the binding and verb a call runs."""

    tools: tuple[dict, ...]  # MCP tool definitions, in list order
    routes: Mapping[str, tuple[Mapping, str]]  # tool name -> (binding, verb_key)
    server_name: str
    instructions: str


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
        f"{binding['pack_id']}: {str(binding.get('description', '')).strip()}" for binding in bindings
    )
    return ToolTable(tuple(mcp_tools(bindings, prefix=prefix)), routes, server_name, instructions)


def tool_result(envelope: Mapping) -> dict:
    """An envelope as an MCP CallToolResult dict.

    ``ok`` with a string result gives that text; any other result gives its JSON text, plus
    ``structuredContent`` when it is a JSON object (the only shape older protocol versions allow).
    ``ok: false`` gives ``isError`` with the error text, so the model reads it and can correct itself.
    """
    if not envelope.get("ok"):
        error = envelope.get("error", "the command failed")
        return error_result(error if isinstance(error, str) else json.dumps(error, ensure_ascii=False))
    value = envelope.get("result")
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
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
    try:
        size = len(json.dumps(arguments, ensure_ascii=False).encode("utf-8"))
    except UnicodeEncodeError:
        return "arguments hold a lone UTF-16 surrogate (\\ud800-\\udfff), which no tool can be given"
    except (TypeError, ValueError) as error:
        return f"arguments are not JSON: {error}"
    if size > ARGS_LIMIT:
        return f"arguments too large: {size} bytes of JSON (the limit is {ARGS_LIMIT // 1024} KiB)"
    return None


def _execute(binding: Mapping, verb_key: str, args: dict, cancel: threading.Event) -> dict:
    """``runtime.execute``, with the promise that nothing raises into the server enforced here too.

    Setting ``cancel`` makes the runtime kill the tool's process group and return.
    """
    from wrapgen import runtime

    try:
        return runtime.execute(binding, verb_key, args, cancel=cancel)
    except Exception as error:  # the runtime promises not to raise; a bug there must not kill the server
        return {"ok": False, "error": f"internal error in wrapgen: {type(error).__name__}: {error}"}


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
        entries = os.listdir("/proc")
    except OSError:
        entries = None
    if entries is not None:
        for entry in entries:
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            # the command name (field 2) may hold spaces or parentheses: parse after the last ')'
            fields = stat[stat.rfind(b")") + 2 :].split()
            if len(fields) > 1 and int(fields[1]) == me:
                found.append(int(entry))
        return found
    try:  # no /proc (macOS): ask ps
        listing = subprocess.run(["ps", "-A", "-o", "pid=,ppid="], capture_output=True, text=True, timeout=5)
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
    while True:
        kill_child_groups()
        workers = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
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


class PipeLines:
    """Lines from a pipe, read with the event loop rather than a thread per line.

    The SDK's own stdin reader blocks a worker thread on each line; on a pipe, waiting for
    readability costs less and leaves nothing blocked at shutdown. A line over ``limit`` bytes
    is dropped without being held: in its place comes a tools/call of a name no client can use,
    with the dropped request's id when it was readable, so the client gets an error answer.
    """

    def __init__(self, fd: int, *, limit: int = LINE_LIMIT):
        self.fd, self.limit = fd, limit
        self.buffer = bytearray()
        self.eof = False
        self.dropping = False  # inside an oversized line: discard up to its newline
        self.dropped_head = b""

    def __aiter__(self):
        return self

    def _stand_in(self) -> str:
        head = self.dropped_head.split(b'"params"', 1)[0]
        match = _ID_RE.search(head)
        request_id = json.loads(match.group(1)) if match else None
        return json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": _OVERSIZED}}
        ) + "\n"

    async def __anext__(self) -> str:
        import anyio

        while True:
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
            if self.eof:
                if self.buffer and not self.dropping:
                    line = bytes(self.buffer)
                    self.buffer.clear()
                    return line.decode("utf-8", "replace")
                raise StopAsyncIteration
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                await anyio.wait_readable(self.fd)
                continue
            if data:
                self.buffer += data
            else:
                self.eof = True


    def hang_up(self) -> None:
        """The client stopped reading us: end the input too, so the session ends as on EOF."""
        import anyio

        self.eof, self.dropping = True, False
        self.buffer.clear()
        anyio.notify_closing(self.fd)  # wakes a read waiting on the pipe with ClosedResourceError


class PipeWriter:
    """The writing half: ``write`` collects, ``flush`` writes it out as the pipe takes it.

    A client that closed its end gets the session ended (``reader.hang_up``), not a traceback.
    """

    def __init__(self, fd: int, *, reader: PipeLines | None = None):
        self.fd, self.reader = fd, reader
        self.pending = bytearray()
        self.broken = False

    async def write(self, text: str) -> None:
        self.pending += text.encode("utf-8")

    async def flush(self) -> None:
        import anyio

        if self.broken:
            raise anyio.ClosedResourceError
        view = memoryview(self.pending)
        try:
            while view:
                try:
                    view = view[os.write(self.fd, view) :]
                except BlockingIOError:
                    await anyio.wait_writable(self.fd)
        except OSError:  # EPIPE, ECONNRESET: nobody reads our answers any more
            self.broken = True
            if self.reader is not None:
                self.reader.hang_up()
            raise anyio.ClosedResourceError from None
        finally:
            view.release()
            self.pending = bytearray()


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
    try:
        reader = PipeLines(wire_in)
        yield reader, PipeWriter(wire_out, reader=reader)
    finally:
        os.set_blocking(wire_in, blocking[0])
        os.set_blocking(wire_out, blocking[1])
        sys.stdout.flush()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (wire_in, wire_out, saved_in, saved_out):
            os.close(fd)


async def _run_stdio(table: ToolTable) -> None:
    import anyio
    import anyio.to_thread
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    listed = types.ListToolsResult(tools=[types.Tool.model_validate(tool) for tool in table.tools])

    async def on_list_tools(ctx, params):
        return listed

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
        else:
            binding, verb_key = route
            cancel = threading.Event()
            try:
                envelope = await anyio.to_thread.run_sync(
                    _execute, binding, verb_key, dict(params.arguments or {}), cancel, abandon_on_cancel=True
                )
            except anyio.get_cancelled_exc_class():
                # the client cancelled this call (or went away): the runtime kills the tool's group
                cancel.set()
                raise
            outcome = tool_result(envelope)
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
        streams = {} if pipes is None else {"stdin": pipes[0], "stdout": pipes[1]}
        async with stdio_server(**streams) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def _stop_now(signum, frame) -> None:
    """SIGTERM, SIGINT, SIGHUP: kill our tools and leave at once.

    Not a graceful unwind: with the SDK's own stdin reader (used when stdin is not a pipe) a
    thread sits in a blocking read that only a closed stdin ends, and the host asked us to stop.
    """
    kill_child_groups()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(128 + signum)  # the shell's convention for "ended by this signal"


def serve(packs: Sequence[tuple[Path, Mapping]], *, transport: str = "stdio", prefix: bool | None = None) -> int:
    """Serve loaded packs until the client goes away; returns the exit status."""
    if transport not in TRANSPORTS:
        raise UsageError(f"unknown transport {transport!r}", hint=f"use one of: {', '.join(TRANSPORTS)}")
    require_mcp()
    table = build_table(packs, prefix=prefix)
    import anyio

    stops = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    previous = {signum: signal.signal(signum, _stop_now) for signum in stops}
    try:
        anyio.run(_run_stdio, table)
    finally:
        _settle_workers()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return ExitStatus.OK
