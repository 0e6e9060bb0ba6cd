"""wrapgen wrap on real tools: fd (no JSON output, said in the summary) and gh (--json asks for field names).

wrap on scripts and fake tools is in tests/flows/test_wrap.py."""

from __future__ import annotations

from conftest import require_tool


def test_tool_without_json_is_said_in_the_summary(cli, tmp_path):
    """fd has no JSON output: the pack has json: false and the summary says results are text."""
    require_tool("fdfind")
    result = cli("wrap", "fdfind", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "json: none" in result.stdout and "text" in result.stdout
    assert "json: false" in (tmp_path / "fdfind" / "pack.yaml").read_text()


def test_gh_json_fields_are_asked_from_the_tool(cli, tmp_path):
    """gh's --json needs field names: wrap asks `gh pr list --json` for the list and names a few."""
    require_tool("gh")
    result = cli("wrap", "gh", "-o", str(tmp_path), "--pick", "pr list")
    assert result.exit_code == 0, result.stderr
    import yaml

    data = yaml.safe_load((tmp_path / "gh" / "pack.yaml").read_text())
    selection = data["verbs"]["pr.list"].get("json", data["json"])
    assert selection[0] == "--json"
    fields = selection[1].split(",")
    assert fields[:2] == ["number", "title"] and len(fields) <= 8
    assert "--json takes fields" in result.stdout
