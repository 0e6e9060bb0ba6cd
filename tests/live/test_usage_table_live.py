"""The shipped usage table is what scripts/usage_table.py makes of the pinned tldr-pages checkout.

Live: it needs the checkout, which the repository does not hold (WRAPGEN_TLDR_PAGES names it; the
table's commit is in its ``source``)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

import pytest

from wrapgen.usage import public_usage

REPO = Path(__file__).resolve().parents[2]
PINNED = Path(os.environ.get("WRAPGEN_TLDR_PAGES", "/nonexistent"))
SHIPPED = REPO / "wrapgen" / "knowledge" / "data" / "usage.json"


def _script():
    spec = importlib.util.spec_from_file_location(
        "usage_table", REPO / "scripts" / "usage_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(
    not (PINNED / "pages").is_dir(),
    reason="set WRAPGEN_TLDR_PAGES to a tldr-pages checkout at the table's commit",
)
def test_the_pinned_pages_make_a_table_and_the_shipped_one_is_it(tmp_path):
    """The script over $WRAPGEN_TLDR_PAGES names its commit and reads into evidence; a shipped
    usage.json is byte for byte what it makes."""
    out = tmp_path / "usage.json"
    assert _script().main(["--pages", str(PINNED), "-o", str(out)]) == 0
    table = json.loads(out.read_text(encoding="utf-8"))
    commit = re.search(r"commit ([0-9a-f]{40})", table["source"])[1]
    about = PINNED / "SOURCE.md"
    if about.is_file():
        assert commit in about.read_text()
    git = public_usage("git", environ={}, table=table)
    assert git.path_counts()[("commit",)] >= 3 and len(table["tools"]) > 4000
    aws = public_usage("aws", environ={}, table=table)
    assert aws.path_counts()[("s3", "ls")] >= 3
    if SHIPPED.is_file():
        assert SHIPPED.read_bytes() == out.read_bytes(), (
            "usage.json is stale: run python3 scripts/usage_table.py --pages CHECKOUT"
        )
