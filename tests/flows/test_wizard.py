"""The wrap wizard without a tool: the refusal off a terminal, the atomic write, edits as values.

The sessions on real jq and rg (in a pseudo-terminal with pexpect, and in-process) are in
tests/live/test_flows_wizard_live.py."""

from __future__ import annotations

from wrapgen.flows.wizard import Edits, write_pack_atomically


def test_non_terminal_stdin_points_to_wrap(cli):
    """Without a terminal the wizard refuses and names `wrapgen wrap` instead."""
    result = cli("wizard", "jq", "-o", "x", stdin="\n")
    assert result.exit_code == 2
    assert "needs a terminal" in result.stderr and "wrapgen wrap jq -o x" in result.stderr


def test_atomic_write_replaces_and_keeps_extra_files(tmp_path):
    """A rewrite swaps the directory whole and carries over files the pack does not generate."""
    target = write_pack_atomically(tmp_path, "p", {"pack.yaml": "a: 1\n"})
    (target / "PROMOTION.md").write_text("notes\n")
    write_pack_atomically(tmp_path, "p", {"pack.yaml": "a: 2\n"})
    assert (target / "pack.yaml").read_text() == "a: 2\n"
    assert (target / "PROMOTION.md").read_text() == "notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]


def test_edits_are_values():
    """Edits accumulate into new values keyed by the proposed name; the old value is unchanged."""
    first = Edits()
    second = first.with_override("log", name="history").with_override(
        "log", policy={"effect": "read"}
    )
    assert first.overrides == {} and second.overrides["log"].name == "history"
    assert second.overrides["log"].policy == {"effect": "read"}
    assert second.skip("diff").skipped == frozenset({"diff"})
