"""wrapgen: turn a command-line program into a pack of safe, named commands.

The public API is imported lazily so that ``wrapgen.runtime`` (which every
generated adapter imports on every call) pays for nothing it does not use.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "WrapgenError": "wrapgen.errors",
    "Diagnostic": "wrapgen.errors",
    "Tool": "wrapgen.model.tool",
    "Command": "wrapgen.model.tool",
    "Flag": "wrapgen.model.tool",
    "Positional": "wrapgen.model.tool",
    "discover": "wrapgen.probe.discover",
    "parse_help": "wrapgen.parse",
    "propose": "wrapgen.propose",
    "command_title": "wrapgen.runtime.titles",
    "execute": "wrapgen.runtime",
    "render_argv": "wrapgen.runtime",
    "load_pack": "wrapgen.pack.manifest",
    "build_pack": "wrapgen.pack.build",
    "check_packs": "wrapgen.check.rules",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wrapgen' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
