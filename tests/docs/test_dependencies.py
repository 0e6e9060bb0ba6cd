"""Dependencies are bounded to the major versions CI tests, and CI installs exactly what it tests:
every requirement of pyproject.toml has an upper bound, .ci/constraints.txt pins each one within its
range, .ci/run installs through those pins, and this environment runs within the ranges."""

from __future__ import annotations

from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from conftest import REPO

tomllib = pytest.importorskip("tomllib")  # (Python 3.11 and later)

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
REQUIREMENTS = [
    Requirement(text)
    for text in [
        *PROJECT["dependencies"],
        *(r for extra in PROJECT["optional-dependencies"].values() for r in extra),
    ]
]


def _pins() -> dict[str, Version]:
    pins = {}
    for line in (REPO / ".ci" / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f".ci/constraints.txt: {line!r} is no exact pin (NAME==VERSION)"
            pins[canonicalize_name(name)] = Version(version)
    return pins


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_each_requirement_has_an_upper_bound(requirement):
    """A new major version (a 0.x one's new minor) is never taken untested: `mcp>=1.2` took 2.x."""
    assert any(spec.operator in ("<", "<=", "==", "~=") for spec in requirement.specifier), (
        f"{requirement}: bound it below the next major version CI has not tested"
    )


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_ci_pins_each_requirement_within_its_range(requirement):
    pins = _pins()
    name = canonicalize_name(requirement.name)
    assert name in pins, f"{requirement.name} is not pinned in .ci/constraints.txt"
    assert requirement.specifier.contains(pins[name]), (
        f".ci/constraints.txt pins {requirement.name}=={pins[name]}, outside {requirement}"
    )


def test_ci_installs_through_the_pins():
    """Every pip install of .ci/run but poetry's own environment (pinned there) goes through them."""
    installs = [
        line.strip()
        for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if "pip install" in line
        and not line.lstrip().startswith("#")
        and "--upgrade pip" not in line
    ]
    assert installs
    loose = [line for line in installs if "-c .ci/constraints.txt" not in line]
    assert all("poetry==" in line for line in loose), loose


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_this_environment_runs_within_the_ranges(requirement):
    try:
        installed = Version(metadata.version(requirement.name))
    except metadata.PackageNotFoundError:
        pytest.skip(f"{requirement.name} is not installed here")
    assert requirement.specifier.contains(installed), (
        f"{requirement.name} {installed} is installed, outside {requirement}"
    )
