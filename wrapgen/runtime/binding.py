"""Finding a pack directory and loading its ``binding.json`` (docs/contract.md §2). Stdlib only.

The binding is trusted only while it matches pack.yaml: hashing pack.yaml's bytes is cheap,
parsing YAML is what the hot path avoids.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from wrapgen.errors import ManifestError, UsageError
from wrapgen.names import is_pack_id

__all__ = ["BINDING_VERSION", "BindingError", "PackNotFoundError", "load_binding", "resolve_pack", "pack_sha256"]

BINDING_VERSION = 1


class BindingError(ManifestError):
    """binding.json is missing, stale, or unreadable: the fix is ``wrapgen build DIR``."""


class PackNotFoundError(UsageError):
    """PACK names no pack directory and no pack_id on the search path."""


try:
    # the builtin module: hashlib would load OpenSSL, a visible share of every adapter call's startup
    from _sha256 import sha256 as _sha256
except ImportError:  # other Pythons (3.12 renamed it _sha2)
    from hashlib import sha256 as _sha256


def pack_sha256(data: bytes) -> str:
    """sha256 hex of pack.yaml's bytes, as binding.json records it."""
    return _sha256(data).hexdigest()


def load_binding(pack_dir) -> dict:
    """The binding of the pack in ``pack_dir``; ``BindingError`` when missing or not from this pack.yaml."""
    pack_dir = Path(pack_dir)
    stale = f"binding.json is out of date: run wrapgen build {pack_dir}"
    hint = f"`wrapgen build {pack_dir}` regenerates binding.json and adapter.py from pack.yaml"
    try:
        manifest = _read_regular(pack_dir / "pack.yaml")
    except FileNotFoundError:
        raise BindingError(f"no pack.yaml in {pack_dir}", hint="a pack directory holds pack.yaml; run `wrapgen wrap TOOL` to make one") from None
    except OSError as error:
        raise BindingError(f"cannot read {pack_dir / 'pack.yaml'}: {error.strerror}", hint="pack.yaml must be a readable regular file") from None
    try:
        binding = json.loads(_read_regular(pack_dir / "binding.json").decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        raise BindingError(stale, hint=hint) from None
    if not isinstance(binding, dict) or binding.get("pack_sha256") != pack_sha256(manifest):
        raise BindingError(stale, hint=hint)
    if binding.get("binding_version") != BINDING_VERSION or not isinstance(binding.get("verbs"), dict):
        raise BindingError(stale, hint=f"this wrapgen reads binding_version {BINDING_VERSION}; {hint}")
    if not is_pack_id(binding.get("pack_id")):
        raise BindingError(f"binding.json in {pack_dir} names no valid pack_id", hint=hint)
    return binding


_MAX_FILE = 64 * 1024 * 1024


def _read_regular(path: Path) -> bytes:
    """A regular file's bytes; never blocks on a FIFO or a device planted in place of the file."""
    import errno
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if info.st_size > _MAX_FILE:
            raise OSError(errno.EFBIG, "file too large")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def _search_path(cwd) -> list[Path]:
    """WRAPGEN_PATH first, then ./adapters (docs/contract.md §14): an untrusted working directory must not
    shadow the packs installed on the search path."""
    base = Path(cwd) if cwd is not None else Path.cwd()
    dirs = [Path(entry) for entry in os.environ.get("WRAPGEN_PATH", "").split(os.pathsep) if entry]
    dirs.append(base / "adapters")
    return dirs


def _is_pack_dir(path: Path) -> bool:
    return (path / "pack.yaml").is_file() or (path / "binding.json").is_file()


def resolve_pack(pack, *, cwd=None) -> Path:
    """A pack directory: ``pack`` itself when it is one, else the pack_id in WRAPGEN_PATH, then ./adapters."""
    text = os.fspath(pack)
    given = Path(text) if cwd is None or os.path.isabs(text) else Path(cwd) / text
    # a bare id names a pack even when a directory of that name (not a pack) sits in cwd
    if given.is_dir() and (not is_pack_id(text) or _is_pack_dir(given)):
        return given
    if is_pack_id(text):
        for directory in _search_path(cwd):
            candidate = directory / text
            if _is_pack_dir(candidate):
                return candidate
    if given.is_dir():
        return given  # load_binding then says what is missing in it
    searched = ", ".join(str(d) for d in _search_path(cwd))
    raise PackNotFoundError(
        f"no pack {text!r}: not a directory, and no pack of that id in {searched}",
        hint="pass a pack directory, or add the directory holding it to WRAPGEN_PATH",
    )
