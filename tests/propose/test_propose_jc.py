"""wrap proposes ``jc: PARSER`` for a read verb whose exact command form a jc parser reads
(wrapgen/propose/jcparse.py, the table wrapgen/knowledge/data/jc.json), and for nothing else."""

from __future__ import annotations

from wrapgen.knowledge.table import load
from wrapgen.propose.jcparse import jc_parser_for, propose_jc


def test_every_form_names_its_tool_first_and_has_a_reason():
    forms = load("jc")["forms"]
    assert {entry.tool for entry in forms} >= {"ps", "ls", "df", "git"}
    for entry in forms:
        assert entry.name.split()[0] == entry.tool and entry.why and entry.value


def test_the_forms_are_recognised():
    assert jc_parser_for("ps", ["ps", "-ef"]) == "ps"
    assert jc_parser_for("ps", ["ps", "aux"]) == "ps"
    assert jc_parser_for("/usr/bin/ls", ["ls", "-l", "--all", "{{all}}", "--", "{{paths}}"]) == "ls"
    assert jc_parser_for("df", ["df", "--human-readable", "{{human}}"]) == "df"
    assert (
        jc_parser_for(
            "git", ["git", "log", "--format=fuller", "--date=default", "--max-count={{max_count}}"]
        )
        == "git_log"
    )


def test_a_layout_option_literal_or_in_a_placeholder_stops_the_proposal():
    assert jc_parser_for("ps", ["ps", "-ef", "-o", "pid,cmd"]) is None
    assert jc_parser_for("ps", ["ps", "-ef", "-opid"]) is None
    assert jc_parser_for("ls", ["ls", "-l", "-1"]) is None
    assert jc_parser_for("df", ["df", "--output={{fields}}"]) is None
    assert (
        jc_parser_for(
            "git", ["git", "log", "--format=fuller", "--date=default", "--oneline", "{{oneline}}"]
        )
        is None
    )


def test_other_forms_and_tools_are_not_proposed():
    assert jc_parser_for("ps", ["ps"]) is None  # not a form the table lists
    assert jc_parser_for("ls", ["ls", "--all"]) is None  # not the long listing
    assert (
        jc_parser_for("git", ["git", "log", "--oneline"]) is None
    )  # the user's config could change it
    assert (
        jc_parser_for("git", ["git", "show", "--format=fuller", "--date=default"]) is None
    )  # another subcommand
    assert jc_parser_for("rg", ["rg", "-l", "x"]) is None
    assert jc_parser_for("ls", ["gls", "-l"]) is None  # cli[] runs another program


def test_propose_jc_marks_read_verbs_without_json_only():
    manifest = {
        "pack_id": "ps",
        "bin": "ps",
        "json": False,
        "verbs": {
            "all": {"description": "d", "cli": ["ps", "-ef"], "policy": {"effect": "read"}},
            "custom": {
                "description": "d",
                "cli": ["ps", "-ef", "-o", "{{fields}}"],
                "policy": {"effect": "read"},
            },
            "kill": {
                "description": "d",
                "cli": ["ps", "aux"],
                "policy": {"effect": "write", "confirm": True},
            },
            "json": {
                "description": "d",
                "cli": ["ps", "aux"],
                "json": ["--json"],
                "policy": {"effect": "read"},
            },
        },
    }
    out = propose_jc(manifest, tool="ps")
    assert list(out["verbs"]["all"]) == ["description", "cli", "jc", "policy"]
    assert out["verbs"]["all"]["jc"] == "ps"
    assert all("jc" not in out["verbs"][name] for name in ("custom", "kill", "json"))
    assert "jc" not in manifest["verbs"]["all"]  # the input is not changed


def test_a_pack_that_selects_json_gets_no_jc():
    manifest = {
        "pack_id": "x",
        "bin": "df",
        "json": ["--json"],
        "verbs": {"v": {"description": "d", "cli": ["df"], "policy": {"effect": "read"}}},
    }
    assert "jc" not in propose_jc(manifest, tool="df")["verbs"]["v"]
