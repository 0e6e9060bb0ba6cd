"""The knowledge loader: every shipped file loads once, and each kind of bad table is an error."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from wrapgen.knowledge.flags import build_noise_pattern
from wrapgen.knowledge.shells import build_operator_pattern, build_runners
from wrapgen.knowledge.table import KnowledgeError, decode, load, parse

GOOD = {
    "about": "a test file",
    "tables": {
        "read": {
            "about": "read words",
            "groups": [
                {"why": "lists things", "names": ["list", "show"]},
                {"why": "prints a log", "names": ["log"]},
            ],
        },
        "write": {"about": "write words", "groups": [{"why": "changes things", "names": ["push"]}]},
        "weights": {
            "about": "weights",
            "groups": [{"why": "used most", "values": {"list": 2.0, "log": 1.0}}],
        },
        "danger": {
            "about": "per tool",
            "keyed_by_tool": True,
            "groups": [
                {"tool": "*", "why": "runs a program", "names": ["--exec"]},
                {"tool": "fd", "why": "runs a program per result", "names": ["--exec", "-x"]},
            ],
        },
    },
    "exclusive": [["read", "write"]],
}


def _bad(change) -> dict:
    data = copy.deepcopy(GOOD)
    change(data)
    return data


# Data files with a structure of their own and their own validating loader (nested records, not
# word tables): hardening.json is read by wrapgen.knowledge.hardening.load_catalogue; usage.json
# (the usage table distilled from tldr-pages) by wrapgen.usage.
_STRUCTURED = {"hardening", "usage"}


def _shipped() -> list[str]:
    folder = resources.files("wrapgen.knowledge").joinpath("data")
    return sorted(
        p.name[:-5]
        for p in folder.iterdir()
        if p.name.endswith(".json") and p.name[:-5] not in _STRUCTURED
    )


def test_the_structured_data_files_load_through_their_own_loader():
    """hardening.json is not a word table: its own loader validates it, and every tool entry has a reason."""
    from wrapgen.knowledge.hardening import load_catalogue

    catalogue = load_catalogue()
    assert catalogue and all(entry.reason.strip() for entry in catalogue.values())


def test_the_good_table_loads_with_its_reasons():
    """A valid file gives each entry its group's reason and value, in file order."""
    data = parse(GOOD, source="good.json")
    assert [e.name for e in data["read"]] == ["list", "show", "log"]
    assert data["read"].get("log").why == "prints a log"
    assert data["weights"].values() == {"list": 2.0, "log": 1.0}
    assert {(e.tool, e.name) for e in data["danger"]} == {
        ("*", "--exec"),
        ("fd", "--exec"),
        ("fd", "-x"),
    }


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda d: d["tables"]["read"]["groups"][1]["names"].append("list"),
            "duplicate entry 'list'",
        ),
        (
            lambda d: d["tables"]["read"]["groups"][0]["names"].append("show"),
            "duplicate entry 'show'",
        ),
        (
            lambda d: d["tables"]["danger"]["groups"][1]["names"].append("-x"),
            "duplicate entry '-x' for tool 'fd'",
        ),
        (
            lambda d: d["tables"]["write"]["groups"][0]["names"].append("log"),
            "contradiction: 'log' is in both 'read' and 'write'",
        ),
        (lambda d: d["tables"]["read"]["groups"][0].pop("why"), "why: must be a non-empty string"),
        (
            lambda d: d["tables"]["read"]["groups"][0].update(why="  "),
            "why: must be a non-empty string",
        ),
        (lambda d: d["tables"]["read"]["groups"][0].update(reason="x"), "unknown key(s) reason"),
        (
            lambda d: d["tables"]["read"]["groups"][0].update(values={"a": 1}),
            "exactly one of 'names'",
        ),
        (lambda d: d["tables"]["read"]["groups"][0].update(names=[]), "non-empty list"),
        (lambda d: d["tables"]["read"]["groups"][0]["names"].append(""), "entry ''"),
        (
            lambda d: d["tables"]["danger"]["groups"][0].pop("tool"),
            "tool: must be a non-empty string",
        ),
        (
            lambda d: d["tables"]["read"]["groups"][0].update(tool="git"),
            "only allowed in a table keyed_by_tool",
        ),
        (lambda d: d["exclusive"].append(["read", "nowhere"]), "unknown table 'nowhere'"),
        (lambda d: d["exclusive"].append(["read"]), "two or more tables"),
        (lambda d: d["tables"].update(empty={"about": "x", "groups": []}), "non-empty 'groups'"),
        (lambda d: d.pop("about"), "about: must be a non-empty string"),
    ],
)
def test_each_kind_of_bad_table_is_an_error(change, message):
    """Duplicates, contradictions between exclusive tables, missing reasons and unknown keys stop loading."""
    with pytest.raises(KnowledgeError) as error:
        parse(_bad(change), source="bad.json")
    assert message in str(error.value)
    assert str(error.value).startswith("bad.json")


def test_a_key_twice_in_one_json_object_is_an_error():
    """json.loads keeps the last of two equal keys silently; the loader refuses them."""
    text = '{"about": "x", "tables": {"t": {"about": "a", "groups": [{"why": "w", "values": {"a": 1, "a": 2}}]}}}'
    with pytest.raises(KnowledgeError, match="'a' appears twice"):
        decode(text, source="dup.json")
    assert decode(json.dumps(GOOD), source="good.json") == GOOD


def test_a_no_prefix_noise_flag_beside_its_base_is_an_error():
    """'no-X' matches wherever 'X' does, so listing both is a duplicate the flags loader refuses."""
    data = {
        "about": "x",
        "tables": {
            "noise_flags": {"about": "n", "groups": [{"why": "w", "names": ["pager", "no-pager"]}]},
            "noise_flag_patterns": {"about": "p", "groups": [{"why": "w", "names": ["log-\\w+"]}]},
        },
    }
    with pytest.raises(KnowledgeError, match="'no-pager' and 'pager'"):
        build_noise_pattern(parse(data, source="flags.json"))
    data["tables"]["noise_flags"]["groups"][0]["names"] = ["pager"]
    data["tables"]["noise_flag_patterns"]["groups"][0]["names"] = ["log-(\\w+"]
    with pytest.raises(KnowledgeError, match="not a regular expression"):
        build_noise_pattern(parse(data, source="flags.json"))


def test_a_bad_shell_value_or_operator_is_an_error():
    """A shell's code options must be {short, long}; a shell operator must be a regular expression."""
    tables = {
        kind: {"about": "k", "groups": [{"why": "w", "names": [f"p{i}"]}]}
        for i, kind in enumerate(
            ("shells", "interpreters", "program_operand", "command_runners", "split_string")
        )
    }
    tables["shells"]["groups"][0]["value"] = {"short": "c", "lng": []}
    tables["shell_operators"] = {"about": "o", "groups": [{"why": "w", "names": ["(unclosed"]}]}
    data = parse({"about": "x", "tables": tables}, source="shells.json")
    with pytest.raises(KnowledgeError, match="value must be"):
        build_runners(data)
    with pytest.raises(KnowledgeError, match="not a regular expression"):
        build_operator_pattern(data)


@pytest.mark.parametrize("name", _shipped())
def test_every_shipped_file_loads_and_every_entry_has_a_reason(name):
    """Each data file under wrapgen/knowledge/data validates, and each entry says why it is there."""
    data = load(name)
    assert data.tables
    for table in data.tables.values():
        assert table.about.strip()
        assert table.entries
        assert all(entry.why.strip() for entry in table.entries)


def test_files_are_read_once():
    """load() caches: every stage reads the same validated object."""
    assert load("commands") is load("commands")


def test_the_shipped_derived_tables_build():
    """The noise pattern and the shell tables built from the shipped data pass their own checks."""
    build_noise_pattern(load("flags"))
    assert build_runners(load("shells"))
    assert build_operator_pattern(load("shells")).match("&&")
    assert _shipped() == [
        "commands",
        "dangerous_flags",
        "effects",
        "exit_codes",
        "fields",
        "flags",
        "jc",
        "phrases",
        "runners",
        "sandbox",
        "secrets",
        "shells",
        "tools",
        "trials",
        "usage_kinds",
        "verbs",
        "weights",
    ]


def test_a_phrase_that_is_no_regular_expression_is_an_error():
    """Help phrases are regular expressions; a broken one stops loading with its file and table named."""
    from wrapgen.knowledge.phrases import compiled

    data = parse(
        {
            "about": "x",
            "tables": {
                "summary_out": {
                    "about": "s",
                    "groups": [
                        {"why": "deprecated", "value": "deprecated", "names": ["\\bdeprecated\\b"]},
                        {"why": "broken", "value": "x", "names": ["(?:unclosed"]},
                    ],
                }
            },
        },
        source="phrases.json",
    )
    with pytest.raises(
        KnowledgeError, match="phrases.json: summary_out: .* not a regular expression"
    ):
        compiled(data, "summary_out")
