"""No tool's name in the generic code (issue 26 item 4): what is true of one tool is knowledge data
with its reason (wrapgen/knowledge/data/), never a string or a comment of the code that reads every
tool. Covers wrapgen/probe/ (the propose wing may add its own folder to GENERIC and its words to
GENERIC_WORDS, each with its reason)."""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from conftest import REPO

# The folders of generic code this test holds to it.
GENERIC = ("wrapgen/probe",)

# Tool names that are also plain words of the code's own prose or of every tool's help: they say
# nothing about one tool. Each with its reason.
GENERIC_WORDS = {
    "file": "the word for a file (and the kind of an operand)",
    "tree": "the command tree discovery reads",
    "pass": "the verb of a hint: 'pass --timeout'",
    "stat": "the system call a cache key is made from",
    "cut": "'cut short' by a deadline",
    "head": "the head of a file or of a help text",
    "find": "the verb",
    "diff": "a unified diff, as --check prints",
    "dot": "the character",
    "go": "the verb ('go with', 'goes')",
    "just": "the adverb ('--help just worked')",
    "make": "the verb ('make a sample file')",
    "task": "a task of the worker pool",
}

# Modules whose job is to run named programs, each with its reason: the names there are the
# programs they run, not facts about a tool being read.
NAMED_PROGRAMS = {
    "wrapgen/probe/runners.py": (
        "the task runners' readers: each asks its runner (make, npm, just, go-task) for its "
        "database of targets by the runner's own command, one reader per runner"
    ),
}
# Programs a module runs to make the trials' sample inputs: an archive, a compressed file, a
# repository, a certificate, a database in a format of its own. They are the tools that make a
# fixture (a sample kind, whatever tool is tried on it), not facts about the tool tried.
FIXTURE_MAKERS = {
    "wrapgen/probe/fixtures.py": frozenset(
        {"tar", "gzip", "xz", "zstd", "git", "openssl", "duckdb"}
    ),
}


def _tool_names() -> frozenset[str]:
    data = json.loads((REPO / "bench" / "data" / "tools.json").read_text(encoding="utf-8"))
    return frozenset(n for t in data["tools"] for n in (t["tool"], t["bin"]))


def _name_pattern(names) -> re.Pattern:
    # a name as a word of its own: not part of a longer word, a flag (--git-dir) or a path (.cargo
    # is a directory of its own name only when written as such)
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w.\-/$])(?:{alternatives})(?![\w\-])")


def _texts(path: Path):
    """(line, text) of every string literal and comment of a Python module."""
    source = path.read_text(encoding="utf-8")
    middle = getattr(tokenize, "FSTRING_MIDDLE", None)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.STRING, tokenize.COMMENT) or token.type == middle:
            yield token.start[0], token.string


def _modules():
    for folder in GENERIC:
        for module in sorted((REPO / folder).rglob("*.py")):
            if str(module.relative_to(REPO)) not in NAMED_PROGRAMS:
                yield module


@pytest.mark.parametrize("module", list(_modules()), ids=lambda p: str(p.relative_to(REPO)))
def test_no_tool_is_named_in_generic_code(module):
    """Every string and comment of a generic module is free of the benchmark's tool names."""
    relative = str(module.relative_to(REPO))
    allowed = set(GENERIC_WORDS) | FIXTURE_MAKERS.get(relative, frozenset())
    pattern = _name_pattern(_tool_names() - allowed)
    found = [
        f"{relative}:{line}: {match.group(0)!r} in {text.strip()[:90]!r}"
        for line, text in _texts(module)
        for match in pattern.finditer(text)
    ]
    assert not found, (
        "tool names in generic code (move the fact into wrapgen/knowledge/data/ with its reason, "
        "or describe the class of tool):\n" + "\n".join(found)
    )


def test_the_check_finds_a_planted_name(tmp_path):
    """The scan sees a tool's name in a comment and in a string, and not inside a longer word."""
    planted = tmp_path / "planted.py"
    planted.write_text('# kubectl keeps its flags apart\nx = "rclone"\ny = "a github url"\n')
    pattern = _name_pattern(_tool_names() - set(GENERIC_WORDS))
    hits = [m.group(0) for _, text in _texts(planted) for m in pattern.finditer(text)]
    assert hits == ["kubectl", "rclone"]
