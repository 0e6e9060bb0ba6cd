"""What a tool's calls need from the per-call sandbox: data, not ``if tool ==``.

Data: ``data/sandbox.json``. ``sandbox_facts(tool)`` gives what the tool is known to need (the
network for every command or for some, the host's processes, files under HOME, daemon sockets, the marks of its working
tree); ``pack/sandbox.py`` turns it into a pack's ``sandbox:`` section.
"""

from __future__ import annotations

from dataclasses import dataclass

from wrapgen.knowledge.table import load
from wrapgen.knowledge.tools import base_name

__all__ = ["SandboxFacts", "sandbox_facts"]


@dataclass(frozen=True)
class SandboxFacts:
    """What one tool is known to need; empty for a tool the data does not name."""

    network: bool = False  # every command reaches the network
    host_processes: bool = False  # it lists the host's processes
    network_commands: tuple[str, ...] = ()  # subcommand paths ("remote update") that do
    home: tuple[str, ...] = ()
    sockets: tuple[str, ...] = ()
    root: tuple[str, ...] = ()


def _of(table: str, tool: str) -> tuple[str, ...]:
    return tuple(e.name for e in load("sandbox")[table] if e.tool == tool)


def sandbox_facts(tool: str) -> SandboxFacts:
    """The facts ``data/sandbox.json`` holds about ``tool`` (a name or a path)."""
    name = base_name(tool)
    return SandboxFacts(
        network=name in load("sandbox")["network_tools"].names,
        host_processes=name in load("sandbox")["host_processes"].names,
        network_commands=_of("network_commands", name),
        home=_of("home", name),
        sockets=_of("sockets", name),
        root=_of("root", name),
    )
