"""Proposal helpers shared by tests/propose/ and tests/live/test_propose_*_live.py."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.check.rules import lint_manifest
from wrapgen.model.tool import Tool
from wrapgen.pack.manifest import dump_manifest, parse_manifest

__all__ = ["checked", "chosen", "tar_from_fixture"]


def checked(manifest: dict) -> list[str]:
    """The error diagnostics `wrapgen check` gives the manifest, formatted (derived files not compared)."""
    parsed, diagnostics = parse_manifest(dump_manifest(manifest).encode(), path="pack.yaml")
    return [
        d.format() for d in lint_manifest(parsed, diagnostics, derived=False) if d.level == "error"
    ]


def chosen(proposal) -> list[str]:
    """The names of the commands a proposal chose, in its order."""
    return [d.name for d in proposal.chosen]


def tar_from_fixture() -> Tool:
    """GNU tar, read from its stored help (tests/fixtures/help/gnu/tar.txt) instead of the installed tar."""
    from wrapgen.parse import parse_help

    text = (FIXTURES / "help" / "gnu" / "tar.txt").read_text()
    return Tool(name="tar", root=parse_help(text, prog=("tar",), style="gnu"))
