"""In the sandbox each probe's HOME is a tmpfs of its own (``SandboxStatus.tmpfs_home``): empty, private,
bounded, gone with the probe, and nothing made on disk for it; a bubblewrap without ``--size`` gets the
per-probe HOME directory of before. Real bubblewrap and real (fake-tool) processes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.support.sandbox import sandbox_required as _sandbox  # noqa: F401  (autouse)
from tests.support.tools import python_tool
from wrapgen.probe import prober as prober_module
from wrapgen.probe.prober import Prober
from wrapgen.probe.sandbox import Scratch, reset_sandbox_status, sandbox_status

# hangs when an earlier probe's lock is in its HOME (pm2 on a dead daemon's socket); says what HOME is
LOCKD = """\
import os, stat, sys, time
home = os.environ["HOME"]
lock = os.path.join(home, ".lockd")
if os.path.exists(lock):
    time.sleep(30)
before = sorted(os.listdir(home))
open(lock, "w").write(str(os.getpid()))
size = int(sys.argv[2]) if len(sys.argv) > 2 else 0
try:
    with open(os.path.join(home, "big"), "wb") as handle:
        handle.write(b"x" * size)
    wrote = "ok"
except OSError as error:
    wrote = error.strerror
print(f"mode={oct(stat.S_IMODE(os.stat(home).st_mode))} before={before} wrote={wrote}")
print("Usage: lockd [OPTIONS]\\n\\nOptions:\\n  -v, --verbose  say more\\n  -h, --help     show help")
"""


def _tool(tmp_path: Path) -> str:
    path = tmp_path / "lockd"
    return python_tool(path, LOCKD)


def test_each_probe_gets_an_empty_private_tmpfs_home_and_nothing_on_disk(tmp_path, monkeypatch):
    assert sandbox_status().tmpfs_home, "this machine's bubblewrap (0.8) sizes a tmpfs"
    made = []
    real = Scratch.probe_home
    monkeypatch.setattr(Scratch, "probe_home", lambda self: made.append(1) or real(self))
    with Prober(_tool(tmp_path), timeout_s=10) as prober:
        assert prober.sandboxed
        results = [prober.run(("--help",)) for _ in range(3)]
        home_on_disk = os.listdir(prober.home)
    assert [r.usable for r in results] == [True] * 3, [r.problem for r in results]
    assert all("mode=0o700 before=[] wrote=ok" in r.text for r in results)
    assert (
        made == [] and home_on_disk == []
    )  # no directory per probe, and nothing left in the mount point


def test_a_tool_that_fills_its_home_is_stopped_at_the_size(tmp_path, monkeypatch):
    monkeypatch.setattr(prober_module, "HOME_TMPFS_BYTES", 1024 * 1024)
    with Prober(_tool(tmp_path), timeout_s=10) as prober:
        result = prober.run(("--help", str(4 * 1024 * 1024)))
    assert result.usable, result.problem
    assert "wrote=No space left on device" in result.text


def test_a_bubblewrap_without_size_gets_a_home_directory_per_probe(tmp_path, monkeypatch):
    """A stand-in for an older bubblewrap (it refuses --size): the sandbox still runs, with the bound HOMEs."""
    real = shutil.which("bwrap")
    old = tmp_path / "bin" / "bwrap"
    old.parent.mkdir()
    old.write_text(
        f'#!/bin/sh\nfor a in "$@"; do [ "$a" = --size ] && {{ echo \'bwrap: Unknown option --size\' >&2; exit 1; }}; done\n'
        f'exec {real} "$@"\n'
    )
    old.chmod(0o755)
    monkeypatch.setenv("PATH", f"{old.parent}{os.pathsep}{os.environ['PATH']}")
    reset_sandbox_status()
    status = sandbox_status()
    assert status.available and not status.tmpfs_home and status.bwrap == str(old)
    made = []
    real_home = Scratch.probe_home
    monkeypatch.setattr(Scratch, "probe_home", lambda self: made.append(1) or real_home(self))
    with Prober(_tool(tmp_path), timeout_s=10) as prober:
        results = [prober.run(("--help",)) for _ in range(2)]
    assert [r.usable for r in results] == [True, True], [r.problem for r in results]
    assert len(made) == 2
