"""Names go through one place: pack ids, verb names and argument names (docs/contract.md §4).

Every name wrapgen makes comes out of a function here, and each returns a name its pattern accepts
whatever text it is given: a subcommand word (``segment``, ``verb_name``), a name a heuristic
proposed (``proposed_verb_name``: a mode's flag ``--0`` gives ``x0``, never ``0``), a flag or
operand (``arg_name``), a pack split off another (``sub_pack_id``). Collisions are resolved in
order by ``unique_names``.

Standard library only: the runtime and ``check`` both use these patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = [
    "ARG_NAME_RE",
    "PACK_ID_RE",
    "RESERVED_ARG_NAMES",
    "VERB_NAME_RE",
    "arg_name",
    "is_arg_name",
    "is_pack_id",
    "is_verb_name",
    "proposed_pack_id",
    "proposed_verb_name",
    "segment",
    "sub_pack_id",
    "verb_name",
    "unique_names",
]

PACK_ID_RE = re.compile(r"[a-z][a-z0-9-]*")
VERB_NAME_RE = re.compile(r"[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*")
ARG_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")  # pack.schema.json: the names of a verb's args
_SEGMENT_RE = re.compile(r"[a-z][a-z0-9-]*")


def is_pack_id(text: str) -> bool:
    return isinstance(text, str) and PACK_ID_RE.fullmatch(text) is not None


def is_verb_name(text: str) -> bool:
    return isinstance(text, str) and VERB_NAME_RE.fullmatch(text) is not None


def is_arg_name(text: str) -> bool:
    return isinstance(text, str) and ARG_NAME_RE.fullmatch(text) is not None


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


def proposed_verb_name(name: str) -> str:
    """A valid verb name from one a heuristic proposed (a mode's flag, a listing form, a kind of entry).

    A name that is already valid (docs/contract.md §4) is kept as it is; otherwise each dot-separated
    part that is not a valid segment goes through ``segment``: ``0`` -> ``x0``, ``9lives`` ->
    ``x9lives``, ``Br.list`` -> ``br.list``, ``post..json`` -> ``post.cmd.json``. ``""`` stays
    ``""``: a candidate with no name of its own is named from its path.
    """
    if not name or is_verb_name(name):
        return name
    return ".".join(p if _SEGMENT_RE.fullmatch(p) else segment(p) for p in name.split("."))


def proposed_pack_id(text: str) -> str:
    """A valid pack id from one given or derived: kept when valid, else through ``segment`` (``2fa`` -> ``x2fa``)."""
    return text if is_pack_id(text) else segment(text)


# Argument names a pack cannot use for a flag or operand: ``{{result}}`` is the command's JSON result,
# which exists only after it ran (check's W007 refuses it in cli[]).
RESERVED_ARG_NAMES = frozenset({"result"})


def arg_name(text: str, *, empty: str = "", plural: bool = False) -> str:
    """An argument name from a flag or operand name: ``max-count`` -> ``max_count``, ``0`` -> ``x_0``.

    Lower-case letters, digits and underscores, starting with a letter; ``empty`` is the name when
    nothing is left (``x_`` when ``empty`` is ``""`` too). ``plural`` names a repeated operand
    (``path`` -> ``paths``, ``entry`` -> ``entries``). A reserved name gets ``_value``: ``--result`` ->
    ``result_value`` (not ``_arg``: an operand named ``*_arg`` reads as a forwarded command line,
    knowledge/data/commands.json's mega_args, and would be left out).
    """
    name = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or empty
    if not name or not name[0].isalpha():
        name = "x_" + name
    if plural and not name.endswith("s"):
        name = name[:-1] + "ies" if re.search(r"[^aeiou]y$", name) else name + "s"
    return name + "_value" if name in RESERVED_ARG_NAMES else name


def sub_pack_id(pack_id: str, part: str | int) -> str:
    """The id of a pack split off ``pack_id``: ``kube`` + ``rollout`` -> ``kube-rollout``, + ``2`` -> ``kube-2``.

    ``part`` keeps lower-case letters, digits and dashes (``x`` when nothing is left); raises
    ``ValueError`` when ``pack_id`` itself is not a valid pack id.
    """
    if not is_pack_id(pack_id):
        raise ValueError(f"{pack_id!r} is not a valid pack id")
    text = re.sub(r"[^a-z0-9-]+", "-", str(part).lower()).strip("-") or "x"
    return f"{pack_id}-{text}"


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
