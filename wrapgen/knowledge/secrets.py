"""Text that must never reach a pack: a line that quotes a password or key file, or holds a credential.

A tool's help is text wrapgen copies into pack.yaml and SKILL.md (descriptions, titles). A hostile or
careless tool can print what it read (a line of /etc/shadow, a private key, the token in the user's
config) where its help should be; the probe sandbox keeps it from reading most of that, and this is
the second line: ``withhold(text)`` cuts every line that looks like it holds a secret before the
secret, before any parser sees it (``probe/prober.py``), and ``secret_reason(text)`` is check's W035 on a pack's own texts. The
patterns and their reasons are data (``data/secrets.json``); a pattern that does not compile is an
error when the file is loaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wrapgen.knowledge.table import load, regex_names

__all__ = ["secret_reason", "withhold"]


@dataclass(frozen=True)
class _Group:
    needles: tuple[str, ...]  # lower-cased: one must be in the text for the patterns to be tried
    patterns: tuple[re.Pattern, ...]
    why: str


def _groups() -> tuple[_Group, ...]:
    data = load("secrets")
    regex_names(data, "secret_lines")  # (every name compiles, or the file is refused)
    groups: dict[int, list] = {}
    for entry in data["secret_lines"]:
        groups.setdefault(entry.group, []).append(entry)
    return tuple(
        _Group(
            tuple(str(n).lower() for n in entries[0].value or ("",)),
            tuple(re.compile(e.name) for e in entries),
            entries[0].why,
        )
        for entries in groups.values()
    )


_GROUPS = _groups()


def _first(text: str, lower: str) -> tuple[int, str] | None:
    """(where the first secret-looking match starts, why), or None."""
    found = None
    for group in _GROUPS:
        if any(needle in lower for needle in group.needles):
            for pattern in group.patterns:
                match = pattern.search(text)
                if match and (found is None or match.start() < found[0]):
                    found = (match.start(), group.why)
    return found


def secret_reason(text: str) -> str | None:
    """Why ``text`` looks like it quotes a secret file or holds a credential, or None."""
    found = _first(text, text.lower())
    return None if found is None else found[1]


def withhold(text: str) -> tuple[str, int]:
    """``text`` with each line that looks like it holds a secret cut before the word where the secret
    starts (``  show    Show root:$6$...`` keeps ``  show    Show``: the command stays, the quote goes),
    and how many lines were cut."""
    if _first(text, text.lower()) is None:
        return (
            text,
            0,
        )  # (the usual case: a few substring tests, a pattern only where one may match)
    kept, cut = [], 0
    for line in text.split("\n"):
        found = _first(line, line.lower())
        if found is not None:
            start = found[0]
            while start > 0 and not line[start - 1].isspace():
                start -= 1
            line, cut = line[:start].rstrip(), cut + 1
        kept.append(line)
    return "\n".join(kept), cut
