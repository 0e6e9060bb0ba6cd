"""check flags banners, pointers to the rest of the help, the placeholder description and titles that
are no sentence (W080, W083; wrapgen/check/text.py)."""

from __future__ import annotations

import pytest

from wrapgen.check.text import text_findings
from wrapgen.knowledge.text import title_problem, unreadable_reason


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("*** Widget CLI (64-bit) v1.5.4, by Jane Doe ***.", "a banner"),
        ("==== widgets 2.0 ====", "a banner"),
        (
            "The available commands for execution are listed below.",
            "a pointer to the rest of the help",
        ),
        ("For more information, see the manual.", "a pointer to the rest of the help"),
    ],
)
def test_descriptions_that_say_nothing(text, why):
    """A banner, a pointer to the listing below: no description."""
    assert unreadable_reason(text) == why


@pytest.mark.parametrize(
    "text",
    [
        "Search files for a pattern.",
        "Show the available commands.",
        "List the widgets of version 2.",
    ],
)
def test_sentences_stay_sentences(text):
    assert unreadable_reason(text) is None


@pytest.mark.parametrize(
    ("title", "why"),
    [
        ("Doing not write the updated ranges back", "a negation turned into a gerund"),
        ("Listing openssl list", "a verb repeated as its own object"),
        ("Verifying Certificate to verify", "a verb repeated as its own object"),
        ("Making a list of", "cut off mid-phrase"),
    ],
)
def test_titles_that_are_no_sentence(title, why):
    assert title_problem(title) == why


@pytest.mark.parametrize(
    "title",
    [
        "Listing widgets",
        "Showing widget: {{name}}",
        "Searching current directory for “{{pattern}}”",
        "Deleting the list",
        "Deploying to {{env}}",
        "Running the tests",
    ],
)
def test_good_titles_pass(title):
    assert title_problem(title) is None


def test_check_reports_them_on_a_manifest():
    """W080 for the pack's banner, W083 for a title, each at its field."""
    manifest = {
        "description": "*** Widget CLI (64-bit) v1.5.4, by Jane Doe ***.",
        "verbs": {
            "list": {
                "description": "List the widgets.",
                "title": {"live": ["Listing widget list"], "done": "Listed widgets"},
            }
        },
    }
    found = {(code, field) for code, field, _ in text_findings(manifest)}
    assert found == {("W080", "description"), ("W083", "verbs.list.title.live[0]")}
