"""Drift: what changed in a tool since a pack was made from it, classified for a reviewer. Pure.

A pack records the tool it was made from in two places, both written by ``wrapgen wrap`` (and so by
``batch``, ``promote`` and the wizard):

- pack.yaml ``source``: ``version`` (the first line of ``TOOL --version``, "" when it gave none)
  and ``help_sha256``, the sha256 of everything discovery read from the tool's help (the whole
  command tree, descriptions included). Two fields a reviewer can read; ``serve`` compares the
  version line at start.
- ``source.json`` beside it (``SOURCE_FILE``): the part of that tree the pack stands on, so a later
  tree can be compared with it: the root's and each used command's flags, subcommands and
  operands, and for each verb the command path it runs and the effect its help implied.

``classify(manifest, snapshot, tool, effect_of=...)`` compares them with a freshly discovered tool
and returns a ``Drift``: a list of ``Change`` values, each ``breaking`` (a command or flag a verb uses
is gone, the help now implies a stronger effect than when the pack was made, a new required
operand), ``compatible`` (new flags or commands, flags gone that no verb uses) or ``metadata`` (the
version line, help text, operand names). ``Drift.level`` is the worst of them, and its exit status is
``ExitStatus.DRIFT_*`` (docs/packs-and-check.md). ``effect_of`` is passed in because the effect
guess is propose's (``propose.policy.classify``), which check does not import.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from wrapgen.errors import ExitStatus
from wrapgen.model.tool import Command, Tool
from wrapgen.pack.cli_words import subcommand_path

__all__ = [
    "SOURCE_FILE",
    "SNAPSHOT_VERSION",
    "LEVELS",
    "Change",
    "Drift",
    "help_sha256",
    "source_identity",
    "pack_paths",
    "verb_path",
    "snapshot",
    "snapshot_text",
    "classify",
    "not_found",
    "version_drift",
    "short_version",
]

SOURCE_FILE = "source.json"
SNAPSHOT_VERSION = 1
LEVELS = ("none", "metadata", "compatible", "breaking")  # worst last
_EXIT = {
    "none": ExitStatus.OK,
    "metadata": ExitStatus.DRIFT_METADATA,
    "compatible": ExitStatus.DRIFT_COMPATIBLE,
    "breaking": ExitStatus.DRIFT_BREAKING,
}
_EFFECT_RANK = {"read": 0, "write": 1, "destructive": 2}
_VERSION_RE = re.compile(r"\d+(?:\.\d+)+(?:[-+~][0-9A-Za-z.]+)?|\d+")
_PLACEHOLDER = "{{"
_EXTERNAL_RE = re.compile(r"\bexternal\b", re.IGNORECASE)
# A probe's scratch directory (probe/sandbox.py), which a help may show as a default ("~/.docker"
# under the scratch HOME): random per probe, so not part of the fingerprint.
_SCRATCH_RE = re.compile(r"[^\s\"'(),=]*wrapgen-probe-[A-Za-z0-9_]+")


@dataclass(frozen=True)
class Change:
    """One difference: its class (``breaking``, ``compatible``, ``metadata``), what it is, and where."""

    level: str
    kind: str  # "tool-missing", "command-gone", "flag-gone", "effect-escalated", "new-required-operand",
    #            "new-flags", "new-commands", "unused-flags-gone", "version", "help-text", "operands-renamed"
    message: str
    verb: str = ""  # the verb it concerns, "" for the pack as a whole
    count: int = 0  # how many flags / commands, for the kinds that count

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "kind": self.kind,
            "message": self.message,
            "verb": self.verb,
            "count": self.count,
        }


@dataclass(frozen=True)
class Drift:
    """The drift of one pack's tool: the version lines then and now, and every change."""

    pack_id: str
    tool: str
    old_version: str
    new_version: str
    changes: tuple[Change, ...] = ()
    checked: str = (
        "help"  # "help": the tool was rediscovered; "version": only its version line was read
    )

    @property
    def level(self) -> str:
        return max((c.level for c in self.changes), key=LEVELS.index, default="none")

    @property
    def exit_status(self) -> int:
        return _EXIT[self.level]

    def summary(self) -> str:
        """One line for a CI log: ``git 2.39 -> 2.43: compatible, 14 new flags``."""
        old, new = short_version(self.old_version), short_version(self.new_version)
        if any(c.kind == "tool-missing" for c in self.changes):
            return f"{self.tool}: breaking: tool not found"
        versions = f"{old} -> {new}" if old != new else (new or "?")
        head = f"{self.tool} {versions}"
        if self.level == "none":
            return f"{head}: unchanged"
        worst = [c for c in self.changes if c.level == self.level]
        counted: dict[str, int] = {}
        words = []
        for change in worst:
            if change.count:
                counted[change.kind] = counted.get(change.kind, 0) + change.count
            else:
                words.append(change.message)
        words = [_COUNT_WORDS[kind](count) for kind, count in counted.items()] + words
        shown = words[:3] + ([f"{len(words) - 3} more"] if len(words) > 3 else [])
        return f"{head}: {self.level}, " + "; ".join(shown)

    def to_dict(self) -> dict:
        return {
            "pack_id": self.pack_id,
            "tool": self.tool,
            "old_version": self.old_version,
            "new_version": self.new_version,
            "level": self.level,
            "checked": self.checked,
            "summary": self.summary(),
            "changes": [c.to_dict() for c in self.changes],
        }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


_COUNT_WORDS = {
    "new-flags": lambda n: f"{n} new flag{'s' * (n != 1)}",
    "new-commands": lambda n: f"{n} new command{'s' * (n != 1)}",
    "unused-flags-gone": lambda n: f"{n} unused flag{'s' * (n != 1)} gone",
}


def short_version(line: str) -> str:
    """The version number in a version line (``git version 2.43.0`` -> ``2.43.0``), else the line."""
    match = _VERSION_RE.search(line or "")
    return match.group(0) if match else (line or "").strip()


def _listed(command: Command) -> list[str]:
    """The subcommand names a command lists, without those its help calls external: git lists every
    ``git-*`` program on PATH under "External commands", which differ from machine to machine."""
    return sorted(s.name for s in command.subcommands if not _EXTERNAL_RE.search(s.group or ""))


def help_sha256(tool: Tool, paths: Iterable[tuple[str, ...]] = ((),)) -> str:
    """The fingerprint of the help discovery read for ``paths`` (the root and the commands a pack
    uses): sha256 of each command's parsed help (flags, operands, usage, text), its subcommands by
    name only. Commands the pack does not use are left out, so a slow or machine-local subcommand
    elsewhere in the tree (a probe that timed out, a plugin on PATH) does not move it."""
    parts = []
    for path in sorted(set(map(tuple, paths))):
        chain = _chain(tool.root, path)
        if len(chain) - 1 < len(path):
            parts.append([list(path), None])
            continue
        # without its subtree first: the root's to_dict() would convert the whole tool to drop it again
        body = chain[-1].with_changes(subcommands=()).to_dict()
        body.pop("subcommands", None)
        parts.append([list(path), body, _listed(chain[-1])])
    text = _SCRATCH_RE.sub(
        "<scratch>", json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def source_identity(tool: Tool, paths: Iterable[tuple[str, ...]] = ((),)) -> dict:
    """What pack.yaml's ``source`` records: ``{"version": ..., "help_sha256": ...}``."""
    return {"version": tool.version or "", "help_sha256": help_sha256(tool, paths)}


def pack_paths(tool: Tool, verbs: Mapping[str, Mapping]) -> set[tuple[str, ...]]:
    """The root and every command (with its ancestors) the verbs run."""
    paths = {()}
    for verb in verbs.values():
        path = verb_path(tool.root, verb.get("cli") or [])
        for end in range(len(path) + 1):
            paths.add(path[:end])
    return paths


def _chain(root: Command, path: tuple[str, ...]) -> list[Command]:
    """The commands from the root down to ``path`` (shorter when part of it is missing)."""
    out, node = [root], root
    for part in path:
        node = next((s for s in node.subcommands if s.name == part or part in s.aliases), None)
        if node is None:
            break
        out.append(node)
    return out


def _accepted(root: Command, path: tuple[str, ...]) -> dict[str, str]:
    """Every flag spelling ``TOOL PATH`` accepts (its own, its global ones, its ancestors' global
    ones, and the root's own, which a tool such as git takes before any subcommand) -> the flag's key."""
    chain = _chain(root, path)
    out: dict[str, str] = {}
    flags = [*chain[-1].flags, *chain[-1].global_flags]
    for node in chain[:-1]:
        flags += node.global_flags
    flags += root.flags if len(chain) > 1 else []
    for flag in flags:
        for spelling in flag.spellings:
            out.setdefault(spelling, flag.spelling)
    return out


def verb_path(root: Command, cli: Iterable) -> tuple[str, ...]:
    """The command a verb runs: the longest prefix of its leading literal words that names one."""
    words = subcommand_path([str(token) for token in cli])
    chain = _chain(root, words)
    return words[: len(chain) - 1]


def _flag_tokens(cli: Iterable) -> tuple[str, ...]:
    """The flags a verb's ``cli[]`` names: ``--repo={{repo}}`` -> ``--repo``; ``--`` is no flag."""
    out = []
    for token in list(cli)[1:]:
        token = str(token)
        if token.startswith("-") and token != "--" and token != "-":
            name = token.split("=", 1)[0]
            if _PLACEHOLDER not in name:
                out.append(name)
    return tuple(dict.fromkeys(out))


def _operands(command: Command) -> list[dict]:
    return [{"name": p.name, "required": bool(p.required)} for p in command.positionals]


def _flag_groups(root: Command, path: tuple[str, ...]) -> list[str]:
    """Each flag ``TOOL PATH`` accepts as one string of its spellings, the main one first: ``--all -a``."""
    groups: dict[str, list[str]] = {}
    for spelling, key in _accepted(root, path).items():
        groups.setdefault(key, [key])
        if spelling != key:
            groups[key].append(spelling)
    return sorted(" ".join(spellings) for spellings in groups.values())


def _keys(groups: Iterable[str]) -> set[str]:
    return {group.split()[0] for group in groups if group.split()}


def _all_spellings(groups: Iterable[str]) -> set[str]:
    return {spelling for group in groups for spelling in group.split()}


def _node_entry(root: Command, path: tuple[str, ...]) -> dict:
    command = _chain(root, path)[-1]
    return {
        "flags": _flag_groups(root, path),
        "subcommands": _listed(command),
        "operands": _operands(command),
    }


def snapshot(
    tool: Tool, verbs: Mapping[str, Mapping], *, effect_of: Callable[[Command], str]
) -> dict:
    """``source.json`` for a pack of ``verbs`` (pack.yaml's) made from ``tool``."""
    root = tool.root
    verb_entries: dict[str, dict] = {}
    for key in sorted(verbs):
        path = verb_path(root, verbs[key].get("cli") or [])
        command = _chain(root, path)[-1]
        verb_entries[key] = {"path": " ".join(path), "effect": effect_of(command) if path else ""}
    paths = pack_paths(tool, verbs)
    commands = {" ".join(path): _node_entry(root, path) for path in sorted(paths)}
    return {
        "snapshot_version": SNAPSHOT_VERSION,
        **source_identity(tool, paths),
        "verbs": verb_entries,
        "commands": commands,
    }


def snapshot_text(data: Mapping) -> str:
    """``source.json``'s text: sorted keys, two-space indent, a final newline (deterministic)."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def not_found(pack_id: str, tool: str, old_version: str, why: str) -> Drift:
    """The drift of a pack whose tool is no longer installed: breaking."""
    return Drift(
        pack_id,
        tool,
        old_version,
        "",
        (Change("breaking", "tool-missing", f"tool not found ({why})"),),
    )


def version_drift(pack_id: str, tool: str, source: Mapping | None, version_line: str) -> Drift:
    """The cheap comparison ``serve`` makes at start: the recorded version line against today's.

    A changed line is only ``metadata`` here: what changed in the help is for ``check --drift`` to say.
    """
    old = str((source or {}).get("version") or "")
    changes = ()
    if source and old != version_line:
        changes = (
            Change("metadata", "version", f"version line was {old!r}, now {version_line!r}"),
        )
    return Drift(pack_id, tool, old, version_line, changes, checked="version")


def classify(
    manifest: Mapping, snap: Mapping | None, tool: Tool, *, effect_of: Callable[[Command], str]
) -> Drift:
    """Every change between the tool a pack was made from and ``tool``, discovered today.

    ``manifest`` is pack.yaml's data; ``snap`` its ``source.json`` (None when the pack has none: then
    only what the verbs' ``cli[]`` names can be checked, and new flags cannot be counted).
    """
    source = manifest.get("source") or {}
    old_version = str(source.get("version") or (snap or {}).get("version") or "")
    old_sha = str(source.get("help_sha256") or (snap or {}).get("help_sha256") or "")
    snap_commands = (snap or {}).get("commands") or {}
    if snap_commands:
        paths = {tuple(p.split()) for p in snap_commands}
    else:
        paths = pack_paths(tool, manifest.get("verbs") or {})
    new_version, new_sha = tool.version or "", help_sha256(tool, paths)
    pack_id, name = str(manifest.get("pack_id", "?")), str(manifest.get("bin", tool.name))
    root = tool.root
    changes: list[Change] = []
    if old_version != new_version:
        changes.append(
            Change("metadata", "version", f"version line was {old_version!r}, now {new_version!r}")
        )
    if old_sha and old_sha == new_sha:
        return Drift(pack_id, name, old_version, new_version, tuple(changes))
    snap_verbs = (snap or {}).get("verbs") or {}
    verbs = manifest.get("verbs") or {}
    for key in sorted(verbs):
        cli = verbs[key].get("cli") or []
        recorded = snap_verbs.get(key)
        path = tuple(recorded["path"].split()) if recorded else verb_path(root, cli)
        chain = _chain(root, path)
        shown = " ".join((name, *path))
        if len(chain) - 1 < len(path):
            changes.append(
                Change("breaking", "command-gone", f"`{shown}` is gone (verb {key})", key)
            )
            continue
        command = chain[-1]
        accepted = _accepted(root, path)
        old_spellings = _all_spellings((snap_commands.get(" ".join(path)) or {}).get("flags") or ())
        for flag in _flag_tokens(cli):
            if flag in accepted:
                continue
            # a flag discovery never saw (a short spelling the help did not list) is not evidence
            if snap is None or flag in old_spellings:
                changes.append(
                    Change(
                        "breaking",
                        "flag-gone",
                        f"`{shown}` no longer takes {flag} (verb {key})",
                        key,
                    )
                )
        if recorded and recorded.get("effect") and path:
            now = effect_of(command)
            if _EFFECT_RANK.get(now, 1) > _EFFECT_RANK.get(recorded["effect"], 1):
                changes.append(
                    Change(
                        "breaking",
                        "effect-escalated",
                        f"`{shown}`'s help now implies {now} (it implied {recorded['effect']}; verb {key})",
                        key,
                    )
                )
        old_entry = snap_commands.get(" ".join(path))
        if old_entry is not None:
            old_required = [o["name"] for o in old_entry.get("operands") or () if o.get("required")]
            new_required = [p.name for p in command.positionals if p.required]
            if len(new_required) > len(old_required):
                extra = ", ".join(new_required[len(old_required) :])
                changes.append(
                    Change(
                        "breaking",
                        "new-required-operand",
                        f"`{shown}` now requires {extra} (verb {key})",
                        key,
                    )
                )
            elif [o["name"] for o in old_entry.get("operands") or ()] != [
                p.name for p in command.positionals
            ]:
                changes.append(
                    Change(
                        "metadata",
                        "operands-renamed",
                        f"`{shown}`'s operands are named differently",
                        key,
                    )
                )
    new_flags = new_commands = unused_gone = 0
    for path_text, old_entry in sorted(snap_commands.items()):
        path = tuple(path_text.split())
        if len(_chain(root, path)) - 1 < len(path):
            continue  # reported above when a verb uses it
        now = _node_entry(root, path)
        old_flags, new_set = _keys(old_entry.get("flags") or ()), _keys(now["flags"])
        new_flags += len(new_set - old_flags)
        unused_gone += len(old_flags - new_set)
        new_commands += len(set(now["subcommands"]) - set(old_entry.get("subcommands") or ()))
    if new_flags:
        changes.append(
            Change("compatible", "new-flags", _plural(new_flags, "new flag"), count=new_flags)
        )
    if new_commands:
        changes.append(
            Change(
                "compatible",
                "new-commands",
                _plural(new_commands, "new command"),
                count=new_commands,
            )
        )
    used_gone = sum(1 for c in changes if c.kind == "flag-gone")
    if unused_gone - used_gone > 0:
        gone = unused_gone - used_gone
        changes.append(
            Change(
                "compatible",
                "unused-flags-gone",
                _COUNT_WORDS["unused-flags-gone"](gone),
                count=gone,
            )
        )
    if old_sha != new_sha and all(c.kind == "version" for c in changes):
        changes.append(
            Change(
                "metadata",
                "help-text",
                "the help text changed, not the commands or flags this pack uses",
            )
        )
    return Drift(pack_id, name, old_version, new_version, tuple(changes))
