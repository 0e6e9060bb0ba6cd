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


def test_a_letters_flag_is_tried_with_a_file_where_its_description_says_so():
    """`-f {{f}}`: a letter's name says nothing, its description names a key file; `-o {{o}}`,
    described as an offset, is no file."""
    verb = {
        "cli": ["t", "-l", "-f", "{{f}}", "-o", "{{o}}"],
        "args": {
            "properties": {
                "f": {"type": "string", "description": "Specifies the filename of the key file"},
                "o": {"type": "string", "description": "add an offset to the position"},
            }
        },
    }
    assert optional_file_flags(verb) == ("f",)


def test_a_key_tools_reads_get_their_key_file(tmp_path, cli, monkeypatch):
    """A key tool's listing asks on its terminal for the key file when none is named; tried with
    a sample key, its file flag becomes required and the fingerprint answers as the human's."""
    keygen = require_tool("ssh-keygen")
    require_tool("openssl")
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "packs"
    result = cli("wrap", "ssh-keygen", "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((out / "ssh-keygen" / "pack.yaml").read_text())["verbs"]
    name, listing = next((n, v) for n, v in verbs.items() if v["cli"][1:2] == ["-l"])
    assert listing["policy"]["effect"] == "read"
    assert "f" in listing["args"].get("required", []), listing
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(work / "id")], check=True)
    monkeypatch.chdir(work)
    call = cli("exec", str(out / "ssh-keygen"), name, "--json", "--", "f=id")
    human = subprocess.run([keygen, "-l", "-f", "id"], cwd=work, capture_output=True, text=True)
    assert json.loads(call.stdout) == {"ok": True, "result": human.stdout}
