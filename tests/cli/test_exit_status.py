"""Exit statuses are named (ExitStatus) and errors are printed in one place (print_error)."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest

import wrapgen
from wrapgen.cli.main import main
from wrapgen.cli.output import print_error
from wrapgen.errors import Diagnostic, ExitStatus, ManifestError, UsageError, WrapgenError
from wrapgen.runtime import output as runtime_output

PACKAGE = Path(wrapgen.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))

# Functions whose return value is an exit status: every command's run()/main(), the dispatchers,
# serve() and the exit_status properties.
_STATUS_FUNCTIONS = {
    "run",
    "main",
    "exec_main",
    "raw_main",
    "_run",
    "_dispatch",
    "serve",
    "exit_status",
}
_EXITS = {("sys", "exit"), ("os", "_exit")}


def _int_literals(node: ast.AST | None) -> list[int]:
    """Integer literals a returned expression can evaluate to (through `a if c else b` and `x or 0`)."""
    if node is None:
        return []
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _int_literals(node.body) + _int_literals(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [n for value in node.values for n in _int_literals(value)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int":
        return [n for arg in node.args for n in _int_literals(arg)]
    return []


def _bare_exit_numbers(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    where = path.relative_to(PACKAGE.parent)
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name in _STATUS_FUNCTIONS
        ):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Return) and _int_literals(inner.value):
                    found.append(
                        f"{where}:{inner.lineno}: {node.name}() returns a bare {_int_literals(inner.value)}"
                    )
                if (
                    isinstance(inner, ast.Assign)
                    and _int_literals(inner.value)
                    and any(isinstance(t, ast.Name) and "status" in t.id for t in inner.targets)
                ):
                    found.append(
                        f"{where}:{inner.lineno}: {node.name}() sets a status to a bare number"
                    )
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                (func.value.id, func.attr)
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                else (None, func.id)
                if isinstance(func, ast.Name)
                else None
            )
            exits = name in _EXITS or (
                name is not None and name[1] in ("SystemExit", "exit") and name[0] is None
            )
            if exits and any(_int_literals(arg) for arg in node.args):
                found.append(f"{where}:{node.lineno}: exits with a bare number")
        if (
            isinstance(node, ast.Assign)
            and _int_literals(node.value)
            and any(isinstance(t, ast.Name) and t.id == "exit_status" for t in node.targets)
        ):
            found.append(f"{where}:{node.lineno}: exit_status is a bare number")
    return found


def test_exit_statuses_keep_their_values():
    """docs/contract.md §14 fixes exec's 0/1/2; 127 is a forked child whose exec failed and 130 Ctrl-C, as a shell reports them."""
    # 3, 4, 5: the worst drift `check --drift` found (issue 14, docs/packs-and-check.md)
    assert [(s.name, int(s)) for s in ExitStatus] == [
        ("OK", 0),
        ("FAILED", 1),
        ("USAGE", 2),
        ("DRIFT_METADATA", 3),
        ("DRIFT_COMPATIBLE", 4),
        ("DRIFT_BREAKING", 5),
        ("CANNOT_RUN", 127),
        ("INTERRUPTED", 130),
    ]
    assert (
        WrapgenError.exit_status is ExitStatus.FAILED and UsageError.exit_status is ExitStatus.USAGE
    )


def test_the_scan_finds_bare_numbers(tmp_path):
    """The scan below is not vacuous: it flags each form a bare exit number takes."""
    sample = tmp_path / "wrapgen" / "sample.py"
    sample.parent.mkdir()
    sample.write_text(
        "import sys\n"
        "class E(Exception):\n    exit_status = 3\n"
        "def run(ns):\n    status = 0\n    if ns:\n        return 1 if ns.x else 0\n    return int(ns.y or 2)\n"
        "def helper():\n    sys.exit(2)\n    raise SystemExit(1)\n"
        "def fine():\n    return 4\n"
    )
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        found = _bare_exit_numbers(sample)
    finally:
        PACKAGE = saved
    assert len(found) == 6, found
    assert not any(":13:" in f for f in found)  # a helper returning a number is not an exit status


def test_no_module_returns_or_exits_with_a_bare_number():
    """Every exit status in wrapgen/ is an ExitStatus name, never a bare integer literal (an AST scan)."""
    found = [problem for path in SOURCES for problem in _bare_exit_numbers(path)]
    assert not found, "use wrapgen.errors.ExitStatus:\n" + "\n".join(found)


def _error_prints(path: Path) -> list[str]:
    """Strings in code (literals or f-string heads) that start an `Error: ` line."""
    return [
        f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith("Error: ")
    ]


def test_one_module_prints_errors():
    """`Error: ...` is written by print_error alone (adapter.py's own fallback is generated text, not code)."""
    found = [hit for path in SOURCES for hit in _error_prints(path)]
    assert found and all(hit.startswith("wrapgen/runtime/output.py:") for hit in found), found
    assert print_error is runtime_output.print_error


def test_print_error_writes_message_diagnostics_and_hint_and_returns_the_status():
    """The one printer: Error line, each diagnostic indented, then the hint; the status is the error's."""
    stream = io.StringIO()
    error = ManifestError(
        "pack.yaml is not valid",
        hint="fix it",
        diagnostics=(Diagnostic("error", "W001", "bad", "", "pack.yaml", 3, "bin"),),
    )
    assert print_error(error, stream=stream) is ExitStatus.FAILED
    assert stream.getvalue() == (
        "Error: pack.yaml is not valid\n  pack.yaml:3: W001 error bin: bad\n  hint: fix it\n"
    )
    stream = io.StringIO()
    assert print_error(UsageError("no"), stream=stream) is ExitStatus.USAGE
    assert stream.getvalue() == "Error: no\n"


@pytest.mark.parametrize(
    "argv, status",
    [
        (["--version"], ExitStatus.OK),
        ([], ExitStatus.USAGE),
        (["no-such-command"], ExitStatus.USAGE),
        (["exec", "--nope"], ExitStatus.USAGE),
    ],
)
def test_main_returns_named_statuses(argv, status, capsys):
    """wrapgen's main returns an ExitStatus; an error goes through the one printer."""
    result = main(argv)
    assert result == status
    err = capsys.readouterr().err
    if status is ExitStatus.USAGE and argv:
        assert err.startswith("Error: ") and "\n  hint: " in err


def test_exec_and_wrapgen_print_a_usage_error_alike(capsys):
    """`wrapgen exec` (the runtime's front, as adapter.py runs it) prints through the same printer."""
    from wrapgen.runtime.main import exec_main

    assert exec_main(["only-a-pack"]) == ExitStatus.USAGE
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and "  hint: " in err
