"""The bubblewrap precondition of the live tests that run trials: import ``sandbox_required`` into a
test module (as ``_sandbox``) and every test there skips where bwrap is absent, fails where it is
installed but cannot run, and starts and ends with a fresh sandbox status."""

from __future__ import annotations

import shutil

import pytest

from wrapgen.probe.sandbox import reset_sandbox_status, sandbox_status


@pytest.fixture(autouse=True)
def sandbox_required():
    if shutil.which("bwrap") is None:
        pytest.skip("bwrap is not installed")
    reset_sandbox_status()
    if not sandbox_status().available:
        pytest.fail(f"bwrap is installed but cannot run here: {sandbox_status().reason}")
    yield
    reset_sandbox_status()
