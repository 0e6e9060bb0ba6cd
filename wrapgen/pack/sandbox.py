"""A pack's ``sandbox:`` section: proposed for ``wrap`` and described for ``check`` (docs/contract.md §8).

``with_sandbox(manifest, tool=..., evidence=...)`` returns a copy of a proposed manifest with the
section the tool's calls need: from the knowledge data (``knowledge/data/sandbox.json``: network
clients, configuration under HOME, daemon sockets, the marks of a working tree) and from the trials
(a read whose trial failed for want of the network is allowed it). A tool that needs nothing gets no
section (the defaults: no network, nothing of HOME, the working directory writable for writes only).

``describe(section, verbs)`` is the section in words, for ``check`` to show.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Iterable, Mapping

from wrapgen.knowledge.sandbox import sandbox_facts
from wrapgen.knowledge.table import load
from wrapgen.pack.cli_words import subcommand_path

__all__ = ["describe", "describe_pack", "network_evidence", "subcommand_path", "with_sandbox"]


def _network_phrases() -> list[str]:
    """The phrases by which a trial's output says it wanted the network (``data/trials.json``)."""
    return [e.name for e in load("trials")["unreachable"] if "network" in e.why]


def network_evidence(evidence: Iterable[Any]) -> set[str]:
    """The verbs whose trial could not run for want of the network."""
    phrases = None
    out = set()
    for item in evidence or ():
        if getattr(item, "kind", "") != "unreachable":
            continue
        if phrases is None:
            phrases = _network_phrases()
        detail = str(getattr(item, "detail", "") or "")
        if any(detail == p or re.search(p, detail, re.IGNORECASE) for p in phrases):
            out.add(item.verb)
    return out


def with_sandbox(
    manifest: Mapping[str, Any],
    *,
    tool: str,
    evidence: Iterable[Any] = (),
    tree: str | None = None,
    declared: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A copy of ``manifest`` with the ``sandbox:`` section ``tool``'s calls need (none when they need
    nothing beyond the defaults); a section the manifest has already (a recipe's) is kept as it is.
    ``tree``: the directory every call works in (a task runner's repository, absolute); ``declared``:
    a recipe's section, taken as it is."""
    out = copy.deepcopy(dict(manifest))
    if declared is not None:  # a recipe's own section: the person's word
        out["sandbox"] = copy.deepcopy(dict(declared))
        return out
    if "sandbox" in out:
        return out
    facts = sandbox_facts(tool)
    verbs = out.get("verbs") or {}
    section: dict[str, Any] = {}
    if facts.network:
        section["network"] = True
    else:
        wanted = network_evidence(evidence)
        commands = [tuple(c.split()) for c in facts.network_commands]
        for name, verb in verbs.items():
            path = subcommand_path(verb.get("cli") if isinstance(verb, dict) else None)
            if any(path[: len(c)] == c for c in commands):
                wanted.add(name)
        wanted &= set(verbs)
        if wanted:
            section["network"] = sorted(wanted)
    if facts.host_processes:
        section["host_processes"] = True
    for key in ("home", "sockets", "root"):
        values = getattr(facts, key)
        if values:
            section[key] = list(values)
    if tree:
        section["tree"] = tree
    if section:
        out["sandbox"] = section
    return out


def describe(section: Mapping[str, Any] | None, verbs: Mapping[str, Any]) -> list[str]:
    """The section in words, one line per thing the calls are allowed beyond the defaults."""
    section = section or {}
    network = section.get("network", False)
    if network is True:
        reach = "every verb"
    elif isinstance(network, list) and network:
        reach = ", ".join(network)
    else:
        reach = "no verb"
    writes = sorted(
        name
        for name, verb in verbs.items()
        if isinstance(verb, dict) and (verb.get("policy") or {}).get("effect", "read") != "read"
    )
    lines = [
        f"network: {reach}",
        "working directory writable for: " + (", ".join(writes) or "no verb (all are reads)"),
    ]
    for key, what in (
        ("home", "from HOME (read-only)"),
        ("sockets", "sockets"),
        ("root", "working tree marked by"),
        ("write", "also writable for writes"),
    ):
        if section.get(key):
            lines.append(f"{what}: {', '.join(section[key])}")
    if section.get("tree"):
        lines.append(f"works in: {section['tree']} (wherever it is called from)")
    for name, own in sorted((section.get("verbs") or {}).items()):
        if isinstance(own, dict):
            said = [f"network {'on' if own['network'] else 'off'}"] if "network" in own else []
            if own.get("write"):
                said.append("writable: " + ", ".join(own["write"]))
            lines.append(f"{name}: " + "; ".join(said))
    if section.get("host_processes") is True:
        lines.append(
            "the host's processes: listed (the host's /proc, read-only; none can be signalled)"
        )
    if section.get("fallback") is True:
        lines.append("where bubblewrap cannot run: runs without the sandbox (fallback: true)")
    return lines


def describe_pack(pack_dir) -> list[str]:
    """``describe`` of the pack in ``pack_dir`` when it declares a ``sandbox:`` section (nothing when
    it declares none, the defaults, or its pack.yaml cannot be read)."""
    from wrapgen.pack.manifest import read_manifest

    manifest, _ = read_manifest(pack_dir)
    data = manifest.data if manifest is not None else None
    if not isinstance(data, dict) or not isinstance(data.get("verbs"), dict):
        return []
    section = data.get("sandbox")
    return describe(section, data["verbs"]) if isinstance(section, dict) else []
