"""pack.yaml ``exit_codes`` against the schema: a bad key or meaning is W001 with a message that says the form."""

from __future__ import annotations

import pytest

from wrapgen.pack.manifest import parse_manifest

BASE = """\
pack_id: t
description: A test pack.
bin: rg
{top}verbs:
  search:
    description: Search.
    cli: [rg, x]
{verb}"""


def _diagnostics(top="", verb=""):
    _, diagnostics = parse_manifest(BASE.format(top=top, verb=verb).encode())
    return diagnostics


def test_valid_exit_codes_pass():
    """Quoted statuses 1..255 with short meanings, at pack and verb level, are valid."""
    assert (
        _diagnostics(
            'exit_codes: {"1": no matches, "255": gone}\n',
            '    exit_codes: {"1": differences found}\n',
        )
        == []
    )
    assert _diagnostics(verb="    exit_codes: {}\n") == []


@pytest.mark.parametrize("key", ['"0"', '"256"', '"01"', '"-1"', '"one"'])
def test_status_out_of_range_is_w001(key):
    """0, 256, a leading zero, a sign or a word is no declarable exit status."""
    diagnostics = _diagnostics(f"exit_codes: {{{key}: no matches}}\n")
    assert [d.code for d in diagnostics] == ["W001"]
    assert "exit status from 1 to 255" in diagnostics[0].message


def test_unquoted_status_asks_for_quotes():
    """YAML reads `1:` as a number: the diagnostic says to quote it."""
    diagnostics = _diagnostics("exit_codes: {1: no matches}\n")
    assert [d.code for d in diagnostics] == ["W001"]
    assert "quote" in diagnostics[0].message


@pytest.mark.parametrize("meaning", ['""', "7", '"two\\nlines"', '"' + "x" * 81 + '"'])
def test_bad_meaning_is_w001(meaning):
    """An empty, non-text, multi-line or over-long meaning is W001 at the verb's field."""
    diagnostics = _diagnostics(verb=f'    exit_codes: {{"1": {meaning}}}\n')
    assert [d.code for d in diagnostics] == ["W001"]
    assert diagnostics[0].field.startswith("verbs.search.exit_codes")
    assert "short meaning" in diagnostics[0].message


def test_not_a_mapping_is_w001():
    """A list instead of a map is W001 saying the expected shape."""
    diagnostics = _diagnostics("exit_codes: [1]\n")
    assert [d.code for d in diagnostics] == ["W001"]
    assert "must map exit statuses" in diagnostics[0].message
