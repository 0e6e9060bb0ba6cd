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
def test_the_shipped_table_is_what_the_script_makes_of_the_pinned_pages():
    """wrapgen/knowledge/data/usage.json == the script's output over $WRAPGEN_TLDR_PAGES."""
    commit = re.search(r"commit ([0-9a-f]{40})", json.loads(SHIPPED.read_text())["source"])[1]
    about = PINNED / "SOURCE.md"
    if about.is_file():
        assert commit in about.read_text(), "the checkout is at another commit than the table's"
    assert _script().main(["--pages", str(PINNED), "-o", str(SHIPPED), "--check"]) == 0, (
        "usage.json is stale: run python3 scripts/usage_table.py --pages CHECKOUT"
    )
