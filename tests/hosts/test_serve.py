"""wrapgen serve: a real MCP client (the mcp SDK's stdio client) against `python -m wrapgen serve`."""

from __future__ import annotations

import contextlib
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
from anyio.from_thread import start_blocking_portal  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from conftest import require_tool  # noqa: E402
from wrapgen.pack.build import render_pack_files  # noqa: E402
from wrapgen.pack.emit import write_files  # noqa: E402
from wrapgen.hosts.mcp import (  # noqa: E402
    ARGS_LIMIT,
    LINE_LIMIT,
    PipeLines,
    build_table,
    check_arguments,
    tool_result,
)

CALL_TIMEOUT_S = 15  # a hung server fails the test instead of hanging it
START_TIMEOUT_S = 60  # importing the SDK takes seconds, many more on a loaded machine

GIT_PACK = """\
pack_id: git
description: Inspect a git repository.
bin: git
json: false
verbs:
  log:
    description: Show recent commits, one subject per line.
    # --format before --max-count: a literal flag right before a dropped slot is dropped too (SPEC 5)
    cli: [git, log, '--format=%s', '--max-count={{limit}}', '{{rev}}']
    args:
      type: object
      properties:
        limit: {type: integer, minimum: 1, default: 20, description: How many commits}
        rev: {type: string, description: Where to start}
      additionalProperties: false
    policy: {effect: read}
    title: {live: ['Reading the history of {{rev}}', Reading the history], done: Read the history}
  status:
    description: Show the changed files.
    cli: [git, status, --porcelain=v1]
    policy: {effect: read}
  tag:
    description: Tag the current commit.
    cli: [git, tag, --, '{{name}}']
    args:
      type: object
      properties:
        name: {type: string, description: The tag name}
      required: [name]
      additionalProperties: false
    policy: {effect: write}
"""

JQ_PACK = """\
pack_id: jq
description: Evaluate jq programs.
bin: jq
json: [-c]
verbs:
  eval:
    description: Evaluate a jq program with no input.
    cli: [jq, -n, '{{program}}']
    args:
      type: object
      properties:
        program: {type: string}
      required: [program]
      additionalProperties: false
    policy: {effect: read}
"""

SLOW_PACK = """\
pack_id: slow
description: Takes its time.
bin: sleep
json: false
verbs:
  nap:
    description: Sleep for some seconds.
    cli: [sleep, '{{seconds}}']
    args:
      type: object
      properties:
        seconds: {type: string}
      required: [seconds]
      additionalProperties: false
    policy: {effect: read}
    timeout_s: 60
"""


def make_pack(directory: Path, manifest: str) -> Path:
    """A built pack directory: pack.yaml plus the derived files `wrapgen build` writes."""
    directory.mkdir(parents=True)
    (directory / "pack.yaml").write_text(manifest, encoding="utf-8")
    write_files(directory, render_pack_files(manifest.encode("utf-8")))
    return directory


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)},
    ).stdout


def _server_env(home: Path) -> dict:
    env = {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


@contextlib.asynccontextmanager
async def connect(packs, *, cwd: Path, errlog):
    """An initialized ClientSession over a real `python -m wrapgen serve PACK...` subprocess."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "wrapgen", "serve", *map(str, packs)],
        cwd=str(cwd),
        env=_server_env(cwd),
    )
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write) as session:
            with anyio.fail_after(START_TIMEOUT_S):
                await session.initialize()
            yield session


class Client:
    """Synchronous calls into one long-lived session, run by a blocking portal's event loop."""

    def __init__(self, portal, session):
        self.portal, self.session = portal, session

    def _run(self, method, *args):
        async def bounded():
            with anyio.fail_after(CALL_TIMEOUT_S):
                return await method(*args)

        return self.portal.call(bounded)

    def tools(self) -> dict:
        return {tool.name: tool for tool in self._run(self.session.list_tools).tools}

    def call(self, name: str, arguments: dict | None = None):
        return self._run(self.session.call_tool, name, arguments)


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    require_tool("git")
    repo = tmp_path_factory.mktemp("repo")
    _git(repo, "init", "-q", "-b", "main")
    for subject in ("first commit", "second commit"):
        (repo / "file.txt").write_text(subject)
        _git(repo, "add", "file.txt")
        _git(repo, "commit", "-q", "-m", subject)
    return repo


@pytest.fixture(scope="module")
def client(repo, tmp_path_factory):
    """One server for the module (starting one costs the SDK's import time): packs git, jq, slow."""
    require_tool("jq")
    require_tool("sleep")
    packs = tmp_path_factory.mktemp("packs")
    git_dir = make_pack(packs / "git", GIT_PACK)
    jq_dir = make_pack(packs / "jq", JQ_PACK)
    slow_dir = make_pack(packs / "slow", SLOW_PACK)
    with open(packs / "server.err", "w") as errlog, start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(connect([git_dir, jq_dir, slow_dir], cwd=repo, errlog=errlog)) as session:
            yield Client(portal, session)
    assert "Traceback" not in (packs / "server.err").read_text()


def _text(result) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


def test_lists_one_tool_per_verb_with_prefixed_names(client):
    """Two packs: one tool per verb named PACK.VERB, with the args schema, title and policy hints."""
    tools = client.tools()
    assert list(tools) == ["git.log", "git.status", "git.tag", "jq.eval", "slow.nap"]
    log = tools["git.log"]
    assert log.input_schema["properties"]["limit"]["type"] == "integer"
    assert log.input_schema["additionalProperties"] is False
    assert log.annotations.title == "Reading the history" and log.title == "Reading the history"
    assert log.annotations.read_only_hint is True
    tag = tools["git.tag"]
    assert tag.annotations.read_only_hint is False and tag.annotations.destructive_hint is False
    assert tag.input_schema["properties"]["confirm"]["type"] == "boolean"
    assert "confirm=true" in tag.description


def test_read_tool_returns_git_output(client):
    """Calling git.log runs git in the server's directory and returns its output as text."""
    result = client.call("git.log", {"limit": 5})
    assert result.is_error is False
    assert _text(result).splitlines() == ["second commit", "first commit"]
    one = client.call("git.log", {"limit": 1})
    assert _text(one).splitlines() == ["second commit"]


def test_json_object_result_is_structured_content(client):
    """A JSON object result comes back as its JSON text and as structuredContent."""
    result = client.call("jq.eval", {"program": '{"a": 1, "b": [1, 2]}'})
    assert result.is_error is False
    assert result.structured_content == {"a": 1, "b": [1, 2]}
    assert json.loads(_text(result)) == {"a": 1, "b": [1, 2]}


def test_confirm_gate_holds(client, repo):
    """A write tool without confirm=true is an isError result and nothing runs; with it, it runs."""
    refused = client.call("git.tag", {"name": "v1"})
    assert refused.is_error is True
    assert "confirmation required" in _text(refused)
    assert _git(repo, "tag", "--list") == ""
    done = client.call("git.tag", {"name": "v1", "confirm": True})
    assert done.is_error is False, _text(done)
    assert _git(repo, "tag", "--list").split() == ["v1"]


@pytest.mark.parametrize(
    "arguments, words",
    [
        ({"limit": "five"}, ["limit"]),
        ({"limit": 0}, ["limit"]),
        ({"colour": "red"}, ["colour"]),
        ({"rev": "-x"}, ["-x"]),
        ({"rev": "--output=/tmp/pwned"}, ["--output"]),
    ],
    ids=["wrong-type", "below-minimum", "unknown-key", "option-injection", "long-option-injection"],
)
def test_bad_arguments_are_clear_errors(client, arguments, words):
    """Wrong types, unknown keys and option injection give isError naming the culprit; the server answers on."""
    result = client.call("git.log", arguments)
    assert result.is_error is True
    text = _text(result)
    assert all(word in text for word in words), text
    assert client.call("git.status").is_error is False


def test_unknown_tool_is_an_error_result(client):
    """An unknown tool name gives isError listing the tools there are; the server answers on."""
    result = client.call("git.push", {})
    assert result.is_error is True
    assert "unknown tool 'git.push'" in _text(result) and "git.log" in _text(result)
    assert "git.log" in client.tools()


def test_huge_arguments_are_refused(client):
    """Arguments over the size cap are refused before the runtime; the server answers on."""
    result = client.call("git.log", {"rev": "a" * (ARGS_LIMIT + 10)})
    assert result.is_error is True
    assert "too large" in _text(result)
    assert client.call("git.log", {"limit": 1}).is_error is False


def test_oversized_message_gets_an_error_answer(client):
    """A message over the line cap is dropped unread, answered with an error; the server answers on."""
    result = client.call("git.log", {"rev": "a" * (LINE_LIMIT + 10)})
    assert result.is_error is True
    assert "request too large" in _text(result)
    assert client.call("git.log", {"limit": 1}).is_error is False


def test_pipe_lines_splits_lines_and_stands_in_for_oversized():
    """PipeLines yields each line, replaces an oversized one by a stand-in with its id, keeps a tail."""
    big = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"id":9,"x":"' + b"y" * 5000 + b'"}}\n'
    data = b'{"a":1}\n' + big + b'{"b":2}\n' + b"tail"
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.write(write_fd, data)
    os.close(write_fd)

    async def collect():
        return [line async for line in PipeLines(read_fd, limit=1000)]

    try:
        lines = anyio.run(collect)
    finally:
        os.close(read_fd)
    assert lines[0] == '{"a":1}\n' and lines[2] == '{"b":2}\n' and lines[3] == "tail"
    stand_in = json.loads(lines[1])
    assert stand_in["id"] == 7 and stand_in["method"] == "tools/call"
    assert stand_in["params"]["name"].startswith("\0")


def test_tool_result_mapping():
    """Envelopes map to results: text as is, JSON as text (+ structured for objects), errors as isError."""
    assert tool_result({"ok": True, "result": "hi\n"}) == {"content": [{"type": "text", "text": "hi\n"}], "isError": False}
    listed = tool_result({"ok": True, "result": [1, 2]})
    assert listed["content"][0]["text"] == "[1, 2]" and "structuredContent" not in listed
    assert tool_result({"ok": True, "result": {"a": 1}})["structuredContent"] == {"a": 1}
    assert tool_result({"ok": True, "result": None})["content"][0]["text"] == "null"
    failed = tool_result({"ok": False, "error": "exit 3"})
    assert failed == {"content": [{"type": "text", "text": "exit 3"}], "isError": True}


def test_build_table_routes_names_to_verbs():
    """One pack: bare verb names; several: PACK.VERB; each name routes to its binding and verb."""
    slow = json.loads(render_pack_files(SLOW_PACK.encode())["binding.json"])
    jq = json.loads(render_pack_files(JQ_PACK.encode())["binding.json"])
    single = build_table([(Path("slow"), slow)])
    assert [tool["name"] for tool in single.tools] == ["nap"] and single.server_name == "wrapgen-slow"
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


def _dead(pid: int) -> bool:
    """The process is gone, or a zombie nobody has reaped yet (it runs no more)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2 :].split()[0] in (b"Z", b"X")


def _find_process(marker: str) -> tuple[int, int] | None:
    """(pid, ppid) of the live process whose argv holds ``marker``."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        if marker.encode() in argv and not _dead(int(entry)):
            return int(entry), int(stat[stat.rfind(b")") + 2 :].split()[1])
    return None


async def _wait_for_process(marker: str) -> tuple[int, int]:
    with anyio.fail_after(CALL_TIMEOUT_S):
        while (found := _find_process(marker)) is None:
            await anyio.sleep(0.02)
    return found


@pytest.fixture
def slow_pack(tmp_path) -> Path:
    require_tool("sleep")
    if not os.path.isdir("/proc"):
        pytest.skip("these tests find processes through /proc")
    return make_pack(tmp_path / "slow", SLOW_PACK)


def test_cancelled_call_kills_its_tool_and_server_answers_on(client):
    """A cancelled call has its tool killed at once; other calls, and answers meanwhile, go on."""
    cancelled, survivor = f"{50 + random.random():.6f}", f"{50 + random.random():.6f}"
    session = client.session

    async def scenario():
        async with anyio.create_task_group() as outer:
            outer.start_soon(session.call_tool, "slow.nap", {"seconds": survivor})
            survivor_pid, _ = await _wait_for_process(survivor)
            async with anyio.create_task_group() as group:
                group.start_soon(session.call_tool, "slow.nap", {"seconds": cancelled})
                cancelled_pid, _ = await _wait_for_process(cancelled)
                with anyio.fail_after(2):  # the loop answers while tools run in worker threads
                    await session.list_tools()
                group.cancel_scope.cancel()  # the SDK sends notifications/cancelled
            with anyio.fail_after(3):
                while not _dead(cancelled_pid):
                    await anyio.sleep(0.02)
            survivor_alive = not _dead(survivor_pid)
            with anyio.fail_after(3):
                answer = await session.call_tool("slow.nap", {"seconds": "0"})
            outer.cancel_scope.cancel()
        return survivor_alive, answer, survivor_pid

    survivor_alive, answer, survivor_pid = client.portal.call(scenario)
    assert survivor_alive, "cancelling one call killed another call's tool"
    assert answer.is_error is False
    deadline = time.monotonic() + 3
    while not _dead(survivor_pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _dead(survivor_pid), "the second cancelled call's tool survived"


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
        _rpc(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
        assert ready, "the server never answered initialize"
        assert json.loads(process.stdout.readline())["id"] == 1
        _rpc(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        process.stdin.write(b"this is not JSON\n\xff\xfe\x00 nor this\n")  # answered; the server reads on
        process.stdin.flush()
        for _ in range(2):  # issue 12: a parse error answer (id null), never silence
            assert json.loads(process.stdout.readline())["error"]["code"] == -32700
        _rpc(process, {"jsonrpc": "2.0", "id": 9, "method": "ping"})
        assert json.loads(process.stdout.readline())["id"] == 9
        _rpc(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                       "params": {"name": "nap", "arguments": {"seconds": marker}}})
        sleep_pid, parent = anyio.run(_wait_for_process, marker)
        assert parent == process.pid
        started = time.monotonic()
        if how == "sigterm":
            process.send_signal(signal.SIGTERM)
        elif how == "stop-reading":
            process.stdout.close()
            _rpc(process, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"})  # its answer hits EPIPE
        else:
            process.stdin.close()
        status = process.wait(timeout=10)
        assert time.monotonic() - started < 5
        assert status == (128 + signal.SIGTERM if how == "sigterm" else 0)
        deadline = time.monotonic() + 2
        while not _dead(sleep_pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _dead(sleep_pid), "the tool outlived the server"
        assert b"Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


_KILL_SCRIPT = """
import os, subprocess, sys, time
from wrapgen.hosts.mcp import kill_child_groups
leader = subprocess.Popen([sys.executable, "-c",
    "import subprocess, time; subprocess.Popen(['sleep', '30']); time.sleep(30)"], start_new_session=True)
same_group = subprocess.Popen(["sleep", "30"])
time.sleep(0.5)
grandchild = int(subprocess.run(["pgrep", "-g", str(leader.pid), "-x", "sleep"],
    capture_output=True, text=True).stdout.split()[0])
print(kill_child_groups())
print(leader.wait(timeout=5), same_group.wait(timeout=5))
time.sleep(0.2)
try:  # a zombie (state Z) nobody reaped yet runs no more
    state = open(f"/proc/{grandchild}/stat").read().rsplit(")", 1)[1].split()[0]
except OSError:
    state = "gone"
print(state not in ("gone", "Z", "X"), flush=True)
"""


def test_kill_child_groups_kills_groups_of_children(tmp_path):
    """kill_child_groups kills each child's group (grandchild too), a child in our group alone, not us."""
    require_tool("pgrep")
    # run in a fresh process: in pytest's own, it would also kill the module's server
    out = subprocess.run([sys.executable, "-c", _KILL_SCRIPT], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    count, statuses, grandchild_alive = out.stdout.splitlines()
    assert int(count) == 2
    assert statuses == f"{-signal.SIGKILL} {-signal.SIGKILL}"
    assert grandchild_alive == "False"


def test_serve_without_mcp_says_what_to_install(cli, monkeypatch, slow_pack):
    """Without the mcp SDK, wrapgen serve names the extra to install; no traceback."""
    for name in ("mcp", "mcp.server", "mcp.server.lowlevel", "mcp.server.stdio"):
        monkeypatch.setitem(sys.modules, name, None)
    result = cli("serve", str(slow_pack))
    assert result.exit_code == 2
    assert "pip install 'wrapgen[mcp]'" in result.stderr
    assert "Traceback" not in result.stderr
