#!/usr/bin/env python3
"""Regenerate the tables in docs/ that are made from code and data, not written by hand.

    python3 scripts/docs_tables.py           # rewrite the tables in place
    python3 scripts/docs_tables.py --check   # write nothing; print a diff and exit 1 when a table is stale

Each generated table sits between two markers in its page, ``<!-- generated:NAME -->`` and
``<!-- /generated:NAME -->``; everything outside the markers is prose and is left alone:

- ``proposals`` in docs/propose.md: one row per command of every pack under ``adapters/``;
- ``dangerous-flags`` in docs/packs-and-check.md: the catalogue rule W030 and the proposal use.

This is a maintainer's tool, kept outside the package on purpose: the package never rewrites
its own documentation, and ``wrapgen.propose`` stays free of YAML. ``tests/docs`` checks that the
pages hold exactly what this script produces.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Callable, Mapping

import yaml

REPO = Path(__file__).resolve().parent.parent

# Packs shown first, in this order (the tools a reader knows best); any other pack follows by name.
PACK_ORDER = ("git", "gh", "kubectl", "docker", "rg", "jq", "fd", "curl")

__all__ = ["TABLES", "catalogue_table", "proposal_table", "read_packs", "render_page", "main"]


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def proposal_table(packs: Mapping[str, str]) -> str:
    """``packs``: pack id -> pack.yaml text, in the order to show; one row per command."""
    lines = ["| pack | command | cli | effect | why |", "|---|---|---|---|---|"]
    for pack_id, text in packs.items():
        data = yaml.safe_load(text)
        for name, verb in data["verbs"].items():
            policy = verb.get("policy", {})
            effect = policy.get("effect", "read") + (" (confirm)" if policy.get("confirm") else "")
            cli = " ".join(verb.get("cli", []))
            lines.append(
                f"| {pack_id} | `{name}` | `{_cell(cli)}` | {effect} | {_cell(verb.get('x-why', ''))} |"
            )
    return "\n".join(lines) + "\n"


def catalogue_table() -> str:
    """The dangerous-flags catalogue, the value guards, the program subcommands and the loader
    environment, as Markdown."""
    from wrapgen.knowledge.dangerous_flags import (
        CATALOGUE,
        LOADER_ENV,
        PROGRAM_COMMANDS,
        VALUE_GUARDS,
    )

    lines = ["| tool | flags | why |", "|---|---|---|"]
    for entry in CATALOGUE:
        flags = ", ".join(f"`{s}`" for s in entry.spellings)
        lines.append(f"| {entry.tool} | {flags} | {entry.why} |")
    for guard in VALUE_GUARDS:
        flags = ", ".join(f"`{s}`" for s in guard.spellings)
        lines.append(
            f"| {guard.tool} | values of {flags} must match `{guard.pattern}` | {guard.why} |"
        )
    for entry in PROGRAM_COMMANDS:
        paths = ", ".join(f"`{s}`" for s in entry.spellings)
        lines.append(f"| {entry.tool} | subcommand {paths} (W033) | {entry.why} |")
    reasons: dict[str, list[str]] = {}
    for name, why in LOADER_ENV:
        reasons.setdefault(why, []).append(name)
    for why, names in reasons.items():
        lines.append(f"| * | env.set {', '.join(f'`{_cell(n)}`' for n in names)} (W031) | {why} |")
    return "\n".join(lines) + "\n"


def read_packs(adapters: Path = REPO / "adapters") -> dict[str, str]:
    """Every pack.yaml under ``adapters``, keyed by directory name, in the table's order."""
    found = {
        p.name: (p / "pack.yaml").read_text(encoding="utf-8")
        for p in sorted(adapters.iterdir())
        if (p / "pack.yaml").is_file()
    }

    def rank(name: str):
        return (PACK_ORDER.index(name) if name in PACK_ORDER else len(PACK_ORDER), name)

    return {name: found[name] for name in sorted(found, key=rank)}


# table name -> (the page holding it, relative to the repository; what renders it)
TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "proposals": ("docs/propose.md", lambda: proposal_table(read_packs())),
    "dangerous-flags": ("docs/packs-and-check.md", catalogue_table),
}


def render_page(text: str, tables: Mapping[str, str]) -> str:
    """``text`` with the body between each table's markers replaced; a missing marker is an error."""
    for name, table in tables.items():
        start, end = f"<!-- generated:{name} -->", f"<!-- /generated:{name} -->"
        if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
            raise ValueError(f"expected one {start} ... {end} pair")
        head, rest = text.split(start)
        _, tail = rest.split(end)
        text = f"{head}{start}\n{table}{end}{tail}"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when a table is stale"
    )
    ns = parser.parse_args(argv)
    pages: dict[str, dict[str, str]] = {}
    for name, (page, render) in TABLES.items():
        pages.setdefault(page, {})[name] = render()
    stale = 0
    for page, tables in pages.items():
        path = REPO / page
        old = path.read_text(encoding="utf-8")
        try:
            new = render_page(old, tables)
        except ValueError as error:
            print(f"Error: {page}: {error}", file=sys.stderr)
            return 2
        if new == old:
            continue
        stale += 1
        if ns.check:
            sys.stdout.writelines(
                difflib.unified_diff(old.splitlines(True), new.splitlines(True), page, page)
            )
        else:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {page}")
    return 1 if ns.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
