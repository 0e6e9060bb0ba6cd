"""``wrapgen check DIR... [--format text|json] [--probe] [--try [--try-in DIR] [--try-timeout S]] | --drift``: lint pack
directories (docs/contract.md §12), or with ``--drift`` say what changed in each pack's tool since the pack
was made (docs/packs-and-check.md)."""

from __future__ import annotations

import json

from wrapgen.errors import ExitStatus

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument(
        "dirs",
        nargs="+",
        metavar="DIR",
        help="pack directories (or pack.yaml files); a directory of packs checks each one",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: one PATH:LINE: CODE severity message per line; json: one object",
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="also render every verb with sample args and ask the real tool's help "
        "whether it lists every flag used (docs/contract.md §12)",
    )
    parser.add_argument(
        "--drift",
        action="store_true",
        help="instead of linting, read each pack's installed tool again and classify what changed "
        "since the pack was made: breaking, compatible or metadata; the exit status says "
        "the worst (0 none, 3 metadata, 4 compatible, 5 breaking)",
    )
    parser.add_argument(
        "--try",
        dest="try_",
        action="store_true",
        help="also run every read verb with sample args in the sandbox and report what it shows "
        "(W060-W064: long-running, interactive, writing, missing operand, not JSON)",
    )
    parser.add_argument(
        "--try-in",
        metavar="DIR",
        help="with --try: copy DIR into each trial's scratch working directory",
    )
    parser.add_argument(
        "--try-timeout",
        type=float,
        metavar="SECONDS",
        help="with --try: per trial (default: 3); a verb still running then is long-running "
        "(raise it on a slow machine, or for a tool that starts a daemon on its first call)",
    )


def run(ns) -> int:
    from wrapgen.check.rules import check_packs, expand_pack_dirs

    if getattr(ns, "drift", False):
        if getattr(ns, "try_", False):
            from wrapgen.errors import UsageError

            raise UsageError(
                "--drift and --try are two separate checks",
                hint="run `wrapgen check --try DIR` apart",
            )
        return _run_drift(ns, expand_pack_dirs(ns.dirs))

    notes: list[str] = []
    if getattr(ns, "try_", False):
        findings, notes = _tried(ns)
    else:
        for option, given in (("--try-in", ns.try_in), ("--try-timeout", ns.try_timeout)):
            if given is not None:
                from wrapgen.errors import UsageError

                raise UsageError(
                    f"{option} needs --try", hint=f"wrapgen check --try {option} ... PACK_DIR"
                )
        findings = check_packs(ns.dirs)
    if getattr(ns, "probe", False):
        from wrapgen.check.probe import probe_packs

        findings = findings + probe_packs(ns.dirs)
    errors = sum(1 for d in findings if d.level == "error")
    warnings = sum(1 for d in findings if d.level == "warning")
    packs = len(expand_pack_dirs(ns.dirs))
    if ns.format == "json":
        print(
            json.dumps(
                {
                    "ok": errors == 0,
                    "packs": packs,
                    "errors": errors,
                    "warnings": warnings,
                    "findings": [d.to_dict() for d in findings],
                    **({"trials": notes} if getattr(ns, "try_", False) else {}),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        for line in notes:
            print(line)
        for diagnostic in findings:
            print(diagnostic.format())
        _show_sandboxes(expand_pack_dirs(ns.dirs))
        print(
            f"{packs} pack{'s' * (packs != 1)} checked: {errors} error{'s' * (errors != 1)}, "
            f"{warnings} warning{'s' * (warnings != 1)}"
        )
    return ExitStatus.FAILED if errors else ExitStatus.OK


def _show_sandboxes(pack_dirs) -> None:
    """What each pack's calls may have in their sandbox (its ``sandbox:`` section in words), for the
    packs that declare one."""
    from wrapgen.pack.sandbox import describe_pack

    for pack_dir in pack_dirs:
        lines = describe_pack(pack_dir)
        if lines:
            print(f"{pack_dir}: sandbox: " + "; ".join(lines))


def _run_drift(ns, pack_dirs) -> int:
    from wrapgen.errors import UsageError
    from wrapgen.flows.drift import pack_drift

    if getattr(ns, "probe", False):
        raise UsageError(
            "--drift and --probe are two separate checks",
            hint="run `wrapgen check --probe DIR` apart",
        )
    drifts = [(pack_dir, pack_drift(pack_dir)) for pack_dir in pack_dirs]
    status = max((drift.exit_status for _, drift in drifts), default=ExitStatus.OK)
    if ns.format == "json":
        print(
            json.dumps(
                {
                    "packs": [{"dir": str(d), **drift.to_dict()} for d, drift in drifts],
                    "exit_status": int(status),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return status
    for pack_dir, drift in drifts:
        print(f"{pack_dir}: {drift.summary()}")
        for change in drift.changes:
            print(f"  {change.level}: {change.message}")
    counts = {
        level: sum(1 for _, d in drifts if d.level == level)
        for level in ("breaking", "compatible", "metadata")
    }
    said = ", ".join(f"{n} {level}" for level, n in counts.items() if n) or "no drift"
    print(f"{len(drifts)} pack{'s' * (len(drifts) != 1)} checked for drift: {said}")
    return status


def _tried(ns):
    """check with ``--try``: every pack's findings with its trial evidence, and the trial summary lines."""
    from wrapgen.check.rules import check_pack, expand_pack_dirs
    from wrapgen.cli.progress import StatusLine
    from wrapgen.flows.trial_run import check_try_timeout
    from wrapgen.flows.trials import trial_lines, try_pack_dirs

    check_try_timeout(ns.try_timeout)
    with StatusLine() as status:  # on a terminal only: which pack is being tried
        status.stage("trying")
        tried = dict(
            try_pack_dirs(
                ns.dirs,
                try_in=ns.try_in,
                timeout_s=ns.try_timeout,
                progress=lambda done, total, pack: status.item(done, total, pack or "done"),
            )
        )
    findings, notes, said = [], [], set()
    for path in expand_pack_dirs(ns.dirs):
        report = tried.get(path)
        findings += check_pack(path, trials=report.by_verb() if report is not None else None)
        if report is None:
            continue
        if report.note:
            if report.note not in said:  # "no sandbox here" once, not once per pack
                said.add(report.note)
                notes.append(f"trials: {report.note}")
            continue
        notes += [f"{path}: {line}" for line in trial_lines(report)]
    return findings, notes
