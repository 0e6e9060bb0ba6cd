"""Example and usage lines split without bashlex where they need no shell parser (issue 13's speed
goal: importing bashlex costs about 0.2 s of CPU, more than a crawl of amtool spends on the rest),
and split exactly as bashlex splits them: checked against bashlex itself on the captured help."""

from __future__ import annotations

import re
import subprocess
import sys

import bashlex

from conftest import FIXTURES
from wrapgen.parse import usage


def _bashlex_commands(line: str):
    """What usage._shell_commands gave before the fast path (bashlex, shlex when bashlex refuses)."""
    import shlex

    commands = []
    try:
        for tree in bashlex.parse(line):
            stack = [tree]
            while stack:
                node = stack.pop()
                if node.kind == "command":
                    words = [p.word for p in node.parts if p.kind == "word"]
                    if words:
                        commands.append(words)
                    continue
                stack.extend(reversed(getattr(node, "parts", None) or []))
    except Exception:  # noqa: BLE001
        try:
            return [shlex.split(line)]
        except ValueError:
            return None
    return commands


def _bashlex_usage(line: str) -> list[str]:
    protected = re.sub(r"<[^<>]*>", lambda m: m[0].replace(" ", "\x01"), line)
    try:
        trees = bashlex.parse(usage._USAGE_META.sub(r"\\\1", protected))
        words = [w for tree in trees for w in usage._words(tree)] or protected.split()
    except Exception:  # noqa: BLE001
        words = protected.split()
    return [w.replace("\x01", " ") for w in words]


def _lines(pattern: re.Pattern, limit: int = 2500) -> list[str]:
    found = set()
    for path in sorted((FIXTURES / "help").rglob("*.txt")):
        for line in path.read_text(errors="replace").splitlines():
            line = line.strip()
            line = (line[2:].strip() if line.startswith("$ ") else line)[: usage.MAX_LINE]
            if line and pattern.search(line):
                found.add(line)
    return sorted(found)[:limit]


CRAFTED = [
    "amtool alert query 'alertname=~foo.*' node=bar",
    "amtool silence query -o json foo > foo.json",
    "gh auth login --with-token < mytoken.txt",
    "tool 2>&1 | grep x && tool y",
    "tool >> log x",
    "tool x 2>/dev/null",
    "tool >&2 y",
    "tool a |& tee",
    "tool x &",
    "tool x;",
    "a 'b c' | d && e",
    'tool "it\'s"',
    "tool 'a'\"b\"c",
    "'-x'/'--exec' option last.",
    "FOO=1 tool x",
    "! tool",
    "| tool",
    "tool ||| x",
    "tool 'unbalanced",
    "tool a;; b",
    "a && && b",
    "gh repo clone <repo>",
    "tool <repo> --depth 1",
    "tool a>b",
    "tool &> f",
    "tool > ",
    "then it is possible to use '--pre-glob' 'x'",
    "name=HTTPie  description='CLI HTTP client'",
]


def test_example_lines_split_as_bashlex_splits_them():
    lines = _lines(usage._SHELL_META) + CRAFTED
    fast = 0
    for line in lines:
        simple = usage._simple_commands(line)
        if simple is not None:
            fast += 1
            assert simple == _bashlex_commands(line), line
    assert fast > 300, (fast, len(lines))  # the fast path is a common one


def test_crafted_lines_that_need_the_parser_are_left_to_it():
    for line in (
        "FOO=1 tool x",
        "! tool",
        "| tool",
        "tool 'unbalanced",
        "tool a;; b",
        "gh repo clone <repo>",
        "tool $(pwd)",
        "tool `x`",
        "tool {a,b}",
        "tool # note",
        "tool a\\ b",
        "tool 'a \"b\"'",
    ):
        assert usage._simple_commands(line) is None, line
    assert usage._simple_commands("amtool silence query -o json foo > foo.json") == [
        ["amtool", "silence", "query", "-o", "json", "foo"]
    ]


def test_quoted_usage_lines_split_as_bashlex_splits_them():
    for line in _lines(usage._QUOTING) + CRAFTED:
        protected = re.sub(r"<[^<>]*>", lambda m: m[0].replace(" ", "\x01"), line)
        plain = usage._plain_quoted_words(protected)
        if plain is not None:
            assert [w.replace("\x01", " ") for w in plain] == _bashlex_usage(line), line


def test_a_quoted_kingpin_example_never_imports_bashlex():
    code = (
        "import sys; from wrapgen.parse.usage import split_example, split_usage; "
        "assert split_example(\"amtool alert query 'alertname=~foo.*' > out\", prog='amtool') == "
        "['amtool', 'alert', 'query', 'alertname=~foo.*']; "
        "assert split_usage(\"tool [--sep 'a b'] <file>\") == ['tool', '[--sep', 'a b]', '<file>']; "
        "print('bashlex' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
