"""The field list a tool prints for a bare ``--json`` (gh: "Specify one or more comma-separated fields
for `--json`: ..."), asked in the probe sandbox.

``TOOL SUB --json`` is not a help probe: a tool that takes ``--json`` for a switch would run
``SUB``, which may be a write. So it runs only where a proposal may run, inside bubblewrap, with the
probes' environment allowlist (``wrapgen.probe.isolated``); where no sandbox runs (or
``WRAPGEN_SANDBOX=off``), nothing is asked and the caller is told.
"""

from __future__ import annotations

from typing import Sequence

from wrapgen.probe.isolated import run_isolated, sandbox_off_reason

__all__ = ["field_list_text", "sandbox_off_reason"]


def field_list_text(bin_path: str, path: Sequence[str], *, timeout_s: float) -> str:
    """What ``TOOL PATH... --json`` printed (stdout, then stderr), "" where it could not run sandboxed."""
    result = run_isolated([bin_path, *path, "--json"], timeout_s=timeout_s, output_cap=1 << 20, sandbox_required=True)
    return (result.stdout + b"\n" + result.stderr).decode("utf-8", "replace") if result.ran else ""
