"""`wrapgen --version`: the package's one version, printed, exit 0."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

import wrapgen
from conftest import REPO


def test_version_prints_the_package_version(cli):
    """`wrapgen --version` prints `wrapgen 0.1.0` (wrapgen.__version__) and exits 0."""
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"wrapgen {wrapgen.__version__}\n" == "wrapgen 0.1.0\n"
    assert result.stderr == ""


def test_version_has_one_source():
    """pyproject.toml declares no version of its own: setuptools reads wrapgen.__version__, and the installed metadata agrees."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "wrapgen.__version__"}
    assert importlib.metadata.version("wrapgen") == wrapgen.__version__


def test_version_from_a_process():
    """`python -m wrapgen --version` in a process prints the same line and exits 0."""
    result = subprocess.run(
        [sys.executable, "-m", "wrapgen", "--version"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stdout == f"wrapgen {wrapgen.__version__}\n"


def test_top_level_help_mentions_version(cli):
    """`wrapgen --help` says where the version is."""
    assert "wrapgen --version" in cli("--help").stdout
