"""The runtime: render a verb's argv, check its args, spawn the tool, answer with an envelope.

Every generated ``adapter.py`` imports this package on every call, so it and everything it
imports are standard library only (plus ``wrapgen.errors`` / ``wrapgen.names``, which are too).
"""

from __future__ import annotations

from wrapgen.runtime.process import DEFAULT_OUTPUT_CAP, ProcessResult, run_in_pty, run_process

__all__ = [
    "DEFAULT_OUTPUT_CAP",
    "ProcessResult",
    "run_in_pty",
    "run_process",
]
