"""The discovery cache: one JSON file per (tool binary, options), so rediscovery spawns nothing.

The key is computed without running the tool: its resolved path, size and mtime (a reinstall or
upgrade changes at least one), the wrapgen and model versions, and the options that change the
result. The tool's ``--version`` is read once, on the first discovery, and stored in the entry.
A corrupt, unreadable or foreign entry is ignored (and overwritten by the next discovery).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from wrapgen import __version__
from wrapgen.fingerprint import source_fingerprint
from wrapgen.model import MODEL_VERSION, Tool

__all__ = ["cache_dir", "cache_key", "load", "store", "CACHE_FORMAT"]

CACHE_FORMAT = 1


def cache_dir() -> Path:
    """``$WRAPGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/wrapgen``, else ``~/.cache/wrapgen``."""
    explicit = os.environ.get("WRAPGEN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "wrapgen"


def cache_key(tool_path: str, *, options: dict) -> str | None:
    """A hex key for this binary and these options; None when the binary cannot be stat'ed."""
    try:
        stat = os.stat(tool_path)
    except OSError:
        return None
    identity = {
        "cache_format": CACHE_FORMAT,
        "wrapgen": __version__,
        # a change to discovery's own code must not be answered from an old entry
        "code": source_fingerprint("discover", "model.py"),
        "model": MODEL_VERSION,
        "path": tool_path,
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
        "options": options,
    }
    blob = json.dumps(identity, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


def _entry_path(key: str) -> Path:
    return cache_dir() / f"{key}.json"


def load(key: str | None) -> Tool | None:
    """The cached Tool for ``key``, or None (missing, corrupt, or written for another key)."""
    if key is None:
        return None
    try:
        data = json.loads(_entry_path(key).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        return Tool.from_dict(data["tool"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(key: str | None, tool: Tool) -> bool:
    """Write the entry atomically (temp file + rename); False when the cache is not writable."""
    if key is None:
        return False
    directory = cache_dir()
    payload = json.dumps({"key": key, "tool": tool.to_dict()}, sort_keys=True, ensure_ascii=False)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(payload)
            os.replace(temp, _entry_path(key))
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        return False
    return True
