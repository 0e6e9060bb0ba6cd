"""A title never shows a summary's placeholder syntax (W081): an angled name becomes the arg of that
name, or the bare word, and anything else placeholder-like gives way to the plain title."""

import re

import pytest

from wrapgen.knowledge.text import title_placeholder, title_problem, unreadable_reason
from wrapgen.propose.titles import propose_title

_ARG = re.compile(r"\{\{([^{}]*)\}\}")


def test_an_angled_name_of_an_arg_becomes_that_arg():
    title = propose_title(
        name="format-cols",
        summary="format <cols> octets per line",
        display="dumper -c",
        primary="infile",
        args=["infile", "cols"],
    )
    assert title["live"][0] == "Formatting {{cols}} octets per line: {{infile}}"
    assert title["done"][-1] == "Formatted cols octets per line"


@pytest.mark.parametrize(
    "summary",
    [
        "format <cols> octets per line",
        "stop after <len> octets",
        "show {OBJECT} details",
        "print [FILE] contents",
        "set the mode to fast|slow|auto",
        "add <off> to the displayed <position>",
    ],
)
@pytest.mark.parametrize("args", [[], ["cols", "len", "off"]])
def test_no_template_holds_placeholder_syntax_and_the_last_names_no_arg(summary, args):
    title = propose_title(name="verb", summary=summary, display="tool verb", primary="", args=args)
    for form in ("live", "done"):
        assert all(title_placeholder(t) is None for t in title[form]), title
        assert not _ARG.search(title[form][-1]), title
        assert all(set(_ARG.findall(t)) <= set(args) for t in title[form]), title


@pytest.mark.parametrize(
    "summary",
    [
        "Do not write the ranges back",  # a negation that a gerund would turn into "Doing not ..."
        "Show the status of the",  # cut off mid-phrase
        "*** Zstandard CLI (64-bit) v1.5.4, by Yann Collet ***",  # a banner
    ],
)
def test_no_template_is_a_title_check_refuses(summary):
    title = propose_title(name="verb", summary=summary, display="tool verb", primary="", args=[])
    for form in ("live", "done"):
        for template in title[form]:
            assert not title_problem(template) and not unreadable_reason(template), title
