"""discover() end to end: real tools installed on the machine, and hostile fake tools."""

from __future__ import annotations

import os
import random

import pytest
from support.bounds import wait_until

from conftest import FIXTURES, flag_of, require_tool
from wrapgen.errors import HelpUnreadableError, ToolNotFoundError, UsageError
from wrapgen.probe.discover import discover

pytestmark = [pytest.mark.live, pytest.mark.usefixtures("own_cache")]
TOOLS = FIXTURES / "tools"


def test_gh_pr_list_has_state_with_its_choices():
    """gh (cobra), depth 2: `pr list` is read from `gh pr list --help`, --state with its four choices."""
    require_tool("gh")
    tool = discover("gh", depth=2, cache=False)
    listing = tool.root.find(("pr", "list"))
    assert listing is not None and not listing.stub
    assert listing.probe == ("pr", "list", "--help") and listing.parser == "cobra"
    state = flag_of(listing, "--state")
    assert state is not None and state.short == "-s"
    assert set(state.choices) == {"open", "closed", "merged", "all"}
    assert "--repo" in {s for f in listing.global_flags for s in f.spellings}
    assert tool.version.startswith("gh version")
    assert {"pr", "issue", "repo"} <= {c.name for c in tool.root.subcommands}


def test_git_lists_every_command_and_log_has_oneline():
    """git (help -a), depth 1: far more than the common commands, and `log` knows --oneline."""
    require_tool("git")
    tool = discover("git", depth=1, cache=False)
    names = {c.name for c in tool.root.subcommands}
    assert len(names) > 100
    assert {"log", "commit", "rev-parse", "cat-file", "worktree"} <= names
    assert not names & {"attributes", "revisions", "format-pack"}, "guides are not commands"
    # `git help -a` leaves out the internal helpers; git(1) lists them, and they are read like the rest
    upload = tool.root.find(("upload-pack",))
    assert upload is not None and upload.group == "Syncing repositories" and not upload.stub
    assert flag_of(upload, "--stateless-rpc") is not None
    log = tool.root.find(("log",))
    assert log.probe == ("log", "-h")
    assert flag_of(log, "--oneline") is not None
    assert flag_of(log, "--quiet").short == "-q"


def test_rg_root_has_type_and_its_value():
    """rg (clap), depth 0: --type/-t takes a value; no subcommands are invented."""
    require_tool("rg")
    tool = discover("rg", depth=0, cache=False)
    type_flag = flag_of(tool.root, "--type")
    assert type_flag is not None and type_flag.short == "-t" and type_flag.takes_value
    assert tool.root.subcommands == ()
    assert len(tool.root.flags) > 80


def test_kubectl_get_has_output_and_the_global_flags():
    """kubectl (cobra, globals in `kubectl options`), depth 1: get has -o/--output and --namespace as global."""
    require_tool("kubectl")
    tool = discover("kubectl", depth=1, cache=False)
    get = tool.root.find(("get",))
    output = flag_of(get, "--output")
    assert output is not None and output.short == "-o" and output.takes_value
    assert "--namespace" in {s for f in get.global_flags for s in f.spellings}
    assert "--namespace" not in {s for f in get.flags for s in f.spellings}


def test_fdfind_and_jq_roots():
    """fd (clap 4) and jq (its own style, help and man page merged), depth 0: flags and their values."""
    require_tool("fdfind")
    require_tool("jq")
    fd = discover("fdfind", depth=0, cache=False)
    extension = flag_of(fd.root, "--extension")
    assert extension is not None and extension.short == "-e" and extension.takes_value
    jq = discover("jq", depth=0, cache=False)
    raw = flag_of(jq.root, "-r")
    assert raw is not None and not raw.takes_value
    assert flag_of(jq.root, "--arg").takes_value


def test_a_tool_that_does_not_exist_or_is_not_executable(tmp_path):
    """A missing tool and a non-executable file are ToolNotFoundError with a hint."""
    with pytest.raises(ToolNotFoundError) as caught:
        discover("no-such-tool-wrapgen-xyz")
    assert caught.value.hint
    plain = tmp_path / "plain"
    plain.write_text("hello\n")
    with pytest.raises(ToolNotFoundError, match="not executable"):
        discover(str(plain))


def test_bad_options_are_usage_errors():
    """A negative depth or an unknown style is refused before anything runs."""
    with pytest.raises(UsageError):
        discover("git", depth=-1)
    with pytest.raises(UsageError) as caught:
        discover("git", style="nope")
    assert "cobra" in caught.value.hint


def _live_with(marker: str) -> list[str]:
    hits = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if marker.encode() in handle.read().split(b"\0"):
                        hits.append(entry)
            except OSError:
                pass
    return hits


def test_a_hanging_tool_times_out_and_leaves_no_process(monkeypatch):
    """A tool that hangs (with a forked sleeper) is a clear error after the timeouts; nothing survives."""
    marker = str(random.randint(600000, 699999))
    monkeypatch.setenv("WG_SLEEP", marker)
    with pytest.raises(HelpUnreadableError) as caught:
        discover(str(TOOLS / "wg-hang"), timeout_s=0.5)
    assert (
        caught.value.message.count("did not finish within 0.5 s") == 2
    )  # --help and -h, then it gives up
    assert "--timeout" in caught.value.hint
    wait_until(lambda: _live_with(marker) == [], what="the hanging tool's sleeper to be gone")


@pytest.mark.parametrize(
    "name, words",
    [
        ("wg-binary", "binary data"),
        ("wg-huge", "more than 2 MiB"),
        ("wg-silent", "printed nothing"),
    ],
)
def test_unreadable_tools_say_why(name, words):
    """Binary, flooding and silent tools each give an error naming what they did."""
    with pytest.raises(HelpUnreadableError) as caught:
        discover(str(TOOLS / name))
    assert words in caught.value.message
    assert caught.value.message.startswith(f"could not read any help from {TOOLS / name}")


def test_ansi_and_tty_only_tools_are_read():
    """Colourised help is read once the escapes are gone; tty-only help is read through a pty."""
    ansi = discover(str(TOOLS / "wg-ansi"), depth=0)
    color = flag_of(ansi.root, "--color")
    assert color is not None and color.value_optional
    assert flag_of(ansi.root, "--output").takes_value
    tty = discover(str(TOOLS / "wg-ttyonly"), depth=0)
    assert flag_of(tty.root, "--ignore-case").short == "-i"


def test_a_tool_that_runs_its_action_writes_nothing_into_the_callers_directory(
    tmp_path, monkeypatch
):
    """A tool that ignores --help and writes into its cwd leaves the caller's directory empty."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("WG_LOG", str(tmp_path / "log"))
    # the tool logs outside the probe's scratch directories: passed by name, and no sandbox
    monkeypatch.setenv("WRAPGEN_PROBE_PASS_ENV", "WG_LOG")
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    with pytest.raises(HelpUnreadableError) as caught:
        discover(str(TOOLS / "wg-action"))
    assert "did the thing" in caught.value.message
    assert list(here.iterdir()) == []
    for ran_in in set((tmp_path / "log").read_text().split()):
        assert not os.path.exists(ran_in), "the probe's scratch directory was removed"
