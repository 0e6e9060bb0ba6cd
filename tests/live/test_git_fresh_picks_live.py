"""A fresh git pack (no recipe) proposes blame, which an expert picks first among git's reads
(bench/data/expert_picks.json): `git help -a` lists it under "Ancillary Commands / Interrogators",
and read as "ancillary" it ranked below range-diff and describe, so it was never proposed."""

from __future__ import annotations

from conftest import require_tool
from wrapgen.probe.discover import discover
from wrapgen.propose import propose


def test_fresh_git_pack_proposes_blame_as_a_read():
    require_tool("git")
    proposal = propose(discover("git", depth=1))
    chosen = {d.path: d for d in proposal.chosen}
    assert "blame" in chosen, sorted(chosen)
    assert chosen["blame"].effect == "read"
    assert "range-diff" not in chosen  # what it outranks now: a comparison of two patch series
