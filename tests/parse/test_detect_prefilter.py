"""Style detection rules a mark out by a substring test before searching its pattern (the marks'
searches were a third of parsing a kingpin page): the scores must be those of searching every
pattern, on every captured page."""

from __future__ import annotations

import re

from conftest import FIXTURES
from wrapgen.parse import detect
from wrapgen.parse.sections import clean_text


def _full_scores(text: str) -> dict[str, int]:
    head = detect._marked_lines(text)
    out = dict.fromkeys(detect._ORDER, 0)
    for style, weight, pattern in detect._MARKS:
        if pattern.search(head):
            out[style] += weight
    return out


def test_scores_equal_the_full_search_on_every_fixture():
    pages = [
        p for p in sorted(FIXTURES.rglob("*")) if p.suffix in (".txt", ".json") and p.is_file()
    ]
    assert len(pages) > 100
    for page in pages:
        text = clean_text(page.read_text(errors="replace"))
        assert detect.scores(text) == _full_scores(text), page


def test_required_literals_of_a_few_marks():
    assert detect._required_literals(re.compile(r"^GLOBAL OPTIONS:$", re.M)) == ("GLOBAL OPTIONS:",)
    assert detect._required_literals(re.compile(r"^(?:USAGE|FLAGS|ARGS):$", re.M)) == (
        "USAGE",
        "FLAGS",
        "ARGS",
    )
    assert detect._required_literals(re.compile(r"^ +-\w --[\w-]+ {2,}", re.M)) == (" --",)
    # nothing sure: a short run, an alternative without a literal, a case-insensitive pattern
    assert detect._required_literals(re.compile(r"^\.(?:TH|SH)\b", re.M)) == ()
    assert detect._required_literals(re.compile(r"^(?:ab|[xy]+)$", re.M)) == ()
    assert detect._required_literals(re.compile(r"global options", re.I)) == ()
