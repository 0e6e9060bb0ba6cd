"""A script of bench/ loaded as a module, as it runs: its sibling modules importable."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent.parent / "bench"


def bench_module(name: str, monkeypatch):
    """bench/NAME.py as a module, with bench/ on sys.path for this test only."""
    monkeypatch.syspath_prepend(str(BENCH))  # its sibling modules, as when it is run
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
