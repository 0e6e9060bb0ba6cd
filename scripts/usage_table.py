#!/usr/bin/env python3
"""Distil a tldr-pages checkout into the usage table shipped in the package (issue 26).

    python3 scripts/usage_table.py --pages DIR             # a tldr-pages checkout -> usage.json
    python3 scripts/usage_table.py --pages DIR -o FILE     # another file
    python3 scripts/usage_table.py --pages DIR --check     # write nothing; exit 1 when stale

``--pages`` defaults to ``$WRAPGEN_TLDR_PAGES``. The table's commit is
08e345f42639f67d99282813247ac670dc6e87cb; a checkout at another commit gives another table.

Reads ``pages/common`` and ``pages/linux`` of the checkout (a page in both: the linux one, as a tldr
client on Linux shows it) and writes ``wrapgen/knowledge/data/usage.json``: per program, each
shape of use its examples show (subcommand path, flags, valued flags with their value's kind,
operands' kinds and names) and how many examples show it. The format is described in
``wrapgen/usage/__init__.py``; the reading of a page in ``wrapgen/usage/tldr.py``.

Facts only: no sentence of a page, and no placeholder's example value, reaches the table. The
same pages give the same bytes (sorted keys, a stable row order, no time stamp). The pages are
CC BY 4.0: the table's ``source`` names tldr-pages and the commit (read from the checkout's
SOURCE.md), and README.md and the wheel's metadata carry the attribution.

An example that does not read as a command line is skipped with one line on stderr saying which
and why; the rest of its page is used.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from wrapgen.model.usage import Use, UsedOperand  # noqa: E402
from wrapgen.usage.shape import Line, count_uses  # noqa: E402
from wrapgen.usage.tldr import page_title, read_page  # noqa: E402

PAGES_ENV = "WRAPGEN_TLDR_PAGES"
OUTPUT = REPO / "wrapgen" / "knowledge" / "data" / "usage.json"
PLATFORMS = ("common", "linux")  # later ones win for a page in both
LICENCE = "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); see usage.LICENSE.md"

__all__ = ["read_pages", "distil", "render", "main"]


def read_pages(root: Path) -> dict[str, str]:
    """Page name -> text, over the platforms in order (linux's page replaces common's)."""
    pages: dict[str, str] = {}
    for platform in PLATFORMS:
        folder = root / "pages" / platform
        if folder.is_dir():
            for path in sorted(folder.glob("*.md")):
                pages[path.stem] = f"{platform}/{path.name}\n" + path.read_text(encoding="utf-8")
    return pages


def _operand(op: UsedOperand) -> list:
    return [op.kind, op.name, 1] if op.repeated else [op.kind, op.name]


def _row(use: Use) -> list:
    valued = [[flag, op.kind, op.name] for flag, op in zip(use.valued, use.values)]
    return [list(use.path), list(use.flags), valued, [_operand(o) for o in use.operands], use.count]


def distil(pages: dict[str, str], *, source: str, log=None) -> dict:
    """The table of a set of pages (name -> "platform/file\\n" + text); skips go to ``log``."""
    titles = {name: page_title(text.partition("\n")[2]) for name, text in pages.items()}
    known: set[tuple[str, ...]] = set()
    for title in titles.values():
        for n in range(2, len(title) + 1):
            known.add(title[:n])
    lines: dict[str, list[Line]] = {}
    for name in sorted(pages):
        where, _, text = pages[name].partition("\n")
        page = read_page(text, known=lambda tool, path: (tool, *path) in known)
        if page is None:
            if log:
                log(f"skipped {where}: no '# title' line")
            continue
        for skip in page.skipped:
            if log:
                log(f"skipped {where}:{skip.line}: {skip.reason}")
        lines.setdefault(page.tool, []).extend(page.lines)
    tools = {
        tool: [_row(use) for use in count_uses(tool_lines)]
        for tool, tool_lines in sorted(lines.items())
        if tool_lines and re.match(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$", tool)
    }
    return {"source": source, "licence": LICENCE, "tools": tools}


def render(table: dict) -> str:
    """The table as JSON text: one tool a line, sorted keys, LF, a final newline."""
    head = {k: v for k, v in table.items() if k != "tools"}
    out = ["{"]
    for key in sorted(head):
        out.append(f"{json.dumps(key)}: {json.dumps(head[key], ensure_ascii=False)},")
    out.append('"tools": {')
    tools = table["tools"]
    for i, tool in enumerate(sorted(tools)):
        comma = "," if i < len(tools) - 1 else ""
        rows = json.dumps(tools[tool], ensure_ascii=False, separators=(",", ":"))
        out.append(f"{json.dumps(tool)}:{rows}{comma}")
    out.append("}}")
    return "\n".join(out) + "\n"


def _source(root: Path) -> str:
    about = root / "SOURCE.md"
    commit = ""
    if about.is_file():
        match = re.search(r"\b[0-9a-f]{40}\b", about.read_text(encoding="utf-8"))
        commit = match.group(0) if match else ""
    pinned = f" commit {commit}" if commit else ""
    return f"tldr-pages (https://github.com/tldr-pages/tldr){pinned}, pages/common + pages/linux"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get(PAGES_ENV)
    parser.add_argument(
        "--pages",
        type=Path,
        default=Path(default) if default else None,
        help=f"a tldr-pages checkout (default: ${PAGES_ENV})",
    )
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when stale")
    args = parser.parse_args(argv)
    if args.pages is None or not (args.pages / "pages").is_dir():
        print(f"error: no pages/ in {args.pages}; pass --pages DIR (a tldr-pages checkout)")
        return 2
    table = distil(
        read_pages(args.pages),
        source=_source(args.pages),
        log=lambda line: print(line, file=sys.stderr),
    )
    text = render(table)
    if args.check:
        old = args.output.read_text(encoding="utf-8") if args.output.is_file() else ""
        if old == text:
            return 0
        sys.stdout.writelines(
            difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), str(args.output), "(regenerated)", n=0
            )
        )
        return 1
    args.output.write_text(text, encoding="utf-8")
    uses = sum(row[-1] for rows in table["tools"].values() for row in rows)
    rows = sum(len(rows) for rows in table["tools"].values())
    print(
        f"{args.output}: {len(table['tools'])} tools, {rows} shapes, {uses} uses, "
        f"{len(text.encode())} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
