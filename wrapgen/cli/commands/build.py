"""``wrapgen build DIR... [--check]``: regenerate binding.json and adapter.py from pack.yaml.

A pack with lint errors is not built (warnings are printed and never stop the build); the
rules about the derived files themselves are skipped, since build is about to rewrite them.
"""

from __future__ import annotations

import sys

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument(
        "dirs",
        nargs="+",
        metavar="DIR",
        help="pack directories; a directory of packs builds each one",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; print a unified diff of what would change and exit 1 if anything would",
    )


def run(ns) -> int:
    from wrapgen.check.rules import expand_pack_dirs, lint_manifest
    from wrapgen.cli.output import print_error, report_written
    from wrapgen.errors import ExitStatus, ManifestError
    from wrapgen.pack.build import render_pack_files
    from wrapgen.pack.emit import write_files
    from wrapgen.pack.manifest import load_manifest

    status = ExitStatus.OK
    dirs = expand_pack_dirs(ns.dirs)
    for directory in dirs:
        try:
            manifest = load_manifest(directory)
        except ManifestError as error:
            if len(dirs) == 1:
                raise  # cli.main prints it as for any other command
            # One broken pack must not hide the state of the others in a batch build.
            status = print_error(error)
            continue
        findings = lint_manifest(manifest, directory=directory, derived=False)
        for diagnostic in findings:
            print(diagnostic.format(), file=sys.stderr)
        if any(d.level == "error" for d in findings):
            print(f"{directory}: not built: fix the errors above", file=sys.stderr)
            status = ExitStatus.FAILED
            continue
        files = render_pack_files(manifest.raw, path=manifest.path)
        changes = write_files(directory, files, check=ns.check)
        if report_written(str(directory), changes, files, check=ns.check) is ExitStatus.FAILED:
            status = ExitStatus.FAILED
    return status
