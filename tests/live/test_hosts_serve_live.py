"""wrapgen serve against real git and jq: a real MCP client (the mcp SDK's stdio client) talking to
`python -m wrapgen serve`, and kill_child_groups checked with pgrep.

The server's pure parts (line reading, result mapping, routing, argument checks, shutdown with `sleep`)
are in tests/hosts/test_serve.py."""

from __future__ import annotations

import contextlib
import json
import os
import random
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
from support.bounds import HANG_S  # noqa: E402
from support.serve import CALL_TIMEOUT_S, JQ_PACK, SLOW_PACK, START_TIMEOUT_S, make_pack  # noqa: E402
from support.serve import dead as _dead  # noqa: E402
from support.serve import wait_for_process as _wait_for_process  # noqa: E402

from conftest import require_tool  # noqa: E402
from wrapgen.hosts.mcp import ARGS_LIMIT, LINE_LIMIT  # noqa: E402

GIT_PACK = """\
pack_id: git
description: Inspect a git repository.
bin: git
json: false
verbs:
  log:
    description: Show recent commits, one subject per line.
    # --format before --max-count: a literal flag right before a dropped slot is dropped too (docs/contract.md §5)
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
        with portal.wrap_async_context_manager(
            connect([git_dir, jq_dir, slow_dir], cwd=repo, errlog=errlog)
        ) as session:
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


def test_cancelled_call_kills_its_tool_and_server_answers_on(client):
    """A cancelled call has its tool killed at once; other calls, and answers meanwhile, go on."""
    # (the tools sleep past every bound below: only the cancel, or the end of the scenario, ends them)
    cancelled, survivor = f"{500 + random.random():.6f}", f"{500 + random.random():.6f}"
    session = client.session

    async def scenario():
        async with anyio.create_task_group() as outer:
            outer.start_soon(session.call_tool, "slow.nap", {"seconds": survivor})
            survivor_pid, _ = await _wait_for_process(survivor)
            async with anyio.create_task_group() as group:
                group.start_soon(session.call_tool, "slow.nap", {"seconds": cancelled})
                cancelled_pid, _ = await _wait_for_process(cancelled)
                with anyio.fail_after(HANG_S):  # the loop answers while tools run in worker threads
                    await session.list_tools()
                assert not _dead(cancelled_pid) and not _dead(survivor_pid), "answered after them"
                group.cancel_scope.cancel()  # the SDK sends notifications/cancelled
            with anyio.fail_after(HANG_S):
                while not _dead(cancelled_pid):
                    await anyio.sleep(0.02)
            survivor_alive = not _dead(survivor_pid)
            with anyio.fail_after(HANG_S):
                answer = await session.call_tool("slow.nap", {"seconds": "0"})
            outer.cancel_scope.cancel()
        return survivor_alive, answer, survivor_pid

    survivor_alive, answer, survivor_pid = client.portal.call(scenario)
    assert survivor_alive, "cancelling one call killed another call's tool"
    assert answer.is_error is False
    deadline = time.monotonic() + HANG_S
    while not _dead(survivor_pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _dead(survivor_pid), "the second cancelled call's tool survived"


_KILL_SCRIPT = """
import os, subprocess, sys, time
from wrapgen.hosts.mcp import kill_child_groups
leader = subprocess.Popen([sys.executable, "-c",
    "import subprocess, time; subprocess.Popen(['sleep', '600']); time.sleep(600)"], start_new_session=True)
same_group = subprocess.Popen(["sleep", "600"])
found = ""
for _ in range(6000):  # the grandchild, once the leader has started it (a bound for a hang only)
    found = subprocess.run(["pgrep", "-g", str(leader.pid), "-x", "sleep"],
        capture_output=True, text=True).stdout.split()
    if found:
        break
    time.sleep(0.05)
grandchild = int(found[0])
print(kill_child_groups())
print(leader.wait(timeout=300), same_group.wait(timeout=300))
def state():
    try:  # a zombie (state Z) nobody reaped yet runs no more
        return open(f"/proc/{grandchild}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
for _ in range(6000):
    if state() in ("gone", "Z", "X"):
        break
    time.sleep(0.05)
print(state() not in ("gone", "Z", "X"), flush=True)
"""


def test_kill_child_groups_kills_groups_of_children(tmp_path):
    """kill_child_groups kills each child's group (grandchild too), a child in our group alone, not us."""
    require_tool("pgrep")
    # run in a fresh process: in pytest's own, it would also kill the module's server
    out = subprocess.run(
        [sys.executable, "-c", _KILL_SCRIPT], capture_output=True, text=True, timeout=900
    )
    assert out.returncode == 0, out.stderr
    count, statuses, grandchild_alive = out.stdout.splitlines()
    assert int(count) == 2
    assert statuses == f"{-signal.SIGKILL} {-signal.SIGKILL}"
    assert grandchild_alive == "False"
