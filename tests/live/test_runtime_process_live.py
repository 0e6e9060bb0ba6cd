"""run_process against real coreutils (echo, yes): no shell between, and the output cap on endless output.

The pure process tests (Python snippets, sh, sleep, cat) are in tests/runtime/test_runtime_process.py."""

from __future__ import annotations

from wrapgen.runtime import run_process


def test_no_shell_between():
    """Shell syntax in an argument reaches the tool verbatim: nothing interprets it."""
    result = run_process(["echo", "$(id) ; rm -rf / | cat > x"], timeout_s=10)
    assert result.stdout == b"$(id) ; rm -rf / | cat > x\n"


def test_output_cap_kills_and_holds_no_more_than_the_cap():
    """Endless output stops at the cap: the group is killed and at most cap bytes are kept."""
    result = run_process(["yes"], timeout_s=20, output_cap=1_000_000)
    assert result.output_capped and not result.timed_out
    assert len(result.stdout) + len(result.stderr) <= 1_000_000
