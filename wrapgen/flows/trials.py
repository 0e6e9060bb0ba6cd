"""Try before you ship: the trials of a manifest's read verbs, as ``wrap`` and ``check --try`` run them.

``try_manifest(manifest)`` renders every verb with sample args (``check.trial_evidence.sample_args``,
exactly as the runtime renders: ``runtime.render_argv`` with the verb's JSON selection), runs the
read verbs in the sandbox (``probe.trial.run_trials``; write verbs are rendered, never run) and
classifies each outcome (``check.trial_evidence.classify``). ``try_proposal`` acts on a proposal with
that evidence (``check.trial_evidence.apply_evidence``): what it drops leaves the chosen commands with
the evidence as its reason. ``try_pack_dirs`` is ``wrapgen check --try``: evidence per pack, which
``check_pack(..., trials=)`` turns into W060-W064 findings. ``try_and_backfill`` is ``wrap``'s: when
the trials leave the pack under 5 commands, the next-ranked candidates the proposer had take the
places of those left out (the proposal made again without them), and are tried too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

from wrapgen.check.trial_evidence import (
    Evidence,
    apply_evidence,
    classify,
    optional_operands,
    required_operands,
    sample_args,
    with_print_once_flags,
    without_streaming_flags,
)
from wrapgen.errors import ToolNotFoundError
from wrapgen.probe.prober import resolve_tool
from wrapgen.probe.trial import (
    DEFAULT_TRIAL_JOBS,
    DEFAULT_TRIAL_TIMEOUT_S,
    TrialSpec,
    drain_cleanup,
    run_trials,
)

__all__ = [
    "TrialReport",
    "check_try_in",
    "trial_specs",
    "try_manifest",
    "try_proposal",
    "try_and_backfill",
    "try_pack_dirs",
    "trial_lines",
    "BACKFILL_ROUNDS",
]

# How many times wrap proposes again without the commands its trials left out (each round's new
# verbs are tried too; the verbs that did not change are answered from the round before)
BACKFILL_ROUNDS = 3


@dataclass(frozen=True)
class TrialReport:
    evidence: tuple[Evidence, ...]
    note: str = ""  # said once: why nothing was tried (no sandbox, the sandbox failed to start)
    replaced: tuple[
        tuple[str, str], ...
    ] = ()  # (new verb, the path of the command it took the place of)

    def by_verb(self) -> dict[str, Evidence]:
        return {e.verb: e for e in self.evidence}


# --try-in DIR is copied once per trial: a directory past these is refused, not copied for minutes
TRY_IN_MAX_FILES = 20000
TRY_IN_MAX_BYTES = 256 << 20


def check_try_in(directory) -> str:
    """The absolute path of a usable ``--try-in`` directory; a UsageError when it is none or too large."""
    from wrapgen.errors import UsageError

    path = os.path.abspath(os.fspath(directory))
    if not os.path.isdir(path):
        raise UsageError(
            f"--try-in {directory}: not a directory", hint="name the directory to try the verbs in"
        )
    files = size = 0
    for root, dirs, names in os.walk(path):
        files += len(names) + len(dirs)
        for name in names:
            try:
                size += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
        if files > TRY_IN_MAX_FILES or size > TRY_IN_MAX_BYTES:
            raise UsageError(
                f"--try-in {directory} is too large to copy for every trial "
                f"(more than {TRY_IN_MAX_FILES} files or {TRY_IN_MAX_BYTES >> 20} MiB)",
                hint="name a small checkout or a sample project",
            )
    return path


def trial_specs(manifest: dict) -> list[TrialSpec]:
    """One spec per verb: read verbs rendered with sample args to run, the others to render only."""
    from wrapgen.pack.build import resolve_verb
    from wrapgen.runtime import RenderError, render_argv

    env = dict(((manifest.get("env") or {}).get("set")) or {})
    guard = manifest.get("config_guard") if isinstance(manifest.get("config_guard"), dict) else None
    specs = []
    for name in manifest.get("verbs") or {}:
        verb = resolve_verb(manifest, name)
        try:
            argv = render_argv(verb["argv"], sample_args(verb["args"]), json_selection=verb["json"])
        except RenderError as error:
            specs.append(
                TrialSpec(
                    name, tuple(verb["argv"]), run=False, why=f"sample args do not render: {error}"
                )
            )
            continue
        read = verb["policy"]["effect"] == "read"
        specs.append(
            TrialSpec(
                name,
                tuple(argv),
                env=env,
                json_selected=bool(verb["json"]),
                run=read,
                why="" if read else "write",
                guard=guard,
            )
        )
    return specs


def try_manifest(
    manifest: dict,
    *,
    bin_path: str | None = None,
    try_in=None,
    timeout_s: float | None = None,
    jobs: int | None = None,
    cache: bool = True,
    deadline_at: float | None = None,
    memo: dict | None = None,
    try_in_checked: bool = False,
    key_timeout_s: float | None = None,
    defer_cleanup: bool = False,
) -> TrialReport:
    """The evidence of every verb of ``manifest`` (a dict as pack.yaml holds it); past ``deadline_at``
    (``time.monotonic()``) no trial starts. ``defer_cleanup``: see ``run_trials`` (the caller drains)."""
    specs = trial_specs(manifest)
    if try_in is not None and not try_in_checked:
        try_in = check_try_in(try_in)
    if not bin_path:
        try:
            bin_path = resolve_tool(str(manifest["bin"])).path
        except ToolNotFoundError:
            bin_path = ""
    if not bin_path or not os.access(bin_path, os.X_OK):
        note = f"{manifest['bin']} is not installed here: nothing was tried"
        return TrialReport(
            tuple(classify_not_run(s, "the tool is not installed here") for s in specs), note=note
        )
    if os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no"):
        note = "the sandbox is off (WRAPGEN_SANDBOX=off): nothing was tried, since a proposal never runs unsandboxed"
        return TrialReport(
            tuple(classify_not_run(s, "the sandbox is off") for s in specs), note=note
        )
    run = run_trials(
        specs,
        bin_path=bin_path,
        timeout_s=timeout_s or DEFAULT_TRIAL_TIMEOUT_S,
        jobs=jobs or DEFAULT_TRIAL_JOBS,
        try_in=try_in,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        key_timeout_s=key_timeout_s,
        defer_cleanup=defer_cleanup,
    )
    note = run.note
    if run.sandbox_failed:
        note = f"the sandbox failed to start ({run.sandbox_failed}): nothing was tried"
    return TrialReport(tuple(classify(o) for o in run.outcomes), note=note)


def classify_not_run(spec: TrialSpec, why: str) -> Evidence:
    from wrapgen.model.trial import TrialOutcome

    return classify(
        TrialOutcome(spec.verb, spec.argv, not_run="write" if spec.why == "write" else why)
    )


def try_proposal(
    proposal,
    *,
    bin_path: str,
    try_in=None,
    timeout_s: float | None = None,
    cache: bool = True,
    deadline_at: float | None = None,
    memo: dict | None = None,
):
    """(the proposal acted on, its TrialReport): long-running, interactive and operand-less reads left
    out, writing reads relabelled, wrong JSON selections dropped, and the evidence in each ``x-why``."""
    report = _tried_verb_by_verb(
        proposal.manifest,
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
    )
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
) -> TrialReport:
    """Every verb's trial and its retries (without its streaming flag, then with its optional operands
    filled), one chain per verb, ``jobs`` chains at a time: a verb's retry starts as soon as its own
    trial ends, not once the slowest trial of the round has (the rounds cost a trial's latency each)."""
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

    def chain(name: str) -> TrialReport:
        one = {**manifest, "verbs": {name: manifest["verbs"][name]}}
        report = try_manifest(one, try_in_checked=True, **options)
        if report.note:
            return report
        report = _retry_slow_start(one, report, **options)
        report = _retry_without_streaming(one, report, **options)
        report = _retry_without_operands(one, report, **options)
        return _retry_with_operands(one, report, **options)

    names = list(manifest.get("verbs") or {})
    if not names:
        return try_manifest(manifest, try_in_checked=True, **options)
    try:
        reports = _chains(manifest, names, chain, jobs)
    finally:
        drain_cleanup()  # every scratch directory of these trials is gone before the evidence is used
    note = next((r.note for r in reports if r.note), "")
    return TrialReport(tuple(item for r in reports for item in r.evidence), note=note)


def _chains(manifest: dict, names: list[str], chain, jobs: int | None) -> list[TrialReport]:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(
        max_workers=max(1, min(jobs or DEFAULT_TRIAL_JOBS, 4)), thread_name_prefix="wrapgen-trials"
    ) as pool:
        # the chains that may need a second trial start first, so that trial is not the last one
        # running alone (a core idle); the evidence keeps the manifest's order
        futures = {
            name: pool.submit(chain, name)
            for name in sorted(names, key=lambda n: _chain_order(manifest, n))
        }
        return [futures[name].result() for name in names]


def _chain_order(manifest: dict, name: str) -> int:
    """0 for a read verb whose trial may be followed by another (optional operands to fill after its
    usage, a streaming flag to drop), 1 for another read, 2 for a verb that is only rendered."""
    body = (manifest.get("verbs") or {}).get(name) or {}
    if (body.get("policy") or {}).get("effect", "read") != "read":
        return 2
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
    tried, report = try_proposal(proposal, **options)
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
        tried, report = try_proposal(again, **options)
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


# A read still running at the timeout that has printed nothing at all may only start slowly (a Python
# tool on a loaded machine: pip's reads all timed out at 3 s at a load of 14 on 2 cores): it is tried
# once more with this many times the timeout before it is called long-running.
SLOW_START_FACTOR = 3.0


def _retry_slow_start(
    manifest: dict,
    report: TrialReport,
    *,
    bin_path,
    try_in,
    timeout_s,
    cache,
    deadline_at=None,
    memo=None,
    defer_cleanup=False,
) -> TrialReport:
    """A read that printed nothing and kept running is tried again with ``SLOW_START_FACTOR`` times
    the timeout; when it then finishes, its evidence is that trial's (the words say nothing of it)."""
    silent = [
        item.verb
        for item in report.evidence
        if item.kind == "long-running" and item.detail == "it printed nothing and kept running"
    ]
    if not silent:
        return report
    longer = (timeout_s or DEFAULT_TRIAL_TIMEOUT_S) * SLOW_START_FACTOR
    verbs = manifest.get("verbs") or {}
    again = try_manifest(
        {**manifest, "verbs": {name: verbs[name] for name in silent if name in verbs}},
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=longer,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        try_in_checked=True,
        key_timeout_s=timeout_s or DEFAULT_TRIAL_TIMEOUT_S,
        defer_cleanup=defer_cleanup,
    ).by_verb()
    evidence = []
    for item in report.evidence:
        retry = again.get(item.verb)
        if retry is not None and retry.kind not in ("long-running", "not-tried"):
            item = retry
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def _retry_without_streaming(
    manifest: dict,
    report: TrialReport,
    *,
    bin_path,
    try_in,
    timeout_s,
    cache,
    deadline_at=None,
    memo=None,
    defer_cleanup=False,
) -> TrialReport:
    """A long-running read whose cli[] has a literal streaming flag (``--follow``) is tried once more
    without it; one with none, whose args offer a print-once switch (pm2 logs ``--nostream``), is tried
    once more with that switch on. When it then finishes, its evidence is that trial's, with the flag
    to drop or the switch to fix."""
    verbs = manifest.get("verbs") or {}
    variants = {}  # verb -> (its body for the second trial, the evidence fields that say what changed)
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        if item.kind == "long-running" and "cli" in body:
            cli, flags = without_streaming_flags(body["cli"], body.get("args"))
            if flags:
                variants[item.verb] = ({**body, "cli": cli}, {"dropped_flags": flags})
                continue
            # no streaming flag to drop: a switch the tool offers to print once (pm2 logs --nostream)
            cli, args, fixed = with_print_once_flags(body["cli"], body.get("args"))
            if fixed:
                variants[item.verb] = ({**body, "cli": cli, "args": args}, {"fixed_flags": fixed})
    return _second_trial(
        manifest,
        report,
        variants,
        lambda retry: retry.kind not in ("long-running", "not-tried"),
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        defer_cleanup=defer_cleanup,
    )


def _carried(item: Evidence) -> dict:
    """What an earlier retry changed in a verb's cli[] (a streaming flag dropped, a print-once switch
    fixed), which a later retry's evidence keeps: wrap applies it from the evidence it ends with."""
    return {"dropped_flags": item.dropped_flags, "fixed_flags": item.fixed_flags}


def _second_trial(
    manifest: dict,
    report: TrialReport,
    variants: dict,
    keep,
    *,
    bin_path,
    try_in,
    timeout_s,
    cache,
    deadline_at=None,
    memo=None,
    defer_cleanup=False,
) -> TrialReport:
    """Try each verb of ``variants`` (verb -> (its changed body, the evidence fields that say what
    changed)) once more; where ``keep(retry)``, its evidence is the retry's with those fields, and what
    an earlier retry changed carried over (``_carried``)."""
    if not variants:
        return report
    changed = {**manifest, "verbs": {name: body for name, (body, _) in variants.items()}}
    again = try_manifest(
        changed,
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        try_in_checked=True,
        defer_cleanup=defer_cleanup,
    ).by_verb()
    evidence = []
    for item in report.evidence:
        retry = again.get(item.verb)
        if retry is not None and keep(retry):
            item = replace(retry, **{**_carried(item), **variants[item.verb][1]})
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def _retry_without_operands(
    manifest: dict,
    report: TrialReport,
    *,
    bin_path,
    try_in,
    timeout_s,
    cache,
    deadline_at=None,
    memo=None,
    defer_cleanup=False,
) -> TrialReport:
    """A read that failed on the sample values of its required operands is tried once more without
    them (npm's usage writes ``npm ls <package-spec>``, and 'sample' is no installed package, while
    bare ``npm ls`` lists the tree): when the tool then exits 0, the operands become optional."""
    verbs = manifest.get("verbs") or {}
    variants = {}
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        names = required_operands(body) if item.kind == "failed" and "cli" in body else ()
        if names:
            args = dict(body.get("args") or {})
            args["required"] = [n for n in (args.get("required") or ()) if n not in names]
            variants[item.verb] = ({**body, "args": args}, {"optional_args": names})
    return _second_trial(
        manifest,
        report,
        variants,
        lambda retry: retry.kind == "ok",
        bin_path=bin_path,
        try_in=try_in,
        timeout_s=timeout_s,
        cache=cache,
        deadline_at=deadline_at,
        memo=memo,
        defer_cleanup=defer_cleanup,
    )


def _retry_with_operands(
    manifest: dict,
    report: TrialReport,
    *,
    bin_path,
    try_in,
    timeout_s,
    cache,
    deadline_at=None,
    memo=None,
    defer_cleanup=False,
) -> TrialReport:
    """A read that exits with its usage and has optional operand slots is tried again with a value in
    the first of them, then in all of them ("add it or drop the verb"): when the tool then gets past its
    usage, those operands become required and the verb stays; otherwise it is left out as before."""
    verbs = manifest.get("verbs") or {}
    candidates = {}
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        names = optional_operands(body) if item.kind == "lacks-operand" and "cli" in body else ()
        if names:
            candidates[item.verb] = names
    found: dict[str, Evidence] = {}
    for take in (1, None):  # the first operand alone (rg's pattern), then every one
        variants = {}
        for verb, names in candidates.items():
            chosen = names[:take]
            if verb in found or (take is None and len(names) == 1):
                continue
            body = verbs[verb]
            args = dict(body.get("args") or {})
            args["required"] = [*(args.get("required") or ()), *chosen]
            variants[verb] = ({**body, "args": args}, chosen)
        if not variants:
            continue
        filled = {**manifest, "verbs": {name: body for name, (body, _) in variants.items()}}
        again = try_manifest(
            filled,
            bin_path=bin_path,
            try_in=try_in,
            timeout_s=timeout_s,
            cache=cache,
            deadline_at=deadline_at,
            memo=memo,
            try_in_checked=True,
            defer_cleanup=defer_cleanup,
        ).by_verb()
        for verb, (_, chosen) in variants.items():
            retry = again.get(verb)
            if retry is not None and retry.kind not in ("lacks-operand", "not-tried"):
                found[verb] = replace(retry, required_args=chosen)
    evidence = [
        replace(found[item.verb], **_carried(item)) if item.verb in found else item
        for item in report.evidence
    ]
    return replace(report, evidence=tuple(evidence))


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
    paths: Iterable, *, try_in=None, timeout_s: float | None = None
) -> list[tuple[Path, TrialReport]]:
    """``check --try``: the evidence for each pack directory whose pack.yaml loads."""
    from wrapgen.check.rules import expand_pack_dirs
    from wrapgen.pack.manifest import read_manifest

    if try_in is not None:
        try_in = check_try_in(try_in)  # once, before any pack
    out = []
    for path in expand_pack_dirs(paths):
        manifest, diagnostics = read_manifest(path)
        if manifest is None or any(d.level == "error" for d in diagnostics):
            continue  # check's own rules report a broken manifest
        # an audit asks the tool again: no answer from the trial cache
        out.append(
            (
                Path(path),
                try_manifest(manifest.data, try_in=try_in, timeout_s=timeout_s, cache=False),
            )
        )
    return out
