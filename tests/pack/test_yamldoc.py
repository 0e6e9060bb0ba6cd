"""The one YAML + JSON Schema loader (wrapgen.pack.yamldoc): lines, diagnostics, hints from the schema."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from wrapgen.errors import RecipeError
from wrapgen.pack import manifest, pathwrap, recipe, yamldoc
from wrapgen.pack.recipe import RECIPE_KEYS, parse_recipe, recipe_schema

KIND = recipe.KIND


def _load(text: str, kind=KIND):
    return yamldoc.load_document(text, kind, path="doc.yaml")


def _only(text: str, kind=KIND):
    doc, diagnostics = _load(text, kind)
    assert len(diagnostics) == 1, [d.format() for d in diagnostics]
    return diagnostics[0]


@pytest.mark.parametrize("name", ["pack.schema.json", "recipe.schema.json", "pathwrap.schema.json"])
def test_every_shipped_schema_is_a_valid_draft_2020_12_schema(name):
    """Each schema the loader validates with is itself valid (the loader checks it when it builds one)."""
    schema = yamldoc.schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert yamldoc.validator(name).schema is schema


def test_every_node_keeps_the_line_of_its_key():
    """Mapping keys map to their key's line, list items to the item's line, the document to its start."""
    text = "# a comment\ntool: git\ncommands:\n  - log\n  - {path: show,\n     name: show}\noverrides: {}\n"
    doc, diagnostics = _load(text)
    assert diagnostics == []
    assert doc.lines[()] == 2
    assert doc.lines[("tool",)] == 2
    assert doc.lines[("commands",)] == 3
    assert doc.lines[("commands", 0)] == 4
    assert doc.lines[("commands", 1)] == 5
    assert doc.lines[("commands", 1, "name")] == 6
    assert doc.line_of(("commands", 1, "name", "deeper", 3)) == 6
    assert doc.line_of(("nothing",)) == 2


def test_field_text_quotes_dotted_keys_only_where_the_kind_says():
    """A recipe writes overrides['pr.list']; a pack keeps verbs.pr.list, the form check rules build."""
    parts = ("overrides", "pr.list", "title", "live", 1)
    assert recipe.KIND.field(parts) == "overrides['pr.list'].title.live[1]"
    assert manifest.KIND.field(("verbs", "pr.list", "cli", 0)) == "verbs.pr.list.cli[0]"
    assert yamldoc.format_field(()) == ""


@pytest.mark.parametrize(
    "text, words, line",
    [
        ("tool: git\ncommands: [log\nexclude: []\n", "invalid YAML: ", 3),
        ("tool: git\n  bad: indent\n", "invalid YAML: ", 2),
        ("", "empty file", 1),
        ("# nothing\n", "empty file", 1),
        ("- tool: git\n", "the top level is a list", 1),
        ("git\n", "the top level is a string", 1),
        ("a: &x [*x]\n", "cycle", 1),
        ("[" * 100 + "]" * 100, "nested too deeply", 1),
    ],
)
def test_unreadable_documents_are_one_diagnostic_with_a_line(text, words, line):
    """Broken YAML, an empty file, a non-mapping, a cycle, deep nesting: one diagnostic, no document, no raise."""
    doc, diagnostics = _load(text)
    assert doc is None
    [diagnostic] = diagnostics
    assert words in diagnostic.message and diagnostic.line == line
    assert (diagnostic.code, diagnostic.level, diagnostic.field) == ("R001", "error", "")
    assert diagnostic.hint


@pytest.mark.parametrize(
    "raw, words",
    [
        (b"tool: \xff\n", "not UTF-8"),
        (b"tool: git\x00\n", "binary file"),
    ],
)
def test_bytes_that_are_not_text_are_a_diagnostic(raw, words):
    """Bytes are decoded by the loader: invalid UTF-8 and NUL bytes are diagnostics, not exceptions."""
    doc, [diagnostic] = _load(raw)
    assert doc is None and words in diagnostic.message


def test_a_duplicate_key_is_an_error_at_its_second_line():
    """YAML keeps the last of two equal keys silently; the loader reports it (recipes too, now)."""
    [diagnostic] = _load("tool: git\ndiscover: {depth: 1}\ntool: hg\n")[1]
    assert (diagnostic.field, diagnostic.line) == ("tool", 3)
    assert "given twice" in diagnostic.message
    with pytest.raises(RecipeError, match="doc.yaml:3: tool: key given twice"):
        parse_recipe("tool: git\ndiscover: {depth: 1}\ntool: hg\n", source="doc.yaml")


def test_a_wrong_type_is_reported_at_the_field_with_the_schema_hint():
    """`depth: deep` is a type error at discover.depth, on its line, with the message of jsonschema."""
    diagnostic = _only("tool: git\ndiscover:\n  style: gnu\n  depth: deep\n")
    assert (diagnostic.field, diagnostic.line) == ("discover.depth", 4)
    assert "is not of type 'integer'" in diagnostic.message
    assert diagnostic.format().startswith("doc.yaml:4: R001 error discover.depth: ")


def test_a_one_of_failure_reports_the_branch_the_value_has_the_shape_of():
    """policy: {effect: rede} fails the mapping branch at effect, not "not valid under any schema"."""
    diagnostic = _only("tool: git\noverrides:\n  log:\n    policy: {effect: rede}\n")
    assert diagnostic.field == "overrides.log.policy.effect"
    assert "'rede' is not one of" in diagnostic.message
    assert diagnostic.hint.startswith(
        "use read, write or destructive"
    )  # x-hint of $defs/policy, via $ref


def test_a_value_fitting_no_branch_is_named_with_its_value():
    """`json: --json` fits neither false nor a list: the combinator is reported, with the value."""
    diagnostic = _only("tool: git\njson: --json\n")
    assert diagnostic.field == "json"
    assert diagnostic.message == '"--json" is not a valid value here'
    assert "[--json]" in diagnostic.hint


def test_unknown_keys_suggest_the_closest_key_the_schema_allows_there():
    """A misspelt key gets "did you mean" and the keys allowed at that place, all from the schema."""
    diagnostic = _only("tool: git\ncommands:\n  - {path: log, nmae: log}\n")
    assert (diagnostic.field, diagnostic.line) == ("commands[0].nmae", 3)
    assert diagnostic.message == "unknown key 'nmae'"
    assert diagnostic.hint.startswith("did you mean 'name'? allowed here: ")
    assert set(diagnostic.hint.split("allowed here: ")[1].split(", ")) == set(
        RECIPE_KEYS["command"]
    )


def test_the_suggestion_follows_the_schema_not_a_copy(monkeypatch):
    """Add a key to the recipe schema and the loader suggests it: no hand-kept key table remains."""
    changed = copy.deepcopy(recipe_schema())
    changed["properties"]["frobnicate"] = {"type": "string"}
    monkeypatch.setattr(yamldoc, "schema", lambda name: changed)
    monkeypatch.setattr(yamldoc, "validator", lambda name: jsonschema.Draft202012Validator(changed))
    diagnostic = _only("tool: git\nfrobnicat: x\n")
    assert diagnostic.hint.startswith("did you mean 'frobnicate'?")
    assert not hasattr(recipe, "_SPEC_KEYS") and not hasattr(recipe, "_unknown_keys")


def test_recipe_keys_are_read_from_the_schema():
    """RECIPE_KEYS is derived: each entry is the property list of a place in recipe.schema.json."""
    schema = recipe_schema()
    assert RECIPE_KEYS["recipe"] == tuple(schema["properties"])
    assert RECIPE_KEYS["command"] == tuple(schema["$defs"]["command_entry"]["properties"])
    assert RECIPE_KEYS["override"] == tuple(schema["$defs"]["override"]["properties"])
    assert RECIPE_KEYS["policy"] == ("effect", "confirm")  # from the object branch of a oneOf
    assert RECIPE_KEYS["discover"] == ("depth", "style", "max_nodes")


def test_a_missing_key_names_a_close_misspelling_beside_it():
    """Required allowedSubcommands missing next to allowedSubcommand: the hint connects the two."""
    doc, diagnostics = _load("wrap: {bin: kc, allowedSubcommand: [get]}\n", pathwrap.KIND)
    assert [d.field for d in diagnostics] == ["wrap", "wrap.allowedSubcommand"]
    assert diagnostics[0].hint == "found 'allowedSubcommand': did you mean 'allowedSubcommands'?"


def test_x_message_may_be_given_per_validator():
    """{"required": "..."} in x-message words the missing-field error; other failures keep theirs."""
    [missing] = _load("pack_id: k\n", pathwrap.KIND)[1]
    assert missing.message == "no `wrap:` mapping; this is not a PATH wrap"
    [wrong] = _load("wrap: 3\n", pathwrap.KIND)[1]
    assert wrong.message == "`wrap` must be a mapping with bin and allowedSubcommands"


def test_non_json_values_are_reported_before_the_schema():
    """A non-string key cannot reach the schema: it is its own diagnostic, at its mapping's field."""
    [diagnostic] = _load("tool: git\noverrides: {1: {}}\n")[1]
    assert diagnostic.field == "overrides" and "not a string" in diagnostic.message


def test_raise_for_puts_the_first_error_in_the_headline_and_keeps_the_rest():
    """One exception: `file:line: field: message (and N more)`, the first hint, the others as diagnostics."""
    doc, diagnostics = _load("tool: git\nexclude: [-x]\ndiscover: {dept: 1}\n")
    assert len(diagnostics) == 2
    with pytest.raises(RecipeError) as caught:
        yamldoc.raise_for(diagnostics, RecipeError)
    assert caught.value.message.startswith(
        "doc.yaml:2: exclude[0]: "
    ) and caught.value.message.endswith("(and 1 more)")
    assert [d.field for d in caught.value.diagnostics] == ["discover.dept"]
    yamldoc.raise_for([], RecipeError)  # nothing to raise


def test_manifests_and_recipes_share_the_loader():
    """pack.yaml and recipes read through the same function: the same YAML problem, the same words."""
    pack_doc, [pack_problem] = yamldoc.load_document(b"a: 1\na: 2\n", manifest.KIND, path="p")
    recipe_doc, [recipe_problem] = yamldoc.load_document(b"a: 1\na: 2\n", recipe.KIND, path="p")
    assert (
        pack_problem.message == recipe_problem.message
        and pack_problem.line == recipe_problem.line == 2
    )
    assert (pack_problem.code, recipe_problem.code) == ("W001", "R001")


def test_read_document_turns_os_errors_into_diagnostics(tmp_path):
    """A missing file or a directory is a diagnostic at line 0, not an OSError."""
    doc, [missing] = yamldoc.read_document(tmp_path / "nope.yaml", KIND)
    assert doc is None and "does not exist" in missing.message and missing.line == 0
    doc, [directory] = yamldoc.read_document(tmp_path, KIND)
    assert doc is None and "is a directory" in directory.message


def test_schema_keys_follow_refs():
    """schema_keys resolves a $ref chain (override_fields.policy -> $defs/policy)."""
    schema = recipe_schema()
    assert yamldoc.schema_keys(schema, "#/$defs/override_fields/properties/policy") == (
        "effect",
        "confirm",
    )
    assert json.dumps(schema)  # still plain JSON


def test_one_field_breaking_two_rules_with_one_message_is_one_finding():
    """An empty verb description fails minLength and pattern, both saying 'must be a non-empty text': one diagnostic."""
    from wrapgen.pack.manifest import parse_manifest

    raw = (
        b"pack_id: p\ndescription: A pack.\nbin: p\nverbs:\n  v:\n    description: ''\n"
        b"    cli: [p]\n    policy: {effect: read}\n"
    )
    _, diagnostics = parse_manifest(raw)
    found = [d for d in diagnostics if d.field == "verbs.v.description"]
    assert len(found) == 1 and found[0].level == "error", diagnostics
