"""Promote a PATH wrap (``bin`` + ``allowedSubcommands``) to packs of named commands.

The allowlist stays the boundary: every command proposed lies at or under an allowed
subcommand path, and nothing else is read into a recipe. The pipeline is pure in the middle:

    load_path_wrap(file) -> PathWrap         wrapgen.pack.pathwrap: pathwrap.schema.json via the shared loader
    plan_promotion(wrap, tool) -> Plan       which paths become commands, what is missing, the split
    plan.recipes() -> (Recipe, ...)          fed to the same wrap pipeline as ``wrapgen batch``
    promotion_report(plan, tool, manifests)  Markdown: the old reach against the new commands

Decisions (documented in docs/flows.md): an allowed subcommand that has subcommands of its own
(``rollout``) promotes each of its leaves; more than 12 commands are split into packs by family
(the first word of the path), each family kept whole where it fits, and each pack is written;
fewer than 5 are written as one pack with a warning.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from wrapgen.knowledge.commands import is_mega_command, is_not_command
from wrapgen.model.tool import Command, Tool
from wrapgen.names import sub_pack_id, unique_names, verb_name
from wrapgen.pack.pathwrap import PathWrap, PathWrapError, load_path_wrap, parse_path_wrap
from wrapgen.pack.recipe import CommandSpec, Recipe
from wrapgen.propose.select import MAX_VERBS, MIN_VERBS

__all__ = [
    "MAX_VERBS",
    "MIN_VERBS",
    "PathWrap",
    "PathWrapError",
    "Missing",
    "Plan",
    "load_path_wrap",
    "parse_path_wrap",
    "plan_promotion",
    "split_by_family",
    "verb_paths",
    "promotion_report",
    "PromoteOutcome",
    "promote",
]

# A pack has MIN_VERBS to MAX_VERBS commands: the numbers the proposal picks by (propose/select.py).
# Never promoted: mega-commands, which forward arbitrary argv and behave as a shell (docs/contract.md §13), and
# subcommands that describe the tool: one definition each, in wrapgen/knowledge/commands.py.


@dataclass(frozen=True)
class Missing:
    """An allowed entry the tool does not have, with the closest existing name."""

    path: tuple[str, ...]
    closest: str = ""
    reason: str = "not a subcommand"


@dataclass(frozen=True)
class Plan:
    wrap: PathWrap
    commands: tuple[tuple[str, ...], ...]  # paths to promote, in allowlist order
    origin: Mapping[
        tuple[str, ...], tuple[str, ...]
    ]  # command path -> the allowed entry it came from
    missing: tuple[Missing, ...] = ()
    skipped: tuple[tuple[tuple[str, ...], str], ...] = ()  # (path, why it is not a command)
    packs: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()  # (pack_id, paths)
    warnings: tuple[str, ...] = ()

    @property
    def split(self) -> bool:
        return len(self.packs) > 1

    def recipes(self, *, discover_options: Mapping[str, Any] | None = None) -> tuple[Recipe, ...]:
        """One recipe per pack, listing exactly its commands: the proposal adds nothing beyond them."""
        options = dict(
            discover_options or {"depth": max((len(p) for p in self.commands), default=1)}
        )
        out = []
        for pack_id, paths in self.packs:
            description = self.wrap.description or None
            if self.split and description:
                description = (
                    f"{description.rstrip('.')} ({', '.join(sorted({p[0] for p in paths}))})."
                )
            out.append(
                Recipe(
                    tool=self.wrap.bin,
                    pack_id=pack_id,
                    description=description,
                    discover_options=options,
                    commands=tuple(CommandSpec(path=p) for p in paths),
                    source_path=self.wrap.source_path,
                    argv_template=self.wrap.argv_template or None,
                )
            )
        return tuple(out)


# -- the plan -------------------------------------------------------------------------------------


def _leaves(node: Command) -> list[tuple[str, ...]]:
    """The runnable paths at or under ``node``: itself when it has no subcommands."""
    children = [
        c
        for c in node.subcommands
        if not c.hidden and not c.deprecated and not is_not_command(c.name)
    ]
    if not children:
        return [node.path]
    out: list[tuple[str, ...]] = []
    for child in children:
        out += _leaves(child)
    return out


def _closest(root: Command, path: tuple[str, ...]) -> tuple[str, str]:
    """(closest existing spelling of the first missing word, what is wrong)."""
    node = root
    for i, word in enumerate(path):
        found = node.find(node.path + (word,))
        if found is None:
            names = [c.name for c in node.subcommands] + [
                a for c in node.subcommands for a in c.aliases
            ]
            close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
            where = " ".join(path[:i]) or "the tool"
            prefix = " ".join(path[:i] + (close[0],)) if close else ""
            return prefix, f"{word!r} is not a subcommand of {where}"
        node = found
    return "", ""


def split_by_family(
    paths: Sequence[tuple[str, ...]], *, pack_id: str, limit: int = MAX_VERBS
) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """Packs of at most ``limit`` commands; a family (the first word) stays in one pack when it fits.

    A pack holding one family is named ``<pack_id>-<family>``; one holding several is numbered.
    """
    if len(paths) <= limit:
        return ((pack_id, tuple(paths)),)
    families: dict[str, list[tuple[str, ...]]] = {}
    for path in paths:
        families.setdefault(path[0], []).append(path)
    chunks: list[list[tuple[str, ...]]] = []
    open_chunk = False  # whether the last chunk may take another family
    for members in families.values():
        if len(members) > limit:
            # A family too big for one pack is cut into even parts, each a pack of its own.
            parts = -(-len(members) // limit)
            size = -(-len(members) // parts)
            chunks += [members[i : i + size] for i in range(0, len(members), size)]
            open_chunk = False
        elif open_chunk and len(chunks[-1]) + len(members) <= limit:
            chunks[-1] += members
        else:
            chunks.append(list(members))
            open_chunk = True
    names = unique_names(
        sub_pack_id(pack_id, chunk[0][0] if len({p[0] for p in chunk}) == 1 else n)
        for n, chunk in enumerate(chunks, 1)
    )
    return tuple((name, tuple(chunk)) for name, chunk in zip(names, chunks))


def plan_promotion(wrap: PathWrap, tool: Tool) -> Plan:
    """Which paths become commands, which allowed entries do not exist, and how they split into packs."""
    root = tool.root
    commands: list[tuple[str, ...]] = []
    origin: dict[tuple[str, ...], tuple[str, ...]] = {}
    missing: list[Missing] = []
    skipped: list[tuple[tuple[str, ...], str]] = []
    for allowed in wrap.allowed:
        node = root.find(allowed)
        if node is None:
            closest, reason = _closest(root, allowed)
            missing.append(Missing(allowed, closest, reason))
            continue
        for path in _leaves(node):
            if is_mega_command(path[-1]) or is_mega_command(allowed[-1]):
                skipped.append(
                    (
                        path,
                        "forwards arbitrary arguments, so it behaves as a shell (docs/contract.md §13)",
                    )
                )
                continue
            if is_not_command(path[-1]):
                skipped.append((path, "describes the tool rather than doing something"))
                continue
            if path not in origin:
                origin[path] = allowed
                commands.append(path)
    warnings: list[str] = []
    for m in missing:
        hint = f" (closest: `{m.closest}`)" if m.closest else ""
        warnings.append(
            f"allowed subcommand `{' '.join(m.path)}` does not exist in {wrap.bin}: {m.reason}{hint}"
        )
    packs = split_by_family(commands, pack_id=wrap.pack_id) if commands else ()
    if len(packs) > 1:
        warnings.append(
            f"{len(commands)} commands is more than {MAX_VERBS} for one pack: split by family into "
            f"{len(packs)} packs ({', '.join(p for p, _ in packs)})"
        )
    elif commands and len(commands) < MIN_VERBS:
        warnings.append(
            f"only {len(commands)} command{'s' if len(commands) != 1 else ''} under the allowlist: "
            f"a pack usually has {MIN_VERBS} to {MAX_VERBS}; written anyway"
        )
    return Plan(
        wrap=wrap,
        commands=tuple(commands),
        origin=origin,
        missing=tuple(missing),
        skipped=tuple(skipped),
        packs=packs,
        warnings=tuple(warnings),
    )


# -- the report -----------------------------------------------------------------------------------


def _is_placeholder(token: str) -> bool:
    return token.startswith("{{") and token.endswith("}}")


def verb_paths(
    manifest: Mapping[str, Any], paths: Sequence[tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """verb name -> the subcommand path its cli[] runs (the longest known path its literal words start with)."""
    out: dict[str, tuple[str, ...]] = {}
    known = sorted(paths, key=len, reverse=True)
    bin_name = manifest.get("bin", "")
    for name, verb in (manifest.get("verbs") or {}).items():
        cli = list(verb.get("cli") or [])
        words = tuple(t for t in cli[1:] if not t.startswith("-") and not _is_placeholder(t))
        match = next((p for p in known if words[: len(p)] == p), None)
        if match is None:  # argv_template fallback: the name's segments are the path
            parts = tuple(name.split("."))
            match = next(
                (p for p in known if tuple(verb_name(p, bin=bin_name).split(".")) == parts), None
            )
        if match is not None:
            out[name] = match
    return out


def _flag_of(token: str) -> str:
    return token.split("=", 1)[0]


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _flag_list(spellings: Sequence[str], limit: int = 12) -> str:
    shown = ", ".join(f"`{s}`" for s in spellings[:limit])
    return (
        shown + (f", … ({len(spellings) - limit} more)" if len(spellings) > limit else "")
        if spellings
        else "none"
    )


def promotion_report(plan: Plan, tool: Tool, manifests: Mapping[str, Mapping[str, Any]]) -> str:
    """Markdown: what the PATH wrap could reach, what the named commands reach, what was narrowed."""
    wrap = plan.wrap
    root = tool.root
    lines = [f"# Promotion of PATH wrap `{wrap.pack_id}` (`{wrap.bin}`)", ""]
    lines += [
        "## Before: the PATH wrap's reach",
        "",
        f"`{wrap.bin}` followed by any allowed subcommand, then **any flag and any argument**:",
        "",
        "| allowed | reach |",
        "|---|---|",
    ]
    for allowed in wrap.allowed:
        node = root.find(allowed)
        text = " ".join(allowed)
        if node is None:
            lines.append(f"| `{text}` | does not exist in {wrap.bin} |")
            continue
        below = [p for p in _leaves(node) if p != node.path]
        flags = sorted({f.spellings[0] for f in node.flags if f.spellings})
        reach = f"any of {len(flags)} flags ({_flag_list(flags, 8)}), any arguments"
        if below:
            reach = (
                f"{len(below)} subcommands beneath it ({', '.join(' '.join(p[len(allowed) :]) for p in below[:8])}"
                f"{', …' if len(below) > 8 else ''}), each with any flag; " + reach
            )
        lines.append(f"| `{text}` | {_md(reach)} |")
    global_flags = sorted(
        {f.long or f.short for c in root.walk() for f in c.global_flags if f.long or f.short}
        | {f.long or f.short for f in root.flags if f.long or f.short}
    )
    if global_flags:
        lines += [
            "",
            f"and, under each, the tool's {len(global_flags)} global flags ({_flag_list(global_flags, 10)}).",
        ]
    lines += ["", "## After: named commands", ""]
    all_flags_used: dict[tuple[str, ...], set[str]] = {}
    for pack_id, manifest in manifests.items():
        verbs = manifest.get("verbs") or {}
        lines += [
            f"### pack `{pack_id}` ({len(verbs)} commands)",
            "",
            "| command | runs | args | policy |",
            "|---|---|---|---|",
        ]
        paths = verb_paths(manifest, plan.commands)
        for name, verb in verbs.items():
            cli = verb.get("cli") or [manifest.get("bin", ""), "{{verb}}", "{{flags}}"]
            props = list(((verb.get("args") or {}).get("properties") or {}))
            policy = verb.get("policy") or {}
            effect = policy.get("effect", "read")
            gate = " (confirm)" if policy.get("confirm", effect != "read") else ""
            lines.append(
                f"| `{name}` | `{_md(' '.join(cli))}` | {', '.join(props) or 'none'} | {effect}{gate} |"
            )
            path = paths.get(name)
            if path is not None:
                used = {_flag_of(t) for t in cli if t.startswith("-") and t != "--"}
                used |= {"--" + p.replace("_", "-") for p in props} if "{{flags}}" in cli else set()
                all_flags_used.setdefault(path, set()).update(used)
        lines.append("")
    lines += [
        "## Narrowed",
        "",
        "What the PATH wrap allowed and no named command reaches now:",
        "",
        "| subcommand | flags no longer reachable | kept |",
        "|---|---|---|",
    ]
    for path in plan.commands:
        node = root.find(path)
        flags = [
            f
            for f in (tuple(node.flags) + tuple(node.global_flags) if node else ())
            if not f.hidden
        ]
        used = all_flags_used.get(path)
        if used is None:
            lines.append(f"| `{' '.join(path)}` | all (no command was written for it) | none |")
            continue
        kept = sorted(s for f in flags for s in f.spellings if s in used)
        # a flag spelled only one way that is neither long nor short (-json, Go's flag package) too
        dropped = sorted(
            f.spellings[0] for f in flags if f.spellings and not set(f.spellings) & used
        )
        lines.append(f"| `{' '.join(path)}` | {_flag_list(dropped)} | {_flag_list(kept)} |")
    if plan.missing or plan.skipped or plan.warnings:
        lines += ["", "## Warnings", ""]
        lines += [f"- {_md(w)}" for w in plan.warnings]
        lines += [f"- `{' '.join(p)}` not promoted: {why}" for p, why in plan.skipped]
    return "\n".join(lines) + "\n"


# -- the whole promotion ------------------------------------------------------------------------


@dataclass(frozen=True)
class PromoteOutcome:
    plan: Plan
    packs: Mapping[str, Mapping[str, str]]  # pack_id -> {relpath: text}
    report: str
    report_name: str
    findings: tuple = ()  # wrapgen check on each pack


def promote(path: str | Path, *, out_dir: str | Path = "adapters", discover=None) -> PromoteOutcome:
    """Read the PATH wrap, discover its tool, and produce the packs and the report (writes nothing)."""
    from wrapgen.errors import RecipeError as _RecipeError
    from wrapgen.flows.wrap import wrap as wrap_tool
    from wrapgen.pack.recipe import discover_tool

    pathwrap = load_path_wrap(path)
    read = discover or discover_tool
    # Read only as deep as the allowlist goes; one level more only when an allowed entry turns
    # out to have subcommands of its own (kubectl's full tree costs seconds per level).
    depth = max(len(p) for p in pathwrap.allowed)
    tool = read(
        Recipe(
            tool=pathwrap.bin, discover_options={"depth": depth}, source_path=pathwrap.source_path
        )
    )
    nodes = [tool.root.find(p) for p in pathwrap.allowed]
    if depth < 3 and any(n is not None and any(c.stub for c in n.subcommands) for n in nodes):
        depth += 1
        tool = read(
            Recipe(
                tool=pathwrap.bin,
                discover_options={"depth": depth},
                source_path=pathwrap.source_path,
            )
        )
    plan = plan_promotion(pathwrap, tool)
    if not plan.commands:
        lines = "; ".join(plan.warnings) or "nothing to promote"
        raise _RecipeError(
            f"none of the allowed subcommands of {pathwrap.source_path or pathwrap.pack_id} "
            f"can be promoted: {lines}",
            hint=f"fix wrap.allowedSubcommands (see `wrapgen discover {pathwrap.bin}`)",
        )
    packs: dict[str, dict[str, str]] = {}
    manifests: dict[str, dict] = {}
    findings: list = []
    for recipe in plan.recipes(discover_options={"depth": depth}):
        result = wrap_tool(
            recipe=recipe, out_dir=out_dir, check=True, discover=lambda *a, **k: tool
        )
        packs[result.pack_id] = dict(result.files)
        manifests[result.pack_id] = result.proposal.manifest
        findings += list(result.findings)
    report = promotion_report(plan, tool, manifests)
    return PromoteOutcome(plan, packs, report, f"PROMOTION-{pathwrap.pack_id}.md", tuple(findings))
