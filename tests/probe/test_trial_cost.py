"""What makes a first wrap's trials cheaper without changing their evidence: the trial env (GOGC),
scratch directories removed off a chain's path, and the chains that may need a second trial first."""

from __future__ import annotations

import os
import threading

from wrapgen.flows import trials as flows_trials
from wrapgen.knowledge.trials import trial_env
from wrapgen.probe import trial
from wrapgen.probe.sandbox import SandboxStatus
from wrapgen.runtime.process import ProcessResult


def _fake_sandbox(monkeypatch, seen: list):
    """A sandbox that "runs" (no process starts): run_process records the env and the scratch root."""
    monkeypatch.setattr(
        trial, "sandbox_status", lambda: SandboxStatus(True, bwrap="/usr/bin/bwrap")
    )

    def fake_run(argv, *, timeout_s, output_cap, cwd, env, on_timeout=None):
        seen.append({"env": dict(env), "cwd": cwd, "root": os.path.dirname(cwd)})
        return ProcessResult(argv=tuple(argv), exit_code=0, stdout=b"ok\n")

    monkeypatch.setattr(trial, "run_process", fake_run)


def test_a_trial_runs_with_the_trial_env_and_the_packs_env_set_wins(monkeypatch, tmp_path):
    seen: list = []
    _fake_sandbox(monkeypatch, seen)
    assert trial_env() == {"GOGC": "400"}  # knowledge/data/trials.json, with its reason
    run = trial.run_trials(
        [
            trial.TrialSpec("a", ("tool", "list")),
            trial.TrialSpec("b", ("tool", "show"), env={"GOGC": "100", "X": "1"}),
        ],
        bin_path="/bin/true",
        cache=False,
    )
    assert [o.exit_code for o in run.outcomes] == [0, 0]
    by_argv = sorted(seen, key=lambda s: s["env"].get("X", ""))
    assert by_argv[0]["env"]["GOGC"] == "400"
    assert (
        by_argv[1]["env"]["GOGC"] == "100" and by_argv[1]["env"]["X"] == "1"
    )  # the pack's env.set wins


def test_deferred_scratch_directories_are_gone_once_drained(monkeypatch):
    seen: list = []
    _fake_sandbox(monkeypatch, seen)
    gate = threading.Event()
    real_exit = trial.Scratch.__exit__

    def slow_exit(self, *exc):  # a busy disk: the removal waits until the test lets it go
        gate.wait(5)
        return real_exit(self, *exc)

    monkeypatch.setattr(trial.Scratch, "__exit__", slow_exit)
    run = trial.run_trials(
        [trial.TrialSpec("a", ("tool", "list"))],
        bin_path="/bin/true",
        cache=False,
        defer_cleanup=True,
    )
    assert run.outcomes[0].exit_code == 0  # the outcome did not wait for the removal
    root = seen[0]["root"]
    assert os.path.isdir(root)
    gate.set()
    trial.drain_cleanup()
    assert not os.path.exists(root)


def test_without_deferring_the_scratch_is_removed_before_run_trials_returns(monkeypatch):
    seen: list = []
    _fake_sandbox(monkeypatch, seen)
    trial.run_trials([trial.TrialSpec("a", ("tool", "list"))], bin_path="/bin/true", cache=False)
    assert not os.path.exists(seen[0]["root"])


def _verb(cli, *, effect="read", optional=()):
    props = {name: {"type": "string"} for name in optional}
    return {
        "description": "d",
        "cli": cli,
        "args": {"type": "object", "properties": props},
        "policy": {"effect": effect},
    }


def test_chains_that_may_need_a_second_trial_start_first_and_the_evidence_keeps_the_manifest_order(
    monkeypatch,
):
    manifest = {
        "bin": "tool",
        "verbs": {
            "add": _verb(["tool", "add"], effect="write"),
            "list": _verb(["tool", "list"]),
            "show": _verb(["tool", "show", "--", "{{name}}"], optional=("name",)),
            "logs": _verb(["tool", "logs", "--follow"]),
        },
    }
    assert [flows_trials._chain_order(manifest, n) for n in manifest["verbs"]] == [2, 1, 0, 0]
    started: list = []

    def fake_try(one, **_options):
        (name,) = one["verbs"]
        started.append(name)
        return flows_trials.TrialReport((flows_trials.Evidence(name, "ok"),))

    from wrapgen.flows import trial_run

    monkeypatch.setattr(trial_run, "try_manifest", fake_try)
    report = flows_trials._tried_verb_by_verb(
        manifest,
        bin_path="/bin/true",
        try_in=None,
        timeout_s=None,
        cache=False,
        deadline_at=None,
        memo={},
        jobs=1,
    )
    # show's "--" is tried first with and without it (its grammar is not known here), then its trial
    assert started == ["show", "show", "show", "logs", "list", "add"]
    assert [e.verb for e in report.evidence] == ["add", "list", "show", "logs"]
