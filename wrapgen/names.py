"""Names go through one place: pack ids and verb names (docs/contract.md §4).

Standard library only: the runtime and ``check`` both use these patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = [
    "PACK_ID_RE",
    "VERB_NAME_RE",
    "is_pack_id",
    "is_verb_name",
    "segment",
    "verb_name",
    "unique_names",
]

PACK_ID_RE = re.compile(r"[a-z][a-z0-9-]*")
VERB_NAME_RE = re.compile(r"[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*")


def is_pack_id(text: str) -> bool:
    return isinstance(text, str) and PACK_ID_RE.fullmatch(text) is not None


def is_verb_name(text: str) -> bool:
    return isinstance(text, str) and VERB_NAME_RE.fullmatch(text) is not None


def segment(word: str) -> str:
    """One name segment from a subcommand word: ``Get-Item`` -> ``get-item``, ``2fa`` -> ``x2fa``."""
    text = re.sub(r"[^a-z0-9-]+", "-", word.strip().lower().replace("_", "-"))
    text = re.sub(r"-{2,}", "-", text).strip("-")
    if not text:
        return "cmd"
    if not text[0].isalpha():
        text = "x" + text
    return text


def verb_name(path: Sequence[str], *, bin: str = "") -> str:
    """The verb name for a subcommand path: ``("pr", "list")`` -> ``pr.list``.

    A leading segment equal to the bin is dropped (docs/contract.md §6 expands it back).
    """
    parts = [segment(p) for p in path if p]
    if bin and len(parts) > 1 and parts[0] == segment(bin):
        parts = parts[1:]
    return ".".join(parts) if parts else segment(bin or "main")


def unique_names(names: Iterable[str]) -> list[str]:
    """Resolve collisions deterministically: the second ``list`` becomes ``list-2``, and so on."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        candidate, n = name, 2
        while candidate in seen:
            candidate = f"{name}-{n}"
            n += 1
        seen.add(candidate)
        out.append(candidate)
    return out
