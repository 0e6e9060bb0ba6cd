"""bench/pack_tasks.py on three cheap tools: its report's shape, and the shipped packs' answers.

Every expressible task of the shipped git, jq and rg packs must give the human command's output.
A task that does not is a real defect: the task data names it (``known_defect.shipped``) and this
test asserts the list of known defects is exactly what the bench sees, so a fix and a new defect
both make it fail.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

BENCH = REPO / "bench" / "pack_tasks.py"
TOOLS = ("git", "jq", "rg")
OUTCOMES = {"equal", "different", "not expressible", "error", "not tried", "task broken"}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    for tool in TOOLS:
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed")
    out = tmp_path_factory.mktemp("pack-tasks") / "report.json"
    done = subprocess.run([sys.executable, str(BENCH), "--tools", ",".join(TOOLS), "--json", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "== shipped packs" in done.stdout and "== fresh packs" in done.stdout
    return json.loads(out.read_text())


def _task_data():
    data = json.loads((REPO / "bench" / "data" / "pack_tasks.json").read_text())
    return {task["id"]: task for tool in data["tools"] if tool["tool"] in TOOLS for task in tool["tasks"]}


def test_report_structure(report):
    assert report["sets"] == ["shipped", "fresh"]
    assert sorted(tool["tool"] for tool in report["tools"]) == sorted(TOOLS)
    tasks = _task_data()
    seen = [task["id"] for tool in report["tools"] for task in tool["tasks"]]
    assert sorted(seen) == sorted(tasks)
    for tool in report["tools"]:
        assert len(tool["tasks"]) >= 3
        for task in tool["tasks"]:
            for set_name in ("shipped", "fresh"):
                row = task[set_name]
                assert row["outcome"] in OUTCOMES, (task["id"], row)
                assert row["outcome"] != "task broken", (task["id"], task.get("human_error"))
                if row["outcome"] == "not expressible":
                    assert row["why"]
                else:
                    assert row["verb"]
    for set_name in ("shipped", "fresh"):
        totals = report["summary"][set_name]["totals"]
        assert totals["tasks"] == len(tasks)
        assert 0 <= totals["equal"] <= totals["expressible"] <= totals["tasks"]
    for tool in TOOLS:
        score = report["picks"][tool]
        assert score["present"] or score["missing"]
        assert report["wraps"][tool]["seconds"] > 0


def test_shipped_expressible_tasks_are_equal_but_the_known_defects(report):
    tasks = _task_data()
    not_equal = {
        task["id"]: task["shipped"]
        for tool in report["tools"] for task in tool["tasks"]
        if task["shipped"]["outcome"] not in ("equal", "not expressible")
    }
    known = {task_id for task_id, task in tasks.items() if (task.get("known_defect") or {}).get("shipped")}
    assert set(not_equal) == known, not_equal
    # a known defect is a task the pack can express: the data must not hide a gap as a defect
    for task_id in known:
        assert not_equal[task_id]["outcome"] in ("different", "error")


def test_fresh_packs_are_judged_through_their_cli(report):
    """The matcher found verbs in the fresh packs: jq's query and rg's search answer as the tool does."""
    rows = {task["id"]: task["fresh"] for tool in report["tools"] for task in tool["tasks"]}
    assert rows["jq.field"]["outcome"] == "equal", rows["jq.field"]
    assert rows["rg.count"]["outcome"] == "equal", rows["rg.count"]
    assert rows["git.status-short"]["outcome"] == "equal", rows["git.status-short"]
