"""Red team, medium: reads that write or read outside (issue 27 item 3).

- kubectl's ``cluster-info.dump`` was a read verb whose ``output_directory`` wrote files anywhere: the
  shipped pack's read no longer has the arg (the catalogue's ``--output-directory`` class), and a
  call that passes one is refused before kubectl runs; a hand-written pack with it is check's W030.
- A flag that writes to a path is never on a read, on any pack (the catalogue's classes: ``-o``,
  ``--output-dir``, ``--cache-dir`` ...): check refuses each, joined forms included
  (tests/cases/hostile holds one pack each; here, the shipped packs hold none).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from wrapgen.check.rules import check_pack

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_kubectl_dump_is_a_read_with_no_output_directory(tmp_path):
    pack = yaml.safe_load((REPO_ROOT / "adapters" / "kubectl" / "pack.yaml").read_text())
    dump = pack["verbs"]["cluster-info.dump"]
    assert dump["policy"]["effect"] == "read"
    assert "output_directory" not in dump["args"]["properties"]
    assert not any("output-directory" in token for token in dump["cli"])
    command = [
        sys.executable, "-m", "wrapgen", "exec", str(REPO_ROOT / "adapters" / "kubectl"),
        "cluster-info.dump", "--json", "--", f"output_directory={tmp_path / 'dumped'}",
    ]  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "unknown argument 'output_directory'" in done.stderr, done
    assert not (tmp_path / "dumped").exists()


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO_ROOT / "adapters").iterdir()))
def test_no_shipped_pack_has_a_read_that_writes_or_runs_a_program(name):
    """Every shipped pack is clean of W030, W031, W032, W033 and W035."""
    codes = {"W030", "W031", "W032", "W033", "W035"}
    found = [d for d in check_pack(REPO_ROOT / "adapters" / name) if d.code in codes]
    assert not found, found
