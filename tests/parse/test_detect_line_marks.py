"""Style detection searches a line-anchored mark (``^ +-\\w, --...`` under re.M) as the newline before the
line, in the text with a newline put in front: the search then tries only the newlines. Each such
mark must match exactly where the mark itself does, on every captured page and at the edges."""

from __future__ import annotations

import re

from conftest import FIXTURES
from wrapgen.parse import detect
from wrapgen.parse.sections import clean_text


def _pairs():
    return [
        (pattern, line)
        for (_style, _weight, pattern), line in zip(detect._MARKS, detect._LINE_MARKS)
        if line is not None
    ]


def test_most_line_anchored_marks_get_a_line_form():
    anchored = [p for _s, _w, p in detect._MARKS if p.pattern.startswith("^")]
    assert len(_pairs()) >= len(anchored) - 2


def test_each_line_form_matches_where_its_mark_does_on_every_fixture():
    pages = [
        p for p in sorted(FIXTURES.rglob("*")) if p.suffix in (".txt", ".json") and p.is_file()
    ]
    assert len(pages) > 100
    hits = 0
    for page in pages:
        head = detect._marked_lines(clean_text(page.read_text(errors="replace")))
        for pattern, line in _pairs():
            found = bool(pattern.search(head))
            assert bool(line.search("\n" + head)) == found, (page, pattern.pattern)
            hits += found
    assert hits > 200  # (the marks do match: the comparison is not of two misses)


def test_the_edges_first_line_last_line_and_a_line_that_only_contains_the_mark():
    pattern = re.compile(r"^ +-\w, --[\w-]+ <[A-Z_]+>", re.M)
    line = detect._at_line_starts(pattern)
    for text, found in (
        (" -o, --out <FILE>", True),
        ("x\n -o, --out <FILE>", True),
        ("x -o, --out <FILE>", False),
        ("", False),
        ("\n", False),
        ("usage\n\n  -o, --out <FILE>\n", True),
        ("a\n-o, --out <FILE>", False),
    ):
        assert bool(pattern.search(text)) is found
        assert bool(line.search("\n" + text)) is found, text


def test_marks_it_cannot_rewrite_are_searched_as_they_are():
    assert detect._at_line_starts(re.compile(r"^a|b", re.M)) is None  # top-level alternative
    assert detect._at_line_starts(re.compile(r"^(?<=x)a", re.M)) is None  # a lookbehind
    assert detect._at_line_starts(re.compile(r"^a", 0)) is None  # ^ is the text's start only
    assert detect._at_line_starts(re.compile(r"a^", re.M)) is None
    assert detect._at_line_starts(re.compile(r"^(?:a|b)[|]\|c", re.M)).pattern == "\n(?:a|b)[|]\\|c"
