"""Try before you ship: the trials of a manifest's read verbs, as ``wrap`` and ``check --try`` run them.

``try_manifest(manifest)`` renders every verb with sample args (``check.trial_evidence.sample_args``,
exactly as the runtime renders: ``runtime.render_argv`` with the verb's JSON selection), runs the
read verbs in the sandbox (``probe.trial.run_trials``; write verbs are rendered, never run) and
classifies each outcome (``check.trial_evidence.classify``). ``try_proposal`` acts on a proposal with
that evidence (``check.trial_evidence.apply_evidence``): what it drops leaves the chosen commands with
the evidence as its reason. ``try_pack_dirs`` is ``wrapgen check --try``: evidence per pack, which
``check_pack(..., trials=)`` turns into W060-W064 findings.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

from wrapgen.check.trial_evidence import (Evidence, apply_evidence, classify, optional_operands, sample_args,
                                          without_streaming_flags)
from wrapgen.probe.trial import DEFAULT_TRIAL_JOBS, DEFAULT_TRIAL_TIMEOUT_S, TrialSpec, run_trials

__all__ = ["TrialReport", "check_try_in", "trial_specs", "try_manifest", "try_proposal", "try_pack_dirs", "trial_lines"]


@dataclass(frozen=True)
class TrialReport:
    evidence: tuple[Evidence, ...]
    note: str = ""  # said once: why nothing was tried (no sandbox, the sandbox failed to start)

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
        raise UsageError(f"--try-in {directory}: not a directory", hint="name the directory to try the verbs in")
    files = size = 0
    for root, dirs, names in os.walk(path):
        files += len(names) + len(dirs)
        for name in names:
            try:
                size += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
        if files > TRY_IN_MAX_FILES or size > TRY_IN_MAX_BYTES:
            raise UsageError(f"--try-in {directory} is too large to copy for every trial "
                             f"(more than {TRY_IN_MAX_FILES} files or {TRY_IN_MAX_BYTES >> 20} MiB)",
                             hint="name a small checkout or a sample project")
    return path


def trial_specs(manifest: dict) -> list[TrialSpec]:
    """One spec per verb: read verbs rendered with sample args to run, the others to render only."""
    from wrapgen.pack.build import resolve_verb
    from wrapgen.runtime import RenderError, render_argv

    env = dict(((manifest.get("env") or {}).get("set")) or {})
    specs = []
    for name in manifest.get("verbs") or {}:
        verb = resolve_verb(manifest, name)
        try:
            argv = render_argv(verb["argv"], sample_args(verb["args"]), json_selection=verb["json"])
        except RenderError as error:
            specs.append(TrialSpec(name, tuple(verb["argv"]), run=False, why=f"sample args do not render: {error}"))
            continue
        read = verb["policy"]["effect"] == "read"
        specs.append(TrialSpec(name, tuple(argv), env=env, json_selected=bool(verb["json"]), run=read,
                               why="" if read else "write"))
    return specs


def try_manifest(manifest: dict, *, bin_path: str | None = None, try_in=None, timeout_s: float | None = None,
                 jobs: int | None = None, cache: bool = True, deadline_at: float | None = None) -> TrialReport:
    """The evidence of every verb of ``manifest`` (a dict as pack.yaml holds it); past ``deadline_at``
    (``time.monotonic()``) no trial starts."""
    specs = trial_specs(manifest)
    if try_in is not None:
        try_in = check_try_in(try_in)
    bin_path = bin_path or shutil.which(manifest["bin"]) or ""
    if not bin_path or not os.access(bin_path, os.X_OK):
        note = f"{manifest['bin']} is not installed here: nothing was tried"
        return TrialReport(tuple(classify_not_run(s, "the tool is not installed here") for s in specs), note=note)
    if os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no"):
        note = "the sandbox is off (WRAPGEN_SANDBOX=off): nothing was tried, since a proposal never runs unsandboxed"
        return TrialReport(tuple(classify_not_run(s, "the sandbox is off") for s in specs), note=note)
    run = run_trials(specs, bin_path=bin_path, timeout_s=timeout_s or DEFAULT_TRIAL_TIMEOUT_S,
                     jobs=jobs or DEFAULT_TRIAL_JOBS, try_in=try_in, cache=cache, deadline_at=deadline_at)
    note = run.note
    if run.sandbox_failed:
        note = f"the sandbox failed to start ({run.sandbox_failed}): nothing was tried"
    return TrialReport(tuple(classify(o) for o in run.outcomes), note=note)


def classify_not_run(spec: TrialSpec, why: str) -> Evidence:
    from wrapgen.model.trial import TrialOutcome

    return classify(TrialOutcome(spec.verb, spec.argv, not_run="write" if spec.why == "write" else why))


def try_proposal(proposal, *, bin_path: str, try_in=None, timeout_s: float | None = None, cache: bool = True,
                 deadline_at: float | None = None):
    """(the proposal acted on, its TrialReport): long-running, interactive and operand-less reads left
    out, writing reads relabelled, wrong JSON selections dropped, and the evidence in each ``x-why``."""
    report = try_manifest(proposal.manifest, bin_path=bin_path, try_in=try_in, timeout_s=timeout_s, cache=cache,
                          deadline_at=deadline_at)
    report = _retry_without_streaming(proposal.manifest, report, bin_path=bin_path, try_in=try_in,
                                      timeout_s=timeout_s, cache=cache, deadline_at=deadline_at)
    report = _retry_with_operands(proposal.manifest, report, bin_path=bin_path, try_in=try_in,
                                  timeout_s=timeout_s, cache=cache, deadline_at=deadline_at)
    manifest, dropped = apply_evidence(proposal.manifest, report.evidence)
    if not manifest.get("verbs") and any(item.kind == "lacks-operand" for item in dropped.values()):
        # a pack of no command helps nobody: keep the verbs that only lack an arg, saying so (cut without -f)
        report = replace(report, evidence=tuple(replace(item, kind="lacks-operand-kept") if item.kind == "lacks-operand"
                                                else item for item in report.evidence))
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


def _retry_without_streaming(manifest: dict, report: TrialReport, *, bin_path, try_in, timeout_s, cache,
                             deadline_at=None) -> TrialReport:
    """A long-running read whose cli[] has a literal streaming flag (``--follow``) is tried once more
    without it; when it then finishes, its evidence is that trial's, with the flag to drop."""
    verbs = manifest.get("verbs") or {}
    variants = {}
    for item in report.evidence:
        if item.kind == "long-running" and "cli" in verbs.get(item.verb, {}):
            cli, flags = without_streaming_flags(verbs[item.verb]["cli"])
            if flags:
                variants[item.verb] = (cli, flags)
    if not variants:
        return report
    trimmed = {**manifest, "verbs": {name: {**verbs[name], "cli": cli} for name, (cli, _) in variants.items()}}
    again = try_manifest(trimmed, bin_path=bin_path, try_in=try_in, timeout_s=timeout_s, cache=cache,
                         deadline_at=deadline_at).by_verb()
    evidence = []
    for item in report.evidence:
        retry = again.get(item.verb)
        if retry is not None and retry.kind not in ("long-running", "not-tried"):
            item = replace(retry, dropped_flags=variants[item.verb][1])
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def _retry_with_operands(manifest: dict, report: TrialReport, *, bin_path, try_in, timeout_s, cache,
                         deadline_at=None) -> TrialReport:
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
        again = try_manifest(filled, bin_path=bin_path, try_in=try_in, timeout_s=timeout_s, cache=cache,
                             deadline_at=deadline_at).by_verb()
        for verb, (_, chosen) in variants.items():
            retry = again.get(verb)
            if retry is not None and retry.kind not in ("lacks-operand", "not-tried"):
                found[verb] = replace(retry, required_args=chosen)
    evidence = [replace(found[item.verb], dropped_flags=item.dropped_flags) if item.verb in found else item
                for item in report.evidence]
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
    return lines


def try_pack_dirs(paths: Iterable, *, try_in=None, timeout_s: float | None = None) -> list[tuple[Path, TrialReport]]:
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
        out.append((Path(path), try_manifest(manifest.data, try_in=try_in, timeout_s=timeout_s, cache=False)))
    return out
