"""W080-W082 (wrapgen/check/text.py) and the text tests behind them (wrapgen/knowledge/text.py),
and propose writing sentences where the help has usage syntax (wrapgen/propose/text.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.check.rules import check_packs, lint_manifest
from wrapgen.check.text import text_findings
from wrapgen.knowledge.text import names_only, title_placeholder, unreadable_reason
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.pack.manifest import dump_manifest, parse_manifest
from wrapgen.propose import propose
from wrapgen.propose.text import operand_description, readable

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text, kind",
    [
        ("Where OBJECT := { address | link | route }.", "usage syntax"),
        ("Listing |output|threads|misc|all>' or 'ps --help <s|l|o|t|m|a>'", "usage syntax"),
        ("usage: git [-v | --version] [-h | --help]", "usage syntax"),
        ("-a, --all  do not ignore entries starting with .", "an option table"),
        ("Copyright (C) 2024 Free Software Foundation, Inc.", "a copyright line"),
        ("jq 1.7.1", "a version line"),
        ("GNU tar 1.35", "a version line"),
    ],
)
def test_unreadable_text_is_named(text, kind):
    assert unreadable_reason(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "List pull requests in a repository.",
        "Show changes between commits, commit and working tree, etc.",
        "Search for PATTERNS in each FILE.",
        "Display a line of text (version 2 only).",
        "Apply a configuration to a resource by file name or stdin.",
        "Print lines that match patterns.",
    ],
)
def test_sentences_are_readable(text):
    assert unreadable_reason(text) is None


def test_choice_lists_are_written_out_and_synopses_dropped():
    assert (
        readable("Filter by state: {open|closed|all}")
        == "Filter by state: one of: open, closed, all"
    )
    assert readable("Where OBJECT := { address | link }") == ""


def test_title_placeholders_and_names_only():
    assert title_placeholder("Showing <revision>") == "<revision>"
    assert title_placeholder("Listing {OBJECT}") == "{OBJECT}"
    assert title_placeholder("Showing {{rev}}") is None
    assert names_only("path", "paths") and names_only("revision-range", "revision_range")
    assert not names_only("Files to read", "files")


def test_operands_whose_help_is_their_name_get_a_description():
    text = operand_description(Positional(name="<pathspec>", variadic=True), "pathspecs")
    assert "path" in text.lower() and not names_only(text, "pathspecs")
    text = operand_description(Positional(name="CONTAINER"), "container")
    assert text.startswith("The container") and "CONTAINER" in text


def _manifest(description: str, title: str, arg_text: str) -> dict:
    return {
        "pack_id": "demo",
        "description": "A demo pack.",
        "bin": "demo",
        "verbs": {
            "show": {
                "description": description,
                "cli": ["demo", "show", "{{paths}}"],
                "args": {
                    "type": "object",
                    "properties": {"paths": {"type": "string", "description": arg_text}},
                    "additionalProperties": False,
                },
                "title": {"live": [title, "Showing"], "done": ["Shown"]},
                "policy": {"effect": "read", "confirm": False},
            }
        },
    }


def test_each_rule_fires_on_its_class_and_not_on_clean_text():
    bad = text_findings(_manifest("Where OBJECT := { a | b }.", "Showing <rev>", "path"))
    assert sorted(code for code, _f, _m in bad) == ["W080", "W081", "W082"]
    assert text_findings(_manifest("Show an object.", "Showing {{paths}}", "Paths to show")) == []
    parsed, diagnostics = parse_manifest(
        dump_manifest(_manifest("jq 1.7.1", "Showing", "path")).encode(), path="pack.yaml"
    )
    codes = {d.code for d in lint_manifest(parsed, diagnostics, derived=False)}
    assert {"W080", "W082"} <= codes


def test_test_packs_are_clean():
    packs = sorted(p for p in (REPO / "tests" / "packs").iterdir() if (p / "pack.yaml").is_file())
    assert packs
    assert [d.format() for d in check_packs(packs) if d.code in ("W080", "W081")] == []


def test_propose_replaces_a_usage_syntax_summary_and_bare_operand_names():
    root = Command(
        summary="jq 1.7.1",
        subcommands=(
            Command(
                path=("addr",),
                summary="Where OBJECT := { address | link }",
                usage=("demo addr <pathspec>...",),
                positionals=(Positional(name="<pathspec>", variadic=True, type="path"),),
                flags=(Flag(long="--dry-run", short="-n", description="dry run"),),
            ),
            Command(
                path=("list",),
                summary="List things.",
                flags=(Flag(long="--all", description="list all"),),
            ),
        ),
    )
    manifest = propose(Tool(name="demo", root=root)).manifest
    assert text_findings(manifest) == [], text_findings(manifest)
