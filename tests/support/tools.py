"""Fake tools for the tests: small Python programs written where a test wants them, run isolated."""

from __future__ import annotations

import sys
from pathlib import Path


def python_tool(path: Path, source: str) -> str:
    """``source`` written as an executable program at ``path``, run by this interpreter with ``-IS``
    (no user site, no ``PYTHON*`` variables: it behaves the same wherever the test runs); its path."""
    path.write_text(f"#!{sys.executable} -IS\n{source}")
    path.chmod(0o755)
    return str(path)
