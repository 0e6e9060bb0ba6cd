"""``wrapgen check DIR... [--format text|json]``: lint pack directories (docs/contract.md §12)."""

from __future__ import annotations

import json

from wrapgen.errors import ExitStatus

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("dirs", nargs="+", metavar="DIR",
                        help="pack directories (or pack.yaml files); a directory of packs checks each one")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text: one PATH:LINE: CODE severity message per line; json: one object")
    parser.add_argument("--probe", action="store_true",
                        help="also render every verb with sample args and ask the real tool's help "
                             "whether it lists every flag used (docs/contract.md §12)")


def run(ns) -> int:
    from wrapgen.check.rules import check_packs, expand_pack_dirs

    findings = check_packs(ns.dirs)
    if getattr(ns, "probe", False):
        from wrapgen.check.probe import probe_packs

        findings = findings + probe_packs(ns.dirs)
    errors = sum(1 for d in findings if d.level == "error")
    warnings = sum(1 for d in findings if d.level == "warning")
    packs = len(expand_pack_dirs(ns.dirs))
    if ns.format == "json":
        print(json.dumps({
            "ok": errors == 0,
            "packs": packs,
            "errors": errors,
            "warnings": warnings,
            "findings": [d.to_dict() for d in findings],
        }, indent=2, ensure_ascii=False))
    else:
        for diagnostic in findings:
            print(diagnostic.format())
        print(f"{packs} pack{'s' * (packs != 1)} checked: {errors} error{'s' * (errors != 1)}, "
              f"{warnings} warning{'s' * (warnings != 1)}")
    return ExitStatus.FAILED if errors else ExitStatus.OK
