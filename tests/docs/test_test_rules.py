"""The suite's own rules (tests/README.md): no test asserts on wall or CPU time, since a busy machine
stretches both without bound; a test waits for the event it needs (tests/support/bounds.py)."""

from __future__ import annotations

import ast

from conftest import REPO

_CLOCKS = {"monotonic", "perf_counter", "process_time", "time", "thread_time"}
_DURATIONS = {"elapsed", "took", "duration", "spent_s"}


def _reads_a_clock(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            if inner.func.attr in _CLOCKS and getattr(inner.func.value, "id", "") == "time":
                return True
        if isinstance(inner, ast.Name) and inner.id in _DURATIONS:
            return True
    return False


def test_no_test_asserts_on_time():
    """No `assert` reads a clock or a duration measured with one."""
    found = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and _reads_a_clock(node.test):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not found, "tests asserting on time (wait for the event instead):\n" + "\n".join(found)


def test_the_rule_sees_a_timing_assert():
    tree = ast.parse("assert time.monotonic() - started < 5\nassert elapsed < 1\nassert x == 2\n")
    assert [_reads_a_clock(n.test) for n in tree.body] == [True, True, False]
