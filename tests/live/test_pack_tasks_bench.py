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
    done = subprocess.run(
        [sys.executable, str(BENCH), "--tools", ",".join(TOOLS), "--json", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "== shipped packs" in done.stdout and "== fresh packs" in done.stdout
    return json.loads(out.read_text())


def _task_data():
    data = json.loads((REPO / "bench" / "data" / "pack_tasks.json").read_text())
    return {
        task["id"]: task
        for tool in data["tools"]
        if tool["tool"] in TOOLS
        for task in tool["tasks"]
    }


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
        for tool in report["tools"]
        for task in tool["tasks"]
        if task["shipped"]["outcome"] not in ("equal", "not expressible")
    }
    known = {
        task_id
        for task_id, task in tasks.items()
        if (task.get("known_defect") or {}).get("shipped")
    }
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


# ---- the matcher that reads a fresh pack's cli[] (pure: no tool runs) ----


def _bench():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pack_tasks", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _verb(argv, props, *, required=(), effect="read", json_flags=()):
    return {
        "argv": argv,
        "args": {"type": "object", "properties": props, "required": list(required)},
        "policy": {"effect": effect},
        "json": list(json_flags),
    }


BOOL, STR, INT, LIST = (
    {"type": "boolean"},
    {"type": "string"},
    {"type": "integer"},
    {"type": "array", "items": {"type": "string"}},
)


def test_matcher_reads_slots_literals_and_operands():
    bench = _bench()
    jq = _verb(
        ["jq", "--raw-output", "{{jq_filter}}", "--", "{{files}}"],
        {"jq_filter": STR, "files": LIST},
    )
    parsed = bench.parse_verb("jq", jq)
    assert parsed["literals"] == {"--raw-output": True} and parsed["slots"] == {}
    assert parsed["operands"] == [("jq_filter", False), ("files", True)]
    args, why, _ = bench.resolve(
        {"opts": {"--raw-output|-r": True}, "operands": [".a", "x.json"]}, parsed
    )
    assert args == {"jq_filter": ".a", "files": ["x.json"]}, why

    log = _verb(
        [
            "git",
            "log",
            "--max-count={{max_count}}",
            "--oneline",
            "{{oneline}}",
            "{{revision_range}}",
            "--",
            "{{paths}}",
        ],
        {"max_count": INT, "oneline": BOOL, "revision_range": STR, "paths": LIST},
    )
    parsed = bench.parse_verb("git", log)
    assert parsed["path"] == ["log"] and parsed["slots"] == {
        "--max-count": "max_count",
        "--oneline": "oneline",
    }
    args, _, _ = bench.resolve(
        {"path": ["log"], "opts": {"--oneline": True, "--max-count|-n": "2"}, "paths": ["a.py"]},
        parsed,
    )
    assert args == {"oneline": True, "max_count": 2, "paths": ["a.py"]}
    args, why, _ = bench.resolve({"path": ["log"], "opts": {"--format": "%h"}}, parsed)
    assert args is None and why == "no arg for --format"
    args, why, _ = bench.resolve({"path": ["show"]}, parsed)
    assert args is None and "subcommand show" in why

    grep = _verb(
        ["git", "grep", "-e{{pattern}}", "--", "{{paths}}"], {"pattern": STR, "paths": LIST}
    )
    args, _, _ = bench.resolve(
        {"path": ["grep"], "opts": {"-e": "x"}, "paths": ["*.py"]}, bench.parse_verb("git", grep)
    )
    assert args == {"pattern": "x", "paths": ["*.py"]}

    fd = _verb(["fdfind", "--type", "d", "--", "{{pattern}}"], {"pattern": STR})
    parsed = bench.parse_verb("fdfind", fd)
    assert parsed["literals"] == {"--type": "d"}
    assert bench.resolve({"opts": {"--type|-t": "d"}}, parsed)[0] == {}
    assert bench.resolve({"opts": {"--type|-t": "f"}}, parsed)[0] is None


def test_matcher_picks_the_verb_that_fits_best():
    bench = _bench()
    binding = {
        "bin": "curl",
        "verbs": {
            "download": _verb(
                ["curl", "--output", "{{output}}", "--", "{{url}}"],
                {"output": STR, "url": STR},
                required=["output", "url"],
                effect="write",
            ),
            "get": _verb(["curl", "--", "{{url}}"], {"url": STR}, required=["url"]),
            "head": _verb(["curl", "--head", "--", "{{url}}"], {"url": STR}, required=["url"]),
        },
    }
    assert bench.resolve_in_pack({"operands": ["http://x"]}, binding)[:2] == (
        "get",
        {"url": "http://x"},
    )
    assert (
        bench.resolve_in_pack({"opts": {"--head|-I": True}, "operands": ["http://x"]}, binding)[0]
        == "head"
    )
    verb, args, why = bench.resolve_in_pack(
        {"opts": {"--include|-i": True}, "operands": ["u"]}, binding
    )
    assert verb is None and why.startswith("no arg for --include")
    ls = {
        "bin": "ls",
        "verbs": {
            "list": _verb(
                ["ls", "--format={{format}}", "--", "{{files}}"], {"format": STR, "files": LIST}
            )
        },
    }
    assert bench.resolve_in_pack({"opts": {"-l|--format=long": True}}, ls)[1] == {"format": "long"}
    # a read task: the read form (a fixed read-only switch) before the write that needs a confirmation
    store = {
        "bin": "wgstore",
        "verbs": {
            "execute": _verb(
                ["wgstore", "--", "{{db}}", "{{sql}}"], {"db": STR, "sql": STR}, effect="write"
            ),
            "query": _verb(
                ["wgstore", "-readonly", "--", "{{db}}", "{{sql}}"], {"db": STR, "sql": STR}
            ),
        },
    }
    assert bench.resolve_in_pack({"operands": ["a.db", "SELECT 1"]}, store)[0] == "query"


def test_comparison_normalises_only_what_it_must():
    bench = _bench()
    assert bench.compare("a  \nb\n\n", "a\nb", [], False)
    assert not bench.compare("a\nb", "b\na", [], False)
    assert bench.compare("a\nb", "b\na", ["sort_lines"], False)
    assert bench.compare({"n": 1}, '{"n": 1}\n', [], True)
    assert bench.compare([1, 2], "1\n2\n", [], True)  # a JSON stream, as the runtime reads it
    assert not bench.compare("1", "1\n", [], True)  # JSON selected: text is not the answer
    assert bench.first_difference("a\nb", "a\nc", []) == {"line": 2, "pack": "b", "human": "c"}


def test_a_json_answer_is_compared_with_the_human_command_given_the_selection(tmp_path):
    """The human asked for text, the verb selects JSON: the pack's answer is the human command's
    when the same command given the verb's selection prints it; a different answer stays different."""
    bench = _bench()
    assert bench.with_selection(["t", "ls", "x"], ["--json"]) == ["t", "ls", "x", "--json"]
    assert bench.with_selection(["t", "ls", "--", "x"], ["--format", "json"]) == [
        "t",
        "ls",
        "--format",
        "json",
        "--",
        "x",
    ]
    assert bench.with_selection(["t"], True) is None
    lister = tmp_path / "lister"
    lister.write_text(
        "import json, sys\n"
        "names = ['a', 'b']\n"
        "print(json.dumps(names) if '--json' in sys.argv else '\\n'.join(names))\n"
    )

    class Box:  # the bench's sandbox runs argv and answers (exit, stdout, stderr); here bare
        def run(self, argv):
            done = subprocess.run(argv, capture_output=True)
            return done.returncode, done.stdout, done.stderr

    task = {"human": [sys.executable, str(lister)]}
    assert bench._json_form_equal(["a", "b"], task, ["--json"], Box(), {}, [])
    assert not bench._json_form_equal(["a"], task, ["--json"], Box(), {}, [])
    assert not bench._json_form_equal(
        ["a", "b"], {**task, "expect_exit": 1}, ["--json"], Box(), {}, []
    )
