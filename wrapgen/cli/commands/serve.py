"""``wrapgen serve PACK... [--transport stdio] [--confirm auto|elicit|arg|deny] [--max-in-flight N] [--max-queue N]``."""

from __future__ import annotations

import os
import sys
import threading

from wrapgen.hosts.export import load_packs

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("packs", nargs="+", metavar="PACK", help="a pack directory, or a pack id")
    parser.add_argument(
        "--transport",
        choices=("stdio",),
        default="stdio",
        help="how the host talks to us (default: stdio)",
    )
    parser.add_argument(
        "--prefix",
        action="store_true",
        help="name tools PACK.VERB even for one pack (always so with several packs)",
    )
    parser.add_argument(
        "--confirm",
        choices=("auto", "elicit", "arg", "deny"),
        default="auto",
        help="who confirms a confirm-gated tool: elicit asks the person through MCP elicitation; arg lets the"
        " model pass confirm=true; deny refuses them; auto (default) is elicit when the client supports it, else arg",
    )
    parser.add_argument(
        "--max-in-flight",
        type=_count(1),
        default=4,
        metavar="N",
        help="tool calls that run at once (default: 4)",
    )
    parser.add_argument(
        "--max-queue",
        type=_count(0),
        default=32,
        metavar="N",
        help="calls that wait for a slot; past it a call is answered 'server busy' (default: 32)",
    )
    parser.add_argument(
        "--no-drift-check",
        action="store_true",
        help="do not compare each pack's recorded tool version with `TOOL --version` at start",
    )


def _drift_notices(packs) -> list[str]:
    """What start-up says about packs whose tool drifted: the recorded version line against
    ``TOOL --version`` now (one probe per pack, no crawl: `wrapgen check --drift` says what changed)."""
    from wrapgen.flows.drift import version_drifts

    notices = []
    for pack_dir, drift in version_drifts([pack_dir for pack_dir, _ in packs]):
        if drift.level == "none":
            continue
        notices.append(
            f"{drift.pack_id}: the tool drifted since the pack was made ({drift.summary()});"
            f" run `wrapgen check --drift {pack_dir}` to see what changed"
        )
    return notices


def _warn_drift(packs) -> None:
    try:
        notices = _drift_notices(packs)
    except Exception as error:  # a failed check must not take the server down; say so and go on
        notices = [
            f"could not compare the packs' tools with what is installed ({type(error).__name__}: {error})"
        ]
    for notice in notices:
        try:
            sys.stderr.write(f"wrapgen serve: warning: {notice}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            return


def _count(minimum: int):
    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    return parse


def run(ns) -> int:
    # Check the SDK before loading packs, so a missing extra is the first thing said.
    from wrapgen.hosts.mcp import require_mcp, serve

    require_mcp()
    packs = load_packs(ns.packs)
    if not ns.no_drift_check:
        # in the background: `TOOL --version` per pack must not hold up the server's start
        threading.Thread(
            target=_warn_drift, args=(packs,), name="wrapgen-drift-check", daemon=True
        ).start()
    status = serve(
        packs,
        transport=ns.transport,
        prefix=ns.prefix or None,
        confirm=ns.confirm,
        max_in_flight=ns.max_in_flight,
        max_queue=ns.max_queue,
    )
    # The session is over and every tool is dead. Tearing down the SDK's interpreter state takes
    # a second or more on a busy machine, past the grace a host gives before it sends SIGTERM;
    # there is nothing left to finalize, so leave now.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
