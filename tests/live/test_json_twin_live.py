"""A text verb and its JSON twin (the same command, a JSON selection on one of them): the trial that
finds a JSON selection by running a verb leaves the text one as text, or a searcher's pack has two
JSON verbs and answers its text tasks from neither (found on rg: its main search took --json once
its pattern was required from its uses)."""

from __future__ import annotations

import shutil

import pytest
import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from wrapgen.flows.trial_steps import command_words
from wrapgen.pack.build import resolve_verb


@pytest.mark.skipif(shutil.which("rg") is None, reason="rg is not installed")
def test_the_text_twin_of_a_json_verb_stays_text(tmp_path, cli):
    result = cli("wrap", "rg", "-o", str(tmp_path), "--no-cache")
    assert result.exit_code == 0, result.stdout + result.stderr
    manifest = yaml.safe_load((tmp_path / "rg" / "pack.yaml").read_text())

    selecting = {n for n in manifest["verbs"] if resolve_verb(manifest, n)["json"]}
    assert selecting, "rg's pack offers its JSON output"
    for name in selecting:
        twins = [
            other
            for other in manifest["verbs"]
            if other != name
            and other in selecting
            and command_words(manifest, other) == command_words(manifest, name)
        ]
        assert not twins, f"{name} and {twins} run the same command, both as JSON"
