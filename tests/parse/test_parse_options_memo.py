"""parse_options memoises a whole table (kingpin and urfave repeat the application's flags on every
page): a table read again gives what it gave fresh, a list of its own, and the same companions."""

from __future__ import annotations

from wrapgen.parse import options
from wrapgen.parse.options import parse_options

TABLE = [
    "  -v, --verbose        say more",
    "      --color          use colours; can be disabled with --no-color",
    "      --output=FORMAT  the format",
]


def test_a_table_read_again_gives_the_same_flags_in_a_list_of_its_own_and_the_same_companions():
    options._entry_flag.cache_clear()
    first_companions: list = []
    first = parse_options(TABLE, companions=first_companions)
    first.append("caller's own")  # (a caller may change what it got)
    again_companions: list = ["kept"]
    again = parse_options(list(TABLE), companions=again_companions)
    assert options._parse_options.cache_info().hits == 1
    assert [f.long for f in again] == ["--verbose", "--color", "--output"]
    assert first[:-1] == again and again is not first
    assert [f.long for f in first_companions] == ["--no-color"]
    assert again_companions[0] == "kept" and again_companions[1:] == first_companions
    assert parse_options(TABLE) == again  # (no companions asked: none collected)
    fresh = options._parse_options.__wrapped__(tuple(TABLE), 16, True)
    assert fresh == (tuple(again), tuple(first_companions))


def test_tables_read_with_another_indent_limit_are_told_apart():
    deep = ["             -x, --extra  deep entry"]
    assert [f.long for f in parse_options(deep)] == ["--extra"]
    assert parse_options(deep, max_first_indent=8) == []


def test_clearing_the_entry_memo_clears_the_table_memo():
    parse_options(TABLE)
    assert options._parse_options.cache_info().currsize > 0
    options._entry_flag.cache_clear()
    assert options._parse_options.cache_info().currsize == 0
    assert options._entry_flag.cache_info().currsize == 0
