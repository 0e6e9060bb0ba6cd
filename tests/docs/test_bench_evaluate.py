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
