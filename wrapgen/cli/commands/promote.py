"""``wrapgen promote PATHWRAP.yaml [-o DIR] [--check]``: turn a PATH wrap into named commands.

Writes one pack (or, above 12 commands, one pack per family group) under DIR, plus
``DIR/PROMOTION-<pack_id>.md``: the old wrap's reach against the new commands. Exit 1 when an
allowed subcommand does not exist in the tool (the rest is still written), when a pack fails
``wrapgen check``, or with ``--check`` when anything would change.
"""

from __future__ import annotations

import sys

from wrapgen.cli.paths import check_out_dir
from wrapgen.errors import ExitStatus

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument(
        "pathwrap",
        metavar="PATHWRAP.yaml",
        help="a PATH-wrap pack: pack_id, wrap.bin and wrap.allowedSubcommands",
    )
    parser.add_argument(
        "-o",
        "--out",
        default="adapters",
        metavar="DIR",
        help="write the pack(s) to DIR/PACK_ID and the report to DIR (default: adapters)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; print unified diffs and exit 1 when anything would change",
    )


def run(ns) -> int:
    from wrapgen.flows.promote import promote
    from wrapgen.pack.emit import write_files

    check_out_dir(ns.out)
    outcome = promote(ns.pathwrap, out_dir=ns.out)
    changes: list[str] = []
    for pack_id, files in outcome.packs.items():
        changes += [
            _prefix(d, f"{ns.out.rstrip('/')}/{pack_id}/")
            for d in write_files(f"{ns.out}/{pack_id}", files, check=ns.check)
        ]
    changes += [
        _prefix(d, f"{ns.out.rstrip('/')}/")
        for d in write_files(ns.out, {outcome.report_name: outcome.report}, check=ns.check)
    ]
    print(outcome.report, end="")
    print()
    for finding in outcome.findings:
        print(finding.format())
    for warning in outcome.plan.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    errors = [f for f in outcome.findings if f.level == "error"]
    if ns.check:
        for change in changes:
            sys.stdout.write(change)
        print(f"check: {len(changes)} file(s) would change" if changes else "check: up to date")
    else:
        print(
            f"wrote {len(outcome.packs)} pack(s) ({', '.join(outcome.packs)}) and "
            f"{ns.out.rstrip('/')}/{outcome.report_name}"
        )
    return (
        ExitStatus.FAILED
        if outcome.plan.missing or errors or (ns.check and changes)
        else ExitStatus.OK
    )


def _prefix(diff: str, prefix: str) -> str:
    return "".join(
        line[:6] + prefix.lstrip("/") + line[6:] if line.startswith(("--- a/", "+++ b/")) else line
        for line in diff.splitlines(keepends=True)
    )
