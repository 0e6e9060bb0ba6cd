"""``propose(tool, recipe=None) -> Proposal``: a discovered tool in, a pack manifest out.

``propose`` is six steps over one ``_Draft``, each a function below that says what it decides:

1. ``_gather_candidates``: the subcommands, or for a tool without any its modes;
2. ``_take_listed`` when the recipe lists the commands, else ``_rank_and_pick``;
3. ``_pass_over_mode_flags``: the mode flags not offered, recorded with why;
4. ``_name_picks``: a verb name per pick, made by ``wrapgen.names``;
5. ``_write_verbs``: each pick as a manifest verb, what the recipe set over what was proposed;
6. ``_assemble``: the pack's JSON selection, id and description, the exit codes that are answers
   (``wrapgen.propose.exitcodes``), and the decisions in order.

The recipe arrives typed: a ``wrapgen.model.recipe.ProposalRequest``, converted from a
``wrapgen.pack.recipe.Recipe`` at the boundary.

Pure: nothing here runs the tool or touches a file. The manifest is a plain dict in the order
``wrapgen.pack.manifest.dump_manifest`` writes; ``decisions`` says for every candidate command whether it
was chosen and why, in words, so ``wrapgen wrap`` can print what it left out.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from wrapgen.knowledge.commands import common_weight, is_mega_command
from wrapgen.knowledge.dangerous_flags import dangerous_reason, token_danger
from wrapgen.knowledge.harden import harden_manifest
from wrapgen.knowledge.phrases import not_a_description
from wrapgen.knowledge.table import load
from wrapgen.model.proposal import Candidate, Decision, Proposal
from wrapgen.model.recipe import PolicySetting, ProposalRequest
from wrapgen.model.tool import Command, Tool
from wrapgen.model.usage import UsageEvidence
from wrapgen.names import proposed_pack_id, proposed_verb_name, segment, unique_names, verb_name
from wrapgen.propose.args import (
    MAX_ARGS,
    MAX_ARGS_SINGLE,
    RICH_COMMAND_FLAGS,
    leading_options,
    plan_args,
)
from wrapgen.propose.evidence import describe
from wrapgen.propose.exitcodes import (
    answer_codes,
    exit_codes_why,
    inverted_codes,
    inverts_answers,
)
from wrapgen.propose.jcparse import propose_jc
from wrapgen.propose.jsonsel import JsonChoice, select_json
from wrapgen.propose.policy import (
    FORM_OF_MAIN,
    PolicyGuess,
    classify,
    main_mode_effect,
    program_sandbox,
)
from wrapgen.propose.rules import rule
from wrapgen.propose.runners import is_runner_tool, propose_runner
from wrapgen.propose.select import (
    exclusion_reason,
    family_listing_points,
    listing_mode,
    other_work,
    pick,
    preview_modes,
    rank_reason,
    rank_score,
)
from wrapgen.propose.sources import Context, gather
from wrapgen.propose.template import argv_template
from wrapgen.propose.text import readable
from wrapgen.propose.titles import propose_title
from wrapgen.propose.valuemodes import runs_and_exits
from wrapgen.propose.write import VerbDraft, write_verb

__all__ = ["Decision", "Proposal", "propose"]

# A command the recipe's overrides name outranks every unnamed one of its effect (the caps still
# apply): wrapgen/knowledge/data/weights.json.
_RECIPE_BONUS = load("weights")["rank"].values()["recipe"]
# A label before what the tool is for ("OVERVIEW: A tool to format ...", "Description: ...").
_LABEL = re.compile(r"^\s*(?:overview|description|about|summary)\s*:\s*", re.IGNORECASE)


def _first_sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text or "").strip()
    text = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)[0]
    return text


@rule("what is the tool for, in its help's own words?")
def tool_purpose(root: Command, bin_name: str) -> str:
    """The first sentence of the root's summary or description that says what the tool is for: not
    a heading, a sentence about the help itself or a banner (knowledge ``not_a_description``), and
    not unreadable (``text.readable``); a label ("OVERVIEW:") and a man page's NAME form
    ("analyzer - a tool for ...") come off. "" where no sentence says it."""
    name = re.escape(bin_name.rsplit("/", 1)[-1])
    texts = [root.summary, *re.split(r"\n\s*\n", root.description or "")]
    for text in texts:
        for sentence in re.split(
            r"(?<=[.!?])\s+(?=[A-Z])", re.sub(r"\s+", " ", text or "").strip()
        ):
            sentence = _LABEL.sub("", sentence)
            sentence = re.sub(rf"^\s*{name}\s+-+\s+", "", sentence, flags=re.IGNORECASE)
            if _explains_operand(sentence, root):
                break  # its paragraph goes on about the operand ("A new one is created if ...")
            if _says(sentence):
                return readable(sentence)
    return ""


def _says(sentence: str, command: Command | None = None) -> bool:
    """Whether a help sentence says something: readable, and no heading, banner or note on the help,
    nor the legend of one of ``command``'s operands ("FILENAME is the name of a database": what
    the placeholder stands for, not what the command does)."""
    return (
        bool(readable(sentence))
        and not any(p.search(sentence) for p in not_a_description())
        and not (command is not None and _explains_operand(sentence, command))
    )


def _explains_operand(sentence: str, command: Command) -> bool:
    """Whether ``sentence`` opens with one of ``command``'s operands, as its usage spells it, as
    its subject."""
    names = {p.name for p in command.positionals if p.name and p.name.strip("<>[]").isupper()}
    return any(
        re.match(
            rf"\s*<?{re.escape(name.strip('<>[]'))}>?\s+(?:is|are|names?|specifies)\b", sentence
        )
        for name in names
    )


def _from_verbs(bin_name: str, verbs: Mapping[str, dict]) -> str:
    """What a tool whose help never says what it is for does, from its verbs' descriptions."""
    said = [
        v["description"].rstrip(".")
        for v in verbs.values()
        if v.get("description") and not v["description"].startswith("Run ")
    ][:3]
    if not said:
        return f"Run {bin_name.rsplit('/', 1)[-1]} (its help does not say what it is for)."
    said = [said[0]] + [s[0].lower() + s[1:] for s in said[1:]]
    return "; ".join(said) + "."


def _sentence(text: str) -> str:
    text = _first_sentence(text).rstrip(" .:")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."


def _fallback_description(root: Command, cand: Candidate, bin_name: str) -> str:
    """For a subcommand whose help has no summary: its command line, and what its family does."""
    parent = root.find(cand.path[:-1]) if len(cand.path) > 1 else None
    line = " ".join((bin_name,) + cand.path + cand.fixed)
    if parent is not None and readable(_first_sentence(parent.summary)):
        return f"{line}: part of '{' '.join(cand.path[:-1])}' ({_first_sentence(parent.summary).rstrip('.')})."
    return f"Run {line}."


def _selection_first(cand: Candidate, json_value: Any) -> tuple[str, ...]:
    """The JSON selection written before the verb's flags where the flag the verb owns runs its
    statement and exits as the tool reads it (``-c SQL``: an output mode after it is never read), so
    the runtime, which appends a selection the cli lacks, finds it there; () otherwise."""
    if not isinstance(json_value, (list, tuple)) or not json_value:
        return ()
    ends = any(
        f.required and set(f.spellings) & set(cand.owns) and runs_and_exits(f)
        for f in cand.command.flags
    )
    return tuple(json_value) if ends else ()


def _json_tokens(value) -> Any:
    if value is None or isinstance(value, bool):
        return value
    return list(value)


# -- the steps -----------------------------------------------------------------------------------
#
# ``propose`` threads one ``_Draft`` through the steps below; each step decides one thing, says in its
# docstring what, and returns a new draft. Decisions and warnings accumulate in the order a person
# reads them in ``wrapgen wrap``'s summary.


@dataclass(frozen=True)
class _Pick:
    """A chosen candidate, the effect the proposal gave it, and why (in words)."""

    candidate: Candidate
    effect: str
    why: str


@dataclass(frozen=True)
class _Verb:
    """One written command: its final name, its manifest entry, the JSON selection it wants, and why."""

    name: str
    body: dict
    json: Any  # a tuple of tokens, False, or what select_json found
    json_note: str
    decision: Decision


@dataclass(frozen=True)
class _Draft:
    """The proposal so far: what the tool offers, what is picked and named, what was said and why."""

    tool: Tool
    request: ProposalRequest
    candidates: tuple[Candidate, ...] = ()
    mode_skips: tuple[tuple[str, str], ...] = ()  # (flag, why) for the mode flags passed over
    picks: tuple[_Pick, ...] = ()
    names: tuple[str, ...] = ()  # one per pick, unique, before the recipe's renames
    decisions: tuple[Decision, ...] = ()
    warnings: tuple[str, ...] = ()
    usage_note: str = ""  # what evidence the candidates stand on (sources.gather)

    def noting(self, decisions: Sequence[Decision] = (), warnings: Sequence[str] = ()) -> "_Draft":
        return replace(
            self,
            decisions=self.decisions + tuple(decisions),
            warnings=self.warnings + tuple(warnings),
        )


def propose(
    tool: Tool,
    recipe=None,
    *,
    json_fields: Mapping[tuple[str, ...], Sequence[str]] | None = None,
    usage: Sequence[UsageEvidence] | None = None,
    _split: bool = True,
) -> Proposal:
    """Choose 5 to 12 commands of ``tool`` and write them as a pack manifest.

    ``recipe`` is a ``wrapgen.pack.recipe.Recipe``, a ``ProposalRequest`` or None (propose freely).
    ``json_fields`` gives, per subcommand path, the fields a ``--json FIELDS`` flag accepts when
    the help does not list them (``wrapgen wrap`` asks the tool; tests pass captured lists).
    ``usage`` is the usage evidence to propose from (``wrapgen.usage``; local usage included);
    None: the shipped table's entry for the tool, if any (``wrapgen.propose.sources``).
    """
    request = ProposalRequest.of(recipe)
    context = Context(tool, request, None if usage is None else tuple(usage))
    if is_runner_tool(tool):
        # a task runner's targets, read from its database (wrapgen.probe.runners)
        found = gather(context)
        return propose_runner(tool, recipe, targets=tuple(c.command for c in found.candidates))
    draft = _gather_candidates(context)
    draft = _take_listed(draft) if request.commands is not None else _rank_and_pick(draft)
    draft = _pass_over_mode_flags(draft)
    draft = _name_picks(draft)
    verbs = _write_verbs(draft, json_fields or {})
    proposal = _assemble(draft, verbs)
    if request.commands is None and _split:
        from wrapgen.propose.split import split_hint

        proposal = replace(proposal, split_hint=split_hint(tool))
    return proposal


def _gather_candidates(context: Context) -> _Draft:
    """What the tool offers and what people use of it: every source's candidates
    (``wrapgen.propose.sources``), merged, with the mode flags passed over and why."""
    found = gather(context)
    return _Draft(
        tool=context.tool,
        request=context.request,
        candidates=found.candidates,
        mode_skips=found.skips,
        warnings=tuple(context.tool.warnings) + found.warnings,
        usage_note=found.usage_note,
    )


def _take_listed(draft: _Draft) -> _Draft:
    """The recipe (or ``--pick``) lists the commands: take each one the help has, in the listed order.

    A listed path the help does not show is a warning; a listed mega-command is still left out
    (docs/contract.md §13). Every other candidate is recorded as not picked.
    """
    root = draft.tool.root
    by_path = {c.path: c for c in draft.candidates if not c.fixed and not c.name}
    modes = [c for c in draft.candidates if c.name]
    picks: list[_Pick] = []
    decisions: list[Decision] = []
    warnings: list[str] = []
    for entry in draft.request.commands or ():
        cand = by_path.get(entry.path)
        if cand is None and entry.path == () and modes:
            cand = modes[0]
        if cand is None:
            node = root.find(entry.path)
            if node is None:
                warnings.append(f"recipe names '{entry.path_text}', which the help does not list")
                decisions.append(
                    Decision(entry.path_text, "", False, "", "not found in the tool's help")
                )
                continue
            cand = Candidate(path=node.path, command=node, index=len(draft.candidates))
        guess = classify(cand.command, tool_name=draft.tool.name)
        why = exclusion_reason(cand)
        if why and why.startswith("a mega-command"):
            warnings.append(f"'{cand.text}' is {why}; left out although the recipe lists it")
            decisions.append(Decision(cand.text, "", False, guess.effect, why))
            continue
        picks.append(
            _Pick(cand, guess.effect, f"picked by hand (recipe or --pick); {guess.reason}")
        )
    listed_paths = {p.candidate.path for p in picks}
    decisions += [
        Decision(c.text, "", False, "", "not picked (the recipe or --pick lists the commands)")
        for c in draft.candidates
        if c.path not in listed_paths and not c.name
    ]
    return replace(draft, picks=tuple(picks)).noting(decisions, warnings)


def _classified(cand: Candidate, tool_name: str = ""):
    """What the candidate's words say it does: its command's, or for a mode its name's and summary's."""
    if not cand.name:
        return classify(cand.command, tool_name=tool_name)
    word = cand.name.split(".")[-1 if cand.listing else 0]
    return classify(Command(path=(word,), summary=cand.effective_summary), tool_name=tool_name)


def _own_effect(cand: Candidate, main_effect: tuple[str, str] | None, tool_name: str = ""):
    """The effect a candidate's words give it; a mode whose words say nothing does what the main mode does."""
    if cand.listing and cand.note.startswith("the read-only form"):
        # its switch's help says it writes nothing back (select.preview_modes): read by construction
        return PolicyGuess(
            "read", (cand.fixed[-1],), f"read: the help of {cand.fixed[-1]} says it only reports"
        )
    guess = _classified(cand, tool_name)
    named_read = guess.effect == "read" and any(w.startswith("name ") for w in guess.words)
    if cand.form and main_effect is not None and main_effect[0] != "read" and named_read:
        # a form whose switch is named for a read ("--list: print (un)compressed file sizes") does
        # that instead of the main mode's write (a compressor's): a trial shows any write it makes
        return replace(guess, reason=f"{guess.reason} (a form whose switch names a read)")
    if cand.form and main_effect is not None and guess.effect != "destructive":
        # a form is the main mode with an everyday switch ("write counts for all files" prints)
        return replace(
            guess,
            effect=main_effect[0],
            reason=f"{main_effect[0]}: {FORM_OF_MAIN} ({main_effect[1]})",
        )
    if (cand.fixed or cand.owns or not cand.path) and not guess.words and main_effect is not None:
        # a mode, or the main command itself in another form (``<main>.json``: its JSON selected)
        form = "a mode of the main command" if cand.fixed or cand.owns else "the main command"
        guess = replace(
            guess, effect=main_effect[0], reason=f"{main_effect[0]}: {form} ({main_effect[1]})"
        )
    danger = fixed_danger(cand, tool_name)
    if danger and guess.effect == "read":
        guess = replace(guess, effect="write", reason=f"write: it always passes {danger}")
    return guess


@rule("does a command's fixed flag run a program or rewrite its inputs?")
def fixed_danger(cand: Candidate, tool_name: str = "") -> str | None:
    """Why a flag the candidate always passes (a mode a use fixed, ``--prepipe CMD`` or ``--add-noqa``;
    a value flag it owns) makes it no read: the flag's own help (value name and words) or the
    catalogue says it runs a program, executes a file or rewrites its inputs. Such a verb is
    confirm-gated (a write), whatever evidence brought it; None when every fixed flag is harmless."""
    spellings = (*cand.fixed, *cand.owns)
    if not spellings:
        return None
    for flag in (*cand.command.flags, *cand.command.global_flags):
        if set(flag.spellings) & set(spellings):
            why = dangerous_reason(flag, tool=tool_name)
            if why:
                return why
    for token in cand.fixed:
        why = token_danger(token, tool=tool_name, command=cand.path)
        if why:
            return why
    return None


def _placed_effect(draft: _Draft, cand: Candidate, guess):
    """The effect after where the help puts it (a "manipulator" group writes) and what the recipe's override set."""
    if guess.effect == "read" and re.search(r"manipulator", cand.group, re.I):
        guess = replace(
            guess, effect="write", reason=f"write: listed under '{cand.group}' ({guess.reason})"
        )
    override = draft.request.overrides.get(cand.name or verb_name(cand.path, bin=draft.tool.name))
    if override is not None and override.policy is not None and override.policy.effect:
        guess = replace(
            guess,
            effect=override.policy.effect,
            reason=f"{override.policy.effect}: set by the recipe",
        )
    return guess


def _kept_for_summary(draft: _Draft, reasons: Mapping[int, str | None]) -> dict[str, Candidate]:
    """For each summary that commands share (``containerctl container logs`` and ``containerctl logs``, pkgmgr's
    ``ls`` and ``ll``), the one proposed: the shallowest, then the one the summary names (procmgr's
    ``pid``, whose summary its ``create`` repeats: "return pid of [app_name] or all"), then the one
    whose name people use most (pkgmgr's ``ls``, not ``ll``, its ``--long`` form listed first), then
    the first listed. Commands never proposed (``reasons``: each candidate's exclusion_reason, by
    its id) and named modes take no part."""
    kept: dict[str, Candidate] = {}

    def preference(c: Candidate) -> tuple:
        name = (c.path[-1] if c.path else "").lower()
        named = name in re.findall(r"[\w-]+", c.command.summary.lower())
        return (
            len(c.path),
            not named,
            -max(common_weight(name, "read"), common_weight(name, "write")),
            c.index,
        )

    for cand in draft.candidates:
        key = _summary_key(cand)
        if not key or draft.request.excludes(cand.path) or reasons[id(cand)]:
            continue
        if key not in kept or preference(cand) < preference(kept[key]):
            kept[key] = cand
    return kept


def _summary_key(cand: Candidate) -> str:
    """What commands that are the same share: their summary's first sentence ("" for a named
    mode, which is never the same as another)."""
    return "" if cand.name else _first_sentence(cand.command.summary).lower()


def _uses_of_twins(draft: _Draft, kept_for_summary: Mapping[str, Candidate]) -> dict[int, tuple]:
    """The uses of the commands left out as the same as another, by the id of the one kept: they
    count for it (tldr-pages writes `containerctl container ls` where the kept command is `ps`)."""
    out: dict[int, tuple] = {}
    for cand in draft.candidates:
        kept = kept_for_summary.get(_summary_key(cand))
        if kept is not None and kept is not cand and cand.uses:
            out[id(kept)] = out.get(id(kept), ()) + cand.uses
    return out


def _rank_and_pick(draft: _Draft) -> _Draft:
    """No list: rule out what is never proposed, rank the rest, and pick 5 to 12 of them.

    Candidates are visited shallow first, so a duplicate (``containerctl container logs`` = ``containerctl
    logs``, the same summary) loses to the short form; a command's read-only listing form
    (``vcs branch --list``) is ranked right after it. ``select.pick`` applies the caps.
    """
    min_depth = min((c.depth or len(c.path) for c in draft.candidates), default=0)
    decisions: list[Decision] = []
    ranked: list[tuple[float, Candidate, str]] = []
    why_chosen: dict[int, str] = {}
    # (each candidate's reason to be left out, asked once: the summary choice needs them all first)
    reasons = {id(cand): exclusion_reason(cand, draft.tool.name) for cand in draft.candidates}
    kept_for_summary = _kept_for_summary(draft, reasons)
    twin_uses = _uses_of_twins(draft, kept_for_summary)
    main_effect: tuple[str, str] | None = None
    queue = deque(sorted(draft.candidates, key=lambda c: (len(c.path), c.index)))
    listings: deque[Candidate] = deque()
    while queue or listings:
        cand = listings.popleft() if listings else queue.popleft()
        if draft.request.excludes(cand.path) and not cand.name:
            decisions.append(Decision(cand.text, "", False, "", "excluded by the recipe"))
            continue
        why = (
            reasons[id(cand)] if id(cand) in reasons else exclusion_reason(cand, draft.tool.name)
        )  # (a listing mode is new here)
        if why:
            decisions.append(
                Decision(
                    cand.text,
                    "",
                    False,
                    _classified(cand, draft.tool.name).effect,
                    f"left out: {why}",
                )
            )
            continue
        guess = _own_effect(cand, main_effect, draft.tool.name)
        if not (cand.fixed or cand.owns or cand.path) and cand.name and main_effect is None:
            guess = main_mode_effect(draft.tool.root, guess)
        if not cand.fixed and cand.name and main_effect is None:
            main_effect = (
                guess.effect,
                guess.reason,
            )  # the main mode's own words, before any override
        guess = _placed_effect(draft, cand, guess)
        summary_key = _summary_key(cand)
        kept = kept_for_summary.get(summary_key) if summary_key else None
        if kept is not None and kept is not cand:
            decisions.append(
                Decision(
                    cand.text, "", False, guess.effect, f"same as '{kept.text}' ({summary_key})"
                )
            )
            continue
        if id(cand) in twin_uses:
            cand = replace(cand, uses=cand.uses + twin_uses[id(cand)])
        score = rank_score(cand, guess.effect, min_depth=min_depth)
        if (
            draft.request.overrides.get(cand.name or verb_name(cand.path, bin=draft.tool.name))
            is not None
        ):
            score += (
                _RECIPE_BONUS  # the recipe says how this command should look: the person wants it
            )
        ranked.append((score, cand, guess.effect))
        listing = listing_mode(cand, guess.effect)
        if listing is not None:
            # the command's uses that only list (no operand, or its listing switch) are the form's
            listed = tuple(
                u for u in cand.uses if not u.operands or set(listing.fixed) & set(u.flags)
            )
            listings.append(replace(listing, uses=listed))
        listings.extend(preview_modes(cand, guess.effect))
        helped = rank_reason(cand)
        why = f"{guess.reason}; {helped}" if helped else guess.reason
        if cand.uses:
            why = f"{describe(cand.uses, bin=draft.tool.name)}; {why}"
        why_chosen[id(cand)] = why
    ranked, raised = family_listing_points(ranked)
    for _score, cand, _effect in ranked:
        if id(cand) in raised:
            family = cand.path[0]
            why_chosen[id(cand)] = (
                f"lists the '{family}' items that the uses of its family work on; "
                f"{why_chosen.get(id(cand), '')}"
            ).rstrip("; ")
    ranked.sort(key=lambda t: (-t[0], t[1].index))
    chosen, not_chosen = pick(ranked)
    decisions += [
        Decision(cand.text, "", False, effect, f"not chosen: {not_chosen[i]}")
        for i, (_, cand, effect) in enumerate(ranked)
        if i in not_chosen
    ]
    picks = tuple(_Pick(cand, effect, why_chosen.get(id(cand), "")) for cand, effect in chosen)
    return replace(draft, picks=picks).noting(decisions)


def _pass_over_mode_flags(draft: _Draft) -> _Draft:
    """Record the mode flags that were considered and not offered (more than ``MAX_MODES``, a clash)."""
    return draft.noting(
        [Decision(flag, "", False, "read", f"not chosen: {why}") for flag, why in draft.mode_skips]
    )


def _name_picks(draft: _Draft) -> _Draft:
    """Each pick's verb name: the recipe entry's, the mode's, or the path's (``pr list`` -> ``pr.list``),
    always a valid name (``names.py``); a clash is resolved in pack order (``list``, ``list-2``) and said."""
    raw = []
    for p in draft.picks:
        entry = draft.request.entry_for(p.candidate.path)
        given = (entry.name if entry is not None and entry.name else None) or p.candidate.name
        name = (
            proposed_verb_name(given) if given else verb_name(p.candidate.path, bin=draft.tool.name)
        )
        mega = not given and p.candidate.path and is_mega_command(p.candidate.path[-1])
        work = other_work(p.candidate.command.summary) if mega else ""
        if work:
            # a command named like a mega-command that does other work is named for that work too
            # ("x" extracts: x-extract): check's W008 keeps the bare name for verbs that forward
            # a command line, and refuses a list operand in one
            name = proposed_verb_name(f"{name}-{work}")
        raw.append(name)
    names = unique_names(raw)
    warnings = [
        f"two commands are both named '{r}'; the second is '{n}'"
        for r, n in zip(raw, names)
        if r != n
    ]
    return replace(draft, names=tuple(names)).noting(warnings=warnings)


def _write_verbs(
    draft: _Draft, json_fields: Mapping[tuple[str, ...], Sequence[str]]
) -> tuple[_Verb, ...]:
    """Every pick as a manifest verb; the flags that make a mode (``--files``, ``--type``, ``--data``)
    stay off the other commands."""
    # (a form's switch stays offered on the others, also where a read-only form fixes it too)
    forms = {
        t for p in draft.picks if p.candidate.form for t in p.candidate.fixed + p.candidate.owns
    }
    mode_flags = tuple(
        t
        for p in draft.picks
        if not p.candidate.form
        for t in p.candidate.fixed + p.candidate.owns
        if t.startswith("-") and t not in forms
    )
    # the tool's switch that confines the program it runs (``--sandbox``) goes on every verb, first
    confined = program_sandbox(draft.tool.root)
    return tuple(
        _write_verb(
            draft, p, name, mode_flags=mode_flags, json_fields=json_fields, confined=confined
        )
        for p, name in zip(draft.picks, draft.names)
    )


def _write_verb(
    draft: _Draft,
    p: _Pick,
    name: str,
    *,
    mode_flags: tuple[str, ...],
    json_fields: Mapping[tuple[str, ...], Sequence[str]],
    confined: str = "",
) -> _Verb:
    """One verb: its args, argv, description, title and policy, the proposal's, under what the recipe set.
    ``confined``: the tool's program sandbox switch (``policy.program_sandbox``), passed first.

    The recipe's override (by proposed name) wins over its ``commands:`` entry, setting by setting.
    """
    bin_name, cand = draft.tool.name, p.candidate
    settings = draft.request.settings_for(name, cand.path)
    final_name = proposed_verb_name(settings.name) if settings.name else name
    choice: JsonChoice = (
        cand.json
        if isinstance(cand.json, JsonChoice)
        else select_json(cand.command, fields=json_fields.get(cand.path, ()))
    )
    json_value = settings.json
    if json_value is None:
        json_value = draft.request.json if draft.request.json is not None else choice.selection
    policy = settings.policy or PolicySetting()
    effect = policy.effect if policy.effect is not None else p.effect
    include = settings.include_args
    if (
        include is None
        and cand.fixed
        and not cand.command.positionals
        and not any(u.operands for u in cand.uses)
        and cand.command.flags == draft.tool.root.flags
        and not cand.form
    ):
        # a mode that takes no operand (searcher --type-list) takes no filters either, unless its
        # own usage line names the flags it takes (modes.mode_command)
        include = ()
    confine = (confined,) if confined and confined not in cand.fixed else ()
    plan = plan_args(
        cand.command,
        tool=bin_name,
        effect=effect,
        style=cand.command.parser,
        include=include,
        exclude=tuple(settings.exclude_args or ())
        + tuple(m.lstrip("-") for m in mode_flags + confine if m not in cand.fixed + cand.owns),
        positional_order=settings.positional_order,
        fixed=cand.fixed,
        json_flag=choice.flag,
        # "--" where the command takes it (Command.double_dash: its grammar, its parser family, or a
        # trial); where nothing says (None) it is written and the trials settle it
        honours_double_dash=cand.command.double_dash is not False,
        uses=cand.uses,
        # after the flags its uses pass, a command's other flags fill the room in the help's own
        # order (a page of examples passes a few flags; an everyday one no example shows was left
        # out: a linter's --max-warnings, a key-value store's get --prefix)
        fill=True,
        fill_first=frozenset(s for c in draft.candidates for u in c.uses for s in u.flags)
        if not draft.tool.root.subcommands
        else frozenset(),
        lead=leading_options(
            draft.tool.root, cand.command, style=draft.tool.root.parser, tool=bin_name
        ),
        max_args=MAX_ARGS_SINGLE
        if not draft.tool.root.subcommands or len(cand.command.flags) >= RICH_COMMAND_FLAGS
        else MAX_ARGS,
    )
    # a summary that is usage syntax, a copyright or a version line says nothing (propose/text.py)
    summary = _first_sentence(cand.effective_summary)
    summary = readable(summary) if _says(summary, cand.command) else ""
    description = _sentence(summary) or _fallback_description(draft.tool.root, cand, bin_name)
    title = propose_title(
        name=final_name,
        summary=summary,
        display=" ".join((bin_name,) + cand.path + cand.fixed),
        primary=plan.primary,
        args=list(plan.properties),
    )
    written = write_verb(
        VerbDraft(
            path_text=cand.text,
            name=name,
            description=description,
            cli=(
                bin_name,
                *confine,
                *plan.cli_lead,
                *cand.path,
                *_selection_first(cand, json_value),
            )
            + plan.cli_tail,
            properties=plan.properties,
            required=tuple(plan.required),
            title=title,
            effect=p.effect,
            why=p.why,
            note=cand.note,
        ),
        settings,
    )
    note = choice.reason if json_value == choice.selection else "set by the recipe"
    return _Verb(written.name, written.body, json_value, note, written.decision)


def _pack_json(request: ProposalRequest, verb_json: Mapping[str, Any]) -> Any:
    """The pack's JSON selection: the recipe's, else the one most verbs use (the others say their own)."""
    if request.json is not None:
        return _json_tokens(request.json)
    counts = Counter(repr(_json_tokens(v)) for v in verb_json.values())
    if not counts:
        return False
    top = counts.most_common(1)[0][0]
    return next(_json_tokens(v) for v in verb_json.values() if repr(_json_tokens(v)) == top)


def _json_note(pack_json: Any, verbs: Mapping[str, dict], notes: Sequence[str]) -> str:
    """How the pack selects JSON, in words, or that it has none."""
    if pack_json is False and not any("json" in v for v in verbs.values()):
        return "none: no JSON output found in the help, so every command returns text"
    shown = Counter(notes)
    return "; ".join(f"{note} ({n} command{'s' * (n != 1)})" for note, n in shown.items())


def _exit_codes(root: Command, picks: Sequence[_Pick], written: Sequence[_Verb]) -> dict[str, Any]:
    """The pack's ``exit_codes``: the root's documented statuses that are answers, and why; a verb whose
    command documents other answers of its own gets its own map (written into its body), and one fixed
    to a mode that turns the answers around (``--files-without-match``) declares none."""
    out: dict[str, Any] = {}
    pack_level = answer_codes(root)
    if pack_level:
        out["exit_codes"] = pack_level
        out["x-why-exit_codes"] = exit_codes_why(root)
    for chosen, verb in zip(picks, written):
        own = answer_codes(chosen.candidate.command)
        if inverts_answers(chosen.candidate.fixed):
            if pack_level:
                # searcher --files-without-match: its exit 1 means every file matched, still an answer
                verb.body["exit_codes"] = inverted_codes(chosen.candidate.fixed, pack_level)
        elif own and own != pack_level:
            verb.body["exit_codes"] = own
    return out


def _assemble(draft: _Draft, written: Sequence[_Verb]) -> Proposal:
    """The manifest in ``dump_manifest``'s order, the pack id and description, and the decisions
    sorted chosen first (in pack order)."""
    bin_name, root = draft.tool.name, draft.tool.root
    verbs: dict[str, dict] = {}
    verb_json: dict[str, Any] = {}
    for verb in written:
        verbs[verb.name] = verb.body
        verb_json[verb.name] = verb.json
    pack_json = _pack_json(draft.request, verb_json)
    for name, value in verb_json.items():
        if repr(_json_tokens(value)) != repr(pack_json):
            verbs[name]["json"] = _json_tokens(value)
    pack_id = proposed_pack_id(draft.request.pack_id or segment(bin_name.rsplit("/", 1)[-1]))
    description = (
        draft.request.description
        or _sentence(tool_purpose(root, bin_name))
        or _from_verbs(bin_name, verbs)
    )
    manifest = {"pack_id": pack_id, "description": description, "bin": bin_name, "json": pack_json}
    manifest.update(_exit_codes(root, draft.picks, written))
    manifest["wrap"] = {
        "argv_template": argv_template(
            bin_name,
            [p.candidate.path for p in draft.picks],
            getattr(draft.request, "argv_template", None),
        )
    }
    manifest["verbs"] = verbs
    decisions = list(draft.decisions) + [v.decision for v in written]
    if draft.request.env:
        manifest["env"] = {
            key: draft.request.env[key] for key in ("pass", "set") if key in draft.request.env
        }
    manifest = harden_manifest(manifest, tool=bin_name)
    manifest = propose_jc(manifest, tool=bin_name)
    order = {d.name: i for i, d in enumerate(decisions) if d.chosen}
    decisions.sort(key=lambda d: (not d.chosen, order.get(d.name, 0)))
    return Proposal(
        manifest,
        tuple(decisions),
        draft.warnings,
        _json_note(pack_json, verbs, [v.json_note for v in written]),
        usage_note=draft.usage_note,
    )
