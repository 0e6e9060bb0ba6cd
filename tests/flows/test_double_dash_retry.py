"""Once one verb's trial showed the tool refuses "--", the reads whose own trial failed with a "--"
their grammar says nothing of are tried again without it (flows/trials.py); a read that answered, a
verb whose grammar says it takes "--", and a cli without "--" are not."""

from __future__ import annotations

from wrapgen.check.trial_evidence import Evidence
from wrapgen.flows.trial_facts import VerbFacts
from wrapgen.flows.trial_run import TrialReport
from wrapgen.flows.trials import _failed_by_double_dash


def _manifest() -> dict:
    cli = ["tool", "--mode", "--", "{{file}}"]
    return {
        "verbs": {
            "main": {"cli": ["tool", "{{file}}"]},
            "failed": {"cli": cli},
            "answered": {"cli": cli},
            "said": {"cli": cli},
            "plain": {"cli": ["tool", "--other", "{{file}}"]},
        }
    }


def _reports(first_dash: str) -> list[TrialReport]:
    return [
        TrialReport((Evidence("main", "ok", double_dash=first_dash),)),
        TrialReport((Evidence("failed", "failed", detail="exit 1"),)),
        TrialReport((Evidence("answered", "ok"),)),
        TrialReport((Evidence("said", "failed"),)),
        TrialReport((Evidence("plain", "failed"),)),
    ]


def test_the_reads_that_failed_with_a_double_dash_are_tried_again_without_it():
    facts = {name: VerbFacts() for name in _manifest()["verbs"]}
    facts["said"] = VerbFacts(double_dash=True)
    again = _failed_by_double_dash(_manifest(), _reports("dropped"), facts)
    assert again == {"failed": ["tool", "--mode", "{{file}}"]}


def test_nothing_is_tried_again_where_no_trial_showed_the_tool_refuses_it():
    facts = {name: VerbFacts() for name in _manifest()["verbs"]}
    assert _failed_by_double_dash(_manifest(), _reports("kept"), facts) == {}
    assert _failed_by_double_dash(_manifest(), _reports("dropped"), None) == {}
