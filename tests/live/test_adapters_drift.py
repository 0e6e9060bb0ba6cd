"""adapters/ is byte for byte what recipes/ generates today: `wrapgen batch recipes/ -o adapters/ --check`.

The same check .ci/run runs, here in-process so that `pytest` alone catches drift. It discovers each
recipe's tool for real (with a cache of its own, never the user's), so it lives in tests/live/."""

from __future__ import annotations

import yaml

from conftest import REPO, require_tool
from wrapgen.flows.batch import run_batch


def test_adapters_match_their_recipes(own_cache):
    """batch --check converts every recipe and writes nothing; on drift it fails with each pack's diff."""
    for recipe in sorted((REPO / "recipes").glob("*.yaml")):
        require_tool(yaml.safe_load(recipe.read_text(encoding="utf-8"))["tool"])
    result = run_batch([REPO / "recipes"], out_dir=REPO / "adapters", check=True)
    failed = [
        f"{o.source}: {o.error}" + (f" (hint: {o.hint})" if o.hint else "") for o in result.failed
    ]
    assert failed == [], "recipes that did not convert:\n" + "\n".join(failed)
    drift = "".join(f"adapters/{o.pack_id}:\n{''.join(o.diffs)}" for o in result.drifted)
    assert drift == "", (
        "adapters/ differs from what recipes/ generates (regenerate it with `wrapgen batch recipes/ -o adapters/`"
        f" and review the diff, or undo the change that moved it):\n{drift}"
    )
    assert result.orphans == (), (
        f"packs under adapters/ that no recipe produces, so nothing checks: {result.orphans}"
    )
