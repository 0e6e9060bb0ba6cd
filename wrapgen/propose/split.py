"""One pack per command family, for a tool whose commands people use do not fit 12 (``wrap --split``).

A *family* is a top-level command group (``hubcli pr``, ``clusterctl rollout``, ``containerctl container``) or,
for the top-level commands themselves, the heading the help lists them under (vcs's "examine the
history and state", clusterctl's "Basic Commands (Beginner)", containerctl's "Common Commands"). Each family
with at least ``MIN_VERBS`` commands that can be proposed becomes a tool of its own (the same root,
only that family's commands), which ``propose`` then ranks and picks from as usual; the families too
small for a pack are pooled into one more. ``split_hint`` says when splitting would help.

Pure: a ``Tool`` in, tools out; ``flows/wrap.py`` (``wrap_split``) writes one pack per part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable

from wrapgen.knowledge.commands import is_setup_family
from wrapgen.model.proposal import Candidate
from wrapgen.model.tool import Command, Tool
from wrapgen.names import segment
from wrapgen.propose.select import MAX_VERBS, MIN_VERBS, exclusion_reason

__all__ = ["Part", "split_tool", "split_hint", "OTHER"]

OTHER = "other"  # the key of the pooled small families


@dataclass(frozen=True)
class Part:
    """One family: its key (``pr``, ``examine the history and state``), a pack-id suffix, the tool
    cut down to that family's commands, and how many of them can be proposed."""

    key: str
    suffix: str
    tool: Tool
    usable: int


def _family(sub: Command) -> str:
    if sub.subcommands:
        return sub.name
    heading = (sub.group or "").split(" / ")[0].strip().rstrip(":")
    return heading.lower() or "commands"


def _usable(command: Command) -> int:
    """How many commands under (and including) ``command`` a proposal could offer."""
    count = 0
    for node in command.walk():
        if node.subcommands and not node.flags:
            continue
        if exclusion_reason(Candidate(path=node.path, command=node, group=node.group)) is None:
            count += 1
    return count


def _families(root: Command) -> dict[str, list[Command]]:
    out: dict[str, list[Command]] = {}
    for sub in root.subcommands:
        if sub.hidden or sub.deprecated or exclusion_reason(_candidate(sub)) is not None:
            continue
        out.setdefault(_family(sub), []).append(sub)
    return out


def _candidate(sub: Command):
    return Candidate(path=sub.path, command=sub, group=sub.group)


_FILLER = {"commands", "command", "the", "and", "your", "of", "a", "an", "on", "with"}


def _suffix(key: str) -> str:
    """A short pack-id part for a family: ``pr``; "examine the history and state" -> ``examine-history-state``."""
    words = [w for w in re.findall(r"[a-z0-9]+", key.lower()) if w not in _FILLER][:3]
    return segment("-".join(words)) if words else "commands"


def split_tool(tool: Tool, *, propose: Callable[..., Any]) -> tuple[Part, ...]:
    """The families of ``tool`` worth a pack each, in the help's order, then the pooled rest.

    A family is worth a pack when a proposal over it alone offers at least ``MIN_VERBS`` commands
    (a family of writes only, such as ``clusterctl create``, gives three under the write cap); the rest
    are pooled into one more part, ``other``, when that offers enough. ``propose`` is
    ``wrapgen.propose.propose`` (passed in: this module is below it)."""
    root = tool.root
    parts: list[Part] = []
    pooled: list[Command] = []
    for key, subs in _families(root).items():
        usable = sum(_usable(s) for s in subs)
        if usable < MIN_VERBS or all(is_setup_family(s.name) for s in subs):
            pooled += [s for s in subs if not is_setup_family(s.name)]
            continue
        part = replace(tool, root=replace(root, subcommands=tuple(subs)))
        if len(propose(part, _split=False).manifest["verbs"]) < MIN_VERBS:
            pooled += subs
            continue
        parts.append(Part(key, _suffix(key), part, usable))
    rest = replace(tool, root=replace(root, subcommands=tuple(pooled)))
    if pooled and len(propose(rest, _split=False).manifest["verbs"]) >= MIN_VERBS:
        parts.append(Part(OTHER, OTHER, rest, sum(_usable(s) for s in pooled)))
    return tuple(parts)


def split_hint(tool: Tool) -> str:
    """Words saying that ``wrap --split`` would help, or "" (one pack holds what people use).

    Cheap (no proposal is made): two or more families of at least ``MIN_VERBS`` proposable commands
    each, and more than twice the commands one pack holds."""
    if not tool.root.subcommands:
        return ""
    families = [
        key
        for key, subs in _families(tool.root).items()
        if sum(_usable(s) for s in subs) >= MIN_VERBS
        and not all(is_setup_family(s.name) for s in subs)
    ]
    total = _usable(tool.root)
    if len(families) < 2 or total <= 2 * MAX_VERBS:
        return ""
    names = ", ".join(families[:5]) + (", ..." if len(families) > 5 else "")
    return (
        f"{tool.name} offers {total} commands in {len(families)} families ({names}); one pack holds "
        f"{MAX_VERBS}: `wrapgen wrap {tool.name} --split` writes one pack per family"
    )
