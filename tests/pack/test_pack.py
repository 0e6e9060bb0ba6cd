"""pack.yaml: loading, schema validation with field paths and lines, bad input, deterministic dump."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wrapgen.errors import ManifestError
from wrapgen.pack.manifest import (
    MANIFEST_NAME,
    NAME_CODE,
    SCHEMA_CODE,
    dump_manifest,
    load_manifest,
    pack_schema,
    parse_manifest,
)

PACKS = Path(__file__).resolve().parent.parent / "packs"

MINIMAL = textwrap.dedent(
    """\
    pack_id: mail
    description: Read mail.
    bin: mail
    verbs:
      find:
        description: Find mail.
        cli: [mail, find, --query, '{{q}}']
        args:
          type: object
          properties:
            q: {type: string}
          additionalProperties: false
        policy: {effect: read}
    """
)


def _diagnostics(text: str | bytes):
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return parse_manifest(raw)


def _one(text: str):
    manifest, diagnostics = _diagnostics(text)
    assert len(diagnostics) == 1, [d.format() for d in diagnostics]
    return diagnostics[0]


@pytest.mark.parametrize("name", ["git", "jq"])
def test_example_packs_load_without_diagnostics(name):
    """The hand-written example packs are valid manifests."""
    manifest = load_manifest(PACKS / name)
    assert manifest.data["pack_id"] == name
    assert manifest.raw == (PACKS / name / MANIFEST_NAME).read_bytes()
    assert 5 <= len(manifest.data["verbs"]) <= 12


def test_schema_is_draft_2020_12_and_shipped_in_the_package():
    """pack.schema.json ships inside wrapgen/ and is a valid draft 2020-12 schema."""
    from importlib import resources

    import jsonschema

    assert resources.files("wrapgen").joinpath("pack/schemas/pack.schema.json").is_file()
    schema = pack_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_line_map_points_at_each_key_and_list_item():
    """The manifest maps field paths to the line of their key or list item."""
    manifest, diagnostics = _diagnostics(MINIMAL)
    assert diagnostics == []
    assert manifest.lines["pack_id"] == 1
    assert manifest.lines["verbs.find"] == 5
    assert manifest.lines["verbs.find.cli[2]"] == 7
    assert manifest.lines["verbs.find.args.properties.q"] == 11
    assert manifest.line_of("verbs.find.args.properties.q.nothing[3]") == 11


def test_a_wrong_title_template_is_reported_at_its_list_index_and_line():
    """`verbs.find.title.live[1]` and its line, not a oneOf blob about the whole list."""
    diagnostic = _one(MINIMAL + "    title:\n      live:\n        - Searching\n        - 3\n")
    assert diagnostic.code == SCHEMA_CODE and diagnostic.level == "error"
    assert diagnostic.field == "verbs.find.title.live[1]"
    assert diagnostic.line == 17
    assert "not of type 'string'" in diagnostic.message
    assert diagnostic.format().startswith("pack.yaml:17: W001 error verbs.find.title.live[1]: ")


def test_args_allow_only_the_stated_subset():
    """A JSON Schema keyword outside the runtime's subset is an unknown field at its own line."""
    text = MINIMAL.replace("q: {type: string}", "q: {type: string, format: email}")
    diagnostic = _one(text)
    assert diagnostic.field == "verbs.find.args.properties.q.format"
    assert diagnostic.line == 11
    assert "unknown field 'format'" in diagnostic.message
    assert "maxLength" in diagnostic.hint


@pytest.mark.parametrize(
    "replacement, field",
    [
        ("q: {type: object}", "verbs.find.args.properties.q.type"),
        ("q: {type: array, uniqueItems: true}", "verbs.find.args.properties.q.uniqueItems"),
        ("q: {type: array, minItems: -1}", "verbs.find.args.properties.q.minItems"),
        ("q: {type: array, items: {type: array}}", "verbs.find.args.properties.q.items.type"),
        ("q: {type: string, pattern: '(unclosed'}", "verbs.find.args.properties.q.pattern"),
    ],
)
def test_arg_schemas_outside_the_subset_are_refused(replacement, field):
    """Object-typed args, array keywords outside the subset (minItems and maxItems are in it, as
    counts), nested arrays and broken regexes are schema errors."""
    diagnostic = _one(MINIMAL.replace("q: {type: string}", replacement))
    assert (diagnostic.code, diagnostic.field) == (SCHEMA_CODE, field)


def test_a_missing_required_field_names_it_at_its_parent():
    """A verb without description: the field path is the verb, the line is the verb's key."""
    diagnostic = _one(MINIMAL.replace("    description: Find mail.\n", ""))
    assert diagnostic.field == "verbs.find"
    assert diagnostic.line == 5
    assert diagnostic.message == "missing required field 'description'"


def test_args_must_be_an_object_schema():
    """`args.type` other than object is reported with the custom message."""
    diagnostic = _one(MINIMAL.replace("type: object", "type: array"))
    assert diagnostic.field == "verbs.find.args.type"
    assert "always a JSON object" in diagnostic.message


@pytest.mark.parametrize(
    "old, new, field",
    [
        ("pack_id: mail", "pack_id: Mail", "pack_id"),
        ("  find:", "  Find:", "verbs.Find"),
        ("  find:", "  find..all:", "verbs.find..all"),
    ],
)
def test_bad_names_get_the_names_code(old, new, field):
    """A pack_id or verb name breaking docs/contract.md §4 is W002, at the name's line."""
    diagnostic = _one(MINIMAL.replace(old, new))
    assert (diagnostic.code, diagnostic.field) == (NAME_CODE, field)
    assert diagnostic.line == (1 if field == "pack_id" else 5)


@pytest.mark.parametrize(
    "raw, words, line",
    [
        (b"pack_id: [unclosed\n", "YAML syntax error", 2),
        (b"pack_id: x\n  bad: indent\n", "YAML syntax error", 2),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00", "binary file", 1),
        (b"pack_id: caf\xe9\n", "not UTF-8", 1),
        (b"", "empty file", 1),
        (b"# only a comment\n", "empty file", 1),
        (b"- a\n- b\n", "top level is a list", 1),
        (b"just a string\n", "top level is a string", 1),
        (b"a: &x [*x]\n", "", 1),
    ],
)
def test_bad_files_give_one_diagnostic_and_no_traceback(raw, words, line):
    """Syntax errors, binary files, bad encodings and non-mappings are diagnostics with a line."""
    manifest, diagnostics = parse_manifest(raw)
    assert diagnostics, "expected a diagnostic"
    assert all(d.code == SCHEMA_CODE and d.level == "error" for d in diagnostics)
    assert words in diagnostics[0].message
    assert diagnostics[0].line == line


def test_duplicate_keys_and_non_json_values_are_reported():
    """YAML's silent last-key-wins and non-string keys become errors with their lines."""
    manifest, diagnostics = _diagnostics(MINIMAL + "pack_id: again\n")
    assert [(d.field, d.line) for d in diagnostics] == [("pack_id", 14)]
    assert "twice" in diagnostics[0].message
    manifest, diagnostics = _diagnostics(MINIMAL + "x-meta: {1: one}\n")
    assert [d.field for d in diagnostics] == ["x-meta"]
    assert "not a string" in diagnostics[0].message


def test_dates_stay_strings():
    """An unquoted date is a string, as in JSON, not a datetime that breaks the schema."""
    manifest, diagnostics = _diagnostics(MINIMAL.replace("Read mail.", "2024-01-01"))
    assert diagnostics == []
    assert manifest.data["description"] == "2024-01-01"


def test_load_manifest_raises_one_error_listing_every_problem(tmp_path):
    """load_manifest raises ManifestError with a hint and one diagnostic per problem."""
    (tmp_path / MANIFEST_NAME).write_text(
        MINIMAL.replace("bin: mail\n", "").replace("type: object", "type: array")
    )
    with pytest.raises(ManifestError) as caught:
        load_manifest(tmp_path)
    error = caught.value
    assert error.hint
    assert sorted(d.field for d in error.diagnostics) == ["", "verbs.find.args.type"]
    assert all(d.path == str(tmp_path / MANIFEST_NAME) for d in error.diagnostics)


def test_a_missing_pack_is_a_manifest_error(tmp_path):
    """A directory without pack.yaml is a ManifestError, not FileNotFoundError."""
    with pytest.raises(ManifestError) as caught:
        load_manifest(tmp_path)
    assert "no pack.yaml" in caught.value.diagnostics[0].message


def test_check_on_a_binary_file_prints_a_finding_not_a_traceback(tmp_path, cli):
    """`wrapgen check` over garbage reports W001 and exits 1."""
    (tmp_path / MANIFEST_NAME).write_bytes(bytes(range(256)))
    result = cli("check", str(tmp_path))
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert f"{tmp_path / MANIFEST_NAME}:1: W001 error binary file" in result.stdout


def test_dump_orders_keys_and_keeps_unicode():
    """dump_manifest writes the fixed key order, block mappings, flow cli lists and raw unicode."""
    data = {
        "verbs": {
            "find": {
                "aliases": {"de": ["suchen"]},
                "title": {"done": "Gesucht", "live": ["Suche nach „{{q}}“", "Suche"]},
                "policy": {"effect": "read"},
                "args": {
                    "additionalProperties": False,
                    "properties": {"q": {"description": "Wörter", "type": "string"}},
                    "type": "object",
                },
                "cli": ["mail", "find", "--query", "{{q}}"],
                "description": "Post finden.",
            }
        },
        "bin": "mail",
        "description": "Mail lesen.",
        "pack_id": "mail",
    }
    text = dump_manifest(data)
    top = [line.split(":")[0] for line in text.splitlines() if line and not line.startswith(" ")]
    assert top == ["pack_id", "description", "bin", "verbs"]
    verb_keys = [
        line.strip().split(":")[0]
        for line in text.splitlines()
        if line.startswith("    ") and not line.startswith("     ")
    ]
    assert verb_keys == ["description", "cli", "args", "policy", "title", "aliases"]
    assert "cli: [mail, find, --query, '{{q}}']" in text
    assert "„{{q}}“" in text and "\\u" not in text
    assert text.endswith("\n") and "\r" not in text
    manifest, diagnostics = parse_manifest(text.encode())
    assert diagnostics == [] and manifest.data == data


def test_dump_is_deterministic_and_a_fixed_point():
    """Dumping a loaded example pack twice gives the same text, and reloading it the same data."""
    data = load_manifest(PACKS / "git").data
    first = dump_manifest(data)
    assert first == dump_manifest(json.loads(json.dumps(data)))
    reloaded, _ = parse_manifest(first.encode())
    assert reloaded.data == data
    assert dump_manifest(reloaded.data) == first


def test_dump_refuses_an_invalid_manifest():
    """dump_manifest validates what it writes and names the bad field."""
    with pytest.raises(ManifestError) as caught:
        dump_manifest(
            {
                "pack_id": "x",
                "description": "d",
                "bin": "x",
                "verbs": {"a": {"description": "d", "timeout_s": -1}},
            }
        )
    assert [d.field for d in caught.value.diagnostics] == ["verbs.a.timeout_s"]


_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=1,
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(
    description=_text.filter(lambda s: s.strip()), tokens=st.lists(_text, min_size=1, max_size=5)
)
def test_dump_round_trips_arbitrary_text(description, tokens):
    """Any description and cli tokens survive dump -> parse unchanged (quoting is the dumper's job)."""
    data = {
        "pack_id": "p",
        "description": description,
        "bin": "p",
        "verbs": {"v": {"description": description, "cli": ["p", *tokens]}},
    }
    manifest, diagnostics = parse_manifest(dump_manifest(data, validate=False).encode("utf-8"))
    assert manifest is not None, [d.format() for d in diagnostics]
    assert manifest.data == data
