"""detect_style stops scoring a style once its marks left cannot lift it past the best so far, and
scores the style of the last page first: the winner must be the one of scoring every style fully
(``max`` of ``scores``, ties to the earlier style, ``gnu`` below 3), on every captured page, on
pages spliced from two of them, and whatever style was detected before."""

from __future__ import annotations

import random

from conftest import FIXTURES
from wrapgen.parse import detect
from wrapgen.parse.sections import clean_text


def _full_winner(text: str) -> str:
    if detect._ROFF.search(text[:4_000]):
        return "man"
    points = detect.scores(text)
    best = max(detect._ORDER, key=lambda s: (points[s], -detect._ORDER.index(s)))
    return best if points[best] >= 3 else "gnu"


def _pages() -> list[str]:
    paths = [
        p
        for p in sorted(FIXTURES.rglob("*"))
        if p.is_file() and p.suffix in (".txt", ".json", ".1")
    ]
    assert len(paths) > 100
    return [clean_text(p.read_text(errors="replace")) for p in paths]


def test_the_full_scoring_winner_on_every_fixture_after_every_style():
    pages = _pages()
    wanted = [_full_winner(text) for text in pages]
    for last in ("", *detect._ORDER):
        for text, want in zip(pages, wanted):
            detect._LastStyle.name = last
            assert detect.detect_style(text) == want, (last, text[:200])


def test_the_full_scoring_winner_on_spliced_pages():
    pages = _pages()
    rng = random.Random(13)
    for _ in range(500):
        first, second = (page.split("\n") for page in rng.sample(pages, 2))
        text = "\n".join(
            first[: rng.randint(0, len(first))] + second[rng.randint(0, len(second)) :]
        )
        detect._LastStyle.name = rng.choice(detect._ORDER)
        assert detect.detect_style(text) == _full_winner(text)


def test_nothing_scoring_three_is_gnu():
    assert detect.detect_style("") == "gnu"
    assert detect.detect_style("Usage:\n") == "gnu"  # docopt's 2 points alone
