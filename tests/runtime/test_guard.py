"""The config guard's pure part: which listed keys are reset, and a malformed guard (wrapgen/runtime/guard.py)."""

from __future__ import annotations

import sys

import pytest

from wrapgen.errors import WrapgenError
from wrapgen.runtime.guard import guarded_env, guarded_keys

RESETS = [("filter.", (".clean", ".smudge", ".process"), "")]
SCOPES = {"local", "worktree"}


def test_only_listed_scopes_and_matching_keys_are_reset():
    listing = (
        b"local\tfilter.evil.clean\n"
        b"global\tfilter.lfs.clean\n"  # the user's own: kept
        b"worktree\tfilter.Two Words.process\n"  # subsection names keep case and spaces
        b"local\tfilter.evil.clean\n"  # listed twice (an include): once
        b"local\tfilter..clean\n"  # no name between prefix and suffix
        b"local\tfilter.x.required\n"  # not a command
        b"local\tcore.fsmonitor\n"
        b"no tab here\n"
    )
    assert guarded_keys(listing, SCOPES, RESETS) == [
        ("filter.evil.clean", ""),
        ("filter.Two Words.process", ""),
    ]


def test_nothing_listed_resets_nothing():
    assert guarded_keys(b"", SCOPES, RESETS) == []


def test_a_pack_without_a_guard_keeps_its_environment():
    env = {"PATH": "/usr/bin"}
    assert guarded_env({"verbs": {}}, "git", env) is env


def test_a_malformed_guard_is_a_clear_error():
    with pytest.raises(WrapgenError, match="config_guard is malformed"):
        guarded_env({"config_guard": {"env": "GIT_CONFIG", "list": ["config"]}}, "git", {})


# A stand-in tool: `tool list` prints a listing (or fails), anything else prints its GIT_CONFIG_* block.
TOOL = r"""
import json, os, sys
if sys.argv[1:2] == ["list"]:
    if os.environ.get("FAIL"):
        sys.exit(3)
    print("local\tfilter.a.clean\nglobal\tfilter.b.clean")
    sys.exit(0)
print(json.dumps({k: v for k, v in sorted(os.environ.items()) if k.startswith("GIT_CONFIG")}))
"""


def _binding(tmp_path):
    script = tmp_path / "tool.py"
    script.write_text(TOOL)
    return {
        "config_guard": {
            "env": "GIT_CONFIG",
            "list": [str(script), "list"],
            "scopes": ["local"],
            "reset": [{"prefix": "filter.", "suffixes": [".clean"], "value": ""}],
        }
    }


def test_the_listed_keys_follow_the_packs_own_overrides(tmp_path):
    """The reset keys go after the pack's env.set block (COUNT grows), so they win over every file."""
    env = {
        "PATH": "/usr/bin:/bin",
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.fsmonitor",
        "GIT_CONFIG_VALUE_0": "false",
    }
    out = guarded_env(_binding(tmp_path), sys.executable, env, cwd=tmp_path)
    assert out == {
        **env,
        "GIT_CONFIG_COUNT": "2",
        "GIT_CONFIG_KEY_1": "filter.a.clean",
        "GIT_CONFIG_VALUE_1": "",
    }
    assert env["GIT_CONFIG_COUNT"] == "1"  # (the caller's dict is not changed)


def test_a_failing_listing_refuses(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "FAIL": "1"}
    with pytest.raises(WrapgenError, match="could not list .* exited 3.*nothing ran"):
        guarded_env(_binding(tmp_path), sys.executable, env, cwd=tmp_path)


def test_a_missing_tool_is_cannot_run(tmp_path):
    with pytest.raises(WrapgenError, match="cannot run"):
        guarded_env(
            _binding(tmp_path), str(tmp_path / "no-such-tool"), {"PATH": "/usr/bin"}, cwd=tmp_path
        )
