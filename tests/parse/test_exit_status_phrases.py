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
]


def _full(text: str):
    real, real_head = exit_status._may_state, exit_status._may_head
    exit_status._may_state, exit_status._may_head = (lambda _text: (True, True)), (lambda _page: True)
    try:
        return exit_status.exit_statuses(text)
    finally:
        exit_status._may_state, exit_status._may_head = real, real_head


def test_same_as_the_full_reading():
    pages = [clean_text(p.read_text(errors="replace")) for p in sorted(FIXTURES.rglob("*"))
             if p.is_file() and p.suffix in (".txt", ".json", ".1")]
    stated = 0
    headed = [head + "\n" + s for s in SENTENCES for head in ("EXIT STATUS", "Exit codes:", "diagnostics", "RETURN VALUE")]
    for text in pages + SENTENCES + [s.upper() for s in SENTENCES] + headed:
        assert exit_status.exit_statuses(text) == _full(text), text[:200]
        stated += bool(_full(text))
    assert stated >= 10
