"""``NodeRead``: what reading one node of a tool's tree gave (the crawl's and the frameworks' value)."""

from __future__ import annotations

from dataclasses import dataclass

from wrapgen.model.tool import Command

__all__ = ["NodeRead"]


@dataclass(frozen=True)
class NodeRead:
    """One node's outcome: the command read (None when no probe worked) and what went wrong."""

    path: tuple[str, ...]
    command: Command | None
    text: str = ""
    problems: tuple[str, ...] = ()
    transient: bool = False  # a probe timed out: the result should not be cached
    man_due: bool = False  # the man page is still to be merged in (``with_man``): read only if kept
    # probed, not yet parsed (``read_node(defer_parse=...)``): the probes' results so far, by args,
    # which ``read_node(known=...)`` reads as though it had just run them
    parse_due: tuple = ()
