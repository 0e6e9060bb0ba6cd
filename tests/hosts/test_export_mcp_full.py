"""Issue 14, MCP in full, the pure half: outputSchema for ``--json FIELDS`` verbs, the four annotation
hints from policy, tool names cut to 64 characters and mapped back, the call result's structured
content and done title (the served half, through the SDK client, is tests/live/test_hosts_serve_progress_live.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wrapgen.errors import ManifestError
from wrapgen.hosts import export
from wrapgen.hosts.mcp import TITLE_META, call_titles, tool_result


def _verb(**fields) -> dict:
    verb = {
        "description": "Does a thing.",
        "argv": ["t"],
        "args": {"type": "object", "properties": {}},
        "policy": {"effect": "read", "confirm": False, "declared": True},
    }
    verb.update(fields)
    return verb


def _binding(verbs: dict, pack_id: str = "t") -> dict:
    return {"pack_id": pack_id, "description": "T.", "bin": "t", "verbs": verbs}


@pytest.mark.parametrize(
    "selection, fields",
    [
        (["--json", "number,title,url"], ("number", "title", "url")),
        (["--json=number,title"], ("number", "title")),
        (["--json", "number,number"], ("number",)),
        (["--json"], ()),
        (["-o", "json"], ()),
        (["--format", "json"], ()),
        (["--json", "a b"], ()),
        ([], ()),
    ],
)
def test_json_fields_only_from_a_field_list_given_to_json(selection, fields):
    assert export.json_fields(_verb(json=selection)) == fields


def test_output_schema_is_listed_and_export_shows_it():
    """export --format mcp prints the outputSchema serve lists: an object holding ``result``."""
    binding = _binding({"pr.list": _verb(json=["--json", "number,title"]), "status": _verb()})
    tools = {tool["name"]: tool for tool in json.loads(export.export_text([binding], format="mcp"))}
    schema = tools["pr.list"]["outputSchema"]
    assert schema["type"] == "object" and schema["required"] == ["result"]
    row = schema["properties"]["result"]["anyOf"][0]
    assert row == {
        "type": "object",
        "properties": {"number": {}, "title": {}},
        "required": ["number", "title"],
    }
    assert schema["properties"]["result"]["anyOf"][1] == {"type": "array", "items": row}
    assert "outputSchema" not in tools["status"]
    assert list(tools["pr.list"]) == [
        "name",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ]


def test_all_four_hints_from_policy():
    write = {
        "effect": "write",
        "confirm": True,
        "declared": True,
        "idempotent": True,
        "open_world": True,
    }
    read = {
        "effect": "read",
        "confirm": False,
        "declared": True,
        "idempotent": True,
        "open_world": False,
    }
    undeclared = {"effect": "read", "confirm": False, "declared": False, "open_world": False}
    assert export.tool_annotations(_verb(policy=write)) == {
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    # idempotentHint only means something for a tool that writes
    assert export.tool_annotations(_verb(policy=read)) == {
        "readOnlyHint": True,
        "openWorldHint": False,
    }
    assert export.tool_annotations(_verb(policy=undeclared)) == {}


def test_pack_yaml_policy_hints_reach_the_binding(tmp_path):
    from wrapgen.pack.build import render_pack_files

    manifest = (
        "pack_id: t\ndescription: T.\nbin: t\nverbs:\n  push:\n    description: Push.\n    cli: [t, push]\n"
        "    policy: {effect: write, idempotent: false, open_world: true}\n"
    )
    binding = json.loads(render_pack_files(manifest.encode())["binding.json"])
    assert binding["verbs"]["push"]["policy"] == {
        "effect": "write",
        "confirm": True,
        "declared": True,
        "idempotent": False,
        "open_world": True,
    }


_LOWER = "abcdefghijklmnopqrstuvwxyz"
_SEGMENT = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(_LOWER),
    st.text(_LOWER + "0123456789-", max_size=30),
)


@given(
    verbs=st.lists(
        st.lists(_SEGMENT, min_size=1, max_size=4).map(".".join),
        min_size=1,
        max_size=6,
        unique=True,
    ),
    prefix=st.booleans(),
)
def test_names_fit_64_and_map_back(verbs, prefix):
    """Every listed name (MCP and OpenAI) has at most 64 characters, is the same on every run, and
    the listing maps it back to its own verb."""
    binding = _binding({verb: _verb() for verb in verbs}, pack_id="some-pack")
    refs = export.tool_refs([binding], prefix=prefix)
    assert len({ref.name for ref in refs}) == len(verbs)
    for ref in refs:
        assert len(ref.name) <= 64 and export.MCP_NAME_RE.fullmatch(ref.name)
        assert export.find_ref(refs, ref.name) == ref
        full = export.tool_name("some-pack", ref.verb_key, prefix=prefix)
        assert ref.name == full if len(full) <= 64 else ref.name.startswith(full[:55])
    assert [r.name for r in export.tool_refs([binding], prefix=prefix)] == [r.name for r in refs]
    for tool in export.openai_tools([binding], prefix=prefix):
        assert export.OPENAI_NAME_RE.fullmatch(tool["function"]["name"])


def test_cut_names_differ_by_the_hash_of_the_whole_name():
    a, b = "x" * 60 + ".one", "x" * 60 + ".two"
    assert (
        export.fit_name(a) != export.fit_name(b)
        and export.fit_name(a)[:55] == export.fit_name(b)[:55]
    )
    assert export.fit_name("short") == "short"


def test_a_collision_after_cutting_is_refused(monkeypatch):
    monkeypatch.setattr(export, "fit_name", lambda name, limit=64: name[:64])
    binding = _binding({"a" * 70: _verb(), "a" * 71: _verb()})
    with pytest.raises(ManifestError) as info:
        export.tool_refs([binding])
    assert "both get the name" in info.value.message


def test_tool_result_structured_content_and_done_title():
    verb = _verb(
        json=["--json", "number,title"], title={"live": ["Listing pods"], "done": ["Listed pods"]}
    )
    rows = [{"number": 1, "title": "a"}]
    result = tool_result({"ok": True, "result": rows}, verb, title="Listed pods")
    assert result["structuredContent"] == {"result": rows} and not result["isError"]
    assert json.loads(result["content"][0]["text"]) == rows
    assert result["_meta"] == {TITLE_META: "Listed pods"}
    wrong = tool_result({"ok": True, "result": [{"number": 1}]}, verb)
    assert (
        wrong["isError"]
        and "structuredContent" not in wrong
        and "number, title" in wrong["content"][0]["text"]
    )
    assert "_meta" not in tool_result({"ok": True, "result": "text"}, _verb())


def test_call_titles_live_done_and_failed():
    verb = _verb(
        title={
            "live": ["Listing pods in {{ns}}", "Listing pods"],
            "done": ["Listed {{result.n}} pods", "Listed pods"],
        }
    )
    assert call_titles(verb, {"ns": "kube-system"}) == "Listing pods in kube-system"
    assert call_titles(verb, {}) == "Listing pods"
    assert call_titles(verb, {}, {"ok": True, "result": {"n": 3}}) == "Listed 3 pods"
    assert call_titles(verb, {}, {"ok": True, "result": "text"}) == "Listed pods"
    assert call_titles(verb, {}, {"ok": False, "error": "no"}) is None
    assert call_titles(_verb(), {}) is None
