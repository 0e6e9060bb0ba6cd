"""The status line of wrap, batch and check --try: on a terminal, one line rewritten; piped, nothing;
and -o naming a file is said before any discovery."""

from __future__ import annotations

import io
import threading

from wrapgen.cli.progress import StatusLine


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_piped_it_prints_nothing():
    """Not a terminal: no byte written, whatever the flows report."""
    stream = io.StringIO()
    status = StatusLine(stream)
    assert not status.enabled
    with status:
        status.stage("discovery")
        status.discovery(3, 10, ("pr", "list"))
        status.trials(1, 4, "log")
    assert stream.getvalue() == ""


def test_on_a_terminal_one_line_is_rewritten_and_erased(monkeypatch):
    """Stage, commands read, trials run and left, each on the same line; erased at the end."""
    monkeypatch.delenv("TERM", raising=False)
    stream = _Terminal()
    with StatusLine(stream) as status:
        status.stage("discovery")
        status.discovery(3, 10, ("pr", "list"))
        status.stage("trials")
        status.trials(1, 4, "log")
    written = stream.getvalue()
    assert "\n" not in written
    assert "discovery: 3 of 10 commands read (pr list)" in written
    assert "trials: 1 tried, 3 left (last: log)" in written
    assert written.endswith("\r\033[K")


def test_a_dumb_terminal_gets_nothing(monkeypatch):
    """TERM=dumb (an editor's shell, CI logs): no control sequences."""
    monkeypatch.setenv("TERM", "dumb")
    assert not StatusLine(_Terminal()).enabled


def test_a_long_line_is_cut_to_the_width(monkeypatch):
    """A line never wraps onto a second one."""
    monkeypatch.setenv("COLUMNS", "40")
    stream = _Terminal()
    status = StatusLine(stream, enabled=True)
    status.item(1, 2, "x" * 200)
    last = stream.getvalue().split("\r\033[K")[-1]
    assert len(last) <= 39 and last.endswith("…")


def test_threads_write_whole_lines():
    """Callbacks from worker threads never interleave a line's bytes."""
    stream = _Terminal()
    status = StatusLine(stream, enabled=True)
    threads = [
        threading.Thread(target=lambda i=i: [status.trials(j, 50, f"v{i}") for j in range(50)])
        for i in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    import re

    for chunk in stream.getvalue().split("\r\033[K")[1:]:
        assert re.fullmatch(r"\d+ tried, \d+ left \(last: v\d\)", chunk), chunk


def test_wrap_with_o_naming_a_file_is_a_usage_error(cli, tmp_path):
    """-o FILE: one Error line before any discovery, no traceback."""
    target = tmp_path / "packs.txt"
    target.write_text("not a directory\n")
    result = cli("wrap", "no-such-tool-anywhere", "-o", str(target))
    assert result.exit_code == 2
    assert "is a file, not a directory" in result.stderr and "Traceback" not in result.stderr
    assert target.read_text() == "not a directory\n"
    below = cli("wrap", "no-such-tool-anywhere", "-o", str(target / "sub"))
    assert "is a file, not a directory" in below.stderr
