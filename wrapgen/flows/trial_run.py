"""Running a manifest's trials and classifying them: the part of try-before-you-ship every step shares.

``trial_specs(manifest)`` renders every verb with sample args (``check.trial_evidence.sample_args``,
exactly as the runtime renders: ``runtime.render_argv`` with the verb's JSON selection) and names the
sample files each needs; ``try_manifest`` runs the read verbs in the sandbox (``probe.trial.run_trials``;
write verbs are rendered, never run) and classifies each outcome (``check.trial_evidence.classify``),
with the tool's own state in HOME (``learn_state``) apart. ``wrapgen.flows.trials`` strings the steps
of each verb's chain (``wrapgen.flows.trial_steps``) together and acts on the evidence.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from wrapgen.check.trial_evidence import Evidence, classify, sample_args, sample_inputs
from wrapgen.errors import ToolNotFoundError
from wrapgen.probe.prober import resolve_tool
from wrapgen.probe.trial import (
    DEFAULT_TRIAL_JOBS,
    DEFAULT_TRIAL_TIMEOUT_S,
    TrialSpec,
    run_trials,
)

__all__ = [
    "TrialReport",
    "check_try_in",
    "trial_specs",
    "try_manifest",
    "classify_not_run",
    "learn_state",
    "STATE_PROBE",
    "TRY_IN_MAX_FILES",
    "TRY_IN_MAX_BYTES",
]


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


# The longest a ``--try-timeout`` may ask for one trial, in seconds.
TRY_TIMEOUT_MAX_S = 600


def check_try_timeout(seconds: float | None) -> None:
    """A UsageError when a ``--try-timeout`` is given and is not above 0 and at most
    ``TRY_TIMEOUT_MAX_S`` seconds (wrap's and check's)."""
    if seconds is not None and not 0 < seconds <= TRY_TIMEOUT_MAX_S:
        from wrapgen.errors import UsageError

        raise UsageError(f"--try-timeout must be above 0 and at most {TRY_TIMEOUT_MAX_S} seconds")


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


def trial_specs(
    manifest: dict, *, extra_inputs: Mapping[str, Sequence[str]] = {}
) -> list[TrialSpec]:
    """One spec per verb: read verbs rendered with sample args to run, the others to render only.
    ``extra_inputs``: more sample kinds per verb (``cwd:git``: its working directory a repository)."""
    from wrapgen.pack.build import resolve_verb
    from wrapgen.runtime import RenderError, render_argv

    env = dict(((manifest.get("env") or {}).get("set")) or {})
    guard = manifest.get("config_guard") if isinstance(manifest.get("config_guard"), dict) else None
    specs = []
    for name in manifest.get("verbs") or {}:
        verb = resolve_verb(manifest, name)
        # what a generic file operand holds: the verb's words, then the pack's and its tool's name
        # (a file that gzip lists or xz tests is one in its format)
        context = (
            f"{verb.get('description', '')} {manifest.get('description', '')} {manifest['bin']}"
        )
        args = sample_args(verb["args"], context=context)
        try:
            argv = render_argv(verb["argv"], args, json_selection=verb["json"])
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
                inputs=sample_inputs(args) + tuple(extra_inputs.get(name, ())),
                answers=dict(verb.get("exit_codes") or {}),
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
    state: Iterable[str] = (),
    extra_inputs: Mapping[str, Sequence[str]] = {},
) -> TrialReport:
    """The evidence of every verb of ``manifest`` (a dict as pack.yaml holds it); past ``deadline_at``
    (``time.monotonic()``) no trial starts. ``defer_cleanup``: see ``run_trials`` (the caller drains).
    ``state``: the tool's own state in HOME (``learn_state``), which no verb's trial writes;
    ``extra_inputs``: see ``trial_specs``."""
    specs = trial_specs(manifest, extra_inputs=extra_inputs)
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
    state = tuple(state)
    return TrialReport(
        tuple(
            classify(o, state=state, answers=spec.answers) for o, spec in zip(run.outcomes, specs)
        ),
        note=note,
    )


def classify_not_run(spec: TrialSpec, why: str) -> Evidence:
    from wrapgen.model.trial import TrialOutcome

    return classify(
        TrialOutcome(spec.verb, spec.argv, not_run="write" if spec.why == "write" else why)
    )


# The argv of the run that shows what a tool writes into HOME whatever it is asked (terraform's
# checkpoint signature, gcloud's configuration folder): --version, which every verb's run includes
STATE_PROBE = ("--version",)


def learn_state(manifest: dict, **options) -> tuple[str, ...]:
    """The tool's own state in HOME: the folders named after it (``home/.TOOL/``, ``home/.config/TOOL/``:
    ``named_state_roots``) and those (``home/.terraform.d/``) its ``--version`` run made in the
    trial sandbox, with the pack's environment (answered from the trial cache like a trial)."""
    from wrapgen.check.trial_evidence import home_writes, named_state_roots, state_roots

    named = named_state_roots(str(manifest.get("bin") or ""))

    bin_path = options.get("bin_path") or ""
    if not bin_path:
        try:
            bin_path = resolve_tool(str(manifest["bin"])).path
        except ToolNotFoundError:
            return named
    if not bin_path or os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no"):
        return named
    env = dict(((manifest.get("env") or {}).get("set")) or {})
    spec = TrialSpec("(its own state)", (manifest["bin"], *STATE_PROBE), env=env)
    run = run_trials(
        [spec],
        bin_path=bin_path,
        timeout_s=options.get("timeout_s") or DEFAULT_TRIAL_TIMEOUT_S,
        cache=options.get("cache", True),
        deadline_at=options.get("deadline_at"),
        memo=options.get("memo"),
        defer_cleanup=options.get("defer_cleanup", False),
    )
    learned = state_roots(home_writes(run.outcomes[0])) if run.outcomes else ()
    return tuple(sorted({*named, *learned}))
