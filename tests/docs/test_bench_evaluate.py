"""bench/evaluate.py's arguments: ``--regimes`` takes what its help says."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from support.bench import bench_module

from conftest import REPO, require_tool


def _evaluate(monkeypatch):
    return bench_module("evaluate", monkeypatch)


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


def test_a_subcommand_written_with_its_aliases_is_expressed_by_either(monkeypatch):
    """tldr's ``{{[ls|list]}}`` and ``{{[ps|container ls]}}`` name one subcommand by its spellings:
    a verb with one of them expresses the example (read as an operand, no verb ever did)."""
    evaluate = _evaluate(monkeypatch)
    binding = {
        "bin": "tool",
        "verbs": {
            "issue.list": {"argv": ["tool", "issue", "list"]},
            "container.ls": {
                "argv": ["tool", "container", "ls", "--all"],
            },
        },
    }
    examples = [
        "tool issue {{[ls|list]}}",
        "tool {{[ps|container ls]}} {{[-a|--all]}}",
        "tool issue {{[rm|delete]}}",
    ]
    score = evaluate.tldr_score(examples, binding, {})
    assert score["expressible"] == examples[:2]
    assert score["not_expressible"] == examples[2:]


def test_plain_word_choices_stand_for_each_word_and_the_placeholder(monkeypatch):
    """``{{start|stop}}`` is each word and the placeholder as written (first); a flag's spellings
    ``{{[-a|--all]}}`` are left as they are."""
    variants = _evaluate(monkeypatch).example_variants
    assert variants("tool {{start|stop}} {{unit}} {{[-a|--all]}}") == [
        "tool {{start|stop}} {{unit}} {{[-a|--all]}}",
        "tool start {{unit}} {{[-a|--all]}}",
        "tool stop {{unit}} {{[-a|--all]}}",
    ]
    assert variants("tool log {{path/to/file}}") == ["tool log {{path/to/file}}"]


def test_bundled_letters_are_read_as_the_flags_their_long_spelling_writes(monkeypatch):
    """``{{[-sh|--summarize --human-readable]}}`` is two flags and ``{{[-5|--lines 5]}}`` a flag
    with its value: a verb offering ``--summarize`` and ``--human-readable`` expresses the first,
    one offering only ``--summarize`` does not."""
    evaluate = _evaluate(monkeypatch)
    example = "tool {{[-sh|--summarize --human-readable]}} {{path/to/directory}}"
    assert evaluate.example_tokens(example) == [
        ("flag", "--summarize"),
        ("flag", "--human-readable"),
        ("value", "path/to/directory"),
    ]
    assert evaluate.example_tokens("tool {{[-5|--lines 5]}} {{file}}")[:2] == [
        ("flag", "--lines"),
        ("value", "5"),
    ]

    def verb(*flags):
        props = {"dir": {"type": "string"}} | {f.strip("-"): {"type": "boolean"} for f in flags}
        argv = ["tool", *[t for f in flags for t in (f, "{{" + f.strip("-") + "}}")], "{{dir}}"]
        return {"bin": "tool", "verbs": {"v": {"argv": argv, "args": {"properties": props}}}}

    both = evaluate.tldr_score([example], verb("--summarize", "--human-readable"), {})
    assert both["expressible"] == [example]
    one = evaluate.tldr_score([example], verb("--summarize"), {})
    assert one["not_expressible"] == [example]


def test_an_option_written_before_the_subcommand_is_read_after_it(monkeypatch):
    """``tool -r REPO snapshots`` is expressed by a verb ``snapshots`` with a ``-r`` slot, not by
    one without it, nor by another subcommand's verb."""
    evaluate = _evaluate(monkeypatch)
    example = "tool {{[-r|--repo]}} {{path/to/repository}} snapshots"

    def binding(path, with_repo):
        argv = ["tool", path] + (["--repo", "{{repo}}"] if with_repo else [])
        props = {"repo": {"type": "string"}} if with_repo else {}
        return {"bin": "tool", "verbs": {path: {"argv": argv, "args": {"properties": props}}}}

    assert evaluate.tldr_score([example], binding("snapshots", True), {})["expressible"]
    assert not evaluate.tldr_score([example], binding("snapshots", False), {})["expressible"]
    assert not evaluate.tldr_score([example], binding("backup", True), {})["expressible"]


def test_a_short_option_joined_to_its_value_is_read_as_the_option_and_the_value(monkeypatch):
    """``-Tsvg`` (getopt's joined form) is ``-T svg`` for a verb with a ``-T`` value slot and no
    ``-Tsvg`` of its own; a verb whose ``-T`` is a switch cannot take it."""
    evaluate = _evaluate(monkeypatch)
    pt = evaluate.pt
    match = evaluate.parse_match("-Tsvg @graph.gv")

    def binding(argv, props):
        return {"bin": "tool", "verbs": {"v": {"argv": argv, "args": {"properties": props}}}}

    valued = binding(
        ["tool", "-T", "{{t}}", "{{file}}"], {"t": {"type": "string"}, "file": {"type": "string"}}
    )
    verb, args, _ = pt.resolve_in_pack(match, valued)
    assert verb == "v" and args == {"t": "svg", "file": "graph.gv"}
    switch = binding(
        ["tool", "-T", "{{t}}", "{{file}}"], {"t": {"type": "boolean"}, "file": {"type": "string"}}
    )
    assert pt.resolve_in_pack(match, switch)[0] is None


def test_bundled_switches_are_each_switch_of_the_verb(monkeypatch):
    """``-ef`` is -e and -f for a verb with both switches; not for one that lacks either."""
    evaluate = _evaluate(monkeypatch)
    pt = evaluate.pt
    props = {"e": {"type": "boolean"}, "f": {"type": "boolean"}}
    both = {"argv": ["tool", "-e", "{{e}}", "-f", "{{f}}"], "args": {"properties": props}}
    verb, args, _ = pt.resolve_in_pack(
        evaluate.parse_match("-ef"), {"bin": "tool", "verbs": {"v": both}}
    )
    assert (verb, args) == ("v", {"e": True, "f": True})
    one = {"argv": ["tool", "-e", "{{e}}"], "args": {"properties": {"e": {"type": "boolean"}}}}
    assert (
        pt.resolve_in_pack(evaluate.parse_match("-ef"), {"bin": "tool", "verbs": {"v": one}})[0]
        is None
    )


def test_words_past_a_verbs_path_are_its_leading_operands(monkeypatch):
    """``run build`` is the verb ``run`` with its task ``build`` where no verb is ``run build``;
    a verb of the whole path wins, and the tool's own verb never takes a subcommand as an operand."""
    evaluate = _evaluate(monkeypatch)
    pt = evaluate.pt
    run = {
        "argv": ["tool", "run", "{{task}}"],
        "args": {"properties": {"task": {"type": "string"}}},
    }
    main = {"argv": ["tool", "{{target}}"], "args": {"properties": {"target": {"type": "string"}}}}
    binding = {"bin": "tool", "verbs": {"run": run, "main": main}}
    verb, args, _ = pt.resolve_in_pack(evaluate.parse_match("run build"), binding)
    assert (verb, args) == ("run", {"task": "build"})
    whole = {"argv": ["tool", "run", "build"], "args": {"properties": {}}}
    verb, args, _ = pt.resolve_in_pack(
        evaluate.parse_match("run build"),
        {"bin": "tool", "verbs": {**binding["verbs"], "rb": whole}},
    )
    assert (verb, args) == ("rb", {})
    assert (
        pt.resolve_in_pack(evaluate.parse_match("login"), {"bin": "tool", "verbs": {"run": run}})[0]
        is None
    )
    assert pt.resolve_in_pack(evaluate.parse_match("prune"), binding)[0] is None


@pytest.mark.live
def test_no_try_judges_the_proposal_before_any_trial(monkeypatch, tmp_path):
    """``--no-try`` wraps with ``wrap --no-try``: the pack's reasons say nothing was tried, and the
    report says its figures are no goals' figures."""
    require_tool("jq")
    evaluate = _evaluate(monkeypatch)
    tool = {"tool": "jq", "bin": "jq"}
    infos = evaluate.wrap([tool], "usage", tmp_path, 1, [], trials=False)
    pack = infos["jq"]["pack"]
    manifest = yaml.safe_load((pack["root"] / pack["pack_id"] / "pack.yaml").read_text())
    reasons = [verb["x-why"] for verb in manifest["verbs"].values()]
    assert reasons and not any("tried" in why for why in reasons), reasons
    out = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "evaluate.py"),
            "--tools",
            "jq",
            "--regimes",
            "usage",
            "--no-try",
            "--no-tasks",
            "--no-check",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "wrapped with --no-try" in done.stdout
    assert json.loads(out.read_text())["trials"] is False


def test_a_missed_pick_is_counted_in_the_class_of_what_the_pack_lacks(monkeypatch):
    """A pick the pack cannot express is classed by what it lacks (the main verb, a verb at its
    path, a flag, an operand), and the half's totals count each class."""
    evaluate = _evaluate(monkeypatch)
    binding = {
        "bin": "tool",
        "verbs": {
            "tool": {"argv": ["tool", "--count", "{{count}}"], "args": {"properties": {}}},
            "log": {"argv": ["tool", "log"]},
        },
    }
    picks = {
        "tool": {
            "picks": [
                {"name": p, "match": evaluate.parse_match(p)}
                for p in ("log", "log --oneline", "log @path", "show @ref", "--count=3")
            ],
            "forbidden": [],
        }
    }
    info = {"seconds": 1, "pack": {"binding": binding, "root": "/nonexistent", "pack_id": "x"}}
    row = evaluate.judge_tool("tool", info, picks, None)
    assert row["picks"]["present"] == ["log", "--count=3"]
    assert row["picks"]["missed_why"] == [
        "a flag not offered",
        "an operand not offered",
        "no verb at its subcommand path",
    ]
    counted = evaluate.totals({"tool": row}, ["tool"], None)["missed_why"]
    assert counted == {
        "a flag not offered": 1,
        "an operand not offered": 1,
        "no verb at its subcommand path": 1,
    }
    no_main = {"bin": "tool", "verbs": {"log": {"argv": ["tool", "log"]}}}
    info["pack"]["binding"] = no_main
    row = evaluate.judge_tool("tool", info, picks, None)
    assert "no main verb" in row["picks"]["missed_why"]


def test_a_tldr_example_no_verb_expresses_is_classed_by_its_nearest_verb(monkeypatch):
    """An example whose path a verb has is missed for the flag or operand that verb lacks; one whose
    path no verb has, for the verb."""
    evaluate = _evaluate(monkeypatch)
    binding = {"bin": "tool", "verbs": {"log": {"argv": ["tool", "log"]}}}
    examples = ["tool log", "tool log --oneline", "tool log {{path}}", "tool show {{ref}}"]
    score = evaluate.tldr_score(examples, binding, {})
    assert score["expressible"] == ["tool log"]
    assert score["missed_why"] == [
        "a flag not offered",
        "an operand not offered",
        "no verb at its subcommand path",
    ]
