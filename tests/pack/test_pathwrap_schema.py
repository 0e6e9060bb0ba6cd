"""PATH wraps (`bin` + `allowedSubcommands`): pathwrap.schema.json, read through the shared loader."""

from __future__ import annotations

from importlib import resources

import jsonschema
import pytest

from wrapgen.errors import RecipeError
from wrapgen.flows import promote
from wrapgen.pack.pathwrap import (
    PathWrap,
    PathWrapError,
    load_path_wrap,
    parse_path_wrap,
    pathwrap_schema,
)


def _error(text: str) -> PathWrapError:
    with pytest.raises(PathWrapError) as caught:
        parse_path_wrap(text, source="w.yaml")
    return caught.value


def test_the_schema_ships_in_the_package_and_is_valid():
    """pathwrap.schema.json sits beside the pack and recipe schemas and is valid draft 2020-12."""
    assert resources.files("wrapgen").joinpath("pack/schemas/pathwrap.schema.json").is_file()
    schema = pathwrap_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["required"] == ["wrap"]
    # argv_template (issue 11 item 7): how the tool composes commands, carried over into the promoted packs
    assert set(schema["properties"]["wrap"]["properties"]) == {
        "bin",
        "allowedSubcommands",
        "argv_template",
    }


def test_promote_reads_path_wraps_through_the_pack_module():
    """promote's names are the pack module's: one reader, not a second copy with its own checks."""
    assert promote.parse_path_wrap is parse_path_wrap and promote.load_path_wrap is load_path_wrap
    assert promote.PathWrap is PathWrap and issubclass(PathWrapError, RecipeError)


def test_a_valid_path_wrap_loads_with_paths_split_and_deduplicated():
    """Entries are split into words, kept in order, each once; description and source are kept."""
    wrap = parse_path_wrap(
        "pack_id: kube\ndescription: Inspect.\nwrap:\n  bin: kubectl\n"
        "  allowedSubcommands: [get, 'rollout  status', get]\n",
        source="w.yaml",
    )
    assert wrap == PathWrap(
        pack_id="kube",
        bin="kubectl",
        allowed=(("get",), ("rollout", "status")),
        description="Inspect.",
        source_path="w.yaml",
    )


def test_bin_may_stand_at_the_top_level_and_pack_id_defaults_to_it():
    """A bootstrap pack says `bin:` as a pack does; wrap.bin wins when both are there."""
    assert parse_path_wrap("bin: kubectl\nwrap: {allowedSubcommands: [get]}\n").pack_id == "kubectl"
    both = parse_path_wrap("bin: kc\nwrap: {bin: kubectl, allowedSubcommands: [get]}\n")
    assert (both.bin, both.pack_id) == ("kubectl", "kubectl")


@pytest.mark.parametrize(
    "text, headline, hint",
    [
        (
            "pack_id: k\n",
            "w.yaml:1: no `wrap:` mapping; this is not a PATH wrap",
            "a PATH wrap looks like",
        ),
        (
            "pack_id: k\nwrap: {allowedSubcommands: [get]}\n",
            "w.yaml:2: wrap: `wrap.bin` is missing",
            "kubectl",
        ),
        (
            "pack_id: k\nwrap: 3\n",
            "w.yaml:2: wrap: `wrap` must be a mapping",
            "a PATH wrap looks like",
        ),
        (
            "pack_id: k\nwrap:\n  bin: kc\n  allowedSubcommands: get\n",
            "w.yaml:4: wrap.allowedSubcommands: `wrap.allowedSubcommands` must be a non-empty list",
            "rollout status",
        ),
        (
            "pack_id: k\nwrap:\n  bin: kc\n  allowedSubcommands:\n    - get\n    - '  '\n",
            "w.yaml:6: wrap.allowedSubcommands[1]: must be a subcommand path",
            "rollout status",
        ),
        (
            "pack_id: K8s\nwrap: {bin: kc, allowedSubcommands: [get]}\n",
            "w.yaml:1: pack_id: not a valid pack id",
            "lower-case",
        ),
        (
            "wrap: {bin: /usr/bin/kubectl, allowedSubcommands: [get]}\n",
            "w.yaml:1: wrap.bin: no pack_id, and bin '/usr/bin/kubectl' is not a valid pack id",
            "add `pack_id:`",
        ),
        (
            "pack_id: k\nwrap: {bin: ' ', allowedSubcommands: [get]}\n",
            "w.yaml:2: wrap.bin: must name the tool",
            "kubectl",
        ),
        (
            "pack_id: k\nwrap: {bin: kc, allowedSubcommands: [get]\n",
            "w.yaml:3: invalid YAML: ",
            "YAML syntax",
        ),
        (
            "- get\n",
            "w.yaml:1: the top level is a list, expected a mapping with pack_id and wrap",
            "allowedSubcommands",
        ),
    ],
)
def test_each_problem_is_file_line_field_message(text, headline, hint):
    """Every malformed PATH wrap is one PathWrapError whose message starts `file:line: field: message`."""
    error = _error(text)
    assert error.message.startswith(headline), error.message
    assert hint in error.hint


def test_unknown_keys_are_errors_with_the_closest_schema_key():
    """A misspelt key at the top or in wrap is named, on its line, with the key it probably meant."""
    error = _error("pack_id: k\ndescripton: x\nwrap: {bin: kc, allowedSubcommands: [get]}\n")
    assert error.message == "w.yaml:2: descripton: unknown key 'descripton'"
    assert error.hint.startswith("did you mean 'description'?")
    error = _error("pack_id: k\nwrap:\n  bin: kc\n  allowedSubcommands: [get]\n  bni: x\n")
    assert (
        error.message == "w.yaml:5: wrap.bni: unknown key 'bni'"
        and "did you mean 'bin'?" in error.hint
    )


def test_extension_keys_are_allowed():
    """`x-` keys, as in a pack, are metadata the schema lets through at both levels."""
    wrap = parse_path_wrap("x-owner: ops\nwrap: {bin: kc, x-note: n, allowedSubcommands: [get]}\n")
    assert wrap.bin == "kc"


def test_every_problem_is_listed_not_only_the_first():
    """Two problems: the headline is the first (by line) and says how many more; the rest ride along."""
    error = _error("pack_id: K\nwrap: {bin: kc, allowedSubcommands: [get, 3]}\n")
    assert error.message.startswith("w.yaml:1: pack_id: ") and error.message.endswith(
        "(and 1 more)"
    )
    [other] = error.diagnostics
    assert (other.line, other.field) == (2, "wrap.allowedSubcommands[1]")


def test_files_that_cannot_be_read_are_path_wrap_errors(tmp_path):
    """A missing file, a directory and binary bytes are PathWrapErrors naming the path."""
    with pytest.raises(PathWrapError, match="does not exist"):
        load_path_wrap(tmp_path / "nope.yaml")
    with pytest.raises(PathWrapError, match="is a directory"):
        load_path_wrap(tmp_path)
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\x7fELF\x00\x01")
    with pytest.raises(PathWrapError, match=f"{binary}:1: binary file"):
        load_path_wrap(binary)
    good = tmp_path / "good.yaml"
    good.write_text("wrap: {bin: kc, allowedSubcommands: [get]}\n")
    assert load_path_wrap(good).source_path == str(good)
