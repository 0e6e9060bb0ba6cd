"""``wrapgen export PACK... --format mcp|openai|hcp|skill``: a pack's tools for a host to register.

mcp, openai and hcp print JSON; ``--format skill -o DIR`` writes one Agent Skill folder per
pack (``DIR/<pack_id>/SKILL.md`` and ``scripts/``, rendered by ``wrapgen.hosts.skill``) through
the one writer, ``pack/emit.py``; with ``--check`` it writes nothing and prints the diff.
"""

from __future__ import annotations

import os
import sys

from wrapgen.cli.paths import check_out_dir
from wrapgen.errors import ExitStatus, UsageError
from wrapgen.hosts.export import FORMATS, export_text, load_packs

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("packs", nargs="+", metavar="PACK", help="a pack directory, or a pack id")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="mcp",
        help="mcp: MCP tool definitions; openai: function tools; hcp: the pack's binding;"
        " skill: an Agent Skill folder per pack, written under -o DIR (default: mcp)",
    )
    parser.add_argument(
        "--prefix",
        action="store_true",
        help="name tools PACK.VERB even for one pack (the names `wrapgen serve` uses for several packs)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        help="with --format skill: the directory the skill folders go in",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="with --format skill: write nothing; print a unified diff of what would change and exit 1 if anything would",
    )


def _run_skill(ns, packs) -> int:
    from wrapgen.cli.output import report_written
    from wrapgen.hosts.skill import read_pack_files, render_skill
    from wrapgen.pack.emit import write_files

    if not ns.output:
        raise UsageError(
            "--format skill writes a folder per pack: pass -o DIR",
            hint="e.g. `wrapgen export adapters/git --format skill -o skills`",
        )
    if ns.prefix:
        raise UsageError(
            "--prefix names MCP and OpenAI tools; a skill is named after its pack",
            hint="leave out --prefix",
        )
    rendered = []
    seen: dict[str, str] = {}
    out_dir = os.path.abspath(ns.output)  # the skill names its adapter by this path
    for pack_dir, binding in packs:
        files = render_skill(binding, read_pack_files(pack_dir), out_dir=out_dir)
        name = next(iter(files)).split("/", 1)[0]
        if name in seen:
            raise UsageError(
                f"pack {name!r} is given twice",
                hint="name each pack once; each becomes the folder DIR/PACK_ID",
            )
        seen[name] = str(pack_dir)
        rendered.append((name, files))
    status = ExitStatus.OK
    for name, files in rendered:
        changes = write_files(ns.output, files, check=ns.check)
        folder = f"{ns.output.rstrip('/')}/{name}"
        written = (path.split("/", 1)[1] for path in files)
        if report_written(folder, changes, written, check=ns.check) is ExitStatus.FAILED:
            status = ExitStatus.FAILED
    return status


def run(ns) -> int:
    if ns.format != "skill" and (ns.output or ns.check):
        raise UsageError(
            f"-o and --check are for --format skill; --format {ns.format} prints to stdout",
            hint=f"redirect it instead: `wrapgen export PACK --format {ns.format} > FILE`",
        )
    check_out_dir(ns.output)
    packs = load_packs(ns.packs)
    if ns.format == "skill":
        return _run_skill(ns, packs)
    sys.stdout.write(
        export_text([binding for _, binding in packs], format=ns.format, prefix=ns.prefix or None)
    )
    return ExitStatus.OK
