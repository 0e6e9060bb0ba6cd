"""Command names in columns, with no summaries: under a flush-left "Frequently used commands:"
heading whose rows start flush left too (fossil help), and in rows indented by a tab under
"Commands are:" (quilt, a shell script). Each name is a command; before, the first was read as a
heading's prose (no commands at all) and the second as one name per row, the rest its summary."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.parse import parse_help


def _names(name: str) -> list[str]:
    text = (FIXTURES / "help" / "gnu" / f"{name}.txt").read_text()
    return [sub.name for sub in parse_help(text, prog=(name,)).subcommands]


def test_columns_under_a_flush_left_heading_are_each_a_command():
    names = _names("fossil")
    # every word of the grid's rows, each once
    text = (FIXTURES / "help" / "gnu" / "fossil.txt").read_text().splitlines()
    grid = [w for line in text[3:] if not line.startswith("This is") for w in line.split()]
    assert len(names) == len(grid) and set(names) == set(grid)
    assert {"commit", "timeline", "cherry-pick", "merge-base"} <= set(names)


def test_rows_indented_by_a_tab_are_columns_too():
    names = _names("quilt")
    assert len(names) == 32
    assert {"push", "pop", "refresh", "snapshot", "unapplied", "shell"} <= set(names)
    # no row's first name swallowed the rest of its row as a summary
    assert "fold" in names and "mail" in names
