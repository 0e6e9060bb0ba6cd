"""Expert picks on the real tools (issue 11, items 3, 4 and 6): what a fresh `wrap` offers and never offers."""

from __future__ import annotations

import pytest

from conftest import require_tool
from wrapgen.check.text import text_findings
from wrapgen.probe.discover import discover
from wrapgen.propose import propose


def _proposal(tool: str):
    require_tool(tool)
    return propose(discover(tool))


def _clis(proposal) -> list[list[str]]:
    return [v["cli"] for v in proposal.manifest["verbs"].values()]


def test_hugo_builds_bare_and_offers_no_server():
    clis = _clis(_proposal("hugo"))
    assert any(cli[1:2] == [] or cli[1].startswith("-") for cli in clis), clis
    assert not any(cli[1] == "server" for cli in clis if len(cli) > 1)


@pytest.mark.parametrize(
    "tool, never",
    [
        ("kubectl", "--follow"),
        ("docker", "events"),
        ("rclone", "authorize"),
        ("ruff", "server"),
        ("rclone", "selfupdate"),
    ],
)
def test_forbidden_picks_are_not_offered(tool, never):
    clis = _clis(_proposal(tool))
    assert not any(never in cli for cli in clis), clis


def test_kubectl_get_is_scoped_by_namespace_and_tar_list_is_verbose():
    verbs = _proposal("kubectl").manifest["verbs"]
    assert "namespace" in verbs["get"]["args"]["properties"]
    tar = _proposal("tar").manifest["verbs"]
    assert "verbose" in tar["list"]["args"]["properties"]


@pytest.mark.parametrize(
    "tool", ["git", "gh", "kubectl", "docker", "grep", "tar", "rclone", "hugo"]
)
def test_fresh_packs_hold_no_usage_syntax_or_placeholder_titles(tool):
    findings = [f for f in text_findings(_proposal(tool).manifest) if f[0] in ("W080", "W081")]
    assert findings == []


def test_wrap_split_gh_writes_family_packs_of_5_to_12(tmp_path):
    require_tool("gh")
    from wrapgen.flows.wrap import wrap_split

    results = wrap_split("gh", out_dir=tmp_path, probe_json_fields=False)
    assert len(results) >= 2
    for result in results:
        assert 5 <= len(result.proposal.manifest["verbs"]) <= 12, result.pack_id
        assert result.errors == ()
    assert "--split" in _proposal("gh").split_hint
