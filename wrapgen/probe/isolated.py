"""One command run the way a help probe runs, for callers outside the crawl (``check --probe``'s help
pages, ``wrap``'s ``--json`` field lists, a task runner's database): in the probe sandbox where it runs (``wrapgen.probe.sandbox``:
the file system read-only, scratch HOME, cwd and TMPDIR, no network, its own PID namespace), with the
probes' environment allowlist (``wrapgen.probe.prober.probe_env``), never the caller's HOME or tokens.

``run_isolated(..., sandbox_required=True)`` runs nothing where no sandbox runs (a command that may do
what the tool does, not only print help); otherwise it runs with the scratch directories alone, as
discovery's probes do, and ``note`` says why where the sandbox was wanted.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:
    from wrapgen.runtime.process import ProcessResult

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
    """What the command gave (``result``), or None when it was not run (no sandbox, and one was
    required); ``note`` is why it ran, or would have run, without the sandbox where the sandbox was
    wanted but cannot run here ("" when it ran in it, or the caller or ``WRAPGEN_SANDBOX=off`` chose none)."""

    result: ProcessResult | None
    note: str = ""

    @property
    def ran(self) -> bool:
        return self.result is not None

    @property
    def exit_code(self) -> int | None:
        return None if self.result is None else self.result.exit_code

    @property
    def stdout(self) -> bytes:
        return b"" if self.result is None else self.result.stdout

    @property
    def stderr(self) -> bytes:
        return b"" if self.result is None else self.result.stderr


def run_isolated(
    argv: Sequence[str],
    *,
    timeout_s: float,
    output_cap: int,
    sandbox_required: bool = False,
    sandbox: bool | None = None,
    readable: Sequence[str] | None = None,
    extra_env: Mapping[str, str] | None = None,
    prefix: str = "wrapgen-isolated-",
) -> Isolated:
    """``argv`` run in fresh scratch directories with the probes' environment (plus ``extra_env``), in
    the sandbox unless ``sandbox`` is False or ``WRAPGEN_SANDBOX=off``; ``readable`` are directories
    bound back read-only besides what the program needs to run (``install.program_paths``)."""
    from wrapgen.probe.install import program_paths
    from wrapgen.probe.prober import probe_env
    from wrapgen.probe.sandbox import SYSTEM_DIRS, Scratch, bwrap_argv, sandbox_status
    from wrapgen.runtime.process import run_process

    off = sandbox is False or os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no")
    status = None if off else sandbox_status()
    inside = status is not None and status.available
    if not inside and sandbox_required:
        return Isolated(None, note=sandbox_off_reason())
    env = probe_env()
    env.update(extra_env or {})
    program = list(argv)
    with Scratch(prefix=prefix) as scratch:
        env.update(HOME=scratch.home, TMPDIR=scratch.tmpdir, PWD=scratch.workdir)
        if inside:
            search_path = env.get("PATH", "")
            found = (
                program[0] if os.sep in program[0] else shutil.which(program[0], path=search_path)
            )
            shown = program_paths(
                [found] if found else [], search_path=search_path, system=SYSTEM_DIRS
            )
            program = bwrap_argv(
                program,
                bwrap=status.bwrap,
                workdir=scratch.workdir,
                home=scratch.home,
                tmpdir=scratch.tmpdir,
                readable=(*shown, *(readable or ())),
            )
        result = run_process(
            program, timeout_s=timeout_s, output_cap=output_cap, cwd=scratch.workdir, env=env
        )
    return Isolated(result, note="" if inside or off else status.reason)
