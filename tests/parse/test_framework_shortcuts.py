"""The urfave, kingpin and Symfony parsers read their commands their own way, so they skip the work
whose result they would throw away: ``read_parts(stubs=False)`` reads no listing stubs (all else as
with stubs), and a kingpin page makes the stubs of its own children only (``_children_of`` is
``tree_children(...).get(path, ())``). Checked on every captured page, at every path its tree shows."""

from __future__ import annotations

from dataclasses import replace

from conftest import FIXTURES
from wrapgen.parse.assemble import read_parts
from wrapgen.parse.sections import clean_text
from wrapgen.parse.styles import kingpin, symfony, urfave


def _pages():
    paths = [p for p in sorted(FIXTURES.rglob("*.txt")) if p.is_file()]
    assert len(paths) > 100
    return [(tuple(p.stem.split("_")), clean_text(p.read_text(errors="replace"))) for p in paths]


def test_read_parts_without_stubs_differs_only_in_the_stubs():
    for prog, text in _pages():
        for rules in (urfave.RULES, kingpin.RULES, symfony.RULES):
            full, bare = (
                read_parts(text, prog=prog, rules=rules),
                read_parts(text, prog=prog, rules=rules, stubs=False),
            )
            assert bare.subcommands == []
            assert replace(bare, subcommands=full.subcommands) == full, prog


def test_a_kingpin_page_makes_the_stubs_of_its_children_only():
    checked = 0
    for _prog, text in _pages():
        tree = kingpin.command_tree(text)
        every = kingpin.tree_children(tree)
        for path in {(), *(entry.words[:i] for entry in tree for i in range(len(entry.words) + 1))}:
            assert kingpin._children_of(tree, path) == every.get(path, ()), path
            checked += bool(every.get(path))
    assert checked >= 10
