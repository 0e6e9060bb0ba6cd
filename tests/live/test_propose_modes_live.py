"""Modes of real tools without subcommands: fd and curl from their own help, tar's operations run for real.

The modes read from stored help and hand-made models are in tests/propose/test_propose_modes.py."""

from __future__ import annotations

from support.propose import checked as _checked
from support.propose import tar_from_fixture as _tar_from_fixture

from conftest import require_tool
from wrapgen.pack.manifest import dump_manifest
from wrapgen.propose import propose


def test_real_fd_gets_five_to_twelve_commands():
    """fd 8.6's own help gives find, list-details, files, dirs and recent: all reads, pack of 5..12."""
    require_tool("fdfind")
    from wrapgen.probe.discover import discover

    proposal = propose(discover("fdfind"))
    verbs = proposal.manifest["verbs"]
    assert {"find", "list-details", "files", "dirs", "recent"} <= set(verbs)
    assert 5 <= len(verbs) <= 12
    assert all(v["policy"]["effect"] == "read" for v in verbs.values())
    assert not any(
        t in ("--exec", "--exec-batch", "-x", "-X") for v in verbs.values() for t in v["cli"]
    )
    assert _checked(proposal.manifest) == []


def test_real_curl_gets_reads_then_gated_writes():
    """curl's own help gives get, include, head, post, post.json, download; values never as --opt=value."""
    require_tool("curl")
    from wrapgen.probe.discover import discover

    proposal = propose(discover("curl"))
    verbs = proposal.manifest["verbs"]
    assert list(verbs) == ["get", "include", "head", "post", "post.json", "download"]
    assert [v["policy"]["confirm"] for v in verbs.values()] == [False] * 3 + [True] * 3
    # curl's own option parser rejects "--max-time=5": every value is the next argument
    assert not any(t.startswith("--") and "=" in t for v in verbs.values() for t in v["cli"])
    assert _checked(proposal.manifest) == []


def test_tar_operations_run_end_to_end(tmp_path, monkeypatch):
    """The proposed create/list run real tar: an archive is written, then listed, with no operation lost."""
    require_tool("tar")
    from wrapgen.pack.build import render_pack_files
    from wrapgen.pack.emit import write_files
    from wrapgen.runtime import execute

    manifest = propose(_tar_from_fixture()).manifest
    pack = tmp_path / "tar"
    text = dump_manifest(manifest)
    write_files(pack, {"pack.yaml": text, **render_pack_files(text.encode())})
    (tmp_path / "a.txt").write_text("hello\n")
    monkeypatch.chdir(tmp_path)
    created = execute(str(pack), "create", {"file": "out.tar", "files": ["a.txt"], "confirm": True})
    assert created["ok"], created
    listed = execute(str(pack), "list", {"file": "out.tar"})
    assert listed == {"ok": True, "result": "a.txt\n"}
