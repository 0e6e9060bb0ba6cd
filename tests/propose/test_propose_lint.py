"""Check rule W030: a read verb must not carry a flag from the dangerous-flags catalogue."""

from __future__ import annotations

import shutil

from conftest import REPO
from wrapgen.check.rules import check_pack


def _copy(tmp_path, pack):
    target = tmp_path / pack
    shutil.copytree(REPO / "adapters" / pack, target)
    return target


def test_w030_fires_on_git_log_output(tmp_path):
    """Hand-adding --output=/tmp/x to git's read verb log is an error naming the flag."""
    pack = _copy(tmp_path, "git")
    text = (pack / "pack.yaml").read_text()
    assert "    cli:\n      - git\n      - log\n" in text
    text = text.replace(
        "    cli:\n      - git\n      - log\n",
        "    cli:\n      - git\n      - log\n      - --output=/tmp/x\n",
        1,
    )
    (pack / "pack.yaml").write_text(text)
    findings = [d for d in check_pack(pack) if d.code == "W030"]
    assert len(findings) == 1 and findings[0].level == "error"
    assert "--output" in findings[0].message and findings[0].field.startswith("verbs.log.cli")


def test_w030_allows_dangerous_flags_on_gated_writes(tmp_path):
    """The same flag on a confirm-gated write verb is not a W030 finding."""
    pack = _copy(tmp_path, "git")
    text = (pack / "pack.yaml").read_text()
    text = text.replace("      - commit\n", "      - commit\n      - --output=/tmp/x\n", 1)
    (pack / "pack.yaml").write_text(text)
    assert [d for d in check_pack(pack) if d.code == "W030"] == []


def test_generated_packs_have_no_w030():
    """No generated pack puts a catalogue flag on a read verb."""
    for pack in sorted((REPO / "adapters").iterdir()):
        if (pack / "pack.yaml").exists():
            assert [d for d in check_pack(pack) if d.code == "W030"] == [], pack.name
