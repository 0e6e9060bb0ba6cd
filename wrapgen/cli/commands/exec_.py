"""``wrapgen exec PACK VERB [--json] -- k=v ...`` and ``wrapgen exec --envelope FILE|-``.

The command line is the runtime's own (``wrapgen.runtime.exec_main``), shared with every
``adapter.py`` so that both faces behave the same; argparse cannot express ``VERB -- k=v``.
"""

from __future__ import annotations

from wrapgen.runtime.main import EXEC_USAGE, exec_main

__all__ = ["main", "add_arguments", "run"]


def main(argv: list[str]) -> int:
    """Run ``wrapgen exec ARGV``; usage errors print on stderr and return 2."""
    return exec_main(argv)


def add_arguments(parser) -> None:
    """For callers that build the parser themselves: everything goes to ``exec_main`` verbatim."""
    import argparse

    parser.usage = EXEC_USAGE.splitlines()[0].replace("usage: ", "")
    parser.add_argument("argv", nargs=argparse.REMAINDER, help="PACK VERB [--json] -- k=v ...")


def run(namespace) -> int:
    return exec_main(list(namespace.argv))
