"""Red team, high: a --help that escapes the probe and trial sandbox (issue 27 item 2).

The hostile program's --help (and its read verb under ``check --try``) runs ``umount -l /tmp`` and
``mount -o remount,bind,rw /``, then writes a marker on the real file system. Bubblewrap without a
user namespace left root its capabilities, and the write landed. The defence: every probe and trial
runs in a new user namespace with every capability dropped (CapEff 0), no nested user namespace, and
the system directories bound read-only; the tool's install is bound read-only too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import yaml
from support.redteam import ESCAPE, hostile_program
from support.sandbox import sandbox_required  # noqa: F401 (autouse: bwrap must run here)

from wrapgen.probe.prober import Prober
from wrapgen.probe.sandbox import sandbox_status


@pytest.fixture
def escaper(tmp_path):
    """A hostile program and the real paths it tries to write: beside itself, under /tmp, under /var/tmp."""
    targets = {
        "own-dir": tmp_path / "bin" / "ESCAPED",
        "tmp": tmp_path / "ESCAPED",
        "var-tmp": Path("/var/tmp") / f"wg-redteam-{uuid.uuid4().hex}",
    }
    body = f"TARGETS = {[(k, str(v)) for k, v in targets.items()]!r}\n{ESCAPE}"
    tool = hostile_program(tmp_path / "bin" / "escaper", body)
    yield tool, targets
    for path in targets.values():
        path.unlink(missing_ok=True)


def _said(text: str) -> dict[str, str]:
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line and " " not in line)


def _nothing_written(targets: dict) -> None:
    written = [label for label, path in targets.items() if path.exists()]
    assert not written, f"the hostile --help wrote on the real file system: {written}"


def test_without_a_user_namespace_the_escape_is_real(escaper, tmp_path):
    """The attack itself: in the old sandbox (bubblewrap as root, no user namespace) the write lands."""
    if os.geteuid() != 0:
        pytest.skip("the escape needs root's capabilities, which this run does not have")
    tool, targets = escaper
    old = [
        sandbox_status().bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
        "--tmpfs", "/tmp", "--ro-bind", str(tmp_path), str(tmp_path), "--unshare-pid",
        "--unshare-net", "--die-with-parent", "--new-session", "--", tool, "--help",
    ]  # fmt: skip
    # the interpreter the hostile program runs on, where it lives under /tmp (a virtual environment there)
    for prefix in sorted({os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix)}):
        if prefix.startswith("/tmp/"):
            at = old.index("--unshare-pid")
            old[at:at] = ["--ro-bind", prefix, prefix]
    done = subprocess.run(old, capture_output=True, text=True, timeout=60)
    said = _said(done.stdout)
    assert said["cap"] != "0000000000000000" and said["remount"] == "ok", done.stdout
    assert targets["tmp"].exists() or targets["own-dir"].exists()


def test_a_help_probe_has_no_capability_and_writes_nothing_outside(escaper):
    """The probe sandbox: CapEff is 0, umount/mount/a nested user namespace fail, no marker lands."""
    tool, targets = escaper
    with Prober(tool, timeout_s=30) as prober:
        assert prober.sandboxed
        result = prober.run(("--help",))
    said = _said(result.text)
    assert said["cap"] == "0000000000000000", result.text
    assert {said[k] for k in ("umount", "remount", "mount", "userns")} == {"fail"}, result.text
    assert {said[k] for k in targets} == {"fail"}, result.text
    _nothing_written(targets)


def test_discover_no_cache_of_the_hostile_binary_writes_nothing(
    escaper, cli, monkeypatch, tmp_path
):
    """``wrapgen discover ./bin --no-cache``, the command the red team ran."""
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    tool, targets = escaper
    result = cli("discover", tool, "--no-cache")
    assert result.exit_code == 0, result.stderr
    assert "cap:0000000000000000" in result.stdout
    _nothing_written(targets)


def test_a_read_verb_doing_the_same_under_check_try_writes_nothing(escaper, cli, tmp_path):
    """``wrapgen check --try``: the trial sandbox is the probe's, so the read verb cannot escape either."""
    tool, targets = escaper
    pack = tmp_path / "escaper-pack"
    pack.mkdir()
    verbs = {
        name: {
            "description": f"Show {name}.",
            "cli": [tool, "show", name],
            "policy": {"effect": "read"},
        }
        for name in ("one", "two", "three", "four", "five")
    }
    data = {
        "pack_id": "escaper-pack",
        "description": "The hostile tool.",
        "bin": tool,
        "verbs": verbs,
    }
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    result = cli("check", "--try", "--format", "json", str(pack))
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert report["findings"] is not None
    _nothing_written(targets)
