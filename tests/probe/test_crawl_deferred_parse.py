"""Pages parsed after the probes (``read_node(defer_parse=...)``): the crawl gives the same tree
whichever pages wait, runs no probe twice, and a waiting page that gives nothing falls through to
the next candidate as it would at once. Real processes: fake tools printing captured help."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import FIXTURES
from tests.support.bounds import alarm
from tests.support.tools import python_tool
from wrapgen.parse import parse_help
from wrapgen.probe import crawl as crawl_module
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import Prober

URFAVE = FIXTURES / "help" / "urfave"


def _tool(tmp_path: Path, pages: dict) -> tuple[str, Path]:
    """A fake tool printing ``pages[" ".join(args)]`` (exit 1 otherwise), logging every call."""
    table = {
        key: (str(value) if isinstance(value, Path) else value) for key, value in pages.items()
    }
    log = tmp_path / "calls.log"
    tool = python_tool(
        tmp_path / "mender-artifact",
        textwrap.dedent(f"""\
        import os, sys
        with open({str(log)!r}, "a") as handle:
            handle.write(" ".join(sys.argv[1:]) + "\\n")
        page = {table!r}.get(" ".join(sys.argv[1:]))
        if page is None:
            sys.exit("no such command")  # (said: a silent failure is tried again through a terminal)
        sys.stdout.write(open(page).read() if os.path.exists(page) else page)
    """),
    )
    return tool, log


def _crawl(tool: str, *, depth: int):
    with Prober(tool, name="mender-artifact", timeout_s=20, use_man=False, sandbox=False) as prober:
        return crawl(prober, parse_help, depth=depth)


def _calls(log: Path) -> list[str]:
    calls = log.read_text().splitlines()
    log.unlink()
    return calls


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_tree_is_the_same_whichever_pages_wait(tmp_path, monkeypatch, depth):
    tool, log = _tool(
        tmp_path,
        {
            "--help": URFAVE / "mender-artifact.txt",
            "write --help": URFAVE / "mender-artifact_write.txt",
            "write rootfs-image --help": URFAVE / "mender-artifact_write_rootfs-image.txt",
        },
    )
    trees, calls = {}, {}
    for mode, hint in (
        ("as found", None),
        ("all wait", lambda text: False),
        ("none waits", lambda text: True),
    ):
        if hint is not None:
            monkeypatch.setattr(crawl_module, "_may_list_commands", hint)
        result = _crawl(tool, depth=depth)
        trees[mode], calls[mode] = result.root, _calls(log)
        assert len(calls[mode]) == len(set(calls[mode])), (mode, calls[mode])  # no probe run twice
    assert trees["as found"] == trees["all wait"] == trees["none waits"]
    assert sorted(calls["as found"]) == sorted(calls["all wait"]) == sorted(calls["none waits"])
    write = trees["as found"].find(("write",))
    if depth >= 2:
        assert write.find(
            ("write", "rootfs-image")
        ).flags  # read through the waiting page's children
    assert write.flags or depth < 1


def test_a_waiting_page_that_reads_as_nothing_falls_through_to_the_next_candidate(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(crawl_module, "_may_list_commands", lambda text: False)
    tool, log = _tool(
        tmp_path,
        {
            "--help": "Usage: mender-artifact <command>\n\nCommands:\n  read   Read an artifact\n",
            "read --help": "nothing useful here\n",
            "help read": "Usage: mender-artifact read [-k KEY] FILE\n\nOptions:\n  -k KEY   the key\n",
        },
    )
    result = _crawl(tool, depth=1)
    read = result.root.find(("read",))
    assert [f.short for f in read.flags] == ["-k"] and read.probe == ("help", "read")
    calls = _calls(log)
    assert calls.count("read --help") == 1 and calls.count("help read") == 1, calls


def test_the_listing_hint_reads_headings_and_hostile_pages_in_linear_time():

    from wrapgen.probe.crawl import _may_list_commands

    for page in (
        "Available Commands:\n  a  b\n",
        "COMMANDS:\n   x\n",
        "These are common Git commands used:\n",
        "usage: t {add,remove} ...\n",
        "  Commands\n",
        "    - access\n",
    ):
        assert _may_list_commands(page), page
    for page in (
        "NAME:\n   t read - Reads.\n\nUSAGE:\n   t read [command options] <path>\n\nOPTIONS:\n   --k value  key\n",
        "usage: amtool alert query [<flags>]\n\nFlags:\n  -h, --help  Show help.\n",
    ):
        assert not _may_list_commands(page), page
    hostile = ["x " + "command " * 250_000, "{" + "a," * 1_000_000, "Commands " * 200_000 + ":"]
    with (
        alarm()
    ):  # (linear: well under a second; the unbounded pattern took minutes, and more here)
        for page in hostile:
            _may_list_commands(page)
