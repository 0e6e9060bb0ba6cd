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
from dataclasses import replace
from pathlib import Path

from wrapgen import __version__
from wrapgen.fingerprint import source_fingerprint
from wrapgen.model.tool import MODEL_VERSION, Command, Flag, Tool
from wrapgen.runtime.binding import cache_dir as runtime_cache_dir

__all__ = [
    "cache_dir",
    "cache_key",
    "load",
    "store",
    "CACHE_FORMAT",
    "trial_key",
    "load_trial",
    "store_trial",
    "field_list_key",
    "load_field_list",
    "store_field_list",
    "repeated_timeouts",
]

CACHE_FORMAT = 2  # 2: the global flags every command shares are stored once


def cache_dir() -> Path:
    """``$WRAPGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/wrapgen``, else ``~/.cache/wrapgen``: the one
    directory the runtime keeps its trusted binding stamps in too (``runtime.binding.cache_dir``)."""
    return runtime_cache_dir()


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
        # (knowledge too: its tables decide what discovery keeps, a banner that is no summary)
        "code": source_fingerprint("probe", "parse", "model", "knowledge"),
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
        tool = Tool.from_dict(data["tool"])
        shared = [tuple(Flag.from_dict(f) for f in flags) for flags in data["shared_globals"]]
        order = iter(data["globals_of"])
        return replace(tool, root=_with_shared_globals(tool.root, shared, order))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, StopIteration):
        return None


# A cobra tool's global flags sit on every command (one has ~650 flags on each of ~80 commands);
# written out per command they made a 10 MB entry that took 0.8 s to read back. Each distinct
# tuple is stored once, and every command (in walk order) names the one it has.


def _without_globals(command: Command, shared: dict, order: list[int]) -> Command:
    order.append(shared.setdefault(command.global_flags, len(shared)))
    subcommands = tuple(_without_globals(sub, shared, order) for sub in command.subcommands)
    return replace(command, global_flags=(), subcommands=subcommands)


def _with_shared_globals(command: Command, shared: list, order) -> Command:
    global_flags = shared[next(order)]
    subcommands = tuple(_with_shared_globals(sub, shared, order) for sub in command.subcommands)
    return replace(command, global_flags=global_flags, subcommands=subcommands)


def store(key: str | None, tool: Tool) -> bool:
    """Write the entry atomically (temp file + rename); False when the cache is not writable."""
    if key is None:
        return False
    directory = cache_dir()
    shared: dict = {}
    order: list[int] = []
    stripped = replace(tool, root=_without_globals(tool.root, shared, order))
    entry = {
        "key": key,
        "tool": stripped.to_dict(),
        "globals_of": order,
        "shared_globals": [[f.to_dict() for f in flags] for flags in shared],
    }
    return _write(
        directory, _entry_path(key), json.dumps(entry, sort_keys=True, ensure_ascii=False)
    )


def _write(directory: Path, path: Path, payload: str) -> bool:
    """Write ``payload`` to ``path`` atomically (temp file + rename); False when the cache is not writable."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(payload)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        return False
    return True


# Trial outcomes (wrapgen/probe/trial.py). A trial sees no network, no daemon socket, no login and a
# scratch HOME, so what it shows depends on the binary, the rendered argv and the pack's env, as
# help text does: an unchanged tool is not tried twice. Trials in a --try-in copy are not cached.


def trial_key(tool_path: str, *, identity: dict) -> str | None:
    """A hex key for one trial of this binary (``identity``: argv, env, timeout); None when it cannot be stat'ed."""
    try:
        stat = os.stat(tool_path)
    except OSError:
        return None
    blob = json.dumps(
        {
            "kind": "trial",
            "wrapgen": __version__,
            "code": source_fingerprint("probe", "model"),
            "path": tool_path,
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            **identity,
        },
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    return hashlib.sha256(blob).hexdigest()


def _trial_path(key: str) -> Path:
    return cache_dir() / "trials" / f"{key}.json"


def _stored(path: Path, key: str | None, field: str, kind: type):
    """``field`` of the entry at ``path`` when it is ``key``'s and a ``kind``; None otherwise (missing, corrupt)."""
    if key is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("key") != key
        or not isinstance(data.get(field), kind)
    ):
        return None
    return data[field]


def load_trial(key: str | None) -> dict | None:
    """The stored outcome fields for ``key``, or None (missing, corrupt, or another key's)."""
    return _stored(_trial_path(key), key, "outcome", dict) if key is not None else None


def store_trial(key: str | None, outcome: dict) -> bool:
    if key is None:
        return False
    return _write(
        cache_dir() / "trials",
        _trial_path(key),
        json.dumps({"key": key, "outcome": outcome}, sort_keys=True, ensure_ascii=False),
    )


# The field lists a bare ``TOOL SUB --json`` prints (wrapgen/probe/json_fields.py): asked in the
# same sandbox as a trial, so kept the same way, apart from the trials (emptying one leaves the other).


def field_list_key(tool_path: str, path) -> str | None:
    """A hex key for the field list of ``path`` of this binary; None when it cannot be stat'ed."""
    return trial_key(tool_path, identity={"json_fields": list(path)})


def load_field_list(key: str | None) -> str | None:
    """The stored text for ``key``, or None (missing, corrupt, or another key's)."""
    return (
        _stored(cache_dir() / "json-fields" / f"{key}.json", key, "text", str)
        if key is not None
        else None
    )


def store_field_list(key: str | None, text: str) -> bool:
    if key is None:
        return False
    directory = cache_dir() / "json-fields"
    return _write(
        directory,
        directory / f"{key}.json",
        json.dumps({"key": key, "text": text}, ensure_ascii=False),
    )


def _pending_path(key: str) -> Path:
    return cache_dir() / "pending" / f"{key}.json"


def repeated_timeouts(key: str | None, paths) -> bool:
    """Whether the last discovery of ``key`` timed out on exactly these ``paths`` too.

    A result with timed-out subcommands is not cached at once: the machine may only have been
    busy. The first time, the paths are noted and False returned; when the next discovery times
    out on the same ones, they are the tool's (a command whose ``-h`` sleeps, a helper that waits
    on the network) and the result may be cached. Other paths replace the note.
    """
    if key is None or not paths:
        return False
    noted = [list(p) for p in sorted(paths)]
    path = _pending_path(key)
    try:
        before = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        before = None
    if isinstance(before, dict) and before.get("key") == key and before.get("timed_out") == noted:
        try:
            path.unlink()
        except OSError:
            pass
        return True
    _write(path.parent, path, json.dumps({"key": key, "timed_out": noted}, sort_keys=True))
    return False
