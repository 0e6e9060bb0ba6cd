"""The global-options hint ("kubectl options" for a list of global flags) is looked for around the
word "global" only: the same answer as the whole-page search, on every captured help page and on
pages whose hint sits far down, in non-ASCII text, or nowhere."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.probe import crawl


def _args(match):
    return match["args"] if match else None


def test_same_hint_as_the_whole_page_search_on_every_fixture():
    pages = [
        p for p in sorted(FIXTURES.rglob("*")) if p.suffix in (".txt", ".json") and p.is_file()
    ]
    found = 0
    for page in pages:
        text = page.read_text(errors="replace")
        assert _args(crawl._options_hint(text)) == _args(crawl._OPTIONS_HINT.search(text)), page
        found += crawl._options_hint(text) is not None
    assert found >= 1  # kubectl's and rclone's pages hold one


def test_hints_far_down_after_quotes_and_in_other_scripts():
    kubectl = (
        'Use "kubectl options" for a list of global command-line options (applies to all commands).'
    )
    rclone = 'Use "rclone help flags" for to see the global flags.'
    noise = '{"name": "x", "description": "y"}, ' * 3000
    for page, args in (
        (noise + kubectl, " options"),
        (rclone + noise, " help flags"),
        ("Überblick ü\n" + kubectl, " options"),
        (noise, None),
        ('"tool config" to set global options', None),
        ("global " * 500, None),
    ):
        assert _args(crawl._options_hint(page)) == args
        assert _args(crawl._OPTIONS_HINT.search(page)) == args
