"""parse_help detects the style on its cleaned text without cleaning it again where ``is_clean`` says
a second cleaning changes nothing: it must indeed change nothing there, for any text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES
from wrapgen.parse.sections import MAX_LINE, clean_text, is_clean

_PIECES = st.sampled_from(
    [
        "\t",
        "\r\n",
        "\r",
        "\x1b[1m",
        "\x1b]8;;x\x07",
        "a\x08a",
        "\x00",
        "\x85",
        " ",
        "\n",
        "\u256d\u2500 Opts \u2500\u256e",
        "\u2502 -a  all \u2502",
        "\u2570\u2500\u256f",
        "x" * 600,
        "-h, --help",
        "\u00e9",
        "\u2502 \u256d\u2500 in \u2500\u256e \u2502",
    ]
)


def _sure_then_stable(raw) -> bool:
    cleaned = clean_text(raw)
    return not is_clean(raw, cleaned) or clean_text(cleaned) == cleaned


@given(st.lists(st.one_of(_PIECES, st.text(max_size=40)), max_size=30).map("".join))
def test_a_text_said_clean_cleans_to_itself(text):
    assert _sure_then_stable(text)
    assert _sure_then_stable(text.encode("utf-8", "replace"))


def test_the_fixtures_and_long_lines():
    for page in sorted(FIXTURES.rglob("*.txt")):
        assert _sure_then_stable(page.read_text(errors="replace"))
    assert _sure_then_stable("a" * (MAX_LINE + 50))
    assert not is_clean("a\t" * MAX_LINE, clean_text("a\t" * MAX_LINE))  # tabs: cleaned twice
