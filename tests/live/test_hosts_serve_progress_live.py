"""wrapgen serve, issue 14: live titles as MCP progress notifications, the done title in the result,
outputSchema + structuredContent for a ``--json FIELDS`` verb, cut tool names, annotations, all through
the mcp SDK's own stdio client against real git (the generated adapters/git pack) and a real server."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from support.serve import CALL_TIMEOUT_S, START_TIMEOUT_S, make_pack  # noqa: E402

from conftest import REPO, require_tool  # noqa: E402
from wrapgen.hosts.mcp import TITLE_META  # noqa: E402

# A tool whose --json takes field names (the way gh's does), as a real program: python itself.
FIELDS_TOOL = """\
import json, sys
args = sys.argv[1:]
fields = args[args.index("--json") + 1].split(",") if "--json" in args else ["number"]
rows = [{f: f"{f}-{i}" for f in fields} for i in range(2)]
if "--broken" in args:
    rows = [{"other": 1}]
print(json.dumps(rows if args[0] == "list" else rows[0]))
"""

FIELDS_PACK = """\
pack_id: rows
description: Rows as JSON.
bin: {python}
json: false
verbs:
  list:
    description: List rows.
    cli: [{python}, {script}, list, --broken, '{{{{broken}}}}']
    args:
      type: object
      properties:
        broken: {{type: boolean}}
      additionalProperties: false
    json: [--json, 'number,title']
    policy: {{effect: read, open_world: false}}
    title: {{live: Listing rows, done: Listed rows}}
  view:
    description: View one row.
    cli: [{python}, {script}, view]
    json: [--json, 'number,title']
    policy: {{effect: read}}
  {long}:
    description: A verb with a very long name.
    cli: [{python}, {script}, view]
    policy: {{effect: write, confirm: false, idempotent: true, open_world: false}}
"""
LONG_VERB = "a" + "-very-long-verb-name" * 4  # 81 characters, over the 64 hosts accept


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)},
    )


@contextlib.asynccontextmanager
async def _session(packs, cwd: Path):
    env = {"HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ.get("PATH", "")}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "wrapgen", "serve", *map(str, packs)],
        cwd=str(cwd),
        env=env,
    )
    with open(cwd / "serve.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                with anyio.fail_after(START_TIMEOUT_S):
                    await session.initialize()
                yield session


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    require_tool("git")
    repo = tmp_path_factory.mktemp("repo")
    _git(repo, "init", "-q", "-b", "main")
    (repo / "file.txt").write_text("one\n")
    _git(repo, "add", "file.txt")
    _git(repo, "commit", "-q", "-m", "first commit")
    return repo


@pytest.fixture(scope="module")
def rows_pack(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rows")
    script = root / "rows.py"
    script.write_text(FIELDS_TOOL)
    return make_pack(
        root / "rows", FIELDS_PACK.format(python=sys.executable, script=script, long=LONG_VERB)
    )


def test_progress_notifications_carry_the_live_then_done_title(repo):
    """A call with a progress token gets the live title while it runs and the done title at the end,
    as notifications/progress the SDK client receives; the result's _meta holds the done title."""

    async def scenario():
        async with _session([REPO / "adapters" / "git"], repo) as session:
            seen = []

            async def on_progress(progress, total, message):
                seen.append((progress, total, message))

            with anyio.fail_after(CALL_TIMEOUT_S):
                result = await session.call_tool("branch.list", {}, progress_callback=on_progress)
                plain = await session.call_tool("branch.list", {})
            return seen, result, plain

    seen, result, plain = anyio.run(scenario)
    assert not result.is_error, result
    assert "main" in result.content[0].text
    assert [message for _, _, message in seen] == ["Listing branches", "Listed branches"]
    assert (
        seen[0][0] < seen[1][0] and seen[1][1] == 1
    )  # progress increases; the last one is complete
    assert result.meta == {TITLE_META: "Listed branches"}
    assert plain.meta == {
        TITLE_META: "Listed branches"
    }  # the done title even without a progress token


def test_progress_titles_fill_in_the_arguments(repo):
    """The first template whose placeholders all have a value is the one sent (docs/contract.md §11)."""

    async def scenario():
        async with _session([REPO / "adapters" / "git"], repo) as session:
            seen = []

            async def on_progress(progress, total, message):
                seen.append(message)

            with anyio.fail_after(CALL_TIMEOUT_S):
                result = await session.call_tool(
                    "log", {"revision_range": "main"}, progress_callback=on_progress
                )
            return seen, result

    seen, result = anyio.run(scenario)
    assert not result.is_error, result
    assert seen == ["Showing commit logs in main", "Showed commit logs in main"]


def test_output_schema_and_structured_content_for_json_fields(rows_pack, tmp_path):
    """--json FIELDS verbs list an outputSchema; their results carry structuredContent {"result": ...}
    that the SDK client validates against it (it raises on a mismatch); output of another shape is an
    error result, not a schema violation."""

    async def scenario():
        async with _session([rows_pack], tmp_path) as session:
            with anyio.fail_after(CALL_TIMEOUT_S):
                tools = {tool.name: tool for tool in (await session.list_tools()).tools}
                listed = await session.call_tool("list", {})
                viewed = await session.call_tool("view", {})
                broken = await session.call_tool("list", {"broken": True})
            return tools, listed, viewed, broken

    tools, listed, viewed, broken = anyio.run(scenario)
    schema = tools["list"].output_schema
    assert schema["required"] == ["result"]
    assert schema["properties"]["result"]["anyOf"][0]["required"] == ["number", "title"]
    assert tools[LONG_VERB[:55] + tools_suffix(tools)].output_schema is None
    assert not listed.is_error and listed.structured_content == {
        "result": [
            {"number": "number-0", "title": "title-0"},
            {"number": "number-1", "title": "title-1"},
        ]
    }
    assert listed.meta == {TITLE_META: "Listed rows"}
    assert not viewed.is_error and viewed.structured_content == {
        "result": {"number": "number-0", "title": "title-0"}
    }
    assert broken.is_error and "number, title" in broken.content[0].text


def tools_suffix(tools) -> str:
    (long_name,) = [name for name in tools if name.startswith(LONG_VERB[:55])]
    return long_name[55:]


def test_long_names_annotations_and_titles_as_listed(rows_pack, tmp_path):
    """A verb name over 64 characters is listed cut to 64 and called by that name; title and the
    four annotation hints come from the pack's title and policy."""

    async def scenario():
        async with _session([rows_pack], tmp_path) as session:
            with anyio.fail_after(CALL_TIMEOUT_S):
                tools = {tool.name: tool for tool in (await session.list_tools()).tools}
                (long_name,) = [name for name in tools if name.startswith(LONG_VERB[:55])]
                called = await session.call_tool(long_name, {})
            return tools, long_name, called

    tools, long_name, called = anyio.run(scenario)
    assert len(long_name) == 64 and all(len(name) <= 64 for name in tools)
    assert not called.is_error and '"number"' in called.content[0].text
    long_tool = tools[long_name].annotations
    assert (
        long_tool.read_only_hint,
        long_tool.destructive_hint,
        long_tool.idempotent_hint,
        long_tool.open_world_hint,
    ) == (False, False, True, False)
    listing = tools["list"]
    assert listing.title == "Listing rows" and listing.annotations.title == "Listing rows"
    assert (
        listing.annotations.read_only_hint is True and listing.annotations.open_world_hint is False
    )
    assert listing.annotations.idempotent_hint is None  # meaningful for a tool that writes only
    assert tools["view"].annotations.open_world_hint is None  # not declared: the protocol's default
