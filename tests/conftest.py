"""Shared test fixtures: the in-process CLI harness and the golden-file switch."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"


# -- Hypothesis: a fixed search in CI, a random one locally ----------------------------------------
#
# CI sets CI=true. Every property test then runs the same examples on every run: derandomized (the
# seed is a hash of the test's source, and no example database), so a failure in CI fails again on a
# rerun and locally under `CI=true pytest ...`; print_blob says how to replay it. Hypothesis also
# draws constants from the source of the local modules loaded so far, so in CI every wrapgen module
# is imported first: the pool is then the same whichever tests ran before. Timing varies between
# machines, so the CI profile has no deadline. Locally the search stays random, to keep finding
# new failures. Tests that set max_examples themselves keep it; HYPOTHESIS_PROFILE=ci picks the
# CI profile by hand.
# No test asserts on time, Hypothesis's included: neither profile has a deadline, nor the health
# check that fails a test whose examples are slow to make (a busy machine makes every one slow).
_UNTIMED = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", derandomize=True, max_examples=100, print_blob=True, **_UNTIMED)
settings.register_profile("local", **_UNTIMED)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _import_every_wrapgen_module() -> None:
    import importlib
    import pkgutil

    import wrapgen

    for module in pkgutil.walk_packages(wrapgen.__path__, "wrapgen."):
        if not module.name.endswith("__main__"):
            with contextlib.suppress(ImportError):
                importlib.import_module(module.name)


if _in_ci() or os.environ.get("HYPOTHESIS_PROFILE") == "ci":
    _import_every_wrapgen_module()
    settings.load_profile("ci")
else:
    settings.load_profile("local")


# A test that runs a real tool (git, jq, rg, curl, man, tar, even echo or a bash script) lives in one of
# these folders and nowhere else; everything outside them passes with no tool installed (tests/README.md).
LIVE_FOLDERS = ("live", "redteam")  # redteam: the red-team suite, every attack with real tools


def pytest_collection_modifyitems(config, items):
    """Every test under tests/live/ runs a real tool: mark it ``live`` so ``-m "not live"`` leaves it out."""
    live_roots = [REPO / "tests" / name for name in LIVE_FOLDERS]
    for item in items:
        path = Path(str(item.path))
        if any(root in path.parents for root in live_roots):
            item.add_marker(pytest.mark.live)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Only a live test may skip (where its tool is absent, see require_tool): a test outside tests/live/
    that skips fails instead, so ``-m "not live"`` never passes by quietly running less."""
    outcome = yield
    report = outcome.get_result()
    if (
        report.skipped
        and not hasattr(report, "wasxfail")
        and item.get_closest_marker("live") is None
    ):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} skipped ({reason}), but it is not under tests/live/: only a live test "
            "may skip, where its tool is absent. Move it to tests/live/, or make it need no tool."
        )


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files from what the code produces now",
    )


@pytest.fixture
def update_goldens(request) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@dataclass
class Result:
    stdout: str
    stderr: str
    exit_code: int


def run_cli(*args: str, stdin: str = "", cwd: Path | None = None) -> Result:
    """Run `wrapgen ARGS...` in-process and capture what it prints."""
    from wrapgen.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin, old_cwd = sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    return Result(out.getvalue(), err.getvalue(), code)


@pytest.fixture
def cli():
    """The in-process harness: cli("exec", "git", "log") -> Result(stdout, stderr, exit_code)."""
    return run_cli


def require_tool(name: str) -> str:
    """The path of a real tool, or skip the test where it is absent (.ci/run installs them all)."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("wrapgen-cache")


@pytest.fixture(autouse=True)
def _no_user_cache(_session_cache, monkeypatch):
    """No test reads or fills the user's ~/.cache/wrapgen (discovery cache, batch memo, trusted
    binding stamps): every test shares one cache of the session's unless it takes ``own_cache``."""
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(_session_cache))


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A discovery cache of this test's own, so no test reads or fills the user's ~/.cache/wrapgen."""
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def examples(tmp_path, monkeypatch):
    """A private copy of recipes/examples (the example internal tools) with its bin/ on PATH, and state
    dirs for the tools."""
    root = tmp_path / "recipes"
    # the task-runner example (shop/, shop-*.yaml) needs make, just and npm: tests/live/test_runners_live.py has it
    shutil.copytree(
        REPO / "recipes" / "examples",
        root,
        ignore=shutil.ignore_patterns("__pycache__", "shop", "shop-*"),
    )
    monkeypatch.setenv("PATH", f"{root / 'bin'}{os.pathsep}{os.environ['PATH']}")
    # (made here: a write's sandbox binds the directory its pack declares, sandbox.write, when it exists)
    (tmp_path / "deploy-state").mkdir()
    monkeypatch.setenv("DEPLOYCTL_HOME", str(tmp_path / "deploy-state"))
    monkeypatch.setenv("NOTES_FILE", str(tmp_path / "notes.json"))
    return root


def flag_of(command, spelling: str):
    """The flag of ``command`` (its own or a global one) that has ``spelling``, or None."""
    return next(
        (f for f in (*command.flags, *command.global_flags) if spelling in f.spellings), None
    )
