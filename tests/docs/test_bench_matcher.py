"""bench/pack_tasks.py reads every binding the contract allows (docs/contract.md §json).

A binding's ``json`` is a list of tokens, or ``true`` for a tool that prints JSON with no flag.
The matcher crashed on ``true`` (a tuning-half chunk of bench/evaluate.py ended in a TypeError).
"""

from __future__ import annotations

import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import pack_tasks  # noqa: E402


def _verb(json_selection):
    return {
        "cli": ["tool", "s3", "ls", "{{path}}"],
        "json": json_selection,
        "policy": {"effect": "read"},
    }


def test_json_true_selects_no_literal_flag():
    parsed = pack_tasks.parse_verb("tool", _verb(True))
    assert parsed["path"] == ["s3", "ls"]
    assert parsed["literals"] == {}


def test_json_tokens_are_literals_of_the_verb():
    parsed = pack_tasks.parse_verb("tool", _verb(["--format", "json"]))
    assert parsed["literals"] == {"--format": "json"}


def test_a_value_the_verb_types_otherwise_is_not_expressible():
    """A word where the verb's operand is an integer: that verb cannot express it (a held-out chunk
    of bench/evaluate.py ended in a ValueError)."""
    binding = {
        "bin": "tool",
        "verbs": {
            "show": {
                "cli": ["tool", "show", "{{count}}"],
                "args": {"type": "object", "properties": {"count": {"type": "integer"}}},
                "policy": {"effect": "read"},
            }
        },
    }
    match = {"path": ["show"], "opts": {}, "operands": ["file"]}
    verb, args, why = pack_tasks.resolve_in_pack(match, binding)
    assert verb is None and args is None and "does not fit" in why
    verb, args, _ = pack_tasks.resolve_in_pack({**match, "operands": ["3"]}, binding)
    assert verb == "show" and args == {"count": 3}
