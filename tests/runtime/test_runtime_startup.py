"""What a one-shot call (adapter.py, `wrapgen exec`) loads: only what the call needs.

``import ctypes`` builds ctypes' whole type system, several milliseconds of every adapter call's
start-up, for the one libc function containment needs (prctl); the runtime reaches it through the
``_ctypes`` C module instead, and the tool still gets its PDEATHSIG (tests/runtime/test_containment.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CALL = """
import json, sys
from wrapgen.runtime.contain import containment_available
from wrapgen.runtime.process import run_process
result = run_process(["true"], timeout_s=20)
print(json.dumps([result.exit_code, containment_available(), "ctypes" in sys.modules]))
"""


def test_a_contained_call_does_not_import_ctypes():
    _ctypes = pytest.importorskip("_ctypes")
    if not hasattr(_ctypes, "call_function"):
        pytest.skip("this Python's _ctypes has no call_function: the runtime falls back to ctypes")
    done = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [0, True, False]
