"""The crawl of Symfony Console / cleo and kingpin tools: their own listings, real processes (fake tools
that print captured pages)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from conftest import FIXTURES
from tests.support.tools import python_tool
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import Prober

HELP = FIXTURES / "help"


def _tool(tmp_path: Path, name: str, pages: dict, fallback: str = "") -> tuple[str, Path]:
    """A fake tool printing ``pages[" ".join(args)]`` (a file's text), logging every call."""
    log = tmp_path / "calls.log"
    table = {
        key: (str(value) if isinstance(value, Path) else value) for key, value in pages.items()
    }
    path = tmp_path / name
    python_tool(
        path,
        textwrap.dedent(f"""\
        import os, sys
        args = " ".join(sys.argv[1:])
        with open({str(log)!r}, "a") as handle:
            handle.write(args + "\\n")
        pages = {table!r}
        page = pages.get(args)
        if page is None:
            text = {fallback!r}.replace("PATH", args.replace(" --help", ""))
            if not text:
                sys.exit(1)
        elif os.path.exists(page):
            text = open(page).read()
        else:
            text, code = page, 1
            sys.stdout.write(text)
            sys.exit(code)
        sys.stdout.write(text)
    """),
    )
    return str(path), log


def _crawl(tool: str, **options):
    with Prober(
        tool, name=os.path.basename(tool), timeout_s=20, use_man=False, sandbox=False
    ) as prober:
        return crawl(prober, parse_help, **options)


def test_symfony_tree_comes_from_list_json_without_a_probe_per_command(tmp_path):
    tool, log = _tool(
        tmp_path,
        "composer",
        {
            "--help": HELP / "symfony" / "composer_list.txt",
            "list --format=json": FIXTURES / "listings" / "composer_list.json",
        },
    )
    result = _crawl(tool, depth=2)
    root = result.root
    assert not result.warnings
    assert {"install", "require", "show"} <= {s.name for s in root.subcommands}
    assert all(not s.stub for s in root.subcommands)
    assert "--format" not in {f.long for f in root.flags}  # list's own, not the root's
    install = next(s for s in root.subcommands if s.name == "install")
    assert "--dry-run" in {f.long for f in install.flags} and "--quiet" in {
        f.long for f in install.global_flags
    }
    calls = log.read_text().split("\n")
    assert not any(c.startswith("install") for c in calls), calls  # nothing probed per command


def test_symfony_unreadable_json_falls_back_to_list_and_says_so(tmp_path):
    tool, _ = _tool(
        tmp_path,
        "composer",
        {
            "--help": HELP / "symfony" / "composer_list.txt",
            "list --format=json": '{"commands": "oops"}',
            "list": HELP / "symfony" / "composer.txt",
        },
        fallback=(HELP / "symfony" / "composer_install.txt").read_text(),
    )
    result = _crawl(tool, depth=1)
    assert any(
        "list --format=json" in w and "`composer list` instead" in w for w in result.warnings
    ), result.warnings
    assert len(result.root.subcommands) == 33


def test_symfony_list_that_cannot_be_read_keeps_the_root_and_names_the_page(tmp_path):
    tool, _ = _tool(
        tmp_path,
        "composer",
        {
            "--help": HELP / "symfony" / "composer_list.txt",
            "list --format=json": "",
            "list": "",
        },
    )
    result = _crawl(tool, depth=1)
    assert result.root is not None and result.root.flags
    assert any("could not read the command list `composer list`" in w for w in result.warnings), (
        result.warnings
    )


def test_cleo_namespaces_are_not_probed_and_deeper_commands_are_grafted(tmp_path):
    add = (HELP / "symfony" / "poetry_add.txt").read_text()
    tool, log = _tool(
        tmp_path,
        "poetry",
        {
            "--help": HELP / "symfony" / "composer_list.txt",
            "list --format=json": 'The option "--format" does not exist.',
            "list": HELP / "symfony" / "poetry.txt",
            "self show --help": HELP / "symfony" / "poetry_self_show.txt",
        },
        fallback=add,
    )
    result = _crawl(tool, depth=3, jobs=4)
    root = result.root
    assert not [w for w in result.warnings if "could not read" in w], result.warnings
    nodes = {c.path: c for c in root.walk()}
    assert ("self", "show", "plugins") in nodes and not nodes[("self", "show", "plugins")].stub
    assert ("cache", "clear") in nodes and nodes[("cache",)].summary.startswith(
        "The cache commands"
    )
    calls = set(log.read_text().split("\n"))
    assert "cache --help" not in calls and "self --help" not in calls
    assert "cache clear --help" in calls
    clear = nodes[("cache", "clear")]
    assert "--quiet" in {f.long for f in clear.global_flags} and "--quiet" not in {
        f.long for f in clear.flags
    }
    assert "--dev" in {f.long for f in clear.flags}


KINGPIN_PAGE = """usage: amtool PATH [<flags>]

Does PATH.

Flags:
  -h, --help           Show context-sensitive help (also try --help-long and
                       --help-man).
      --timeout=30s    Timeout for the executed command
      --PATH-only      A flag of PATH alone
"""


def test_kingpin_reaches_the_leaves_never_alert_alert(tmp_path):
    tool, log = _tool(
        tmp_path,
        "amtool",
        {
            "--help": HELP / "kingpin" / "amtool.txt",
            "alert --help": HELP / "kingpin" / "amtool_alert.txt",
            "alert query --help": HELP / "kingpin" / "amtool_alert_query.txt",
            "config routes --help": HELP / "kingpin" / "amtool_config_routes.txt",
        },
        fallback=KINGPIN_PAGE,
    )
    result = _crawl(tool, depth=3)
    nodes = {c.path: c for c in result.root.walk()}
    assert ("alert", "alert") not in nodes
    for leaf in (
        ("alert", "query"),
        ("silence", "import"),
        ("config", "routes", "show"),
        ("template", "render"),
    ):
        assert leaf in nodes and not nodes[leaf].stub, leaf
    query = nodes[("alert", "query")]
    assert "--inhibited" in {f.long for f in query.flags} and "--timeout" in {
        f.long for f in query.global_flags
    }
    assert "--timeout" not in {f.long for f in query.flags}
    # `amtool alert --inhibited` runs the default command `alert query`: alert takes its flags
    assert "--inhibited" in {f.long for f in nodes[("alert",)].flags}
    assert all(
        "--no-version-check" not in f.spellings
        for c in nodes.values()
        for f in (*c.flags, *c.global_flags)
    )


def test_cleo_list_without_a_json_format_is_not_asked_for_json(tmp_path):
    list_help = tmp_path / "list_help.txt"
    list_help.write_text(
        "".join(
            line
            for line in (HELP / "symfony" / "composer_list.txt").read_text().splitlines(True)
            if "--format" not in line
        )
    )
    tool, log = _tool(
        tmp_path,
        "poetry",
        {
            "--help": list_help,
            "list": HELP / "symfony" / "poetry.txt",
        },
        fallback=(HELP / "symfony" / "poetry_add.txt").read_text(),
    )
    result = _crawl(tool, depth=1)
    assert "add" in {s.name for s in result.root.subcommands}
    assert "list --format=json" not in log.read_text().split("\n")


def test_a_symfony_single_command_application_is_never_asked_for_list(tmp_path):
    """Its --help is the command's own: `TOOL list` would run it with the operand "list"."""
    tool, log = _tool(tmp_path, "fixer", {"--help": HELP / "symfony" / "composer_install.txt"})
    result = _crawl(tool, depth=1)
    assert result.root is not None and result.root.parser == "symfony"
    calls = log.read_text().split("\n")
    assert not any(c.startswith("list") for c in calls), calls
