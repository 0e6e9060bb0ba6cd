"""Try before you ship: what ``wrap`` and ``check --try`` do with a manifest's trials.

Each verb's trials form one chain (``_tried_verb_by_verb``; the steps: ``wrapgen.flows.trial_steps``;
running and classifying a trial: ``wrapgen.flows.trial_run``), ``jobs`` chains at a time, after the
tool's own state in HOME is learned. ``try_proposal`` acts on a proposal with the evidence
(``check.trial_evidence.apply_evidence``): what it drops leaves the chosen commands with the evidence
as its reason; a ``--`` one trial showed the tool refuses goes from every verb whose grammar says
nothing of it. ``try_and_backfill`` is ``wrap``'s: when the trials leave the pack under 5 commands,
the next-ranked candidates the proposer had take the places of those left out, and are tried too.
``confirm_untried_targets`` keeps a task-runner target a read only when its recipe was tried clean.
``try_pack_dirs`` is ``wrapgen check --try``: evidence per pack, as the pack stands, which
``check_pack(..., trials=)`` turns into W060-W068 findings.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterable, Mapping

from wrapgen.check.trial_evidence import (
    Evidence,
    apply_evidence,
    classify,
    joined_value_flags,
    optional_operands,
    required_operands,
    with_print_once_flags,
    with_split_values,
    without_double_dash,
    without_streaming_flags,
)
from wrapgen.flows import trial_run, trial_steps
from wrapgen.flows.trial_facts import VerbFacts, verb_facts
from wrapgen.flows.trial_run import (  # noqa: F401 (the public names of try-before-you-ship)
    STATE_PROBE,
    TRY_IN_MAX_BYTES,
    TRY_IN_MAX_FILES,
    TrialReport,
    check_try_in,
    classify_not_run,
    learn_state,
    trial_specs,
    try_manifest,
)
from wrapgen.knowledge.dangerous_flags import token_danger
from wrapgen.pack.cli_words import subcommand_path
from wrapgen.probe.trial import DEFAULT_TRIAL_JOBS, drain_cleanup
from wrapgen.propose.policy import FORM_OF_MAIN, UNSURE_WRITE

__all__ = [
    "TrialReport",
    "check_try_in",
    "trial_specs",
    "try_manifest",
    "try_proposal",
    "try_and_backfill",
    "try_pack_dirs",
    "confirm_untried_targets",
    "trial_lines",
    "BACKFILL_ROUNDS",
]

# How many times wrap proposes again without the commands its trials left out (each round's new
# verbs are tried too; the verbs that did not change are answered from the round before)
BACKFILL_ROUNDS = 3


def try_proposal(proposal, **options):
    """(the proposal acted on, its TrialReport): ``_acted_on`` over the proposal, where each write that
    no word decided (``UNSURE_WRITE``) is tried as a read: one that wrote nothing and printed its
    answer is a read, one that wrote is a write as before, and any other keeps its write policy and
    body untouched, the trial's words in its ``x-why``. A help's silence never outweighs a trial."""
    unsure = [
        d.name for d in proposal.chosen if d.effect == "write" and UNSURE_WRITE in (d.reason or "")
    ]
    if not unsure:
        return _acted_on(proposal, **options)
    verbs = dict(proposal.manifest["verbs"])
    for name in unsure:
        body = dict(verbs[name])
        body["policy"] = {**dict(body.get("policy") or {}), "effect": "read", "confirm": False}
        verbs[name] = body
    tentative = replace(proposal, manifest={**proposal.manifest, "verbs": verbs})
    tried, report = _acted_on(tentative, **options, unsure=frozenset(unsure))
    return _settled_unsure(proposal, tried, report, unsure)


def _answered_cleanly(item: Evidence | None) -> bool:
    """It printed an answer and wrote nothing: exit 0 or an answer status, or exit 0 with text where
    its JSON selection promised JSON (the selection is dropped, the verb is a read all the same)."""
    outcome = item.outcome if item is not None else None
    if item is None or outcome is None or not (outcome.stdout or "").strip():
        return False
    return item.kind in ("ok", "answered") or (item.kind == "json-wrong" and outcome.exit_code == 0)


_UNSURE_WORDS = UNSURE_WRITE.split(";")[0]  # "no read, write or delete word in its name or help"


def _read_after_all(why: str) -> str:
    said = why.replace(UNSURE_WRITE, _UNSURE_WORDS)
    return f"{said}; tried as a read: it wrote nothing and printed its answer: relabelled read"


def _danger_on_read(body: Mapping, bin_name: str) -> str:
    """What of a verb's cli[] no read may offer (the dangerous-flags catalogue: ``--fix`` rewrites
    what it reads, ``--exec`` runs a program), in words, or "": a verb offering it stays a write."""
    cli = list(body.get("cli") or ())
    command = list(subcommand_path(cli))  # its subcommand words
    for token in cli[1:]:
        why = token_danger(token, tool=bin_name, command=command)
        if why:
            return f"it offers {why}"  # ("--fix rewrites the files it reads ... (catalogue: *)")
    return ""


def _form_read(item: Evidence) -> str:
    what = "it printed nothing" if item.kind in ("ok", "answered") else item.finding
    return (
        "the main command's trial found it a read, and a form does what it does: relabelled read"
        f" (its own trial gave no clean answer: {what.removeprefix('tried: ')})"
    )


def _settled_unsure(proposal, tried, report: TrialReport, unsure: list[str]):
    """The unsure writes after their trials: read (answered cleanly), write (wrote), else as proposed."""
    by_verb = report.by_verb()
    original = proposal.manifest["verbs"]
    verbs = dict(tried.manifest["verbs"])
    evidence = list(report.evidence)
    decisions = []
    bin_name = proposal.manifest.get("bin", "")

    def read_after_all(name: str) -> bool:
        item = by_verb.get(name)
        return _answered_cleanly(item) and not _danger_on_read(verbs.get(name) or {}, bin_name)

    # the main mode (the tool itself, path "") its trial showed a read: its forms do what it does
    main_read = any(
        was.chosen and was.name in unsure and not was.path and read_after_all(was.name)
        for was in proposal.decisions
    )
    # (try_proposal's decisions are the proposal's, in order, each acted on)
    for was, decision in zip(proposal.decisions, tried.decisions):
        item = by_verb.get(was.name) if was.chosen and was.name in unsure else None
        if item is None or item.kind == "writes":
            decisions.append(decision)
            continue
        name = was.name
        danger = _danger_on_read(verbs.get(name) or {}, bin_name)
        if read_after_all(name):
            body = dict(verbs[name])
            body["x-why"] = _read_after_all(str(body.get("x-why", "")))
            verbs[name] = body
            decisions.append(replace(was, effect="read", reason=_read_after_all(was.reason)))
            continue
        if main_read and FORM_OF_MAIN in was.reason and not danger and name in verbs:
            # its own trial gave no clean answer (a sample its switch refused), wrote nothing, and
            # its switch is no danger: a form of a main mode that reads
            said = _form_read(item)
            body = dict(verbs[name])
            body["x-why"] = f"{body.get('x-why', '')}; {said}"
            verbs[name] = body
            decisions.append(replace(was, effect="read", reason=f"{was.reason}; {said}"))
            continue
        shown = danger or "no clean answer: " + (
            "it printed nothing"
            if item.kind in ("ok", "answered")
            else item.finding.removeprefix("tried: ")
        )
        kept = Evidence(
            name, "kept-write", detail=shown, double_dash=item.double_dash, equals=item.equals
        )
        evidence[evidence.index(item)] = kept
        body = dict(original[name])
        if item.double_dash in ("dropped", "dropped-with") and "cli" in body:
            body["cli"] = without_double_dash(body["cli"])  # what its trial showed of "--" stands
        if item.equals == "split" and "cli" in body:
            body["cli"] = with_split_values(body["cli"])  # and of "--flag=value"
        why = body.get("x-why", "")
        body["x-why"] = f"{why}; {kept.words}" if why else kept.words
        verbs[name] = body
        decisions.append(was)
    manifest = {**tried.manifest, "verbs": {n: verbs[n] for n in original if n in verbs}}
    settled = replace(tried, manifest=manifest, decisions=tuple(decisions))
    return settled, replace(report, evidence=tuple(evidence))


def _acted_on(
    proposal,
    *,
    bin_path: str,
    try_in=None,
    timeout_s: float | None = None,
    cache: bool = True,
    deadline_at: float | None = None,
    memo: dict | None = None,
    tool=None,
    progress=None,
    unsure: frozenset[str] = frozenset(),
):
    """(the proposal acted on, its TrialReport): long-running, interactive and operand-less reads left
    out, writing reads relabelled, wrong JSON selections dropped, a ``--`` the tool refuses dropped
    (from every verb whose grammar says nothing of it, once one trial showed it), JSON selections
    and answer statuses the trials found added, and the evidence in each ``x-why``. ``tool``: the
    discovered tool, whose commands say what the trials need (``flows.trial_facts``)."""
    facts = verb_facts(tool, proposal)
    if unsure and tool is not None:
        facts = {**facts, **{n: replace(facts.get(n, VerbFacts()), unsure=True) for n in unsure}}
    report = _tried_verb_by_verb(
        proposal.manifest,
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        facts=facts,
        progress=progress,
    )
    report = _double_dash_tool_wide(proposal.manifest, report, facts)
    report = _equals_tool_wide(proposal.manifest, report)
    manifest, dropped = apply_evidence(proposal.manifest, report.evidence)
    if not manifest.get("verbs") and any(item.kind == "lacks-operand" for item in dropped.values()):
        # a pack of no command helps nobody: keep the verbs that only lack an arg, saying so (cut without -f)
        report = replace(
            report,
            evidence=tuple(
                replace(item, kind="lacks-operand-kept") if item.kind == "lacks-operand" else item
                for item in report.evidence
            ),
        )
        manifest, dropped = apply_evidence(proposal.manifest, report.evidence)
    by_verb = report.by_verb()
    decisions = []
    for decision in proposal.decisions:
        item = by_verb.get(decision.name) if decision.chosen else None
        if item is not None and decision.name in dropped:
            decision = replace(decision, chosen=False, name="", reason=item.words)
        elif item is not None and item.action == "relabel":
            decision = replace(decision, effect="write", reason=f"{decision.reason}; {item.words}")
        decisions.append(decision)
    return replace(proposal, manifest=manifest, decisions=tuple(decisions)), report


def _double_dash_tool_wide(manifest: dict, report: TrialReport, facts) -> TrialReport:
    """Once a trial showed the tool reads ``--`` as an operand or refuses it, every other verb whose
    grammar says nothing of ``--`` (writes too, which are never run) has it dropped as well: one
    option parser reads all of a tool's commands. Where ``facts`` is None (no tool), nothing."""
    if facts is None or not any(e.double_dash == "dropped" for e in report.evidence):
        return report
    shown = next(e.verb for e in report.evidence if e.double_dash == "dropped")
    verbs = manifest.get("verbs") or {}
    evidence = []
    for item in report.evidence:
        body = verbs.get(item.verb) or {}
        said = facts.get(item.verb)
        if (
            not item.double_dash
            and said is not None
            and said.double_dash is None
            and "--" in list(body.get("cli") or ())[1:]
        ):
            item = replace(item, double_dash="dropped-with", dash_shown_by=shown)
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def _equals_tool_wide(manifest: dict, report: TrialReport) -> TrialReport:
    """Once a trial showed the tool reads ``--flag=value`` as one unknown option, every other verb
    that joins a value to its flag (writes too, which are never run) writes it in the next argument
    as well: one option parser reads all of a tool's commands."""
    shown = next((e.verb for e in report.evidence if e.equals == "split"), None)
    if shown is None:
        return report
    verbs = manifest.get("verbs") or {}
    evidence = []
    for item in report.evidence:
        if not item.equals and joined_value_flags(verbs.get(item.verb) or {}):
            item = replace(item, equals="split-with", equals_shown_by=shown)
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def _tried_verb_by_verb(
    manifest: dict,
    *,
    bin_path,
    try_in,
    timeout_s,
    cache,
    deadline_at,
    memo,
    jobs: int | None = None,
    facts: Mapping[str, VerbFacts] | None = None,
    progress=None,
) -> TrialReport:
    """Every verb's trial and its retries (without its streaming flag, then with its optional operands
    filled), one chain per verb, ``jobs`` chains at a time: a verb's retry starts as soon as its own
    trial ends, not once the slowest trial of the round has (the rounds cost a trial's latency each).
    ``facts``: what discovery read of each verb's command (``flows.trial_facts``): whether its grammar
    says it takes ``--``, and flags that may select JSON; None, as for ``check --try``: nothing."""
    if try_in is not None:
        try_in = check_try_in(try_in)  # once, not once per verb
    options = dict(
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        defer_cleanup=True,
    )

    # what the tool writes into HOME on any run is its own state, not a write of any verb
    options["state"] = learn_state(manifest, **options)

    def chain(name: str, cli: list | None = None) -> TrialReport:
        body = manifest["verbs"][name]
        one = {**manifest, "verbs": {name: body if cli is None else {**body, "cli": cli}}}
        said = (facts or {}).get(name, VerbFacts())
        one, dash = trial_steps.settle_double_dash(one, name, said, **options)
        one, equals = trial_steps.settle_equals(one, name, **options)
        report = trial_run.try_manifest(one, try_in_checked=True, **options)
        if report.note:
            return report
        # (a stream's flag dropped first: a read that follows a log never finishes, however long)
        report = trial_steps.retry_without_streaming(one, report, **options)
        report = trial_steps.retry_slow_start(one, report, **options)
        report = trial_steps.retry_without_guards(one, report, said, **options)
        report = trial_steps.retry_without_operands(one, report, **options)
        report = trial_steps.retry_with_input_files(one, report, **options)
        report = trial_steps.retry_with_operands(one, report, silent=said.unsure, **options)
        report = trial_steps.retry_with_two_items(one, report, **options)
        report = trial_steps.retry_in_context(one, report, **options)
        report = trial_steps.retry_without_json(one, report, pack=manifest, **options)
        report = trial_steps.find_json(one, report, said, pack=manifest, **options)
        if dash:
            report = replace(
                report, evidence=tuple(replace(e, double_dash=dash) for e in report.evidence)
            )
        if equals:
            report = replace(
                report, evidence=tuple(replace(e, equals=equals) for e in report.evidence)
            )
        return report

    names = list(manifest.get("verbs") or {})
    if not names:
        return trial_run.try_manifest(manifest, try_in_checked=True, **options)
    try:
        reports = _chains(manifest, names, chain, jobs, progress)
        again = _failed_by_double_dash(manifest, reports, facts)
        if again:
            # a trial showed the tool refuses "--" after these had failed with it: tried again
            # without it, as the tool-wide rule will write them (_double_dash_tool_wide)
            redone = _chains(
                manifest, list(again), lambda name: chain(name, again[name]), jobs, None
            )
            by_name = {e.verb: r for r in redone for e in r.evidence}
            reports = [
                by_name.get(r.evidence[0].verb, r) if len(r.evidence) == 1 else r for r in reports
            ]
    finally:
        drain_cleanup()  # every scratch directory of these trials is gone before the evidence is used
    note = next((r.note for r in reports if r.note), "")
    evidence = tuple(item for r in reports for item in r.evidence)
    return TrialReport(_shared_state(manifest, evidence, options["state"]), note=note)


def _failed_by_double_dash(manifest: dict, reports, facts) -> dict[str, list]:
    """{verb: its cli without "--"} for the reads whose trial failed with a "--" their grammar says
    nothing of, where another verb's trial showed the tool refuses or misreads "--"."""
    evidence = [e for r in reports for e in r.evidence]
    if facts is None or not any(e.double_dash == "dropped" for e in evidence):
        return {}
    verbs = manifest.get("verbs") or {}
    out = {}
    for item in evidence:
        cli = list((verbs.get(item.verb) or {}).get("cli") or ())
        said = facts.get(item.verb)
        if (
            item.kind in ("failed", "crashed", "lacks-operand")
            and not item.double_dash
            and said is not None
            and said.double_dash is None
            and "--" in cli[1:]
        ):
            out[item.verb] = without_double_dash(cli)
    return out


def _shared_state(manifest: dict, evidence: tuple[Evidence, ...], state) -> tuple[Evidence, ...]:
    """The evidence read again with the state every verb's run made in HOME (a folder that two or
    more verbs' trials made: gpg's keyring on its first listing) as the tool's own: a read whose only
    writes were there is no write. The rest stays as it was."""
    from wrapgen.check.trial_evidence import home_writes, state_roots
    from wrapgen.pack.build import resolve_verb

    made: dict[str, set[str]] = {}
    for item in evidence:
        if item.outcome is not None and not item.outcome.not_run:
            for root in state_roots(home_writes(item.outcome)):
                made.setdefault(root, set()).add(item.verb)
    shared = {root for root, verbs in made.items() if len(verbs) >= 2}
    if not shared:
        return evidence
    known = tuple(sorted(set(state) | shared))
    out = []
    for item in evidence:
        if item.kind == "writes" and item.outcome is not None and item.verb in manifest["verbs"]:
            answers = resolve_verb(manifest, item.verb).get("exit_codes") or {}
            again = classify(item.outcome, state=known, answers=answers)
            if again.kind != "writes":
                item = replace(
                    again,
                    **trial_steps.carried(item),
                    required_args=item.required_args,
                    optional_args=item.optional_args,
                )
        out.append(item)
    return tuple(out)


def _chains(
    manifest: dict, names: list[str], chain, jobs: int | None, progress=None
) -> list[TrialReport]:
    """Each verb's chain, ``jobs`` at a time; ``progress(done, total, verb)`` as each one that tries
    its verb ends (a write's chain only renders it: it is not counted as tried)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    lock, done = threading.Lock(), [0]
    tried = {name for name in names if _chain_order(manifest, name) < _RENDERED_ONLY}

    def counted(name: str) -> TrialReport:
        try:
            return chain(name)
        finally:
            if progress is not None and name in tried:
                with lock:
                    done[0] += 1
                    progress(done[0], len(tried), name)

    with ThreadPoolExecutor(
        max_workers=max(1, min(jobs or DEFAULT_TRIAL_JOBS, 4)), thread_name_prefix="wrapgen-trials"
    ) as pool:
        # the chains that may need a second trial start first, so that trial is not the last one
        # running alone (a core idle); the evidence keeps the manifest's order
        futures = {
            name: pool.submit(counted, name)
            for name in sorted(names, key=lambda n: _chain_order(manifest, n))
        }
        return [futures[name].result() for name in names]


_RENDERED_ONLY = 2  # (_chain_order of a write: its chain renders it, it runs no trial)


def _chain_order(manifest: dict, name: str) -> int:
    """0 for a read verb whose trial may be followed by another (optional operands to fill after its
    usage, a streaming flag to drop), 1 for another read, 2 for a verb that is only rendered."""
    body = (manifest.get("verbs") or {}).get(name) or {}
    if (body.get("policy") or {}).get("effect", "read") != "read":
        return _RENDERED_ONLY
    cli = body.get("cli")
    if cli is None:
        return 1
    follows = (
        optional_operands(body)
        or required_operands(body)
        or without_streaming_flags(cli)[1]
        or with_print_once_flags(cli, body.get("args"))[2]
    )
    return 0 if follows else 1


def try_and_backfill(
    proposal,
    *,
    repropose=None,
    bin_path: str,
    try_in=None,
    timeout_s: float | None = None,
    cache: bool = True,
    deadline_at: float | None = None,
    rounds: int = BACKFILL_ROUNDS,
    tool=None,
    progress=None,
):
    """``try_proposal``, then, while the trials leave fewer than 5 commands, the proposal made again
    without the subcommands they left out (``repropose(excluded_paths) -> Proposal``, None: never),
    tried in turn; stops when the pack has 5, when the proposer has no other candidate, after
    ``rounds`` or at ``deadline_at``. The verbs taken in say whose place they took (their reason and
    ``x-why``), the ones left out what replaced them, and ``TrialReport.replaced`` lists the pairs."""
    import time

    from wrapgen.propose.select import MIN_VERBS

    memo: dict = {}
    options = dict(
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
    )
    tried, report = try_proposal(proposal, **options, tool=tool, progress=progress)
    if repropose is None or report.note:
        return tried, report
    excluded: list[tuple[str, ...]] = []
    lost: dict[
        str, tuple
    ] = {}  # path -> (its decision after the trials, its evidence), every round
    replaced: list[tuple[str, str]] = []
    for _ in range(rounds):
        if len(tried.chosen) >= MIN_VERBS or (
            deadline_at is not None and time.monotonic() >= deadline_at
        ):
            break
        kept = {d.path for d in tried.chosen}
        by_verb = report.by_verb()
        names = {d.path: d.name for d in proposal.chosen}
        new_lost = {
            d.path: (d, by_verb.get(names.get(d.path, "")))
            for d in tried.decisions
            if not d.chosen and d.path in names and d.path not in kept
        }
        # a mode (--list) or the tool itself cannot be proposed without: only subcommands are replaced
        paths = [tuple(p.split()) for p in new_lost if p and not p.startswith("-")]
        if not paths:
            break
        lost.update(new_lost)
        excluded += [p for p in paths if p not in excluded]
        again = repropose(tuple(excluded))
        added = [d for d in again.chosen if d.path not in kept]
        if not added:
            break
        proposal = again
        tried, report = try_proposal(again, **options, tool=tool, progress=progress)
        paired = {path for _, path in replaced}
        gone = [p for p in lost if p not in {d.path for d in tried.chosen} and p not in paired]
        for decision in added:
            if decision.path in {d.path for d in tried.chosen} and gone:
                replaced.append((decision.name, gone.pop(0)))
    if not lost:
        return tried, report
    final = {d.name for d in tried.chosen}
    return _with_replacements(tried, report, lost, [(n, p) for n, p in replaced if n in final])


def _with_replacements(proposal, report: TrialReport, lost: dict, replaced: list[tuple[str, str]]):
    """The last round's proposal with every command left out in any round, its evidence and what took its place."""
    by_path = {path: name for name, path in replaced}
    verbs = dict(proposal.manifest.get("verbs") or {})
    for name, path in replaced:
        if name in verbs:
            body = dict(verbs[name])
            said = f"added by wrap in place of '{path}', which its trial left out"
            body["x-why"] = f"{body['x-why']}; {said}" if body.get("x-why") else said
            verbs[name] = body
    decisions = []
    seen = set()
    for decision in proposal.decisions:
        if decision.path in lost and not decision.chosen:
            if decision.path in seen:
                continue
            earlier, _evidence = lost[decision.path]
            decision = earlier
            if decision.path in by_path:
                decision = replace(
                    decision, reason=f"{decision.reason}; replaced by '{by_path[decision.path]}'"
                )
            seen.add(decision.path)
        elif decision.chosen and decision.name in {n for n, _ in replaced}:
            path = next(p for n, p in replaced if n == decision.name)
            decision = replace(
                decision, reason=f"{decision.reason}; in place of '{path}' (left out by its trial)"
            )
        decisions.append(decision)
    for path, (
        decision,
        _evidence,
    ) in lost.items():  # left out in an earlier round, not a candidate now
        if path not in seen and not any(d.path == path for d in decisions):
            decisions.append(
                decision
                if path not in by_path
                else replace(decision, reason=f"{decision.reason}; replaced by '{by_path[path]}'")
            )
    present = {item.verb for item in report.evidence}
    earlier = tuple(
        evidence
        for _d, evidence in lost.values()
        if evidence is not None and evidence.verb not in present
    )
    report = replace(report, evidence=report.evidence + earlier, replaced=tuple(replaced))
    return replace(
        proposal, manifest={**proposal.manifest, "verbs": verbs}, decisions=tuple(decisions)
    ), report


# What a task-runner target's trial must show for the target to stay a read: it ran, and wrote nothing
_TRIED_CLEAN = ("ok", "answered")


def confirm_untried_targets(proposal, report: TrialReport | None, *, explicit=frozenset()):
    """A task runner's pack with every read target that was not tried, or whose trial did not run
    clean, made a confirm-gated write: a target can do anything, so its name and help may propose a
    read (``knowledge.runners.target_effect``) but only a trial of its recipe that wrote nothing
    keeps it one (a ``status: ## Show the status`` whose recipe deletes a file). ``report`` None: no
    trial ran (``--no-try``, a batch recipe). ``explicit``: verbs whose read a recipe's ``policy:``
    states (the team's word, kept)."""
    by_verb = report.by_verb() if report is not None else {}
    verbs = dict(proposal.manifest.get("verbs") or {})
    changed: dict[str, str] = {}
    for name, body in verbs.items():
        if (body.get("policy") or {}).get("effect") != "read" or name in explicit:
            continue
        item = by_verb.get(name)
        if item is not None and item.kind in _TRIED_CLEAN:
            continue
        if item is None:
            why = "its recipe was not tried"
        else:
            why = f"its recipe's trial did not run clean ({item.kind}{': ' + item.detail if item.detail else ''})"
        said = (
            "a task-runner target is a read only when its recipe is tried and writes nothing: "
            f"{why}: made a write (confirm-gated)"
        )
        changed[name] = said
        verbs[name] = {
            **body,
            "policy": {**dict(body.get("policy") or {}), "effect": "write", "confirm": True},
            "x-why": f"{body['x-why']}; {said}" if body.get("x-why") else said,
        }
    if not changed:
        return proposal
    decisions = tuple(
        replace(d, effect="write", reason=f"{d.reason}; {changed[d.name]}")
        if d.chosen and d.name in changed
        else d
        for d in proposal.decisions
    )
    return replace(proposal, manifest={**proposal.manifest, "verbs": verbs}, decisions=decisions)


def trial_lines(report: TrialReport) -> list[str]:
    """The summary's lines: the note once, then a line per verb."""
    lines = [f"trials: {report.note}"] if report.note else []
    if not report.note:
        kinds = {}
        for item in report.evidence:
            kinds[item.kind] = kinds.get(item.kind, 0) + 1
        lines.append("trials: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())))
        lines += [f"  {item.verb}: {item.words}" for item in report.evidence]
        lines += [
            f"  backfill: {name} takes the place of '{path}', which its trial left out"
            for name, path in report.replaced
        ]
    return lines


def try_pack_dirs(
    paths: Iterable, *, try_in=None, timeout_s: float | None = None, progress=None
) -> list[tuple[Path, TrialReport]]:
    """``check --try``: the evidence for each pack directory whose pack.yaml loads;
    ``progress(done, total, pack)`` before each pack is tried and once all are."""
    from wrapgen.check.rules import expand_pack_dirs
    from wrapgen.pack.manifest import read_manifest

    if try_in is not None:
        try_in = check_try_in(try_in)  # once, before any pack
    out = []
    dirs = list(expand_pack_dirs(paths))
    for index, path in enumerate(dirs):
        if progress is not None:
            progress(index, len(dirs), Path(path).name)
        manifest, diagnostics = read_manifest(path)
        if manifest is None or any(d.level == "error" for d in diagnostics):
            continue  # check's own rules report a broken manifest
        out.append((Path(path), _audit(manifest.data, try_in=try_in, timeout_s=timeout_s)))
    if progress is not None and dirs:
        progress(len(dirs), len(dirs), "")
    return out


def _audit(manifest: dict, *, try_in, timeout_s) -> TrialReport:
    """One pack's evidence for ``check --try``, as the pack stands (nothing is changed to make a
    verb pass): the tool's own state learned first, a silent read given the slow start's longer
    timeout (a loaded machine is no defect of the pack), and a ``--`` in a read's cli[] tried with
    the same operand without it (``W068`` where the tool refuses it or reads it as an operand), and
    what two or more verbs' runs made in HOME read as the tool's own state, as ``wrap`` reads it. An
    audit asks the tool again: no answer from the trial cache."""
    options = dict(try_in=try_in, timeout_s=timeout_s, cache=False, try_in_checked=True)
    options["state"] = learn_state(manifest, **options)
    report = trial_run.try_manifest(manifest, **options)
    if report.note:
        return report
    options.pop("try_in_checked")
    report = trial_steps.retry_slow_start(manifest, report, **options)
    evidence = []
    for item in report.evidence:
        one = {**manifest, "verbs": {item.verb: manifest["verbs"][item.verb]}}
        _, verdict = trial_steps.settle_double_dash(one, item.verb, VerbFacts(), **options)
        if verdict == "dropped":
            item = replace(item, kind="double-dash-refused", double_dash="")
        evidence.append(item)
    # what two or more verbs' runs made in HOME is the tool's own state, as wrap reads it
    return replace(report, evidence=_shared_state(manifest, tuple(evidence), options["state"]))
