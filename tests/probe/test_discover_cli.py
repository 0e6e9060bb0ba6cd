"""`wrapgen discover TOOL`: JSON and tree output, options, errors, and progress only on a terminal."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

from conftest import FIXTURES
from wrapgen.model.tool import MODEL_VERSION, Tool
from wrapgen.runtime.process import run_in_pty

pytestmark = pytest.mark.usefixtures("own_cache")


COBRA = str(FIXTURES / "tools" / "wg-cobra")


def test_json_is_the_model_with_sorted_keys(cli):
    """--format json prints Tool.to_dict() with sorted keys, and it loads back into a Tool."""
    result = cli("discover", COBRA, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["model_version"] == MODEL_VERSION
    assert result.stdout == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    tool = Tool.from_dict(data)
    assert tool.name == COBRA
    assert tool.root.find(("pr", "list")).probe == ("pr", "list", "--help")
    assert any("broken" in w for w in data["warnings"])
    assert result.stderr == "", "no progress and no warnings on stderr when it is not a terminal"


def test_json_is_the_same_bytes_every_run(cli):
    """Two discoveries of the same tool (cache off) print identical JSON."""
    first = cli("discover", COBRA, "--format", "json", "--no-cache")
    second = cli("discover", COBRA, "--format", "json", "--no-cache")
    assert first.stdout == second.stdout


def test_tree_outlines_commands_with_summaries_and_flag_counts(cli):
    """The default tree format shows one indented line per command, summary and flag count; warnings go to stderr."""
    result = cli("discover", COBRA)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{COBRA} (wg-cobra version 1.2.3): 2 flags, 8 commands"
    assert "  pr  Manage pull requests  [1 flag + 1 global]" in lines
    assert "    list (ls)  List pull requests  [3 flags + 1 global]" in lines
    assert "  help  Help about any command  [not read]" in lines
    assert result.stderr.startswith("warning: could not read `wg-cobra broken`")


def test_depth_option_limits_the_tree(cli):
    """--depth 1 leaves the second level unread."""
    result = cli("discover", COBRA, "--depth", "1", "--format", "json")
    tool = Tool.from_dict(json.loads(result.stdout))
    assert not tool.root.find(("pr",)).stub
    assert tool.root.find(("pr", "list")).stub


def test_no_cache_probes_again(cli, tmp_path, monkeypatch):
    """A repeated discover answers from the cache; --no-cache runs the tool again."""
    log = tmp_path / "log"
    monkeypatch.setenv("WG_LOG", str(log))
    # the tool logs outside the probe's scratch directories: passed by name, and no sandbox
    monkeypatch.setenv("WRAPGEN_PROBE_PASS_ENV", "WG_LOG")
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    cli("discover", COBRA)
    calls = log.read_text().count("\n")
    cli("discover", COBRA)
    assert log.read_text().count("\n") == calls
    cli("discover", COBRA, "--no-cache")
    assert log.read_text().count("\n") == 2 * calls


def test_style_option_forces_a_parser(cli):
    """--style gnu reads a cobra help with the GNU parser; an unknown style is a usage error listing the valid ones."""
    forced = cli("discover", COBRA, "--style", "gnu", "--depth", "0", "--format", "json")
    assert json.loads(forced.stdout)["root"]["parser"] == "gnu"
    bad = cli("discover", COBRA, "--style", "nope")
    assert bad.exit_code == 2
    assert "unknown help style 'nope'" in bad.stderr and "cobra" in bad.stderr


@pytest.mark.parametrize(
    "tool, words",
    [
        ("no-such-tool-wrapgen-xyz", "not found on PATH"),
        (str(FIXTURES / "tools" / "wg-binary"), "binary data"),
    ],
)
def test_errors_are_one_message_and_a_hint(cli, tool, words):
    """A missing or unreadable tool exits 1 with `Error:` and a hint, never a traceback."""
    result = cli("discover", tool)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and words in result.stderr
    assert "hint:" in result.stderr
    assert "Traceback" not in result.stderr


def test_progress_is_shown_on_a_terminal(tmp_path):
    """Run for real on a pseudo-terminal, discover prints a progress line and then clears it."""
    wrapgen = shutil.which("wrapgen") or pytest.skip("the wrapgen command is not installed")
    env = dict(os.environ, WRAPGEN_CACHE_DIR=str(tmp_path / "cache"), NO_COLOR="1")
    result = run_in_pty(
        [sys.executable, "-m", "wrapgen", "discover", COBRA, "--format", "json"],
        timeout_s=60,
        env=env,
        cwd=str(tmp_path),
    )
    assert wrapgen
    text = result.stdout.decode()
    assert result.exit_code == 0, text
    assert "discovering " in text and "\r" in text
    assert '"model_version"' in text
