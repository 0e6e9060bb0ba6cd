"""Task runners (make, npm, just, go-task) as data: ``data/runners.json``.

* ``runner_kind(tool)``: the kind of runner a program is (``make`` for ``/usr/bin/gmake``), or None;
* ``runner_files(kind)``: the files it reads in a repository, in the runner's own search order;
* ``invocation(kind, directory=, file=)``: the argv after the runner's name that runs it in the
  repository from anywhere (``-C /repo`` for make; ``-f FILE`` too when the makefile has a name make
  does not look for);
* ``target_effect(name, help, prerequisites=)``: the conservative rule that makes every target a
  confirm-gated write unless its name and its help say it only reads (``test``, ``lint`` and
  ``check`` only when the help says they change nothing), with the reason in words;
* ``parameter_schema(description, default=)``: the schema of one runner parameter, whose values are
  limited to a word a shell line cannot misread (``parameter_pattern``).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any, Sequence

from wrapgen.knowledge.phrases import compiled
from wrapgen.knowledge.table import load
from wrapgen.knowledge.tools import base_name

__all__ = [
    "runner_kind",
    "runner_files",
    "own_file_name",
    "names_other_files",
    "invocation",
    "invocation_flags",
    "target_effect",
    "parameter_schema",
    "is_hook",
    "KINDS",
]

KINDS = ("make", "npm", "just", "task")


def _data():
    return load("runners")


def runner_kind(tool: str) -> str | None:
    """``make`` for ``make``, ``gmake`` or ``/usr/bin/make``; None for a program that is no runner."""
    entry = _data()["kinds"].get(base_name(tool))
    return None if entry is None else str(entry.value)


def command_line_noun(kind: str) -> str:
    """What runner ``kind`` calls a target whose description is the command line it runs ("script"),
    or "" where a target's description is no command line."""
    entry = _data()["command_line_targets"].get(kind)
    return "" if entry is None else str(entry.value)


def runner_files(kind: str) -> tuple[str, ...]:
    entry = _data()["files"].get(kind)
    return () if entry is None else tuple(entry.value)


def own_file_name(kind: str, file: str, directory: str) -> bool:
    """Whether ``file`` is one runner ``kind`` finds by itself in ``directory`` (no flag needs to name it)."""
    return os.path.dirname(file) == directory.rstrip(os.sep) and os.path.basename(
        file
    ) in runner_files(kind)


def names_other_files(kind: str) -> bool:
    """Whether runner ``kind`` can be told to read a file of another name (``make -f``, ``task --taskfile``)."""
    return _data()["named_file"].get(kind) is not None


def invocation(kind: str, *, directory: str, file: str) -> tuple[str, ...]:
    """The argv (after the runner's name) that runs ``kind`` on the repository at ``directory``, whose
    runner file is ``file`` (named with the runner's flag when it is not one the runner finds itself)."""
    entry = _data()["invocation"].get(kind)
    if entry is None:
        return ()
    tokens = list(entry.value)
    named = _data()["named_file"].get(kind)
    if named is not None and not own_file_name(kind, file, directory):
        tokens += named.value
    return tuple(t.replace("{dir}", directory).replace("{file}", file) for t in tokens)


def invocation_flags(tool: str) -> frozenset[str]:
    """The options of runner ``tool``'s invocation (``-C``, ``--prefix``): documented in the runner's
    manual, not all in its ``--help`` (npm lists ``--prefix`` under ``npm help config`` only)."""
    kind = runner_kind(tool)
    if kind is None:
        return frozenset()
    entries = [_data()[table].get(kind) for table in ("invocation", "named_file")]
    tokens = [t for entry in entries if entry is not None for t in entry.value]
    return frozenset(t for t in tokens if t.startswith("-") and t != "--")


def is_hook(name: str, names: Sequence[str]) -> bool:
    """Whether script ``name`` is one the runner runs by itself around another in ``names`` (``prebuild``)."""
    return any(name.startswith(p) and name[len(p) :] in names for p in _data()["hooks"].names)


@lru_cache(maxsize=None)
def _reads_only() -> tuple[re.Pattern[str], ...]:
    return tuple(p for p, _ in compiled(_data(), "reads_only_phrases"))


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def target_effect(
    name: str, help_text: str = "", *, prerequisites: Sequence[tuple[str, str]] = ()
) -> tuple[str, str]:
    """(effect, reason) of one target: ``read``, ``write`` or ``destructive``.

    ``prerequisites`` are (name, effect) of what the target runs first: a read that depends on a
    write is a write. The rule is conservative on purpose (a target can do anything): only a name
    that reads by convention, or a checking name whose help says it changes nothing, is a read.
    """
    data = _data()
    lowered = name.lower()
    parts = _words(lowered)
    help_words = _words(help_text)
    destructive = data["destructive_words"].names
    if lowered in data["destructive_names"].names or any(w in destructive for w in parts):
        return "destructive", f"destructive: the name '{name}' removes or resets things"
    if any(w in destructive for w in help_words):
        word = next(w for w in help_words if w in destructive)
        return "destructive", f"destructive: its help says '{word}'"
    writing = next((w for w in help_words if w in data["writing_words"].names), None)
    writes_first = next((n for n, e in prerequisites if e != "read"), None)
    says_reads = any(p.search(help_text) for p in _reads_only())
    if lowered in data["reading_names"].names:
        if writing and not says_reads:
            return "write", f"write: '{name}' usually reads, but its help says '{writing}'"
        if writes_first:
            return (
                "write",
                f"write: '{name}' usually reads, but it first runs '{writes_first}', which writes",
            )
        return (
            "read",
            f"read: '{name}' is a target that reads by convention, and its help says nothing of writing",
        )
    if lowered in data["checking_names"].names:
        if says_reads and not writes_first and not writing:
            return "read", f"read: '{name}' checks, and its help says it changes nothing"
        if writes_first:
            return "write", f"write: '{name}' checks, but it first runs '{writes_first}'"
        return "write", (
            f"write: '{name}' checks, but such targets often build first; "
            "its help does not say it changes nothing"
        )
    return "write", f"write: a target can do anything, and '{name}' is not one that only reads"


def parameter_schema(description: str, *, default: Any = None, choices: Sequence[str] = ()) -> dict:
    """The args schema of one runner parameter (a make variable, a just or Taskfile parameter)."""
    values = _data()["parameter_pattern"]
    schema: dict[str, Any] = {"type": "string"}
    if choices:
        schema["enum"] = list(choices)
    else:
        schema["pattern"] = str(values.get("value").value)
        schema["maxLength"] = int(values.get("max_length").value)
    # The default stays the runner's: a value left out is not passed, so the runner applies its own
    # (which may be an expression: make's `$(shell git describe)`, just's backticks).
    if default not in (None, ""):
        description = (
            f"{description.rstrip('.')} (default: {default})"
            if description
            else f"default: {default}"
        )
    if description:
        schema["description"] = description
    return schema
