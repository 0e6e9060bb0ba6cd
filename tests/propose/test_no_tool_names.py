"""No tool's name in the code of propose/ (issue 26 item 4): what is true of one tool is knowledge data.

The names are those of the benchmark's tools (bench/data/tools.json) and of every tool a knowledge
table is keyed by; a name that is also an ordinary English word ("sort", "make", "find") is left out,
since a comment saying "sort by" names no tool. String literals and comments are scanned, docstrings
included: an example in a docstring is where a rule tuned to one tool shows first.
"""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from wrapgen.knowledge.table import load

REPO = Path(__file__).resolve().parents[2]
# probe/ has its own test (its fixtures run the programs that make sample files by name)
FOLDERS = ("propose",)

# Tool names that are ordinary words (or a word's usual abbreviation) in comments and prose, and
# "ls", which is also the name of many tools' listing subcommands.
WORDS = frozenset(
    "age ack apt black bundle convert coverage cut df diff dot file find flock free go grip hatch "
    "head http jc jest just lego less make nx pass packer ps sam sort ss stat tail task tree turbo "
    "typos uniq wc du ip zip ls".split()
)


def _names() -> frozenset[str]:
    data = json.loads((REPO / "bench" / "data" / "tools.json").read_text(encoding="utf-8"))
    names = {t[key] for t in data["tools"] for key in ("tool", "bin")}
    for path in (REPO / "wrapgen" / "knowledge" / "data").glob("*.json"):
        try:
            knowledge = load(path.stem)
        except Exception:  # a structured file (hardening, the usage table) has no keyed tables
            continue
        for table in knowledge.tables.values():
            names |= {e.tool for e in table if e.tool and e.tool != "*"}
    return frozenset(n for n in names if n not in WORDS)


def _hits(path: Path, pattern: re.Pattern[str]) -> list[str]:
    out = []
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING):
            out += [
                f"{path.name}:{token.start[0]}: {m.group(0)}"
                for m in pattern.finditer(token.string)
            ]
    return out


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_tool_is_named_in_generic_code(folder):
    """Every string and comment of the folder's modules is free of the benchmark's tool names."""
    names = sorted(_names(), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w./-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])", re.I)
    hits = [h for p in sorted((REPO / "wrapgen" / folder).rglob("*.py")) for h in _hits(p, pattern)]
    assert not hits, "a tool's name in generic code; make it knowledge data:\n" + "\n".join(hits)


def test_the_scan_finds_a_name(tmp_path):
    """The scan sees a name in a comment and in a string (so an empty result means something)."""
    pattern = re.compile(r"(?<![\w./-])(?:kubectl)(?![\w-])", re.I)
    module = tmp_path / "module.py"
    module.write_text('x = "kubectl get"  # kubectl\n', encoding="utf-8")
    assert len(_hits(module, pattern)) == 2
