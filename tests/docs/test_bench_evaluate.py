"""bench/evaluate.py's arguments: ``--regimes`` takes what its help says."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from conftest import REPO


def _evaluate(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "bench"))  # its sibling modules, as when it is run
    spec = importlib.util.spec_from_file_location("evaluate", REPO / "bench" / "evaluate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_regimes_takes_usage_no_usage_both_or_a_list(monkeypatch):
    """``both`` is usage then no-usage; a list keeps its order, once each; another word is none."""
    parse = _evaluate(monkeypatch).parse_regimes
    assert parse("both") == ["usage", "no-usage"]
    assert parse("no-usage") == ["no-usage"]
    assert parse("no-usage, usage,both") == ["no-usage", "usage"]
    assert parse("usage,held-out") == [] and parse("") == []


def test_a_regime_it_does_not_know_is_refused_before_any_run():
    """``--regimes nope`` exits 2 and names what it takes."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "evaluate.py"), "--regimes", "nope", "--tools", "jq"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "usage, no-usage or both" in done.stderr
