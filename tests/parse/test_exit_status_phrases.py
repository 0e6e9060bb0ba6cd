"""exit_statuses reads sentences only where their phrases can be ("exit status is", "returns 1",
"the exit code is"), and sections only where a line starts as their headings do: a page that holds
"exit" or "return" in another word ("the returned alerts") is not scanned case-blind. The reading must be the full one on every captured page and on
sentences of every shape, in any case."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.parse import exit_status
from wrapgen.parse.sections import clean_text

SENTENCES = [
    "Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.",
    "If no match could be found, then the EXIT STATUS is 1.",
    "The program Returns 3 when the (optional) lock is held.",
    "1 exit status occurs only when no file matched.",
    "It exits with a status of 4 if the config is bad.",
    "When the check fails, the return code is 7.",
    "Lists the returned alerts (exit quietly).",
    "exit\tstatus\nis 5 if ünïcode appears.",
    # where the searches are cut into stretches: a condition that opens with a stop character, a
    # phrase inside another's condition, stops right before and after, several phrases a page
    "1 exit status occurs when , the lock is held; 2 exit status occurs when ;odd.",
    "If the exit status is 3, then the exit status is 4. Returns 5 if x;returns 6 if y,exits with status 7 if z.",
    "When a, b, the exit code is 8.When c,the return value is always 9;",
    "3 exit code means if e.g.foo, bar.4 exit status is returned when baz.",
    "255 exit status occurs when the disk is full. 42 exit code means if the lock is held.",
    "1 exit status occurs when a 2 exit status occurs when b.",
]


def _full(text: str):
    """The reading with no shortcut: every pattern searched over the whole text, every line tried as a heading."""
    real, real_head = exit_status._folded, exit_status._may_head
    exit_status._folded, exit_status._may_head = (lambda _text: None), (lambda _page: True)
    try:
        return exit_status.exit_statuses(text)
    finally:
        exit_status._folded, exit_status._may_head = real, real_head


def test_same_as_the_full_reading():
    pages = [
        clean_text(p.read_text(errors="replace"))
        for p in sorted(FIXTURES.rglob("*"))
        if p.is_file() and p.suffix in (".txt", ".json", ".1")
    ]
    stated = 0
    headed = [
        head + "\n" + s
        for s in SENTENCES
        for head in ("EXIT STATUS", "Exit codes:", "diagnostics", "RETURN VALUE")
    ]
    for text in pages + SENTENCES + [s.upper() for s in SENTENCES] + headed:
        assert exit_status.exit_statuses(text) == _full(text), text[:200]
        stated += bool(_full(text))
    assert stated >= 10


def test_same_as_the_full_reading_on_generated_prose():
    """Prose of exit-status words, stop characters and asides in any order and case: the reading
    that searches only where the words are is the full one."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    words = [
        "exit status",
        "exit code",
        "return value",
        "return code",
        "returns",
        "exits with",
        "a status of",
        "is",
        "will be",
        "always",
        "0",
        "1",
        "2",
        "42",
        "255",
        "300",
        "if",
        "when",
        "then",
        "the",
        "otherwise",
        "occurs",
        "means",
        "is returned",
        "only",
        "and",
        "or",
        "with",
        "of the tool",
        "foo",
        "bar baz",
        ",",
        ".",
        ";",
        ". ",
        "e.g.",
        "(an aside)",
        "(",
        ")",
        "=",
        "\n",
        "EXIT STATUS",
        "Returns",
        "If",
        "When",
    ]

    @settings(max_examples=400, deadline=None)
    @given(
        st.lists(st.sampled_from(words), max_size=40),
        st.lists(st.sampled_from([" ", "", "  "]), min_size=40, max_size=40),
    )
    def check(pieces, gaps):
        text = "".join(piece + gap for piece, gap in zip(pieces, gaps))
        assert exit_status.exit_statuses(text) == _full(text), text

    check()


def test_asides_go_as_the_pattern_removes_them():
    """Asides found by their "(" leave the text the scan of the whole pattern leaves."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    aside = re.compile(r"\s*\([^()]*\)")
    pages = [
        clean_text(p.read_text(errors="replace"))
        for p in sorted(FIXTURES.rglob("*"))
        if p.is_file() and p.suffix in (".txt", ".1")
    ]
    for text in pages + [
        "a (b) c",
        "((x))",
        " (x)(y) \n (z",
        "x\u2003(y).",
        "(",
        ")",
        "a  \t(b)  (c)d",
    ]:
        assert exit_status._without_asides(text) == aside.sub("", text), text[:200]

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet="ab (.)\n\t\u00a0", max_size=60))
    def check(text):
        assert exit_status._without_asides(text) == aside.sub("", text)

    check()
