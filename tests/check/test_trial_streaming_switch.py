"""A streaming flag followed by its own switch slot (`--follow {{follow}}`, `follow` a boolean) streams
only when the caller asks: a trial that ran too long never takes that flag out, which left the slot
bare (the boolean then rendered nothing, or a string slot became an operand)."""

from __future__ import annotations

from wrapgen.check.trial_evidence import without_streaming_flags

ARGS = {"type": "object", "properties": {"follow": {"type": "boolean"}, "file": {"type": "string"}}}


def test_a_switch_pair_is_kept_whole():
    cli = ["http", "--follow", "{{follow}}", "--", "{{file}}"]
    assert without_streaming_flags(cli, ARGS) == (cli, ())


def test_a_literal_flag_before_an_operand_is_still_taken_out():
    assert without_streaming_flags(["tail", "-f", "{{file}}"], ARGS) == (
        ["tail", "{{file}}"],
        ("-f",),
    )
    assert without_streaming_flags(["kubectl", "logs", "--follow", "--", "{{file}}"], ARGS) == (
        ["kubectl", "logs", "--", "{{file}}"],
        ("--follow",),
    )
