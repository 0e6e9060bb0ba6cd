"""docs/architecture.md matches the code: the import rules, and which modules spawn processes or write files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "wrapgen"
PAGE = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def _section(heading: str) -> str:
    start = PAGE.index(heading)
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start : end if end > 0 else None]


def _names(cell: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", cell))


def _import_rules() -> dict[str, tuple[set[str], set[str]]]:
    """folder -> (wrapgen folders it may import, third-party packages it may import), from the page."""
    rules = {}
    for line in _section("## Import rules").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            rules[cells[0].strip("`")] = (
                _names(cells[1]) if cells[1] != "every folder" else {"*"},
                _names(cells[2]),
            )
    return rules


def _area(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else parts[0][:-3]


def _imports(path: Path):
    """(wrapgen area, third-party top-level name) pairs imported anywhere in the module, lazy imports too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [(a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [(node.module, tuple(a.name for a in node.names))]
        else:
            continue
        for module, names in modules:
            top, _, rest = module.partition(".")
            if top != "wrapgen":
                yield None, top
            elif rest:
                yield rest.split(".")[0], None
            else:  # from wrapgen import runtime / __version__
                for name in names:
                    if (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file():
                        yield name, None


def _stdlib() -> set[str]:
    import sys

    return set(sys.stdlib_module_names) | {"__future__"}


def test_the_rules_cover_every_folder():
    """Each folder and top-level module of the package has a row in the import rules."""
    rules = _import_rules()
    areas = {_area(p) for p in PACKAGE.rglob("*.py")} - {"__init__", "__main__"}
    assert areas == set(rules), areas ^ set(rules)


def test_every_import_follows_the_rules():
    """No module imports a wrapgen folder or a third-party package its folder's row does not allow."""
    rules = _import_rules()
    stdlib = _stdlib()
    broken = []
    for path in sorted(PACKAGE.rglob("*.py")):
        area = _area(path)
        if area in ("__init__", "__main__"):
            continue
        allowed, third = rules[area]
        for target, external in _imports(path):
            if (
                target is not None
                and target != area
                and "*" not in allowed
                and target not in allowed
            ):
                broken.append(f"{path.relative_to(REPO)} imports wrapgen.{target}")
            if external is not None and external not in stdlib and external not in third:
                broken.append(f"{path.relative_to(REPO)} imports {external}")
    assert not broken, "update the code or docs/architecture.md's import rules:\n" + "\n".join(
        broken
    )


def _table_modules(heading_text: str) -> set[str]:
    """The `folder/module.py` names in the first column of the table after ``heading_text``."""
    start = PAGE.index(heading_text)
    table = PAGE[start : PAGE.index("\n\n", PAGE.index("\n|", start) + 1)]
    return set(re.findall(r"^\| `([a-z_/]+\.py)` \|", table, re.M))


_SPAWN = re.compile(
    r"\b(import subprocess|run_process\(|run_in_pty\(|os\.fork\(|os\.exec\w*\(|Popen\()"
)
_WRITE = re.compile(
    r"""(\.write_text\(|\.write_bytes\(|os\.replace\(|os\.rename\(|mkdtemp\(|os\.fdopen\(|shutil\.copy|
                        \bopen\([^)]*["'][wax]b?["'])""",
    re.X,
)


def _modules_matching(pattern) -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        code = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("#")
        ]
        if pattern.search("\n".join(code)):
            found.add(str(path.relative_to(PACKAGE)))
    return found


def test_the_subprocess_table_is_the_code():
    """Processes start in runtime/ and probe/, and outside them only in the modules the page lists."""
    documented = _table_modules("Subprocesses.")
    actual = _modules_matching(_SPAWN) - {"runtime/__init__.py"}
    inside = ("runtime/", "probe/")
    outside = {m for m in actual if not m.startswith(inside)}
    assert outside == {m for m in documented if not m.startswith(inside)}, (
        f"spawning modules outside runtime/ and probe/: code {sorted(outside)}, docs {sorted(documented)}"
    )
    assert documented <= actual, (
        f"the page lists modules that spawn nothing: {sorted(documented - actual)}"
    )


def test_the_file_writing_table_is_the_code():
    """The modules that write files are emit.py plus exactly the ones the page lists."""
    documented = _table_modules("Six other\nplaces write") | {"pack/emit.py"}
    actual = _modules_matching(_WRITE)
    assert actual == documented, (
        f"writing modules: code {sorted(actual)}, docs {sorted(documented)}"
    )


_PRINT = re.compile(r"\bprint\(|sys\.(stdout|stderr)\.write\(")


def test_only_the_command_lines_print():
    """Printing happens in cli/ and runtime/main.py (plus the adapter text pack/build.py renders), as the page says."""
    printing = _modules_matching(_PRINT)
    assert {m for m in printing if not m.startswith("cli/")} <= {
        "runtime/main.py",
        "pack/build.py",
        "hosts/mcp.py",
        "pack/derive.py",
        "pack/kubeconfig.py",
    }, printing
    assert "`hosts/mcp.py` (the MCP protocol on stdout" in PAGE
    assert "sys.stderr.write` in `pack/build.py`" in PAGE
    assert "`pack/derive.py` (one sha256 on stdout" in PAGE
    assert "`pack/kubeconfig.py` (one JSON object on stdout" in PAGE
