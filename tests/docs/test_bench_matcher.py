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
