"""The installable wheel: its package data is declared, and CI builds, installs and uses it (scripts/wheel_smoke.sh).

The smoke script itself runs in .ci/run only, not under pytest as well: it takes about a minute
(`python -m build` fetches setuptools into an isolated environment, the fresh venv fetches the
runtime dependencies) and needs PyPI, so running it twice per CI run would add a minute for no
more coverage. These tests keep it wired in and keep pyproject's package data complete.
"""

from __future__ import annotations

import fnmatch
import os
import re

import pytest

from conftest import REPO


def _commands(path):
    return [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_ci_runs_the_wheel_smoke_test_after_installing_build():
    """.ci/run installs `build`, then runs scripts/wheel_smoke.sh, after the project's pip installs and before pytest."""
    commands = _commands(REPO / ".ci" / "run")
    smoke = commands.index("bash scripts/wheel_smoke.sh")
    pins = "-c .ci/constraints.txt"  # (CI installs the versions it tests: tests/docs/test_dependencies.py)
    assert commands.index(f"python3 -m pip install -q {pins} build") < smoke
    assert commands.index(f"python3 -m pip install -q {pins} -e '.[test,mcp]'") < smoke
    assert smoke < next(i for i, c in enumerate(commands) if c.startswith("python3 -m pytest"))


def test_the_smoke_script_is_executable_and_checks_what_it_promises():
    """scripts/wheel_smoke.sh is executable, builds with `python -m build`, wraps rg and execs the result outside the repo."""
    script = REPO / "scripts" / "wheel_smoke.sh"
    assert os.access(script, os.X_OK)
    text = script.read_text(encoding="utf-8")
    for needle in (
        '-m build --outdir "$tmp/dist"',
        '-m venv "$tmp/venv"',
        'cd "$tmp/work"',
        "wrapgen wrap rg -o packs",
        "wrapgen exec packs/rg search",
        'envelope.get("ok") is not True',
        "set -euo pipefail",
    ):
        assert needle in text, needle


def test_every_data_file_of_the_package_is_package_data():
    """Each non-Python file under wrapgen/ (schemas, knowledge data) matches a package-data glob, so the wheel carries it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    globs = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-data"]["wrapgen"]
    package = REPO / "wrapgen"
    data = [
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert any(re.match(r"pack/schemas/.+\.json$", d) for d in data) and any(
        d.startswith("knowledge/data/") for d in data
    )
    missing = [d for d in data if not any(fnmatch.fnmatchcase(d, g) for g in globs)]
    assert not missing, f"add these to [tool.setuptools.package-data] in pyproject.toml: {missing}"
