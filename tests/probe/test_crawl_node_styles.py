"""The crawl on Node frameworks' ways (issue 13): usage-listed subcommands are read from their
parent's page and never run; oclif topics are probed; an unreadable page is named and the rest kept."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from tests.support.tools import python_tool
from wrapgen.parse import parse_help
from wrapgen.parse.registry import USAGE_LISTED
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import Prober

YARN_ROOT = """
  Usage: wg-yarn [command] [flags]

  Options:

    --offline   trigger an error if any required dependencies are not available
    -h, --help  output usage information
  Commands:
    - cache
    - install
"""

YARN_CACHE = """
  Usage: wg-yarn cache [list|clean|dir] [flags]

  Yarn cache list will print out every cached package.

  Options:

    --offline            trigger an error if any required dependencies are not available
    --pattern [pattern]  filter cached packages by pattern
    -h, --help           output usage information
"""


def _tool(tmp_path: Path, name: str, pages: dict, log: Path) -> str:
    """A fake tool printing ``pages[args]``; any other command line is an action, logged to ``log``."""
    path = tmp_path / name
    return python_tool(
        path,
        (
            f"import sys\nargs = ' '.join(sys.argv[1:])\n"
            f"pages = {pages!r}\n"
            "if args in pages or args == '--version':\n    print(pages.get(args, '1.0.0')); sys.exit(0)\n"
            f"open({str(log)!r}, 'a').write(args + '\\n')\n"
            "print('did it'); sys.exit(0)\n"
        ),
    )


def _crawl(tool: str, **options):
    with Prober(
        tool, name=os.path.basename(tool), timeout_s=10, use_man=False, sandbox=False
    ) as prober:
        return crawl(prober, parse_help, **options)


def test_yarn_subcommands_from_usage_are_read_from_the_parent_page_and_never_run(tmp_path):
    """`yarn cache list --help` runs `yarn cache list`: the crawl reads `cache list` from `cache`'s page."""
    log = tmp_path / "ran.log"
    pages = {
        "--help": textwrap.dedent(YARN_ROOT),
        "cache --help": YARN_CACHE,
        "install --help": YARN_CACHE.replace("cache [list|clean|dir]", "install"),
    }
    tool = _tool(tmp_path, "wg-yarn", pages, log)
    result = _crawl(tool, depth=3, style="yarn")
    cache = result.root.find(("cache",))
    assert [s.name for s in cache.subcommands] == ["list", "clean", "dir"]
    listed = cache.find(("cache", "list"))
    assert not listed.stub and listed.probe == ("cache", "--help")  # read from the parent's page
    assert {"--pattern", "--offline"} <= {
        s for f in listed.flags + listed.global_flags for s in f.spellings
    }
    assert not log.exists(), f"an action ran: {log.read_text()}"
    assert not result.warnings


NPM_ACCESS = """Set access level on published packages

Usage:
wg-npm access list packages [<user>|<scope>] [<package>]
wg-npm access list collaborators [<package> [<user>]]
wg-npm access grant <read-only|read-write> <scope:team> [<package>]

Options:
[--json] [--otp <otp>]

  --json
    Whether or not to output JSON data.

  --otp
    A one-time password.

Run "wg-npm help access" for more info
"""


def test_npm_usage_line_subcommands_two_levels_deep_without_a_probe(tmp_path):
    """`npm access list packages`: both levels come from `npm access`'s usage lines, nothing else runs."""
    log = tmp_path / "ran.log"
    root = "wg-npm <command>\n\nAll commands:\n\n    access, adduser, audit,\n    bugs\n"
    pages = {
        "--help": root,
        "access --help": NPM_ACCESS,
        "adduser --help": NPM_ACCESS.replace("access", "adduser"),
        "audit --help": NPM_ACCESS.replace("access", "audit"),
        "bugs --help": NPM_ACCESS.replace("access", "bugs"),
    }
    tool = _tool(tmp_path, "wg-npm", pages, log)
    result = _crawl(tool, depth=3, style="npm")
    access = result.root.find(("access",))
    assert [s.name for s in access.subcommands] == ["list", "grant"]
    packages = result.root.find(("access", "list", "packages"))
    assert packages is not None and not packages.stub
    assert packages.positionals and packages.positionals[0].name.startswith("user")
    assert not log.exists(), f"an action ran: {log.read_text()}"


OCLIF_ROOT = """my oclif tool

USAGE
  $ wg-oclif [COMMAND]

TOPICS
  pack  Package the CLI.

COMMANDS
  init  Initialize it
"""

OCLIF_PACK = """Package the CLI.

USAGE
  $ wg-oclif pack COMMAND

COMMANDS
  pack deb  Pack into a debian package.
  pack win  Create a windows installer.
"""

OCLIF_DEB = """Pack into a debian package.

USAGE
  $ wg-oclif pack deb [-r <value>]

FLAGS
  -r, --root=<value>  path to the CLI
"""


def test_oclif_topics_are_probed_and_an_unreadable_page_is_named(tmp_path):
    """A topic's page lists its two-word commands; `pack win` prints nothing readable: it stays a stub,
    the warning names that page, and the rest of the tree is kept."""
    log = tmp_path / "ran.log"
    pages = {
        "--help": OCLIF_ROOT,
        "pack --help": OCLIF_PACK,
        "pack deb --help": OCLIF_DEB,
        "init --help": OCLIF_DEB.replace("pack deb", "init"),
        "pack win --help": "\x00\x01",
    }
    tool = _tool(tmp_path, "wg-oclif", pages, log)
    result = _crawl(tool, depth=2, style="oclif")
    deb = result.root.find(("pack", "deb"))
    assert deb is not None and not deb.stub and deb.flags[0].long == "--root"
    win = result.root.find(("pack", "win"))
    assert win is not None and win.stub
    assert any("`wg-oclif pack win`" in w and "kept it as a stub" in w for w in result.warnings), (
        result.warnings
    )


COLON_ROOT = """my colon tool

USAGE
  $ wg-colon [COMMAND]

TOPICS
  apps  list your apps

COMMANDS
  apps  list your apps
  init  Initialize it
"""

COLON_APPS = """list your apps

USAGE
  $ wg-colon apps [-A]

FLAGS
  -A, --all  include apps in all teams

TOPICS
  apps:domains  list the domains of an app

COMMANDS
  apps:create   creates a new app
  apps:domains  list the domains of an app
  apps:info     show detailed app information
"""

COLON_DOMAINS = """list the domains of an app

USAGE
  $ wg-colon apps:domains -a <value>

FLAGS
  -a, --app=<value>  (required) app to run command against

COMMANDS
  apps:domains:add  add a domain to an app
"""

COLON_INFO = """show detailed app information

USAGE
  $ wg-colon apps:info [APP] [-j]

FLAGS
  -j, --json  output in json format
"""


def test_a_topic_page_naming_its_commands_by_their_whole_id_places_them_beside_the_topic(tmp_path):
    """The colon layout: `apps --help` lists `apps:info`, which runs as `wg-colon apps:info`; read
    and kept at that path (beside the topic, at any depth of topics), never as `apps apps:info`."""
    log = tmp_path / "ran.log"
    pages = {
        "--help": COLON_ROOT,
        "apps --help": COLON_APPS,
        "apps:info --help": COLON_INFO,
        "apps:create --help": COLON_INFO.replace("apps:info", "apps:create"),
        "apps:domains --help": COLON_DOMAINS,
        "apps:domains:add --help": COLON_INFO.replace("apps:info", "apps:domains:add"),
        "init --help": COLON_INFO.replace("apps:info", "init"),
    }
    tool = _tool(tmp_path, "wg-colon", pages, log)
    result = _crawl(tool, depth=2, style="oclif")
    root = result.root
    assert [s.name for s in root.subcommands][:2] == ["apps", "init"]  # the root's own first
    assert sorted(s.name for s in root.subcommands[2:]) == [
        "apps:create",
        "apps:domains",
        "apps:domains:add",
        "apps:info",
    ]
    assert root.find(("apps",)).subcommands == ()
    info = root.find(("apps:info",))
    assert info is not None and not info.stub and info.flags[0].long == "--json"
    assert not root.find(("apps:domains:add",)).stub  # a topic inside a topic: beside it too
    for command in root.walk():
        assert command.path[:-1] == () or command.path[-1] != command.path[-2], command.path
    assert not log.exists(), f"an action ran: {log.read_text()}"


def test_the_marker_is_what_the_styles_put_on_usage_listed_stubs():
    """Parsers and the crawl agree on the one marker."""
    command = parse_help(YARN_CACHE, prog=("wg-yarn", "cache"), style="yarn")
    assert {s.probe for s in command.subcommands} == {USAGE_LISTED}
