"""The trials' backfill (``flows.trials.try_and_backfill``), with the trials themselves replaced.

What a trial shows is given here (``try_proposal`` stands in: it leaves out the verbs in ``DROP``),
so these check only what backfill does with it: when it proposes again, what it excludes, how it
pairs what replaced what, when it stops. The real thing, with kubectl in the sandbox, is
tests/live/test_trials_backfill_live.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from wrapgen.check.trial_evidence import Evidence
from wrapgen.flows import trials
from wrapgen.flows.trials import TrialReport, trial_lines, try_and_backfill
from wrapgen.propose.core import Decision, Proposal

READ = {"effect": "read", "confirm": False}


def _proposal(chosen: list[str], others: list[str] = ()) -> Proposal:
    verbs = {
        p.replace(" ", "."): {
            "description": "D.",
            "cli": ["t", *p.split()],
            "policy": READ,
            "x-why": "read",
        }
        for p in chosen
    }
    decisions = tuple(
        Decision(p, p.replace(" ", "."), True, "read", "read: picked") for p in chosen
    )
    decisions += tuple(Decision(p, "", False, "read", "not chosen: ranks low") for p in others)
    return Proposal(
        {"pack_id": "t", "description": "T.", "bin": "t", "json": False, "verbs": verbs}, decisions
    )


@pytest.fixture
def fake_trials(monkeypatch):
    """``try_proposal`` that leaves out the verbs named in the returned set, as a long-running trial would."""
    drop: set[str] = set()
    calls: list[list[str]] = []

    def fake(proposal, **_options):
        calls.append(sorted(proposal.manifest["verbs"]))
        evidence = tuple(
            Evidence(name, "long-running" if name in drop else "ok")
            for name in proposal.manifest["verbs"]
        )
        verbs = {n: b for n, b in proposal.manifest["verbs"].items() if n not in drop}
        decisions = tuple(
            replace(d, chosen=False, name="", reason=Evidence(d.name, "long-running").words)
            if d.chosen and d.name in drop
            else d
            for d in proposal.decisions
        )
        return replace(
            proposal, manifest={**proposal.manifest, "verbs": verbs}, decisions=decisions
        ), TrialReport(evidence)

    monkeypatch.setattr(trials, "try_proposal", fake)
    return drop, calls


def test_a_dropped_verb_is_replaced_by_the_next_candidate(fake_trials):
    drop, calls = fake_trials
    drop.add("watch")
    asked = []

    def repropose(excluded):
        asked.append(excluded)
        return _proposal(["get", "list", "show", "status", "info"], ["more"])

    first = _proposal(["get", "list", "show", "status", "watch"], ["info", "more"])
    proposal, report = try_and_backfill(first, repropose=repropose, bin_path="/bin/t")
    assert asked == [(("watch",),)]
    assert [d.path for d in proposal.chosen] == ["get", "list", "show", "status", "info"]
    assert report.replaced == (("info", "watch"),)
    assert (
        "added by wrap in place of 'watch', which its trial left out"
        in proposal.manifest["verbs"]["info"]["x-why"]
    )
    info = next(d for d in proposal.decisions if d.path == "info")
    assert info.reason.endswith("; in place of 'watch' (left out by its trial)")
    watch = next(d for d in proposal.decisions if d.path == "watch")
    assert (
        not watch.chosen
        and "long-running" in watch.reason
        and watch.reason.endswith("replaced by 'info'")
    )
    assert "  backfill: info takes the place of 'watch', which its trial left out" in trial_lines(
        report
    )
    assert [e.verb for e in report.evidence].count(
        "watch"
    ) == 1  # the first round's evidence is kept
    assert calls == [
        ["get", "list", "show", "status", "watch"],
        ["get", "info", "list", "show", "status"],
    ]


def test_no_backfill_while_the_pack_has_five(fake_trials):
    drop, calls = fake_trials
    drop.add("watch")
    first = _proposal(["a", "b", "c", "d", "e", "watch"])

    def repropose(_excluded):
        raise AssertionError("a pack of 5 is not refilled")

    proposal, report = try_and_backfill(first, repropose=repropose, bin_path="/bin/t")
    assert len(proposal.chosen) == 5 and report.replaced == ()


def test_backfill_stops_when_the_proposer_has_nothing_new(fake_trials):
    drop, calls = fake_trials
    drop.update({"watch", "tail"})
    first = _proposal(["get", "list", "watch", "tail"])
    asked = []

    def repropose(excluded):
        asked.append(excluded)
        return _proposal(["get", "list"])

    proposal, report = try_and_backfill(first, repropose=repropose, bin_path="/bin/t")
    assert asked == [(("watch",), ("tail",))] and len(calls) == 1
    assert [d.path for d in proposal.chosen] == ["get", "list"] and report.replaced == ()


def test_a_replacement_left_out_by_its_own_trial_is_replaced_in_the_next_round(fake_trials):
    drop, calls = fake_trials
    drop.update({"watch", "follow"})
    rounds = iter([_proposal(["a", "b", "c", "d", "follow"]), _proposal(["a", "b", "c", "d", "e"])])
    asked = []

    def repropose(excluded):
        asked.append(excluded)
        return next(rounds)

    proposal, report = try_and_backfill(
        _proposal(["a", "b", "c", "d", "watch"]), repropose=repropose, bin_path="/bin/t"
    )
    assert asked == [(("watch",),), (("watch",), ("follow",))]
    assert [d.path for d in proposal.chosen] == ["a", "b", "c", "d", "e"]
    assert report.replaced == (("e", "watch"),)
    assert {d.path for d in proposal.decisions if not d.chosen} >= {"watch", "follow"}


def test_modes_and_listed_commands_are_not_backfilled(fake_trials):
    drop, calls = fake_trials
    drop.add("--follow")
    first = _proposal(["--list", "--follow"])
    for decision in first.decisions:
        assert decision.path.startswith("--")
    proposal, report = try_and_backfill(
        first, repropose=lambda _e: pytest.fail("a mode cannot be excluded"), bin_path="/bin/t"
    )
    assert [d.path for d in proposal.chosen] == ["--list"]
    drop.clear()
    drop.add("watch")
    proposal, report = try_and_backfill(
        _proposal(["get", "watch"]), repropose=None, bin_path="/bin/t"
    )
    assert [d.path for d in proposal.chosen] == ["get"] and report.replaced == ()


def test_progress_counts_only_the_verbs_that_are_tried():
    """A write's chain only renders it: the wrap's status line said '3 tried' for one read and two
    rendered writes."""
    from wrapgen.flows import trials as trials_flow
    from wrapgen.flows.trial_run import TrialReport

    manifest = {
        "verbs": {
            "show": {"cli": ["t", "show"], "policy": {"effect": "read"}},
            "add": {"cli": ["t", "add"], "policy": {"effect": "write"}},
            "rm": {"cli": ["t", "rm"], "policy": {"effect": "destructive"}},
        }
    }
    seen = []
    reports = trials_flow._chains(
        manifest,
        list(manifest["verbs"]),
        lambda name: TrialReport(()),
        1,
        lambda done, total, verb: seen.append((done, total, verb)),
    )
    assert len(reports) == 3
    assert seen == [(1, 1, "show")]
