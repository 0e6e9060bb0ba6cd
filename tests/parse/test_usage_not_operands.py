"""usage's ``_not_operand`` reads an ASCII placeholder through a case-sensitive copy of
``_NOT_OPERANDS`` on its lower-cased spelling: it must say what the case-blind pattern says, for
every word of the captured usage lines and for odd spellings."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.parse import usage
from wrapgen.parse.sections import clean_text

ODD = [
    "OPTIONS",
    "Options",
    "global_OPTIONS",
    "package-index-Options",
    "FLAG",
    "sub-Command",
    "CMD",
    "ARGS",
    "command_ARGUMENTS",
    "COMMAND-args",
    "option...",
    "OPTION...",
    "optionsx",
    "file",
    "K\u212aY",
    "options\u017f",
    "\u017fubcommand",
    "",
    "-",
    "x options",
    "X OPTIONS",
]


def test_the_same_answer_as_the_case_blind_pattern():
    words = set(ODD)
    for page in sorted(FIXTURES.rglob("*.txt")):
        for line in clean_text(page.read_text(errors="replace")).split("\n"):
            words.update(word.strip("[]<>().,|") for word in line.split())
    assert len(words) > 1_000
    for word in words:
        assert usage._not_operand(word) == bool(usage._NOT_OPERANDS.match(word)), word
