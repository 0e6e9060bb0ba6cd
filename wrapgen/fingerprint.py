"""A cheap fingerprint of wrapgen's own source files, for caches that must not outlive a code change."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

__all__ = ["source_fingerprint"]

_PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def source_fingerprint(*parts: str) -> str:
    """sha256 over (relative path, size, mtime) of the package's .py/.json files under ``parts``.

    ``source_fingerprint()`` covers the whole package; ``source_fingerprint("probe", "parse", "model")``
    only what discovery's result depends on. Stat only, no reads: it runs before every cache lookup.
    """
    roots = [_PACKAGE / part for part in parts] if parts else [_PACKAGE]
    digest = hashlib.sha256()
    for root in roots:
        paths = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in paths:
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                stat = path.stat()
                digest.update(
                    f"{path.relative_to(_PACKAGE)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode()
                )
    return digest.hexdigest()
