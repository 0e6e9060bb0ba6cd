"""``wrapgen wrap TOOL [-o DIR] [--pick PATH ...] [--recipe FILE] [--usage-from PATH...] [--check] [--depth N] [--timeout S] [--no-try] [--try-in DIR] ...``.

Discovers the tool, proposes 5 to 12 commands, writes ``DIR/<pack_id>/`` (pack.yaml, binding.json,
adapter.py), checks it, and prints what it chose and why, and what it left out and why.
"""

from __future__ import annotations

import os
from collections import Counter

from wrapgen.cli.paths import check_out_dir
from wrapgen.cli.progress import StatusLine
from wrapgen.errors import ExitStatus

__all__ = ["add_arguments", "run", "summary_lines"]

_MAX_LEFT_OUT_SHOWN = 25


def add_arguments(parser) -> None:
    parser.add_argument(
        "tool", nargs="?", help="the tool: a name on PATH or a path (optional with --recipe)"
    )
    parser.add_argument(
        "-o",
        "--out",
        default="adapters",
        metavar="DIR",
        help="directory that receives <pack_id>/ (default: adapters)",
    )
    parser.add_argument(
        "--pick",
        action="append",
        default=[],
        metavar="PATH",
        help='take this subcommand path instead of proposing ("pr list"); repeatable',
    )
    parser.add_argument(
        "--recipe", metavar="FILE", help="a recipe: which commands, names, overrides"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing: print a diff of what would change and exit 1 on a difference",
    )
    # the discovery knobs `wrapgen discover` has, so that its hints ("raise --timeout") hold here too
    parser.add_argument(
        "--depth", type=int, help="how deep to read subcommands (default: 3, or the recipe's)"
    )
    parser.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="per help probe (default: 5)"
    )
    parser.add_argument(
        "--deadline", type=float, metavar="SECONDS", help="for the whole discovery (default: 120)"
    )
    parser.add_argument(
        "--total-deadline",
        type=float,
        metavar="SECONDS",
        help="for the whole wrap: discovery, JSON field probes, trials, writing (default: 300)",
    )
    parser.add_argument(
        "--style", help="force a help parser (gnu, argparse, click, cobra, clap, git, man, docopt)"
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="read the tool's help (and its --json field lists) again, ignoring the cache",
    )
    parser.add_argument(
        "--dir",
        metavar="DIR",
        help="for a task runner (make, npm, just, task): the repository whose targets to wrap "
        "(default: the current directory, when it holds the runner's file)",
    )
    parser.add_argument(
        "--runner-file",
        metavar="FILE",
        help="for make or task: the runner's file when it has a name the runner does not look for "
        "(ci/release.mk), relative to --dir; the pack names it (make -f, task --taskfile)",
    )
    # try before you ship (docs/packs-and-check.md, "Trials"): read verbs run in the sandbox with sample args
    tries = parser.add_mutually_exclusive_group()
    tries.add_argument(
        "--try",
        dest="try_",
        action="store_true",
        help="try the read verbs in the sandbox also with --recipe (as batch, it does not by default)",
    )
    tries.add_argument(
        "--no-try",
        action="store_true",
        help="do not try the proposed read verbs in the sandbox (tried by default where bwrap runs)",
    )
    parser.add_argument(
        "--try-in",
        metavar="DIR",
        help="copy DIR into each trial's scratch working directory (a repository for git)",
    )
    parser.add_argument(
        "--try-timeout",
        type=float,
        metavar="SECONDS",
        help="per trial (default: 3); a verb still running then is long-running",
    )
    parser.add_argument(
        "--usage-from",
        nargs="+",
        action="extend",
        default=[],
        metavar="PATH",
        help="files or folders whose scripts, Makefiles, CI workflows, Dockerfiles, Markdown or "
        "shell history call the tool: how it is used guides the proposal (values are never copied)",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="a large tool (git, gh, kubectl, docker): one pack per command family, each 5 to 12 commands",
    )


def _table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def fmt(r):
        return "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()

    return [fmt(header), fmt(tuple("-" * w for w in widths)), *map(fmt, rows)]


def summary_lines(result, *, hint: bool = True) -> list[str]:
    """The summary table: chosen commands with their cli and reason, then what was left out, and
    (with ``hint``) whether ``--split`` would help."""
    proposal = result.proposal
    verbs = proposal.manifest["verbs"]
    lines = [f"pack {result.pack_id}: {len(verbs)} commands -> {result.pack_dir}", ""]
    rows = []
    for d in proposal.chosen:
        verb = verbs.get(d.name, {})
        cli = " ".join(verb.get("cli", []))
        rows.append(
            (
                d.name,
                d.effect + (" (confirm)" if verb.get("policy", {}).get("confirm") else ""),
                cli if len(cli) <= 70 else cli[:69] + "…",
                d.reason,
            )
        )
    lines += _table(rows, ("command", "effect", "cli", "why"))
    left = [d for d in proposal.decisions if not d.chosen]
    if left:
        lines += ["", f"left out ({len(left)}):"]
        shown = left[:_MAX_LEFT_OUT_SHOWN]
        lines += _table([(d.path or "(the tool itself)", d.reason) for d in shown], ("path", "why"))
        if len(left) > len(shown):
            rest = Counter(d.reason.split(":")[0] for d in left[len(shown) :])
            lines.append(
                f"  … and {len(left) - len(shown)} more: "
                + ", ".join(f"{n} {why}" for why, n in sorted(rest.items()))
            )
    lines += ["", f"json: {proposal.json_note}"]
    for warning in proposal.warnings[:10]:
        lines.append(f"warning: {warning}")
    if len(proposal.warnings) > 10:
        lines.append(f"warning: … and {len(proposal.warnings) - 10} more from discovery")
    for note in getattr(result, "notes", ()):
        lines.append(f"note: {note}")
    if hint and getattr(proposal, "split_hint", ""):
        lines.append(f"note: {proposal.split_hint}")
    return lines


def _trials_wanted(ns) -> bool:
    """Trials run by default, but not for --recipe (whose pack must be what `wrapgen batch` writes)
    unless --try or --try-in asks for them; --no-try never."""
    if ns.no_try:
        return False
    return bool(ns.try_ or ns.try_in or not ns.recipe)


def run(ns) -> int:
    from wrapgen.errors import UsageError
    from wrapgen.flows.wrap import wrap

    recipe = None
    if ns.recipe:
        from wrapgen.pack.recipe import load_recipe

        recipe = load_recipe(ns.recipe)
    if not ns.tool and recipe is None:
        raise UsageError("wrap needs a TOOL or --recipe FILE", hint="for example: wrapgen wrap git")
    options = {
        "depth": ns.depth,
        "timeout_s": ns.timeout,
        "style": ns.style,
        "cache": False if ns.no_cache else None,
        "deadline_s": ns.deadline,
    }
    if ns.try_in:
        from wrapgen.flows.trials import check_try_in

        check_try_in(ns.try_in)  # before discovery: a bad --try-in is said at once
    from wrapgen.flows.trial_run import check_try_timeout

    check_try_timeout(ns.try_timeout)
    usage_from = list(getattr(ns, "usage_from", None) or ())
    missing = [path for path in usage_from if not os.path.exists(path)]
    if missing:
        raise UsageError(
            f"--usage-from {missing[0]}: no such file or folder",
            hint="give the scripts, Makefiles, workflows or folders that call the tool",
        )
    if getattr(ns, "split", False):
        return _run_split(ns, options, recipe, usage_from)
    from wrapgen.flows.wrap import WRAP_DEADLINE_S

    total = WRAP_DEADLINE_S if getattr(ns, "total_deadline", None) is None else ns.total_deadline
    if not 0 < total <= 86400:
        raise UsageError("--total-deadline must be above 0 and at most 86400 seconds")
    check_out_dir(ns.out)
    status = StatusLine()  # on a terminal only: where the wrap is, what it read and tried
    stage = _Stage(status.stage)
    with _Watchdog(ns.tool or recipe.tool, total, stage, trial_timeout_s=ns.try_timeout), status:
        result = wrap(
            ns.tool,
            out_dir=ns.out,
            picks=ns.pick,
            recipe=recipe,
            check=ns.check,
            discover_options=options,
            runner_dir=ns.dir,
            runner_file=ns.runner_file,
            usage_from=usage_from,
            trials=_trials_wanted(ns),
            try_in=ns.try_in,
            trial_timeout_s=ns.try_timeout,
            deadline_s=total,
            stage=stage,
            progress=status.discovery,
            trial_progress=status.trials,
        )
    return _report(ns, result)


class _Stage:
    """The step a wrap is in (``wrap(..., stage=)`` calls it), for the watchdog's message; ``shown``
    is told it too (the status line)."""

    def __init__(self, shown=None):
        self.name = "starting"
        self._shown = shown

    def __call__(self, name: str) -> None:
        self.name = name
        if self._shown is not None:
            self._shown(name)


# Past the wrap's deadline every part stops starting work; its last spawn may still run its own
# timeout (a trial's, or the 5 s probe timeout) and the supervisor's 5 s sweep. Past that as well,
# something without a bound holds the wrap: the watchdog ends the process.
_WATCHDOG_GRACE_S = 15.0


class _Watchdog:
    """Ends a wrap that outlives its deadline by more than its last spawn could: the tools it runs
    are stopped (``runtime.stop_all``), where the wrap was is written to a file (every thread's
    stack: what was stuck), one ``Error:`` line says so, and the process exits with status FAILED.

    A thread that waits for the deadline, not a signal: it fires even when the main thread waits in
    a system call that ``SIGALRM`` would not interrupt. A last resort for a stuck thread that holds
    the interpreter lock (C code that never releases it): ``faulthandler`` ends the process 30 s later.
    """

    def __init__(
        self, tool: str, total_s: float, stage: _Stage, *, trial_timeout_s: float | None = None
    ):
        from wrapgen.probe.trial import DEFAULT_TRIAL_TIMEOUT_S

        self.tool, self.total_s, self.stage = tool, total_s, stage
        self.limit_s = (
            total_s + max(trial_timeout_s or DEFAULT_TRIAL_TIMEOUT_S, 5.0) + _WATCHDOG_GRACE_S
        )
        self._done = None
        self._log = None

    def __enter__(self):
        import faulthandler
        import tempfile
        import threading

        self._done = threading.Event()
        try:
            self._log = tempfile.NamedTemporaryFile(
                "w", prefix="wrapgen-wrap-stuck-", suffix=".txt", delete=False
            )
            faulthandler.dump_traceback_later(self.limit_s + 30, exit=True, file=self._log)
        except OSError:
            self._log = None
        threading.Thread(target=self._watch, name="wrapgen-wrap-watchdog", daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        import faulthandler
        import os

        self._done.set()
        faulthandler.cancel_dump_traceback_later()
        if self._log is not None:
            self._log.close()
            try:
                os.unlink(self._log.name)
            except OSError:
                pass

    def _watch(self) -> None:
        import os
        import sys
        import threading
        import traceback

        if self._done.wait(self.limit_s):
            return
        stuck_in = self.stage.name  # now: once its tools are stopped below, the wrap may move on
        where = ""
        if self._log is not None:
            try:
                frames = sys._current_frames()
                for thread in threading.enumerate():
                    if thread.ident in frames and thread is not threading.current_thread():
                        self._log.write(
                            f"thread {thread.name}:\n{''.join(traceback.format_stack(frames[thread.ident]))}\n"
                        )
                self._log.flush()
                where = f"; where it was: {self._log.name}"
            except (OSError, ValueError):
                pass
        try:
            from wrapgen.runtime import stop_all

            stop_all(timeout_s=2.0)
        except BaseException:  # noqa: BLE001 - the exit below must happen
            pass
        try:
            from wrapgen.cli.output import print_error
            from wrapgen.errors import DeadlineError

            print_error(
                DeadlineError(
                    f"wrap {self.tool} did not finish within {self.limit_s:g} s (its deadline is {self.total_s:g} s); "
                    f"it was stopped during {stuck_in}{where}",
                    hint="raise --total-deadline if the machine is just slow, or pass --no-try to skip the trials",
                )
            )
        finally:
            os._exit(ExitStatus.FAILED)


def _run_split(ns, options, recipe, usage_from) -> int:
    """``--split``: one pack per family, each reported as a plain ``wrap`` is."""
    from wrapgen.errors import UsageError
    from wrapgen.flows.wrap import wrap_split

    if recipe is not None or ns.pick:
        raise UsageError(
            "--split proposes every family itself: it takes no --recipe or --pick",
            hint="drop --split to wrap the commands a recipe or --pick lists",
        )
    status = ExitStatus.OK
    check_out_dir(ns.out)
    results = wrap_split(
        ns.tool, out_dir=ns.out, check=ns.check, discover_options=options, usage_from=usage_from
    )
    for result in results:
        status = max(status, _report(ns, result, hint=False))
        print("")
    print(f"split: {len(results)} packs: " + ", ".join(r.pack_id for r in results))
    return status


def _report(ns, result, *, hint: bool = True) -> int:
    for line in summary_lines(result, hint=hint):
        print(line)
    if result.trials is not None:
        from wrapgen.flows.trials import trial_lines

        print("")
        for line in trial_lines(result.trials):
            print(line)
    if ns.check:
        for change in result.changes:
            print(change, end="" if change.endswith("\n") else "\n")
        print(
            f"check: {len(result.changes)} file(s) would change"
            if result.changes
            else "check: up to date"
        )
    print("")
    for finding in result.findings:
        print(finding.format())
    errors = len(result.errors)
    warnings = sum(1 for d in result.findings if d.level == "warning")
    print(
        f"wrapgen check: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    )
    if errors or (ns.check and result.changes):
        return ExitStatus.FAILED
    return ExitStatus.OK
