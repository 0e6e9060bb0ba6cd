"""The README's propose section shows the current proposals and the dangerous-flags catalogue."""

from __future__ import annotations

from conftest import REPO
from wrapgen.propose.report import catalogue_table, proposal_table

PACKS = ("git", "gh", "kubectl", "docker", "rg", "jq", "fd", "curl")


def _section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return text[text.index("<!-- section:propose -->"):text.index("<!-- /section:propose -->")]


def test_readme_table_matches_the_packs():
    """Every command of every pack under adapters/ is in the README table, exactly as generated."""
    packs = {p: (REPO / "adapters" / p / "pack.yaml").read_text(encoding="utf-8") for p in PACKS}
    table = proposal_table(packs)
    assert table.rstrip() in _section(), "regenerate the README table: python -m wrapgen.propose.report"
    import yaml

    rows = table.splitlines()[2:]
    assert len(rows) == sum(len(yaml.safe_load(text)["verbs"]) for text in packs.values())


def test_readme_lists_the_catalogue():
    """The dangerous-flags catalogue in the README is the one the code uses."""
    assert catalogue_table().rstrip() in _section()


def test_every_pack_under_adapters_is_in_the_table():
    """A pack added under adapters/ must be added to the README table too."""
    present = sorted(p.name for p in (REPO / "adapters").iterdir() if (p / "pack.yaml").exists())
    assert sorted(PACKS) == present
