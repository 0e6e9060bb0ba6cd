"""The runtime: render a verb's argv, check its args, spawn the tool, answer with an envelope.

Every generated ``adapter.py`` imports this package on every call, so it and everything it
imports are standard library only (plus ``wrapgen.errors`` / ``wrapgen.names``, which are too).

Modules: ``process`` (spawning), ``contain`` (the per-call subreaper supervisor), ``render`` (cli[] -> argv), ``schema`` (arg checks, k=v),
``binding`` (finding and loading a pack), ``execute`` (envelopes), ``main`` (the exec command line).
"""

from __future__ import annotations

from wrapgen.runtime.binding import (
    BINDING_VERSION,
    BindingError,
    PackNotFoundError,
    load_binding,
    pack_sha256,
    resolve_pack,
)
from wrapgen.runtime.contain import containment_available, stop_all
from wrapgen.runtime.execute import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT_S,
    ENV_ALLOWLIST,
    TOOL_ENV,
    envelope_from_process,
    execute,
    execute_envelope,
    memory_limit_mb,
    prepare,
    strip_ansi,
    tool_env,
)
from wrapgen.runtime.main import exec_exit, exec_main, parse_exec_argv
from wrapgen.runtime.process import DEFAULT_OUTPUT_CAP, ProcessResult, run_in_pty, run_process
from wrapgen.runtime.render import (
    PLACEHOLDER_RE,
    RenderError,
    expand_argv_template,
    find_nul,
    placeholders,
    render_argv,
)
from wrapgen.runtime.schema import (
    GATE_ARGS,
    PATTERN_TIMEOUT_S,
    apply_defaults,
    coerce_kv,
    pattern_search,
    validate_args,
)

__all__ = [
    "BINDING_VERSION",
    "BindingError",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_OUTPUT_CAP",
    "DEFAULT_TIMEOUT_S",
    "ENV_ALLOWLIST",
    "GATE_ARGS",
    "PATTERN_TIMEOUT_S",
    "PLACEHOLDER_RE",
    "PackNotFoundError",
    "ProcessResult",
    "RenderError",
    "TOOL_ENV",
    "apply_defaults",
    "coerce_kv",
    "containment_available",
    "envelope_from_process",
    "exec_exit",
    "exec_main",
    "execute",
    "execute_envelope",
    "expand_argv_template",
    "find_nul",
    "load_binding",
    "memory_limit_mb",
    "pack_sha256",
    "pattern_search",
    "parse_exec_argv",
    "placeholders",
    "prepare",
    "render_argv",
    "resolve_pack",
    "run_in_pty",
    "run_process",
    "stop_all",
    "strip_ansi",
    "tool_env",
    "validate_args",
]
