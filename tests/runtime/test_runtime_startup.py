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
result = run_process(["true"], timeout_s=120)
print(json.dumps([result.exit_code, containment_available(), "ctypes" in sys.modules]))
"""


def test_a_contained_call_does_not_import_ctypes():
    _ctypes = pytest.importorskip("_ctypes")
    if not hasattr(_ctypes, "call_function"):
        pytest.skip("this Python's _ctypes has no call_function: the runtime falls back to ctypes")
    done = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [0, True, False]


ONE_SHOT = """
import json
from wrapgen.runtime import contain
from wrapgen.runtime.process import run_process
contain.one_shot()
codes = [run_process(["true"], timeout_s=120).exit_code for _ in range(3)]
print(json.dumps([codes, contain._helper]))
"""


def test_a_one_shot_process_never_starts_a_spawn_helper():
    """adapter.py marks its process one-shot: a call that spawns twice (config guard, then tool) or
    more starts no helper interpreter it would never use."""
    done = subprocess.run(
        [sys.executable, "-c", ONE_SHOT], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[0, 0, 0], False]


def test_adapter_output_arrives_whole_through_a_pipe(tmp_path):
    """adapter.py ends with os._exit after flushing: a large envelope still arrives whole, with the status."""
    from wrapgen.pack.build import render_pack_files

    pack = tmp_path / "big"
    pack.mkdir()
    script = "import sys; sys.stdout.write('x' * 3_000_000)"
    text = (
        json.dumps(
            {
                "pack_id": "big",
                "description": "big",
                "bin": sys.executable,
                "json": False,
                "verbs": {
                    "run": {
                        "description": "Print a lot.",
                        "cli": [sys.executable, "-c", script],
                        "policy": {"effect": "read"},
                    }
                },
            }
        )
        + "\n"
    )
    (pack / "pack.yaml").write_text(text)
    for name, body in render_pack_files(text.encode()).items():
        (pack / name).write_text(body)
    done = subprocess.run(
        [sys.executable, str(pack / "adapter.py"), "run", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    envelope = json.loads(done.stdout)
    assert envelope["ok"] is True and envelope["result"] == "x" * 3_000_000
    failed = subprocess.run(
        [sys.executable, str(pack / "adapter.py"), "nosuch"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert failed.returncode == 1 and json.loads(failed.stdout)["ok"] is False
