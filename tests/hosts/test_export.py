"""wrapgen.hosts.export: bindings -> MCP and OpenAI tool definitions; `wrapgen export`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wrapgen.errors import ManifestError, UsageError
from wrapgen.hosts import export
from wrapgen.names import PACK_ID_RE, VERB_NAME_RE


def _verb(description, effect="read", *, confirm=None, declared=True, args=None, title=None):
    verb = {
        "description": description,
        "argv": ["git", "x"],
        "argv_from": "cli",
        "json": [],
        "args": args or {"type": "object", "properties": {}, "additionalProperties": False},
        "policy": {
            "effect": effect,
            "confirm": effect != "read" if confirm is None else confirm,
            "declared": declared,
        },
        "timeout_s": 60,
    }
    if title is not None:
        verb["title"] = title
    return verb


def _binding(pack_id="git", verbs=None):
    return {
        "binding_version": 1,
        "pack_id": pack_id,
        "description": "Inspect a git repository.",
        "bin": "git",
        "pack_sha256": "0" * 64,
        "wrapgen_version": "0.1.0",
        "verbs": verbs
        or {
            "log": _verb(
                "Show commit logs.",
                args={
                    "type": "object",
                    "properties": {"limit": {"type": "integer", "minimum": 1}},
                    "additionalProperties": False,
                },
                title={
                    "live": ["Reading the last {{limit}} commits", "Reading the log"],
                    "done": ["Read the log"],
                },
            ),
            "tag.create": _verb("Create a tag.", "write"),
            "branch.delete": _verb("Delete a branch.", "destructive"),
            "status": _verb("Show the working tree status.", declared=False),
        },
    }


def test_tool_names_single_pack_are_verb_names():
    """One pack: tool names are the verb names, dots kept, in verb-name order."""
    names = [tool["name"] for tool in export.mcp_tools([_binding()])]
    assert names == ["branch.delete", "log", "status", "tag.create"]


def test_tool_names_several_packs_are_prefixed():
    """Several packs: tool names are PACK.VERB, pack order then verb order."""
    names = [tool["name"] for tool in export.mcp_tools([_binding("git"), _binding("gh")])]
    assert names[:2] == ["git.branch.delete", "git.log"]
    assert names[4:6] == ["gh.branch.delete", "gh.log"]


def test_same_pack_twice_is_refused():
    """Two packs with one pack id would collide: a UsageError with a hint."""
    with pytest.raises(UsageError) as info:
        export.mcp_tools([_binding("git"), _binding("git")])
    assert "twice" in info.value.message and info.value.hint


_LOWER = "abcdefghijklmnopqrstuvwxyz"
_SEGMENT = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(_LOWER),
    st.text(_LOWER + "0123456789-", max_size=8),
)


@given(pack_id=_SEGMENT, verb=st.lists(_SEGMENT, min_size=1, max_size=3).map(".".join))
def test_name_mappings_are_reversible(pack_id, verb):
    """tool_name/parse_tool_name and openai_name/parse_openai_name are inverses for every valid name."""
    assert PACK_ID_RE.fullmatch(pack_id) and VERB_NAME_RE.fullmatch(verb)
    for prefix in (False, True):
        name = export.tool_name(pack_id, verb, prefix=prefix)
        assert export.parse_tool_name(name, prefix=prefix) == ((pack_id if prefix else None), verb)
        assert len(name) <= 128 and all(c.isalnum() or c in "._-" for c in name)
        oa = export.openai_name(name)
        assert export.OPENAI_NAME_RE.fullmatch(oa) and "." not in oa
        assert export.parse_openai_name(oa) == name


def test_openai_name_replaces_dots():
    """OpenAI names replace each dot by a double underscore."""
    assert export.openai_name("gh.pr.view") == "gh__pr__view"
    assert export.parse_openai_name("gh__pr__view") == "gh.pr.view"


def test_openai_name_too_long_is_a_manifest_error():
    """A name over OpenAI's 64 characters is refused with a hint to shorten it."""
    with pytest.raises(ManifestError) as info:
        export.openai_name("a" * 65)
    assert "64" in info.value.message and "shorten" in info.value.hint


def test_mcp_name_too_long_is_cut_to_64_and_routes_back():
    """A tool name over the 64 characters hosts accept (issue 14; it was refused over MCP's 128) is cut
    deterministically, and the listing maps it back to its verb."""
    long_verb = ".".join(["a" * 30] * 5)
    binding = _binding(verbs={long_verb: _verb("Long.")})
    tools = export.mcp_tools([binding])
    name = tools[0]["name"]
    assert len(name) == 64 and export.MCP_NAME_RE.fullmatch(name)
    assert name == export.mcp_tools([binding])[0]["name"]
    ref = export.find_ref(export.tool_refs([binding]), name)
    assert ref is not None and ref.verb_key == long_verb


def test_parse_prefixed_name_without_prefix_is_refused():
    """A prefixed name without a dot cannot be routed to a pack."""
    with pytest.raises(UsageError):
        export.parse_tool_name("log", prefix=True)


def test_confirm_gated_verb_gets_a_confirm_property():
    """A confirm-gated verb's inputSchema lists confirm (boolean, described); a read verb's does not."""
    tools = {tool["name"]: tool for tool in export.mcp_tools([_binding()])}
    confirm = tools["tag.create"]["inputSchema"]["properties"]["confirm"]
    assert confirm["type"] == "boolean" and "nothing runs" in confirm["description"]
    assert tools["tag.create"]["inputSchema"]["additionalProperties"] is False
    assert "confirm" not in tools["log"]["inputSchema"]["properties"]
    assert tools["log"]["inputSchema"]["properties"]["limit"] == {"type": "integer", "minimum": 1}


def test_input_schema_does_not_alias_the_binding():
    """Adding confirm never mutates the binding the schema came from."""
    binding = _binding()
    export.mcp_tools([binding])
    assert "confirm" not in binding["verbs"]["tag.create"]["args"]["properties"]


def test_annotations_follow_the_policy():
    """read -> readOnlyHint; write -> destructiveHint false; destructive -> true; undeclared -> no hints."""
    tools = {tool["name"]: tool for tool in export.mcp_tools([_binding()])}
    assert tools["log"]["annotations"] == {"title": "Reading the log", "readOnlyHint": True}
    assert tools["tag.create"]["annotations"] == {"readOnlyHint": False, "destructiveHint": False}
    assert tools["branch.delete"]["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
    assert tools["status"]["annotations"] == {}
    for tool in tools.values():
        assert (
            "openWorldHint" not in tool["annotations"]
            and "idempotentHint" not in tool["annotations"]
        )


def test_title_is_the_plain_fallback():
    """The tool title is the first placeholder-free live template; done is used only without live."""
    assert export.plain_title({"title": {"live": ["Reading {{x}}", "Reading"]}}) == "Reading"
    assert export.plain_title({"title": {"live": ["Reading {{x}}"], "done": ["Read"]}}) == "Read"
    assert export.plain_title({"title": {"done": ["Read {{result.n}} items", "Read"]}}) == "Read"
    assert export.plain_title({}) is None
    tools = {tool["name"]: tool for tool in export.mcp_tools([_binding()])}
    assert tools["log"]["title"] == "Reading the log"
    assert "title" not in tools["tag.create"]


def test_description_carries_the_policy():
    """The description is the verb's plus its effect and, when gated, how to confirm."""
    tools = {tool["name"]: tool for tool in export.mcp_tools([_binding()])}
    assert (
        tools["log"]["description"]
        == "From the tool's help: Show commit logs.\n\nEffect: read-only."
    )
    assert "destructive" in tools["branch.delete"]["description"]
    assert "confirm=true" in tools["tag.create"]["description"]
    assert "not declared" in tools["status"]["description"]


def test_openai_tools_shape():
    """OpenAI tools are {type: function, function: {name, description, parameters}} with dot-free names."""
    tools = export.openai_tools([_binding()])
    first = tools[0]
    assert first["type"] == "function"
    assert set(first["function"]) == {"name", "description", "parameters"}
    assert [t["function"]["name"] for t in tools] == [
        "branch__delete",
        "log",
        "status",
        "tag__create",
    ]
    assert tools[3]["function"]["parameters"]["properties"]["confirm"]["type"] == "boolean"


def test_export_text_is_deterministic_json():
    """export_text gives the same bytes every run, ends in a newline, and parses back."""
    a = export.export_text([_binding()], format="mcp")
    b = export.export_text([_binding()], format="mcp")
    assert a == b and a.endswith("\n")
    assert json.loads(a) == export.mcp_tools([_binding()])
    hcp = export.export_text([_binding()], format="hcp")
    assert json.loads(hcp) == _binding()
    with pytest.raises(UsageError):
        export.export_text([_binding("a"), _binding("b")], format="hcp")
    with pytest.raises(UsageError):
        export.export_text([_binding()], format="yaml")


def test_export_does_not_import_mcp():
    """wrapgen.hosts.export, wrapgen.hosts.mcp and both commands load without importing the mcp SDK."""
    code = (
        "import sys, wrapgen.hosts.export, wrapgen.hosts.mcp, wrapgen.cli.commands.export, wrapgen.cli.commands.serve;"
        "print(any(m == 'mcp' or m.startswith('mcp.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


PACK_YAML = """\
pack_id: demo
description: A demo pack over git.
bin: git
json: false
verbs:
  log:
    description: Show commits.
    cli: [git, log, '--max-count={{limit}}']
    args:
      type: object
      properties:
        limit: {type: integer, minimum: 1}
      additionalProperties: false
    policy: {effect: read}
    title: {live: ['Reading {{limit}} commits', Reading commits]}
  tag.create:
    description: Create a tag.
    cli: [git, tag, --, '{{name}}']
    args:
      type: object
      properties:
        name: {type: string}
      required: [name]
      additionalProperties: false
    policy: {effect: write}
"""


@pytest.fixture
def built_pack(tmp_path):
    """A pack directory made the way `wrapgen build` makes one."""
    from wrapgen.pack.build import render_pack_files
    from wrapgen.pack.emit import write_files

    pack = tmp_path / "demo"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    write_files(pack, render_pack_files(PACK_YAML.encode("utf-8")))
    return pack


def test_cli_export_formats(cli, built_pack):
    """`wrapgen export` prints MCP tools, OpenAI tools, or the binding, byte-identical on rerun."""
    mcp = cli("export", str(built_pack))
    assert mcp.exit_code == 0, mcp.stderr
    tools = json.loads(mcp.stdout)
    assert [t["name"] for t in tools] == ["log", "tag.create"]
    assert tools[0]["annotations"] == {"title": "Reading commits", "readOnlyHint": True}
    assert cli("export", str(built_pack)).stdout == mcp.stdout
    openai = json.loads(cli("export", str(built_pack), "--format", "openai").stdout)
    assert [t["function"]["name"] for t in openai] == ["log", "tag__create"]
    prefixed = json.loads(cli("export", str(built_pack), "--prefix").stdout)
    assert [t["name"] for t in prefixed] == ["demo.log", "demo.tag.create"]
    hcp = cli("export", str(built_pack), "--format", "hcp")
    assert hcp.stdout == (built_pack / "binding.json").read_text(encoding="utf-8")


def test_cli_export_by_pack_id(cli, built_pack):
    """A pack id is looked up in ./adapters, like `wrapgen exec`."""
    adapters = built_pack.parent / "adapters"
    adapters.mkdir()
    built_pack.rename(adapters / "demo")
    result = cli("export", "demo", cwd=built_pack.parent)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["name"] == "log"


def test_cli_export_stale_pack_says_build(cli, built_pack):
    """An edited pack.yaml (stale binding) is refused with the build hint, no traceback."""
    (built_pack / "pack.yaml").write_text(PACK_YAML + "\n", encoding="utf-8")
    result = cli("export", str(built_pack))
    assert result.exit_code != 0
    assert "wrapgen build" in result.stderr and "Traceback" not in result.stderr


def test_cli_export_missing_pack(cli, tmp_path):
    """A pack that does not exist is a clear error with a hint."""
    result = cli("export", "nosuchpack", cwd=tmp_path)
    assert result.exit_code == 2
    assert "no pack 'nosuchpack'" in result.stderr and "hint:" in result.stderr
