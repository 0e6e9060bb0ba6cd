"""A development set for the rules: tools on this machine's PATH that have a tldr-pages page and are
in neither half of bench/data/split.json, wrapped cold, scored on how many of their page's examples
the pack can express.

The held-out half must never be tuned on, and the tuning half has been: where to find the next class
of defect without looking at either? Here. The set is drawn by the first hex digit of the SHA-256 of
each tool's name (``--digits``), like the split itself, so no one picks which tools are easy; a set
whose packs were looked at is spent, and the next digits make a fresh one to check a change on.
Tools with fewer than ``--min-examples`` examples on their page (default 6) are left out: a page of
two examples says little.

    python3 bench/dev_set.py --digits 89ab --regime no-usage --json /tmp/dev.json

``--regime no-usage`` hides the set from the usage table (what an internal tool gets); ``usage``
wraps as wrapgen is. ``--tools a,b`` names the tools instead. Prints one row per tool and the total;
``--json`` also writes every row (the examples expressed and not). Needs the pinned tldr-pages copy
beside the checkout (``--tldr``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

import evaluate as ev

DATA = Path(__file__).resolve().parent / "data"


def candidates(tldr: Path, digits: str, min_examples: int) -> list[str]:
    """The tools of the set: on PATH, with a page of enough examples, in neither half."""
    known = set()
    for tool in json.loads((DATA / "tools.json").read_text())["tools"]:
        known |= {tool["tool"], tool["bin"]}
    names: set[str] = set()
    for platform in ("common", "linux"):
        names |= {page.stem for page in (tldr / "pages" / platform).glob("*.md")}
    return [
        name
        for name in sorted(names)
        if name not in known
        and hashlib.sha256(name.encode()).hexdigest()[0] in digits
        and shutil.which(name)
        and len(ev.tldr_examples(tldr, name)) >= min_examples
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", default="0123", help="first hex digits of the names' SHA-256")
    parser.add_argument("--regime", default="no-usage", choices=["usage", "no-usage"])
    parser.add_argument("--tools", help="comma-separated tool names instead of the drawn set")
    parser.add_argument("--min-examples", type=int, default=6)
    parser.add_argument("--tldr", default=str(ev.DEFAULT_TLDR), help="a tldr-pages checkout")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", metavar="OUT", help="also write every row as JSON to OUT")
    options = parser.parse_args(argv)
    tldr = Path(options.tldr)
    if not (tldr / "pages").is_dir():
        parser.error(f"no tldr-pages at {tldr}")
    names = (
        list(dict.fromkeys(n.strip() for n in options.tools.split(",") if n.strip()))
        if options.tools
        else candidates(tldr, options.digits, options.min_examples)
    )
    if not names:
        print("no tool drawn: try other --digits", file=sys.stderr)
        return 1
    scratch = Path(tempfile.mkdtemp(prefix="wrapgen-dev-set-"))
    try:
        tools = [{"tool": name, "bin": name} for name in names]
        wraps = ev.wrap(tools, options.regime, scratch, options.jobs, names)
        rows = {}
        for name in names:
            row = ev.judge_tool(name, wraps[name], {}, tldr)
            row.pop("operand_missing", None)
            row["verb_names"] = wraps[name].get("verbs")
            rows[name] = row
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    done = total = 0
    for name, row in rows.items():
        score = row.get("tldr") or {"expressible": [], "not_expressible": []}
        said, missed = len(score["expressible"]), len(score["not_expressible"])
        done, total = done + said, total + said + missed
        verbs = row.get("verbs", "-")
        print(
            f"  {name:22} verbs {verbs!s:>3}  tldr {said}/{said + missed}  {row.get('error', '')}"
        )
    share = f"{100 * done / total:.0f} %" if total else "-"
    print(
        f"{len(rows)} tools ({options.regime}): tldr examples expressible {done}/{total} = {share}"
    )
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
