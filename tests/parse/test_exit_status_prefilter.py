"""exit_statuses skips a page that holds none of "exit", "return", "diagnostics" (any case): every
heading it reads and every sentence holds one, so the result must be the full reading's, on every
captured page and on pages that name a status only under a DIAGNOSTICS heading."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.parse import exit_status
from wrapgen.parse.sections import clean_text


def _full(text: str):
    real = exit_status._ANY_WORD
    exit_status._ANY_WORD = type("Always", (), {"search": staticmethod(lambda _text: True)})()
    try:
        return exit_status.exit_statuses(text)
    finally:
        exit_status._ANY_WORD = real


def test_same_as_the_full_reading_on_every_fixture():
    pages = [
        p
        for p in sorted(FIXTURES.rglob("*"))
        if p.is_file() and p.suffix in (".txt", ".json", ".1")
    ]
    assert len(pages) > 100
    stated = 0
    for page in pages:
        text = clean_text(page.read_text(errors="replace"))
        assert exit_status.exit_statuses(text) == _full(text), page
        stated += bool(_full(text))
    assert (
        stated >= 3
    )  # (some pages do state statuses: the comparison is not of two empty readings)


def test_a_diagnostics_heading_and_a_page_without_any_word():
    page = "DIAGNOSTICS\n     0  success\n     1  a file could not be read\n"
    assert (
        exit_status.exit_statuses(page)
        == ((0, "success"), (1, "a file could not be read"))
        == _full(page)
    )
    assert exit_status.exit_statuses("Usage: x [flags]\n\nFlags:\n  -v  verbose\n") == ()
