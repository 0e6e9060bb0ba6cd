"""Trials: run each read verb of a pack for real, with sample args, in the probe sandbox ("try before you ship").

``run_trials(specs, ...)`` runs every ``TrialSpec`` (a verb's rendered argv) in bubblewrap, the sandbox
of ``sandbox.py`` that discovery's help probes use: the whole file system read-only but for a fresh
scratch working directory, HOME and TMPDIR per trial, no network, its own PID namespace, dying with
wrapgen, stdin ``/dev/null`` and no controlling terminal. Its environment is the probe's, with the
start-up settings of ``knowledge/data/trials.json``'s ``trial_env`` (``GOGC=400``: a large Go binary
no longer spends a third of its start collecting garbage) and then the pack's ``env.set``. At most ``jobs`` trials run at once (2 to 4),
each for at most ``timeout_s``. With ``try_in`` the directory is copied into each trial's scratch
working directory first (a tool that reads its cwd, a version control or build tool, is then tried on real content).

An unchanged binary's trial is not run twice: outcomes are cached beside discovery's entries
(``probe/cache.py``; a trial's sandbox has no network, no daemon and no login, so its outcome depends
on the binary, the argv and the env as help text does); ``cache=False`` (``wrap --no-cache``) runs them.

With ``deadline_at`` (a ``time.monotonic()`` value: the end of the whole ``wrap``) a trial starts only
while a whole ``timeout_s`` is left before it, so none is cut short by the deadline (which would look
like a long-running verb); one left out so is "not tried: wrap's deadline passed".

A spec marked ``run=False`` (a write verb, or sample args that do not render) is never run: its
outcome says why. Where bubblewrap cannot run, nothing runs: ``TrialRun.note`` says why, once, and
every outcome is "not tried" (a proposal is never run unsandboxed). Where bubblewrap runs ``true`` but
fails to start a trial (a mount it refuses), the outcome's ``sandbox_failed`` holds bwrap's first line.

What a trial did is returned as ``wrapgen.model.trial.TrialOutcome`` values with every scratch path
taken out (``new_paths`` are relative: ``work/x``, ``home/.config/y``); classifying them is
``wrapgen.check.trial_evidence``'s job, and pure.
"""

from __future__ import annotations

import os
import re
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Mapping, Sequence

from wrapgen.model.trial import TrialOutcome, is_json_text
from wrapgen.probe.fixtures import make_inputs
from wrapgen.probe.install import program_paths
from wrapgen.probe.prober import clean_text, probe_env, toolchain_paths
from wrapgen.probe.sandbox import SYSTEM_DIRS, Scratch, bwrap_argv, sandbox_status
from wrapgen.runtime.process import run_process
from wrapgen.runtime.waiting import tree_state

__all__ = [
    "TrialSpec",
    "TrialRun",
    "run_trials",
    "drain_cleanup",
    "DEFAULT_TRIAL_TIMEOUT_S",
    "DEFAULT_TRIAL_JOBS",
]

DEFAULT_TRIAL_TIMEOUT_S = 3.0
DEFAULT_TRIAL_JOBS = 4
_OUTPUT_CAP = 4 << 20
_KEEP_TEXT = 16384  # what an outcome keeps of stdout / stderr (the classifier reads the start)
_BWRAP_SAID = re.compile(r"^bwrap: ", re.MULTILINE)
DEADLINE_NOT_RUN = "wrap's deadline passed before it could be tried"


@dataclass(frozen=True)
class TrialSpec:
    verb: str
    argv: tuple[str, ...]  # rendered; argv[0] is the bin as the pack names it
    env: Mapping[str, str] = field(default_factory=dict)  # the pack's env.set
    json_selected: bool = False
    run: bool = True  # False: rendered only (a write verb), ``why`` says so
    why: str = ""
    guard: Mapping | None = (
        None  # the pack's config_guard: applied to a --try-in copy (runtime/guard.py)
    )
    # the kinds of sample file made in its working directory first (probe/fixtures.py: "json", or
    # a "cwd:" kind that makes the directory a repository); a trial without --try-in always gets a text file there too
    inputs: tuple[str, ...] = ()
    # the verb's declared answer statuses ({"1": "no matches"}): what classifying its outcome needs
    answers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TrialRun:
    outcomes: tuple[TrialOutcome, ...]
    note: str = ""  # why nothing was tried (no sandbox here), "" when the sandbox ran
    sandbox_failed: str = ""  # bwrap's own first line when it failed to start a trial


def _snapshot(root: str) -> dict[str, tuple[int, int] | None]:
    """Every path under the scratch cwd and HOME: a file's (size, mtime_ns), None for a directory."""
    out: dict[str, tuple[int, int] | None] = {}
    for name in ("work", "home"):
        top = os.path.join(root, name)
        for directory, dirs, files in os.walk(top):
            rel = os.path.relpath(directory, root)
            # a directory ends in "/", so that ignored_paths can tell an empty folder from a file
            out.update((os.path.join(rel, entry) + "/", None) for entry in dirs)
            for entry in files:
                try:
                    stat = os.lstat(os.path.join(directory, entry))
                    out[os.path.join(rel, entry)] = (stat.st_size, stat.st_mtime_ns)
                except OSError:
                    out[os.path.join(rel, entry)] = (-1, -1)
    return out


# The sample files every trial without --try-in finds in its working directory: a read that reads its
# directory (a search, a listing, a linter or formatter given ".") then has something to read, a text,
# a Python source with what linters report, and a JSON document.
_ALWAYS = ("text", "python", "json")


def _in_copy(args, source: str | None, copy: str) -> list[str]:
    """``args`` with the ``--try-in`` directory named by path pointing at the trial's copy of it: a task
    runner's pack runs ``make -C /abs/repo``, and its trial must run the recipe in the copy, where
    what it writes or deletes is seen (the real one is read-only there, and a silent ``rm -f`` would
    say nothing)."""
    if not source:
        return list(args)
    source = source.rstrip("/")
    out = []
    for token in args:
        if token == source or token.startswith(source + "/"):
            token = copy + token[len(source) :]
        elif "=" + source in token:
            head, _, rest = token.partition("=" + source)
            if not rest or rest.startswith("/"):
                token = f"{head}={copy}{rest}"
        out.append(token)
    return out


def _inputs(spec: TrialSpec, try_in: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(spec.inputs if try_in else (*_ALWAYS, *spec.inputs)))


def _scrub(text: str, root: str) -> str:
    """Tool output without the scratch directories' names (they differ every run)."""
    return text.replace(root, "<scratch>")


# Scratch directories a trial is done with, removed on a thread of their own (``defer_cleanup``): on
# a busy disk removing one took 10-50 ms, which the next trial of the same chain waited out.
_cleanup_lock = threading.Lock()
_cleanup_pool: ThreadPoolExecutor | None = None
_cleanup_pending: list[Future] = []


def _release(scratch: Scratch, defer: bool) -> None:
    global _cleanup_pool
    if not defer:
        scratch.__exit__(None, None, None)
        return
    with _cleanup_lock:
        if _cleanup_pool is None:
            _cleanup_pool = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="wrapgen-trial-cleanup"
            )
        _cleanup_pending.append(_cleanup_pool.submit(scratch.__exit__, None, None, None))


def drain_cleanup() -> None:
    """Wait until every scratch directory a deferred trial left is removed (``run_trials(defer_cleanup=True)``)."""
    with _cleanup_lock:
        pending = list(_cleanup_pending)
        _cleanup_pending.clear()
    for future in pending:
        future.result()


# the key under which a kept outcome names the timeout it ran with (its key names the usual one)
_RAN_WITH = "ran_with_timeout_s"


def _cached(
    spec: TrialSpec,
    *,
    bwrap: str,
    bin_path: str,
    timeout_s: float,
    try_in: str | None,
    base_env: Mapping[str, str],
    cache: bool,
    deadline_at: float | None = None,
    key_timeout_s: float | None = None,
    defer_cleanup: bool = False,
) -> TrialOutcome:
    """``_one``, answered from the trial cache where it can be (``probe/cache.py``); ``key_timeout_s``
    is the timeout the cache key names, when it is not the one this trial runs with."""
    from wrapgen.probe import cache as disk

    key = None
    # a longer second try is asked because the usual one was no answer: where its key holds that
    # try's outcome (one waiting on the network is kept), it runs, and its outcome is kept instead;
    # one kept by an earlier longer try answers it
    longer_try = key_timeout_s is not None and key_timeout_s < timeout_s
    if cache and spec.run and not try_in:
        key = disk.trial_key(
            bin_path,
            identity={
                "argv": list(spec.argv),
                "env": dict(spec.env),
                "inputs": list(spec.inputs),
                "json": spec.json_selected,
                "timeout_s": timeout_s if key_timeout_s is None else key_timeout_s,
            },
        )
        stored = disk.load_trial(key)
        ran_with = stored.pop(_RAN_WITH, 0.0) if stored is not None else 0.0
        if longer_try and ran_with < timeout_s:
            stored = None  # the first try's outcome: this try is asked because it was no answer
        if stored is not None:
            try:
                return replace(
                    TrialOutcome(
                        **{k: tuple(v) if isinstance(v, list) else v for k, v in stored.items()}
                    ),
                    verb=spec.verb,
                )
            except TypeError:
                pass  # another version's fields: try again
    if spec.run and deadline_at is not None and deadline_at - time.monotonic() < timeout_s:
        return TrialOutcome(
            spec.verb, tuple(spec.argv), json_selected=spec.json_selected, not_run=DEADLINE_NOT_RUN
        )
    outcome = _one(
        spec,
        bwrap=bwrap,
        bin_path=bin_path,
        timeout_s=timeout_s,
        try_in=try_in,
        base_env=base_env,
        defer_cleanup=defer_cleanup,
    )
    # a timeout may be the machine's load, a sandbox failure the machine's setup: neither is kept; but a
    # verb still running at a longer second try (key_timeout_s: a slow start ruled out) is long-running,
    # and one that slept at its timeout after trying the network (retrying_network) waits on what no
    # trial's sandbox ever gives: the next wrap would wait the same timeout out for the same answer.
    # One that printed and kept running is no answer yet: the chain tries it again, longer, under
    # the same key (flows/trial_steps.retry_slow_start), and that try's outcome is the one kept
    timeout_is_its_own = longer_try or outcome.retrying_network
    if key is not None and not (
        (outcome.timed_out and not timeout_is_its_own) or outcome.sandbox_failed or outcome.not_run
    ):
        disk.store_trial(key, {**asdict(outcome), _RAN_WITH: timeout_s})
    return outcome


def _one(
    spec: TrialSpec,
    *,
    bwrap: str,
    bin_path: str,
    timeout_s: float,
    try_in: str | None,
    base_env: Mapping[str, str],
    defer_cleanup: bool = False,
) -> TrialOutcome:
    if not spec.run:
        return TrialOutcome(
            spec.verb,
            tuple(spec.argv),
            json_selected=spec.json_selected,
            not_run=spec.why or "write",
        )
    scratch = Scratch(prefix="wrapgen-trial-").__enter__()
    try:
        return _in_scratch(
            spec,
            scratch,
            bwrap=bwrap,
            bin_path=bin_path,
            timeout_s=timeout_s,
            try_in=try_in,
            base_env=base_env,
        )
    finally:
        _release(scratch, defer_cleanup)


def _in_scratch(
    spec: TrialSpec,
    scratch: Scratch,
    *,
    bwrap: str,
    bin_path: str,
    timeout_s: float,
    try_in: str | None,
    base_env: Mapping[str, str],
) -> TrialOutcome:
    shown = tuple(spec.argv)
    if try_in:
        scratch.fill_from(try_in)
    inputs = _inputs(spec, try_in)
    missing = make_inputs(scratch.workdir, inputs)
    if missing:
        return TrialOutcome(
            spec.verb,
            shown,
            json_selected=spec.json_selected,
            tried_in=bool(try_in),
            inputs=inputs,
            not_run=f"not tried: {missing}",
        )
    before = _snapshot(scratch.root)
    env = {
        **base_env,
        **dict(spec.env),
        "HOME": scratch.home,
        "TMPDIR": scratch.tmpdir,
        "PWD": scratch.workdir,
    }

    def sandboxed(command):
        return bwrap_argv(
            command,
            bwrap=bwrap,
            disable_userns=sandbox_status().disable_userns,
            workdir=scratch.workdir,
            home=scratch.home,
            tmpdir=scratch.tmpdir,
            readable=program_paths([bin_path], search_path=env.get("PATH", ""), system=SYSTEM_DIRS)
            + toolchain_paths(env),
        )

    if (
        try_in and spec.guard
    ):  # a copy of the user's content: its own config must not run a program either
        from wrapgen.errors import WrapgenError
        from wrapgen.runtime.guard import guarded_env

        try:
            env = guarded_env(
                {"config_guard": dict(spec.guard)},
                bin_path,
                env,
                cwd=scratch.workdir,
                wrap=sandboxed,
            )
        except WrapgenError as error:
            return TrialOutcome(
                spec.verb,
                shown,
                json_selected=spec.json_selected,
                tried_in=True,
                not_run=f"could not be tried: {error.message}",
            )
    argv = sandboxed([bin_path, *_in_copy(spec.argv[1:], try_in, scratch.workdir)])
    at_timeout = []
    result = run_process(
        argv,
        timeout_s=timeout_s,
        output_cap=_OUTPUT_CAP,
        cwd=scratch.workdir,
        env=env,
        on_timeout=lambda pid: at_timeout.append(tree_state(pid)),
    )
    state = at_timeout[0] if at_timeout else None
    retrying = bool(state is not None and state.retrying_network(timeout_s))
    after = _snapshot(scratch.root)
    stdout, binary = clean_text(result.stdout[:_KEEP_TEXT])
    stderr, _ = clean_text(result.stderr[:_KEEP_TEXT])
    stdout, stderr = _scrub(stdout, scratch.root), _scrub(stderr, scratch.root)
    if result.not_found:
        return TrialOutcome(
            spec.verb,
            shown,
            json_selected=spec.json_selected,
            tried_in=bool(try_in),
            not_run=f"could not run: {result.not_found}",
        )
    if result.exit_code == 1 and _BWRAP_SAID.search(stderr) and not stdout.strip():
        first = next(line for line in stderr.splitlines() if line.startswith("bwrap: "))
        return TrialOutcome(
            spec.verb, shown, json_selected=spec.json_selected, sandbox_failed=first[:200]
        )
    # JSON is judged on the whole output (up to the cap); the outcome keeps only its start
    parsed = is_json_text(result.stdout.decode("utf-8", "replace")) if spec.json_selected else None
    return TrialOutcome(
        spec.verb,
        shown,
        exit_code=result.exit_code,
        signal=result.signal,
        timed_out=result.timed_out,
        output_capped=result.output_capped,
        stdout=stdout,
        stderr=stderr,
        new_paths=tuple(sorted(set(after) - set(before))),
        changed_paths=tuple(
            sorted(
                p for p, seen in before.items() if seen is not None and after.get(p, seen) != seen
            )
        ),
        removed_paths=tuple(sorted(set(before) - set(after))),
        inputs=inputs,
        binary_output=bool(binary),
        json_selected=spec.json_selected,
        stdout_json=parsed,
        tried_in=bool(try_in),
        # (on_timeout is called only at a timeout)
        retrying_network=retrying,
        tried_network=bool(state is not None and state.net_attempts),
    )


def run_trials(
    specs: Sequence[TrialSpec],
    *,
    bin_path: str,
    timeout_s: float = DEFAULT_TRIAL_TIMEOUT_S,
    jobs: int = DEFAULT_TRIAL_JOBS,
    try_in: str | os.PathLike | None = None,
    cache: bool = True,
    deadline_at: float | None = None,
    memo: dict | None = None,
    key_timeout_s: float | None = None,
    defer_cleanup: bool = False,
) -> TrialRun:
    """Run the specs' trials in the sandbox, at most ``jobs`` at once; outcomes in the specs' order.

    With ``cache`` an unchanged binary's trial with the same argv and env is answered from the
    cache (never one in a ``try_in`` copy, never one that timed out but waiting on the network the
    sandbox does not give, or still running at a longer second try). ``memo`` (a dict the caller keeps
    for one wrap) answers a spec already run in this wrap, with any outcome, even with ``cache`` off:
    a backfilled proposal tries again only the verbs that changed. ``key_timeout_s``: the timeout the
    trial cache keys name (a slow start tried again with a longer timeout is kept as the answer to
    the usual one, so the next wrap does not wait the usual timeout out first). With ``defer_cleanup``
    the scratch directories are removed on a thread of their own, after the outcomes are returned:
    the caller waits for that with ``drain_cleanup()`` once it has no more trials to run."""
    status = sandbox_status()
    if not status.available:
        note = f"no sandbox here ({status.reason}): nothing was tried, since a proposal never runs unsandboxed"
        return TrialRun(
            tuple(
                TrialOutcome(
                    s.verb,
                    tuple(s.argv),
                    json_selected=s.json_selected,
                    not_run=(s.why or "write") if not s.run else "no sandbox here",
                )
                for s in specs
            ),
            note=note,
        )
    from wrapgen.knowledge.trials import trial_env

    base_env = {**probe_env(), **trial_env()}
    source = os.path.abspath(os.fspath(try_in)) if try_in else None
    jobs = max(1, min(int(jobs), 4))

    def one(spec: TrialSpec) -> TrialOutcome:
        key = (
            tuple(spec.argv),
            tuple(sorted(dict(spec.env).items())),
            tuple(spec.inputs),
            spec.json_selected,
            spec.run,
            timeout_s,
        )
        if memo is not None and key in memo:
            return replace(memo[key], verb=spec.verb)
        outcome = _cached(
            spec,
            bwrap=status.bwrap,
            bin_path=bin_path,
            timeout_s=timeout_s,
            try_in=source,
            base_env=base_env,
            cache=cache,
            deadline_at=deadline_at,
            key_timeout_s=key_timeout_s,
            defer_cleanup=defer_cleanup,
        )
        if memo is not None and outcome.not_run != DEADLINE_NOT_RUN:
            memo[key] = outcome
        return outcome

    if len(specs) == 1:  # (a chain's one verb: no pool of its own)
        outcomes = (one(specs[0]),)
    else:
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="wrapgen-trial") as pool:
            outcomes = tuple(pool.map(one, specs))
    failed = next((o.sandbox_failed for o in outcomes if o.sandbox_failed), "")
    return TrialRun(outcomes, sandbox_failed=failed)
