"""The packs shipped under adapters/ pass `wrapgen check`, and each of their non-read verbs is confirm-gated.

No tool runs here: check reads the pack files, and the confirm gate refuses before anything is spawned.
That adapters/ is what recipes/ generates today is tests/live/test_adapters_drift.py (it runs the tools)."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from wrapgen.check.probe import sample_args
from wrapgen.check.rules import check_pack
from wrapgen.runtime import execute

ADAPTERS = REPO / "adapters"
PACKS = ("git", "gh", "kubectl", "docker", "rg", "jq", "fd", "curl")


@pytest.mark.parametrize("pack", PACKS)
def test_pack_is_clean_and_up_to_date(pack):
    """Each generated pack passes wrapgen check with no error (derived files current, titles, policies)."""
    errors = [d for d in check_pack(ADAPTERS / pack) if d.level == "error"]
    assert errors == []


@pytest.mark.parametrize("pack", PACKS)
def test_every_non_read_verb_is_confirm_gated(pack):
    """A write or destructive verb without confirm=true is refused before anything runs."""
    binding = json.loads((ADAPTERS / pack / "binding.json").read_text())
    for name, verb in binding["verbs"].items():
        assert verb["policy"]["confirm"] == (verb["policy"]["effect"] != "read"), name
        if verb["policy"]["effect"] != "read":
            envelope = execute(ADAPTERS / pack, name, sample_args(verb["args"]))
            assert envelope["ok"] is False and "confirm" in envelope["error"], (name, envelope)


def test_the_list_names_every_shipped_pack():
    """PACKS above is every pack directory under adapters/: a new pack is checked without editing a list."""
    assert sorted(PACKS) == sorted(p.parent.name for p in ADAPTERS.glob("*/pack.yaml"))


def test_wrapgen_check_passes_on_every_shipped_pack(cli):
    """`wrapgen check adapters/*` exits 0 and reports no error for any of them."""
    packs = sorted(str(p.parent) for p in ADAPTERS.glob("*/pack.yaml"))
    result = cli("check", *packs)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert " error " not in result.stdout, result.stdout
