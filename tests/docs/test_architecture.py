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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
# The modules that run as ``__main__`` (``python -m``); build.py's such line is inside the text of
# adapter.py, which it renders.
RUNS_AS_MAIN = {
    name
    for name, path in MODULES.items()
    if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8") and path.name != "build.py"
}


def _edges(name: str) -> dict[str, str]:
    """The package's modules ``name`` reaches: target -> how ("import", "import inside a function",
    "by name": a string naming it for ``importlib.import_module``, or "runs": a string naming a
    module that runs as ``__main__``, for ``python -m``)."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    edges: dict[str, str] = {}
    # (the package's own __init__ names its public API's modules for a lazy import on attribute
    # access from outside, and a bare "wrapgen" is the program's name more often than a module)
    lazy_ok = name != "wrapgen"

    def add(target: str, how: str) -> None:
        if target not in (name, "wrapgen" if how == "by name" else None) and (
            edges.get(target) in (None, "by name", "runs") or how == "import"
        ):
            edges[target] = how

    def visit(node, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            how = "import inside a function" if inner else "import"
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name in MODULES:
                        add(alias.name, how)
            elif isinstance(child, ast.ImportFrom):
                base = package[: len(package) - child.level + 1] if child.level else []
                module = ".".join([*base, *([child.module] if child.module else [])])
                for alias in child.names:
                    target = f"{module}.{alias.name}"
                    if target in MODULES:
                        add(target, how)
                    elif module in MODULES:
                        add(module, how)
            elif isinstance(child, ast.Constant) and child.value in MODULES and lazy_ok:
                add(child.value, "runs" if child.value in RUNS_AS_MAIN else "by name")
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return edges


PENDING_CYCLES: list[set[str]] = []  # (none: the propose redesign took the last one apart)


def _cycles(graph: dict[str, dict[str, str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_no_import_cycles():
    """No import cycle among the package's modules, lazy imports and modules named by a string
    included (an import inside a function hides a cycle from Python, not from this test). A module
    run as a process of its own (the table of them) is no import."""
    graph = {name: {t: how for t, how in _edges(name).items() if how != "runs"} for name in MODULES}
    cycles = [c for c in _cycles(graph) if c not in PENDING_CYCLES]
    described = [
        "; ".join(
            f"{a} -> {b} ({graph[a][b]})" for a in sorted(cycle) for b in graph[a] if b in cycle
        )
        for cycle in cycles
    ]
    assert not cycles, (
        "import cycles (pass a callback or move the shared type down):\n" + "\n".join(described)
    )


def test_the_cycle_test_sees_an_import_hidden_in_a_function():
    """The cycle finder, on a made-up graph: a lazy import closing a loop is one."""
    graph = {"a": {"b": "import"}, "b": {"c": "import"}, "c": {"a": "import inside a function"}}
    assert _cycles(graph) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b": "import"}, "b": {}}) == []
    edges = _edges("wrapgen.runtime.binding")
    assert edges["wrapgen.pack.derive"] == "runs"


def test_the_modules_run_by_name_are_the_table():
    """Each module the package runs as a process of its own (``python -m``: a string naming a module
    that runs as ``__main__``) is in the page's table, with the module that runs it."""
    found = {
        (str(MODULES[name].relative_to(PACKAGE)), target)
        for name in MODULES
        for target, how in _edges(name).items()
        if how == "runs"
    }
    start = PAGE.index("edges no `import` shows")
    table = PAGE[start : PAGE.index("\n\n", PAGE.index("\n|", start))]
    documented = set(re.findall(r"^\| `([a-z_/]+\.py)` \| `(wrapgen\.[a-z_.]+)` \|", table, re.M))
    assert found == documented, f"code {sorted(found)}, docs {sorted(documented)}"


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
    documented = _table_modules("Seven other\nplaces write") | {"pack/emit.py"}
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
