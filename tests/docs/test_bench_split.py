"""The benchmark's split (docs/benchmarks.md, 'The held-out evaluation'): written by its rule, and the
22 tools of issue 26 are held out."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

SPLIT = REPO / "bench" / "data" / "split.json"


def test_split_json_follows_its_rule():
    """bench/split_tools.py finds bench/data/split.json as its rule writes it from tools.json."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "split_tools.py")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_the_test_set_is_held_out_and_the_halves_are_about_equal():
    split = json.loads(SPLIT.read_text())
    tools = [
        tool["tool"] for tool in json.loads((REPO / "bench/data/tools.json").read_text())["tools"]
    ]
    assert len(split["test_set"]) == 22
    assert set(split["test_set"]) <= set(split["held_out"])
    assert not set(split["held_out"]) & set(split["tuning"])
    assert sorted(split["held_out"] + split["tuning"]) == sorted(tools)
    assert len(tools) >= 150
    assert abs(len(split["held_out"]) - len(split["tuning"])) <= len(tools) // 10
