"""The field list a tool prints for a bare ``--json`` (gh: "Specify one or more comma-separated fields
for `--json`: ..."), asked in the probe sandbox.

``TOOL SUB --json`` is not a help probe: a tool that takes ``--json`` for a switch would run
``SUB``, which may be a write. So it runs only where a proposal may run, inside bubblewrap
(``wrapgen.probe.sandbox``: the file system read-only, scratch HOME, cwd and TMPDIR, no network,
its own PID namespace) with the probes' environment allowlist, never with the caller's HOME or
tokens; where no sandbox runs (or ``WRAPGEN_SANDBOX=off``), nothing is asked and the caller is told.
"""

from __future__ import annotations

import os
from typing import Sequence

__all__ = ["FieldListProbe", "sandbox_off_reason"]


def sandbox_off_reason() -> str:
    """Why field lists cannot be asked here ("" when they can)."""
    from wrapgen.probe.sandbox import sandbox_status

    if os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no"):
        return "the sandbox is off (WRAPGEN_SANDBOX=off)"
    status = sandbox_status()
    return "" if status.available else status.reason


class FieldListProbe:
    """Asks ``TOOL PATH... --json`` in the sandbox; ``text(path)`` is what it printed (stdout, then stderr)."""

    def __init__(self, bin_path: str):
        self.bin_path = bin_path

    def text(self, path: Sequence[str], *, timeout_s: float) -> str:
        from wrapgen.probe.prober import probe_env
        from wrapgen.probe.sandbox import Scratch, bwrap_argv, sandbox_status
        from wrapgen.runtime.process import run_process

        status = sandbox_status()
        if not status.available:
            return ""
        env = probe_env()
        with Scratch(prefix="wrapgen-json-") as scratch:
            env.update(HOME=scratch.home, TMPDIR=scratch.tmpdir, PWD=scratch.workdir)
            argv = bwrap_argv([self.bin_path, *path, "--json"], bwrap=status.bwrap, workdir=scratch.workdir,
                              home=scratch.home, tmpdir=scratch.tmpdir,
                              readable=(os.path.dirname(self.bin_path),))
            result = run_process(argv, timeout_s=timeout_s, output_cap=1 << 20, cwd=scratch.workdir, env=env)
        return (result.stdout + b"\n" + result.stderr).decode("utf-8", "replace")
