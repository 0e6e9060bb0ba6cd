"""``wrapgen serve PACK... [--transport stdio]``: serve packs to an MCP host."""

from __future__ import annotations

import os
import sys

from wrapgen.hosts.export import load_packs

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("packs", nargs="+", metavar="PACK", help="a pack directory, or a pack id")
    parser.add_argument(
        "--transport", choices=("stdio",), default="stdio", help="how the host talks to us (default: stdio)"
    )
    parser.add_argument(
        "--prefix",
        action="store_true",
        help="name tools PACK.VERB even for one pack (always so with several packs)",
    )


def run(ns) -> int:
    # Check the SDK before loading packs, so a missing extra is the first thing said.
    from wrapgen.hosts.mcp import require_mcp, serve

    require_mcp()
    packs = load_packs(ns.packs)
    status = serve(packs, transport=ns.transport, prefix=ns.prefix or None)
    # The session is over and every tool is dead. Tearing down the SDK's interpreter state takes
    # a second or more on a busy machine, past the grace a host gives before it sends SIGTERM;
    # there is nothing left to finalize, so leave now.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
