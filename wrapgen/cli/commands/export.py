"""``wrapgen export PACK... --format mcp|openai|hcp``: print a pack's tools for a host to register."""

from __future__ import annotations

import sys

from wrapgen.errors import ExitStatus
from wrapgen.hosts.export import FORMATS, export_text, load_packs

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("packs", nargs="+", metavar="PACK", help="a pack directory, or a pack id")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="mcp",
        help="mcp: MCP tool definitions; openai: function tools; hcp: the pack's binding (default: mcp)",
    )
    parser.add_argument(
        "--prefix",
        action="store_true",
        help="name tools PACK.VERB even for one pack (the names `wrapgen serve` uses for several packs)",
    )


def run(ns) -> int:
    packs = load_packs(ns.packs)
    sys.stdout.write(export_text([binding for _, binding in packs], format=ns.format, prefix=ns.prefix or None))
    return ExitStatus.OK
