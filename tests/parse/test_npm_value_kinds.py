"""npm's `<a|b>` value names (captured `npm install --help`, npm 11): literal values are choices,
kinds of value (`<pkg|glob>`: a package name or a glob) are not (knowledge/data/flags.json value_kinds)."""

from __future__ import annotations

from pathlib import Path

from wrapgen.knowledge.flags import is_value_kind
from wrapgen.parse import parse_help

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help" / "npm" / "npm_install.txt"


def _flag(long: str):
    install = parse_help(HELP.read_text(encoding="utf-8"), prog=("npm", "install"))
    return next(f for f in install.flags if f.long == long)


def test_kinds_of_value_are_no_choices():
    exclude = _flag("--min-release-age-exclude")
    assert (
        exclude.choices == ()
        and exclude.type == "string"
        and exclude.takes_value
        and exclude.repeatable
    )


def test_literal_values_stay_choices():
    assert _flag("--omit").choices == ("dev", "optional", "peer")
    assert _flag("--allow-git").choices == ("all", "none", "root")


def test_value_kind_words():
    assert is_value_kind("pkg") and is_value_kind("GLOB")
    assert not any(is_value_kind(w) for w in ("global", "user", "project", "all", "none", "dev"))
