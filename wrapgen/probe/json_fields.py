"""The field list a tool prints for a bare ``--json`` ("Specify one or more comma-separated fields for
`--json`: ..."), asked in the probe sandbox.

``TOOL SUB --json`` is not a help probe: a tool that takes ``--json`` for a switch would run
``SUB``, which may be a write. So it runs only where a proposal may run, inside bubblewrap, with the
probes' environment allowlist (``wrapgen.probe.isolated``); where no sandbox runs (or
``WRAPGEN_SANDBOX=off``), nothing is asked and the caller is told.
"""

from __future__ import annotations

from typing import Sequence

from wrapgen.probe.isolated import run_isolated, sandbox_off_reason

__all__ = ["field_list_text", "sandbox_off_reason"]


def field_list_text(
    bin_path: str, path: Sequence[str], *, timeout_s: float, cache: bool = True
) -> str:
    """What ``TOOL PATH... --json`` printed (stdout, then stderr), "" where it could not run sandboxed.

    With ``cache`` an unchanged binary is not asked twice: the text is kept in the cache
    (``probe/cache.py``, beside the trials' outcomes), since the sandbox gives the probe no network,
    no login and a scratch HOME, so what it prints depends on the binary and the path as help text
    does. A probe that timed out or was cut at the output cap is not kept (the machine may only have
    been busy)."""
    from wrapgen.probe import cache as disk

    key = disk.field_list_key(bin_path, path) if cache else None
    stored = disk.load_field_list(key)
    if stored is not None:
        return stored
    result = run_isolated(
        [bin_path, *path, "--json"], timeout_s=timeout_s, output_cap=1 << 20, sandbox_required=True
    )
    if not result.ran:
        return ""
    text = (result.stdout + b"\n" + result.stderr).decode("utf-8", "replace")
    if key is not None and not (result.result.timed_out or result.result.output_capped):
        disk.store_field_list(key, text)
    return text
