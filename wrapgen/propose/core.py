"""``propose(tool, recipe=None) -> Proposal``: a discovered tool in, a pack manifest out.

Pure: nothing here runs the tool or touches a file. The manifest is a plain dict in the order
``wrapgen.pack.manifest.dump_manifest`` writes; ``decisions`` says for every candidate command whether it
was chosen and why, in words, so ``wrapgen wrap`` can print what it left out.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command, Tool
from wrapgen.names import segment, unique_names, verb_name
from wrapgen.propose.args import plan_args
from wrapgen.propose.harden import harden_manifest
from wrapgen.propose.jsonsel import JsonChoice, select_json
from wrapgen.propose.modes import root_candidates
from wrapgen.propose.policy import classify
from wrapgen.propose.select import Candidate, exclusion_reason, listing_mode, pick, rank_reason, rank_score
from wrapgen.propose.titles import propose_title

__all__ = ["Decision", "Proposal", "propose"]

# Help styles whose tools are not known to honour "--": wrapgen/knowledge/data/tools.json.
_NO_DOUBLE_DASH = load("tools")["styles_without_double_dash"].names
# A "summary" that is really a section heading of the help ("Options (and corresponding ...):").
_HEADING = re.compile(r"\s*(?:usage|options|flags|commands|arguments)\b", re.IGNORECASE)  # help styles whose tools are not known to honour "--"


@dataclass(frozen=True)
class Decision:
    """One candidate command: chosen or not, and why, in words."""

    path: str  # "pr list", "--files" for a mode, "" for the tool itself
    name: str  # the verb name ("" when not chosen)
    chosen: bool
    effect: str
    reason: str


@dataclass(frozen=True)
class Proposal:
    manifest: dict
    decisions: tuple[Decision, ...]
    warnings: tuple[str, ...] = ()
    json_note: str = ""  # how the pack selects JSON, or that it has none

    @property
    def chosen(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.chosen)


def _first_sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text or "").strip()
    text = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)[0]
    return text


def _sentence(text: str) -> str:
    text = _first_sentence(text).rstrip(" .:")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."


def _fallback_description(root: Command, cand: Candidate, bin_name: str) -> str:
    """For a subcommand whose help has no summary: its command line, and what its family does."""
    parent = root.find(cand.path[:-1]) if len(cand.path) > 1 else None
    line = " ".join((bin_name,) + cand.path + cand.fixed)
    if parent is not None and parent.summary:
        return f"{line}: part of '{' '.join(cand.path[:-1])}' ({_first_sentence(parent.summary).rstrip('.')})."
    return f"Run {line}."


def _tree_candidates(root: Command) -> list[Candidate]:
    out: list[Candidate] = []

    def walk(node: Command, groups: tuple[str, ...], common: bool) -> None:
        for sub in node.subcommands:
            chain = groups + ((sub.group,) if sub.group else ())
            listed = common or sub.common  # a family the short help lists lends it to its members
            if sub.subcommands:
                if sub.flags and not sub.stub and not any(
                    re.search(r"<(?:sub)?command>|\[(?:sub)?command\]|\b(?:SUB)?COMMAND\b", u, re.I) for u in sub.usage
                ):
                    # a group that acts on its own too (kubectl apply, kubectl create -f)
                    out.append(Candidate(path=sub.path, command=sub, group=" / ".join(chain), index=len(out),
                                         common=listed))
                walk(sub, chain, listed)
            else:
                out.append(Candidate(path=sub.path, command=sub, group=" / ".join(chain), index=len(out),
                                     common=listed))

    walk(root, (), False)
    return out


def _excluded_by_recipe(path: tuple[str, ...], exclude: Sequence[tuple[str, ...]]) -> bool:
    return any(path[: len(e)] == tuple(e) for e in exclude if e)


def _json_tokens(value) -> Any:
    if value is False or value is None:
        return value
    return list(value)


def _spec_for(recipe, name: str, path: tuple[str, ...]):
    spec = None
    if recipe is not None and recipe.commands is not None:
        spec = next((c for c in recipe.commands if tuple(c.path) == path), None)
    override = recipe.overrides.get(name) if recipe is not None else None
    return spec, override


def _get(attr: str, *specs):
    for spec in specs:
        if spec is not None and getattr(spec, attr) is not None:
            return getattr(spec, attr)
    return None


def propose(tool: Tool, recipe=None, *, json_fields: Mapping[tuple[str, ...], Sequence[str]] | None = None) -> Proposal:
    """Choose 5 to 12 commands of ``tool`` and write them as a pack manifest.

    ``json_fields`` gives, per subcommand path, the fields a ``--json FIELDS`` flag accepts when
    the help does not list them (``wrapgen wrap`` asks the tool; tests pass captured lists).
    """
    json_fields = json_fields or {}
    bin_name = tool.name
    root = tool.root
    warnings: list[str] = list(tool.warnings)
    decisions: list[Decision] = []
    mode_skips: list[tuple[str, str]] = []
    if root.subcommands:
        candidates = _tree_candidates(root)
    else:
        candidates, mode_skips = root_candidates(root, bin=bin_name)
    min_depth = min((len(c.path) for c in candidates), default=0)
    # families the tool's own examples show ("gh pr checkout 321") are the ones people use
    featured = frozenset(
        words[1] for words in (e.split() for e in root.examples) if len(words) > 1 and not words[1].startswith("-")
    )

    exclude = tuple(recipe.exclude) if recipe is not None else ()
    listed = recipe.commands if recipe is not None else None
    ranked: list[tuple[float, Candidate, str]] = []
    policy_reason: dict[int, str] = {}
    seen_summaries: dict[str, str] = {}
    chosen_pairs: list[tuple[Candidate, str]] = []

    if listed is not None:
        by_path = {c.path: c for c in candidates if not c.fixed and not c.name}
        modes = [c for c in candidates if c.name]
        for spec in listed:
            cand = by_path.get(tuple(spec.path))
            if cand is None and tuple(spec.path) == () and modes:
                cand = modes[0]
            if cand is None:
                node = root.find(spec.path)
                if node is None:
                    warnings.append(f"recipe names '{spec.path_text}', which the help does not list")
                    decisions.append(Decision(spec.path_text, "", False, "", "not found in the tool's help"))
                    continue
                cand = Candidate(path=node.path, command=node, index=len(candidates))
            guess = classify(cand.command)
            why = exclusion_reason(cand)
            if why and why.startswith("a mega-command"):
                warnings.append(f"'{cand.text}' is {why}; left out although the recipe lists it")
                decisions.append(Decision(cand.text, "", False, guess.effect, why))
                continue
            chosen_pairs.append((cand, guess.effect))
            policy_reason[id(cand)] = f"picked by hand (recipe or --pick); {guess.reason}"
        listed_paths = {c.path for c, _ in chosen_pairs}
        for cand in candidates:
            if cand.path not in listed_paths and not cand.name:
                decisions.append(Decision(cand.text, "", False, "", "not picked (the recipe or --pick lists the commands)"))
    else:
        main_effect: tuple[str, str] | None = None
        pending_listing: list[Candidate] = []

        def _with_listing_modes(queue: list[Candidate]):
            # a listing form found on the way is ranked right after the command it comes from
            for cand in queue:
                yield cand
                while pending_listing:
                    yield pending_listing.pop(0)
        # shallow first, so that a duplicate (docker container logs = docker logs) loses to the short form
        queue = sorted(candidates, key=lambda c: (len(c.path), c.index))
        for cand in _with_listing_modes(queue):
            if _excluded_by_recipe(cand.path, exclude) and not cand.name:
                decisions.append(Decision(cand.text, "", False, "", "excluded by the recipe"))
                continue
            why = exclusion_reason(cand)
            guess = classify(cand.command) if not cand.name else classify(
                Command(path=(cand.name.split(".")[-1 if cand.listing else 0],), summary=cand.effective_summary)
            )
            if why:
                decisions.append(Decision(cand.text, "", False, guess.effect, f"left out: {why}"))
                continue
            if cand.fixed and not guess.words and main_effect is not None:
                guess = replace(guess, effect=main_effect[0],
                                reason=f"{main_effect[0]}: a mode of the main command ({main_effect[1]})")
            if not cand.fixed and cand.name and main_effect is None:
                main_effect = (guess.effect, guess.reason)
            if guess.effect == "read" and re.search(r"manipulator", cand.group, re.I):
                guess = replace(guess, effect="write",
                                reason=f"write: listed under '{cand.group}' ({guess.reason})")
            override = recipe.overrides.get(cand.name or verb_name(cand.path, bin=bin_name)) if recipe else None
            if override is not None and override.policy and override.policy.get("effect"):
                guess = replace(guess, effect=override.policy["effect"],
                                reason=f"{override.policy['effect']}: set by the recipe")
            summary_key = _first_sentence(cand.command.summary).lower()
            if summary_key and not cand.name and summary_key in seen_summaries:
                decisions.append(Decision(cand.text, "", False, guess.effect,
                                          f"same as '{seen_summaries[summary_key]}' ({summary_key})"))
                continue
            if summary_key and not cand.name:
                seen_summaries[summary_key] = cand.text
            ranked.append((rank_score(cand, guess.effect, min_depth=min_depth, featured=featured,
                                     total=len(candidates)), cand, guess.effect))
            listing = listing_mode(cand, guess.effect)
            if listing is not None:
                pending_listing.append(listing)
            helped = rank_reason(cand)
            policy_reason[id(cand)] = f"{guess.reason}; {helped}" if helped else guess.reason
        ranked.sort(key=lambda t: (-t[0], t[1].index))
        chosen_pairs, not_chosen = pick(ranked)
        for i, (_, cand, effect) in enumerate(ranked):
            if i in not_chosen:
                decisions.append(Decision(cand.text, "", False, effect, f"not chosen: {not_chosen[i]}"))
    for flag, why in mode_skips:
        decisions.append(Decision(flag, "", False, "read", f"not chosen: {why}"))

    # names: from the recipe, the mode, or the path; clashes resolved in pack order
    raw_names = []
    for cand, _ in chosen_pairs:
        spec, _ = _spec_for(recipe, "", cand.path)
        raw_names.append((spec.name if spec is not None and spec.name else None)
                         or cand.name or verb_name(cand.path, bin=bin_name))
    names = unique_names(raw_names)
    for raw, final in zip(raw_names, names):
        if raw != final:
            warnings.append(f"two commands are both named '{raw}'; the second is '{final}'")

    pack_json_override = recipe.json if recipe is not None else None
    verbs: dict[str, dict] = {}
    verb_json: dict[str, Any] = {}
    json_notes: list[str] = []
    # the flags that make a mode (--files, --type, --data) stay off the other commands
    mode_flags = tuple(t for c, _ in chosen_pairs for t in c.fixed + c.owns if t.startswith("-"))
    for (cand, effect), name in zip(chosen_pairs, names):
        spec, override = _spec_for(recipe, name, cand.path)
        specs = (override, spec)
        final_name = _get("name", override) or name
        choice: JsonChoice = cand.json if isinstance(cand.json, JsonChoice) else select_json(
            cand.command, fields=json_fields.get(cand.path, ())
        )
        json_value = _get("json", *specs)
        if json_value is None:
            json_value = pack_json_override if pack_json_override is not None else choice.selection
        policy = dict(_get("policy", *specs) or {})
        final_effect = policy.get("effect", effect)
        include = _get("include_args", *specs)
        if include is None and cand.fixed and not cand.command.positionals:
            include = ()  # a mode that takes no operand (rg --type-list) takes no filters either
        plan = plan_args(
            cand.command,
            tool=bin_name,
            effect=final_effect,
            style=cand.command.parser,
            include=include,
            exclude=tuple(_get("exclude_args", *specs) or ()) + tuple(
                m.lstrip("-") for m in mode_flags if m not in cand.fixed + cand.owns),
            positional_order=_get("positional_order", *specs),
            fixed=cand.fixed,
            json_flag=choice.flag,
            honours_double_dash=cand.command.parser not in _NO_DOUBLE_DASH,
        )
        description = _get("description", *specs) or _sentence(cand.effective_summary) or _fallback_description(
            root, cand, bin_name)
        title = propose_title(name=final_name, summary=cand.effective_summary,
                              display=" ".join((bin_name,) + cand.path + cand.fixed),
                              primary=plan.primary, args=list(plan.properties))
        title_override = _get("title", *specs)
        if title_override:
            title.update({k: list(v) for k, v in title_override.items()})
        verb: dict[str, Any] = {
            "description": description,
            "cli": [bin_name, *cand.path, *plan.cli_tail],
            "args": {"type": "object", "properties": plan.properties, "additionalProperties": False},
            "title": title,
            "policy": {"effect": final_effect, "confirm": policy.get("confirm", final_effect != "read")},
        }
        if plan.required:
            verb["args"]["required"] = list(plan.required)
        timeout = _get("timeout_s", *specs)
        if timeout is not None:
            verb["timeout_s"] = timeout
        why = policy_reason.get(id(cand), "")
        if policy.get("effect") and policy["effect"] != effect:
            why = f"{policy['effect']}: set by the recipe (proposal said {effect})"
        verb["x-why"] = (f"{cand.note}; " if cand.note else "") + why
        verbs[final_name] = verb
        verb_json[final_name] = json_value
        json_notes.append(choice.reason if json_value == choice.selection else "set by the recipe")
        decisions.append(Decision(cand.text, final_name, True, final_effect, verb["x-why"]))

    # the pack's JSON selection is the one most verbs use; the others say their own
    counts = Counter(repr(_json_tokens(v)) for v in verb_json.values())
    if pack_json_override is not None:
        pack_json = _json_tokens(pack_json_override)
    elif counts:
        top = counts.most_common(1)[0][0]
        pack_json = next(_json_tokens(v) for v in verb_json.values() if repr(_json_tokens(v)) == top)
    else:
        pack_json = False
    for name, value in verb_json.items():
        if repr(_json_tokens(value)) != repr(pack_json):
            verbs[name]["json"] = _json_tokens(value)

    pack_id = recipe.resolved_pack_id if recipe is not None else segment(bin_name.rsplit("/", 1)[-1])
    about = next((t for t in (root.summary, root.description) if t and not _HEADING.match(t)), "")
    description = (recipe.description if recipe is not None and recipe.description else None) or _sentence(
        about) or f"Named commands of {bin_name}."
    manifest = {
        "pack_id": pack_id,
        "description": description,
        "bin": bin_name,
        "json": pack_json,
        "verbs": verbs,
    }
    if recipe is not None and recipe.env:
        manifest["env"] = {key: recipe.env[key] for key in ("pass", "set") if key in recipe.env}
    if pack_json is False and not any("json" in v for v in verbs.values()):
        json_note = "none: no JSON output found in the help, so every command returns text"
    else:
        shown = Counter(json_notes)
        json_note = "; ".join(f"{note} ({n} command{'s' * (n != 1)})" for note, n in shown.items())
    manifest = harden_manifest(manifest, tool=bin_name)
    order = {d.name: i for i, d in enumerate(decisions) if d.chosen}
    decisions.sort(key=lambda d: (not d.chosen, order.get(d.name, 0)))
    return Proposal(manifest, tuple(decisions), tuple(warnings), json_note)
