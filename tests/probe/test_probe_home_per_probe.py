"""Each help probe gets a HOME of its own, with or without the sandbox: state one probe leaves in
HOME (pm2's daemon sockets in ~/.pm2) never makes the probe beside it wait. The fake tool here
hangs when an earlier probe's lock file is in its HOME, as pm2 does on a dead daemon's socket."""

from __future__ import annotations

from pathlib import Path

from tests.support.tools import python_tool
from wrapgen.probe.prober import Prober

TOOL = """\
import os, sys, time
lock = os.path.join(os.environ["HOME"], ".lockd")
if os.path.exists(lock):
    time.sleep(30)  # "waiting for the daemon"
open(lock, "w").write(str(os.getpid()))
print("Usage: lockd [OPTIONS]\\n\\nOptions:\\n  -v, --verbose  say more\\n  -h, --help     show help")
"""


def _tool(tmp_path: Path) -> str:
    path = tmp_path / "lockd"
    return python_tool(path, TOOL)


def test_probes_without_the_sandbox_do_not_share_a_home(tmp_path):
    with Prober(_tool(tmp_path), sandbox=False, timeout_s=5) as prober:
        results = [prober.run(("--help",)) for _ in range(3)]
    assert [r.usable for r in results] == [True, True, True], [r.problem for r in results]
    assert not any(r.timed_out for r in results)
