"""The probe's clean_text skips a pattern whose character the text lacks (an escape, a backspace, a
carriage return): the result must be the full clean's, on every captured page and on mixed input."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.probe import prober
from wrapgen.probe.prober import clean_text


def _full(data: bytes) -> tuple[str, str]:
    """clean_text as it was: every pattern applied."""
    if not data:
        return "", ""
    if data[:65536].count(b"\0") > 0:
        return "", "printed binary data, not help text"
    text = data.decode("utf-8", errors="replace")
    text = prober._ANSI.sub("", text)
    text = prober._OVERSTRIKE.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    controls = len(prober._CONTROLS.findall(text, 0, 65536))
    if controls > max(8, len(text[:65536]) // 50):
        return "", "printed binary data, not help text"
    return text, ""


def test_same_as_the_full_clean_on_every_fixture_and_on_mixed_input():
    pages = [
        p
        for p in sorted(FIXTURES.rglob("*"))
        if p.is_file() and p.suffix in (".txt", ".json", ".1", ".gz")
    ]
    assert len(pages) > 100
    for page in pages:
        data = page.read_bytes()
        assert clean_text(data) == _full(data), page
    for data in (
        b"\x1b[1mbold\x1b[0m plain\r\nnext\rline",
        b"B\x08Bold _\x08u",
        b"x\x08",
        b"\x1b]8;;http://x\x07link\x1b]8;;\x07",
        b"only\r",
        b"\r\n\r\n",
        b"tab\there",
        "caf\u00e9 \u2502".encode(),
        b"\xff\xfe bad bytes",
        b"\x1b",
        b"\x01\x02\x03\x04\x05\x06\x07\x0e\x0f\x10 noise" * 3,
    ):
        assert clean_text(data) == _full(data), data
