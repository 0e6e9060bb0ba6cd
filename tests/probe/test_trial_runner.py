"""The trial runner without a sandbox: nothing runs, it says why once, and write verbs stay rendered."""

from __future__ import annotations

import shutil

from wrapgen.check.trial_evidence import classify
from wrapgen.probe import trial
from wrapgen.probe.sandbox import reset_sandbox_status


def test_without_bwrap_nothing_is_run_and_the_reason_is_given_once(tmp_path, monkeypatch):
    """bwrap not on PATH: every read is "not tried", write verbs "rendered", one note; no process starts."""
    touch = shutil.which("touch")
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no bwrap here
    reset_sandbox_status()
    spawned = []
    monkeypatch.setattr(trial, "run_process", lambda *a, **k: spawned.append(a))
    try:
        run = trial.run_trials(
            [
                trial.TrialSpec("stamp", ("touch", str(tmp_path / "x"))),
                trial.TrialSpec("add", ("touch", "y"), run=False, why="write"),
                trial.TrialSpec("odd", ("touch",), run=False, why="sample args do not render: x"),
            ],
            bin_path=touch,
        )
    finally:
        reset_sandbox_status()
    assert not spawned and not (tmp_path / "x").exists()
    assert "no sandbox here" in run.note and "bwrap is not installed" in run.note
    kinds = [classify(o) for o in run.outcomes]
    assert [e.kind for e in kinds] == ["not-tried", "rendered", "not-tried"]
    assert kinds[0].detail == "no sandbox here" and kinds[2].detail.startswith(
        "sample args do not render"
    )
