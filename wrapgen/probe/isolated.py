"""One command run the way a help probe runs, for callers outside discovery (``check --probe``'s help
pages, ``wrap``'s ``--json`` field lists): in the probe sandbox where it runs (``wrapgen.probe.sandbox``:
the file system read-only, scratch HOME, cwd and TMPDIR, no network, its own PID namespace), with the
probes' environment allowlist (``wrapgen.probe.prober.probe_env``), never the caller's HOME or tokens.

``run_isolated(..., sandbox_required=True)`` runs nothing where no sandbox runs (a command that may do
what the tool does, not only print help); otherwise it runs with the scratch directories alone, as
discovery's probes do, and ``note`` says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping, Sequence

__all__ = ["Isolated", "run_isolated", "sandbox_off_reason"]


def sandbox_off_reason() -> str:
    """Why the sandbox cannot be used here ("" when it can)."""
    from wrapgen.probe.sandbox import sandbox_status

    if os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no"):
        return "the sandbox is off (WRAPGEN_SANDBOX=off)"
    status = sandbox_status()
    return "" if status.available else status.reason


@dataclass(frozen=True)
class Isolated:
    """What the command gave; ``ran`` is False when it was not run (no sandbox, and one was required)."""

    ran: bool
    exit_code: int | None = None
    stdout: bytes = b""
    stderr: bytes = b""
    note: str = ""  # why it ran without the sandbox, or did not run


def run_isolated(argv: Sequence[str], *, timeout_s: float, output_cap: int, sandbox_required: bool = False,
                 extra_env: Mapping[str, str] | None = None) -> Isolated:
    from wrapgen.probe.prober import probe_env
    from wrapgen.probe.sandbox import Scratch, bwrap_argv, sandbox_status
    from wrapgen.runtime.process import run_process

    why_not = sandbox_off_reason()
    if why_not and sandbox_required:
        return Isolated(False, note=why_not)
    env = probe_env()
    env.update(extra_env or {})
    program = list(argv)
    with Scratch(prefix="wrapgen-isolated-") as scratch:
        env.update(HOME=scratch.home, TMPDIR=scratch.tmpdir, PWD=scratch.workdir)
        if not why_not:
            readable = (os.path.dirname(program[0]),) if os.sep in program[0] else ()
            program = bwrap_argv(program, bwrap=sandbox_status().bwrap, workdir=scratch.workdir, home=scratch.home,
                                 tmpdir=scratch.tmpdir, readable=readable)
        result = run_process(program, timeout_s=timeout_s, output_cap=output_cap, cwd=scratch.workdir, env=env)
    return Isolated(True, result.exit_code, result.stdout, result.stderr,
                    note=f"ran without a sandbox ({why_not})" if why_not else "")
