"""A binary (no ``#!``) is never a script: discovering one does not import the script reader,
whose import (its shell grammar's patterns) costs tens of milliseconds of every `wrapgen discover`."""

from __future__ import annotations

import subprocess
import sys


def test_a_binary_is_probed_without_importing_the_script_reader(tmp_path):
    tool = tmp_path / "tool"
    tool.write_bytes(b"\x7fELF" + b"\0" * 60)
    code = (
        "import sys; from wrapgen.probe import discover as d; "
        f"print(d._is_launcher({str(tool)!r}), d._has_shebang({str(tool)!r}), 'wrapgen.parse.script' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "False", "False"]


def test_a_script_still_reads_its_shebang(tmp_path):
    from wrapgen.probe import discover as d

    script = tmp_path / "run"
    script.write_text('#!/bin/sh\nexec /usr/bin/env "$@"\n')
    assert d._has_shebang(str(script))
    assert d._is_launcher(str(script))
