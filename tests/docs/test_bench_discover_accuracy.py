"""bench/discover_accuracy.py scores the tools it has a reference for, and says which it cannot.

A reference read from a Python package this interpreter lacks (flask's click tree, httpie's parser)
ended the whole run in a ModuleNotFoundError; the row is now skipped with the reason and the fix.
"""

from __future__ import annotations

import json
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import discover_accuracy  # noqa: E402


def _missing_package():
    import wrapgen_no_such_reference_package  # noqa: F401


def test_a_reference_that_cannot_be_imported_skips_its_row(monkeypatch, capsys):
    program = sys.executable
    monkeypatch.setattr(
        discover_accuracy,
        "TOOLS",
        {"absent": (program, "argparse", 0, _missing_package, {})},
    )
    assert discover_accuracy.main(["--json"]) == 0
    captured = capsys.readouterr()
    assert "absent: no reference here" in captured.err
    assert "wrapgen_no_such_reference_package" in captured.err
    assert json.loads(captured.out)["tools"] == {}
