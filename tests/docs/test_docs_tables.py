"""The tables in docs/ made from code are what scripts/docs_tables.py makes now, and hold the facts they claim."""

from __future__ import annotations

import importlib.util
import re

import pytest
import yaml

from conftest import REPO


@pytest.fixture(scope="module")
def tables():
    """scripts/docs_tables.py, loaded from its file (it is a maintainer's script, not part of the package)."""
    spec = importlib.util.spec_from_file_location(
        "docs_tables", REPO / "scripts" / "docs_tables.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _generated(page: str, name: str) -> str:
    text = (REPO / page).read_text(encoding="utf-8")
    start, end = f"<!-- generated:{name} -->\n", f"<!-- /generated:{name} -->"
    return text[text.index(start) + len(start) : text.index(end)]


def _rows(table: str) -> list[list[str]]:
    """The body rows of a Markdown table, split on unescaped pipes."""
    rows = []
    for line in table.splitlines()[2:]:
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        rows.append([c.strip() for c in cells])
    return rows


def test_every_generated_table_is_current(tables):
    """Each page holds exactly what the script renders now: `python3 scripts/docs_tables.py` regenerates."""
    for name, (page, render) in tables.TABLES.items():
        assert _generated(page, name) == render(), (
            f"{page}: table {name} is stale: run python3 scripts/docs_tables.py"
        )


def test_the_script_check_mode_agrees(tables, capsys):
    """`scripts/docs_tables.py --check` exits 0 on the committed pages and writes nothing."""
    before = {page: (REPO / page).read_bytes() for page, _ in tables.TABLES.values()}
    assert tables.main(["--check"]) == 0
    assert {page: (REPO / page).read_bytes() for page in before} == before


def test_render_page_replaces_only_between_the_markers(tables):
    """Prose around a generated table is kept; a page without the markers is an error, not a silent no-op."""
    page = "intro\n<!-- generated:t -->\nold\n<!-- /generated:t -->\noutro\n"
    assert (
        tables.render_page(page, {"t": "new\n"})
        == "intro\n<!-- generated:t -->\nnew\n<!-- /generated:t -->\noutro\n"
    )
    with pytest.raises(ValueError):
        tables.render_page("no markers\n", {"t": "new\n"})


def test_every_command_of_every_pack_is_in_the_proposals_table():
    """docs/propose.md lists each verb of each pack under adapters/ once, with its effect and cli."""
    rows = _rows(_generated("docs/propose.md", "proposals"))
    listed = {(r[0], r[1].strip("`")): r for r in rows}
    assert len(listed) == len(rows), "a command is listed twice"
    expected = set()
    for pack in sorted(p for p in (REPO / "adapters").iterdir() if (p / "pack.yaml").is_file()):
        data = yaml.safe_load((pack / "pack.yaml").read_text(encoding="utf-8"))
        for name, verb in data["verbs"].items():
            expected.add((pack.name, name))
            row = listed.get((pack.name, name))
            assert row, f"{pack.name} {name} missing from docs/propose.md"
            assert row[3].split()[0] == verb["policy"]["effect"]
            assert row[2].strip("`").replace("\\|", "|") == " ".join(verb.get("cli", []))
    assert set(listed) == expected


def test_the_catalogue_table_lists_every_entry():
    """docs/packs-and-check.md shows every spelling of the dangerous-flags catalogue, every value guard,
    every program subcommand and every loader environment name."""
    from wrapgen.knowledge.dangerous_flags import (
        CATALOGUE,
        LOADER_ENV,
        PROGRAM_COMMANDS,
        VALUE_GUARDS,
    )

    table = _generated("docs/packs-and-check.md", "dangerous-flags")
    rows = _rows(table)
    reasons = {why for _, why in LOADER_ENV}
    assert len(rows) == len(CATALOGUE) + len(VALUE_GUARDS) + len(PROGRAM_COMMANDS) + len(reasons)
    for entry, row in zip(CATALOGUE, rows):
        assert row[0] == entry.tool and all(f"`{s}`" in row[1] for s in entry.spellings)
    for guard in VALUE_GUARDS:
        assert f"`{guard.pattern}`" in table
    for entry in PROGRAM_COMMANDS:
        assert all(f"`{s}`" in table for s in entry.spellings)
    for name, _ in LOADER_ENV:
        assert f"`{name}`" in table


def test_the_package_has_no_docs_generator():
    """The generator lives outside the package, and the pure proposal imports no YAML."""
    assert not (REPO / "wrapgen" / "propose" / "report.py").exists()
    for path in (REPO / "wrapgen" / "propose").rglob("*.py"):
        assert not re.search(
            r"^\s*(import yaml|from yaml)", path.read_text(encoding="utf-8"), re.M
        ), path
