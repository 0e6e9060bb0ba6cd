"""What a JSON selection means (docs/contract.md §7): tokens ask the tool for JSON, `json: true` says it
prints JSON with nothing added, `json: false` that it prints text; `json: []` says neither and check
refuses it (W016), as it refuses `jc:` beside a JSON selection."""

from __future__ import annotations

import json
import sys

import pytest

from wrapgen.check.rules import lint_manifest
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.manifest import parse_manifest
from wrapgen.pack.recipe import parse_recipe
from wrapgen.runtime import execute

PY = sys.executable
# prints JSON with no flag, and fails if anything was added to its argv
PRINTS_JSON = "import sys; assert sys.argv[1:] == [], sys.argv; print('{\"a\": [1, 2]}')"


def _pack(pack_json: str | None, verb_json: str | None = None, jc: str | None = None) -> bytes:
    lines = ["pack_id: box", "description: A box.", f"bin: {json.dumps(PY)}"]
    if pack_json is not None:
        lines.append(f"json: {pack_json}")
    lines += [
        "verbs:",
        "  show:",
        "    description: Show it.",
        f"    cli: [{json.dumps(PY)}, -c, {json.dumps(PRINTS_JSON)}]",
        "    policy: {effect: read}",
    ]
    if verb_json is not None:
        lines.append(f"    json: {verb_json}")
    if jc is not None:
        lines.append(f"    jc: {jc}")
    return ("\n".join(lines) + "\n").encode()


def _w016(text: bytes) -> list[str]:
    manifest, diagnostics = parse_manifest(text, path="pack.yaml")
    assert manifest is not None, [d.format() for d in diagnostics]
    assert not [d for d in diagnostics if d.level == "error"], [d.format() for d in diagnostics]
    found = lint_manifest(manifest, diagnostics, derived=False)
    return [f"{d.level} {d.field}: {d.message}" for d in found if d.code == "W016"]


def test_json_true_runs_the_tool_as_written_and_parses_its_json():
    """`json: true`: nothing is added to the argv, and the output comes back parsed."""
    binding = json.loads(render_pack_files(_pack("true"))["binding.json"])
    assert binding["verbs"]["show"]["json"] is True
    assert execute(binding, "show", {}) == {"ok": True, "result": {"a": [1, 2]}}


def test_json_false_is_text_and_a_token_list_is_appended():
    """`json: false`: the output is text; `json: [--json]` is appended (the tool then refuses it)."""
    text = json.loads(render_pack_files(_pack("false"))["binding.json"])
    assert execute(text, "show", {}) == {"ok": True, "result": '{"a": [1, 2]}\n'}
    asked = json.loads(render_pack_files(_pack("[--json]"))["binding.json"])
    envelope = execute(asked, "show", {})
    assert envelope["ok"] is False and "--json" in envelope["error"]


@pytest.mark.parametrize(
    ("pack_json", "verb_json", "expected"),
    [
        ("[]", None, ["error json: json: [] is ambiguous"]),
        (None, "[]", ["error verbs.show.json: json: [] is ambiguous"]),
        ("[]", "true", []),  # no verb takes the pack's value
        ("true", None, []),
        ("false", None, []),
        (None, None, []),
    ],
)
def test_an_empty_selection_is_refused_where_a_verb_takes_it(pack_json, verb_json, expected):
    """check refuses `json: []` (W016) wherever a verb would take it, with what to write instead."""
    assert _w016(_pack(pack_json, verb_json)) == expected


def test_the_hint_says_what_to_write():
    manifest, diagnostics = parse_manifest(_pack(None, "[]"), path="pack.yaml")
    (found,) = [d for d in lint_manifest(manifest, diagnostics, derived=False) if d.code == "W016"]
    assert "json: false" in found.hint and "json: true" in found.hint


@pytest.mark.parametrize(
    ("pack_json", "verb_json", "refused"),
    [
        (None, None, True),  # the default selection, --json
        ("[--json]", None, True),
        (None, "true", True),
        ("false", None, False),
        (None, "false", False),
    ],
)
def test_jc_beside_a_json_selection_is_refused(pack_json, verb_json, refused):
    """A verb that declares jc: reads the tool's text: any JSON selection beside it is W016."""
    found = _w016(_pack(pack_json, verb_json, jc="ps"))
    assert bool(found) is refused, found
    if refused:
        assert "jc: ps reads the tool's text" in found[0] and "error" in found[0]


def test_a_recipe_says_json_true_too(tmp_path):
    """A recipe's `json: true` reaches the proposal request as it is."""
    recipe = parse_recipe("tool: aws\njson: true\n", source=str(tmp_path / "r.yaml"))
    assert recipe.json is True
