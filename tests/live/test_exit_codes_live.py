"""Exit codes that are answers, end to end with real tools: the shipped rg pack's "no matches", stdout kept,
rg's real errors unchanged; and discovery reading them from real man pages (rg, grep, diff)."""

from __future__ import annotations

import shutil

import pytest

from conftest import REPO, require_tool
from wrapgen.runtime import execute

RG = REPO / "adapters" / "rg"


@pytest.fixture
def tree(tmp_path):
    require_tool("rg")
    (tmp_path / "a.txt").write_text("hello world\n")
    (tmp_path / "b.txt").write_text("goodbye\n")
    return tmp_path


def test_no_match_is_a_declared_answer(tree):
    """A search with no match: ok false, "no matches (exit 1)", exit_code 1, and nothing printed (null)."""
    envelope = execute(RG, "search", {"pattern": "zzz-not-there", "paths": ["a.txt"]}, cwd=tree)
    assert envelope == {"ok": False, "error": "no matches (exit 1)", "exit_code": 1, "output": None}


def test_no_match_with_json_keeps_rgs_summary(tree):
    """search.json with no match keeps what rg printed (its JSON summary event), parsed."""
    envelope = execute(
        RG, "search.json", {"pattern": "zzz-not-there", "paths": ["a.txt"]}, cwd=tree
    )
    assert envelope["error"] == "no matches (exit 1)" and envelope["exit_code"] == 1
    assert envelope["output"]["type"] == "summary"
    assert envelope["output"]["data"]["stats"]["matches"] == 0


def test_a_match_is_still_ok(tree):
    """A match is the ordinary ok result."""
    envelope = execute(RG, "search", {"pattern": "hello", "paths": ["a.txt"]}, cwd=tree)
    assert envelope["ok"] is True and "hello world" in envelope["result"]


def test_real_error_keeps_rgs_stderr(tree):
    """A regex error (exit 2, undeclared) is rg's own message, in the seed envelope with its status."""
    envelope = execute(RG, "search", {"pattern": "(", "paths": ["a.txt"]}, cwd=tree)
    assert set(envelope) == {"ok", "error", "exit_code"} and envelope["ok"] is False
    assert envelope["exit_code"] == 2
    assert "regex parse error" in envelope["error"]


def test_missing_file_is_an_error_not_no_matches(tree):
    """A path that does not exist is exit 2 with rg's stderr, never "no matches"."""
    envelope = execute(RG, "search", {"pattern": "hello", "paths": ["missing.txt"]}, cwd=tree)
    assert envelope["ok"] is False and "no matches" not in envelope["error"]
    assert "missing.txt" in envelope["error"]


@pytest.mark.parametrize(
    "tool, code, meaning",
    [
        ("rg", 1, "no match could be found"),
        ("grep", 1, "no lines were selected"),
        ("diff", 1, "different"),
    ],
)
def test_discovery_reads_the_man_page(tool, code, meaning):
    """discover() on the installed tool records its man page's exit statuses on the root command."""
    require_tool(tool)
    if not shutil.which("manpath"):
        pytest.skip("no manpath: man pages cannot be found")
    from wrapgen.probe.discover import discover
    from wrapgen.propose.exitcodes import answer_codes

    root = discover(tool).root
    if not root.exit_status:
        pytest.skip(f"no man page for {tool} installed")
    assert dict(root.exit_status)[code] == meaning
    assert answer_codes(root) == {
        str(code): "no matches" if tool != "diff" else "differences found"
    }


def test_files_without_match_declares_its_own_answer(tree):
    """files-without-match exits 1 when every file matched: that, never a misleading "no matches"."""
    envelope = execute(
        RG, "files-without-match", {"pattern": "e", "paths": ["a.txt", "b.txt"]}, cwd=tree
    )
    assert envelope["ok"] is False and envelope["exit_code"] == 1
    assert "every file matched" in envelope["error"] and "no matches" not in envelope["error"]
    listed = execute(
        RG, "files-without-match", {"pattern": "hello", "paths": ["a.txt", "b.txt"]}, cwd=tree
    )
    assert listed == {"ok": True, "result": "b.txt\n"}
