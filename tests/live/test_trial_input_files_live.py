"""A read whose input is named by a flag (an archiver's `--list --file=ARCHIVE`) fails its trial
without it: it reads its empty stdin ("This does not look like a tar archive"). The trial tries it
once more with its optional file flags, then each alone, a sample file of its kind in each; where
it then answers, those flags are required, and the pack's listing answers as the human command
does. A flag whose name says no file (an `--exclude` pattern described as files) is never filled."""

from __future__ import annotations

import json
import subprocess
import tarfile

import pytest
import yaml

from tests.conftest import require_tool
from wrapgen.check.trial_forms import optional_file_flags

pytestmark = pytest.mark.live


def test_only_flags_named_as_files_are_tried_with_one():
    verb = {
        "cli": ["t", "--list", "--exclude={{exclude}}", "--file={{file}}", "-T", "{{input}}"],
        "args": {
            "properties": {
                "exclude": {"type": "string", "description": "exclude files, given as a PATTERN"},
                "file": {"type": "string", "description": "use archive file or device ARCHIVE"},
                "input": {"type": "string", "description": "get names to extract from FILE"},
            }
        },
    }
    assert optional_file_flags(verb) == ("file", "input")
    verb["args"]["required"] = ["file"]
    assert optional_file_flags(verb) == ("input",)


def test_an_archive_listing_gets_its_file_flag_required(tmp_path, cli, monkeypatch):
    tar = require_tool("tar")
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "packs"
    result = cli("wrap", "tar", "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((out / "tar" / "pack.yaml").read_text())["verbs"]
    name, listing = next((n, v) for n, v in verbs.items() if "--list" in v["cli"])
    assert listing["policy"]["effect"] == "read"
    needed = [
        a
        for a in listing["args"].get("required", [])
        if a in optional_file_flags({**listing, "args": {**listing["args"], "required": []}})
    ]
    assert needed, listing
    assert "failed: " in listing["x-why"] and "made required" in listing["x-why"], listing["x-why"]
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("alpha\n")
    with tarfile.open(work / "pack.tar", "w") as archive:
        archive.add(work / "a.txt", arcname="a.txt")
    monkeypatch.chdir(work)
    call = cli("exec", str(out / "tar"), name, "--json", "--", f"{needed[0]}=pack.tar")
    human = subprocess.run(
        [tar, "--list", "--file=pack.tar"], cwd=work, capture_output=True, text=True
    )
    assert json.loads(call.stdout) == {"ok": True, "result": human.stdout}
