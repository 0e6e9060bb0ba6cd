"""The crawl: recursion, limits, probe choice and fallbacks, warnings, determinism (real processes)."""

from __future__ import annotations

import os
import random
import textwrap
from pathlib import Path

from conftest import FIXTURES
from tests.support.tools import python_tool
from wrapgen.model.tool import Command, Flag
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import _merge_man_flags, crawl, default_jobs, has_content
from wrapgen.probe.prober import Prober

COBRA = str(FIXTURES / "tools" / "wg-cobra")


def _crawl(tool: str, log: Path | None = None, *, hang: bool = False, **options):
    env = dict(os.environ, WG_SLEEP=str(random.randint(500000, 599999)))
    if hang:
        env["WG_HANG"] = "1"
    if log is not None:
        env["WG_LOG"] = str(log)
    # the fake tools log to a file outside the probe's scratch directories: no sandbox for them
    with Prober(
        tool,
        name=os.path.basename(tool),
        timeout_s=options.pop("timeout_s", 10),
        env=env,
        use_man=False,
        sandbox=False,
    ) as prober:
        return crawl(prober, parse_help, **options)


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    return python_tool(path, "import sys\nargs = sys.argv[1:]\n" + textwrap.dedent(body))


ROOT_HELP = """Usage:
  {name} <command> [flags]

Available Commands:
  alpha       Do the alpha thing
  beta        Do the beta thing

Flags:
  -h, --help   help for {name}
"""

SUB_HELP = """Usage:
  {name} {sub} [flags]

Flags:
  -h, --help        help for {sub}
      --{sub}-only  a flag only {sub} has
"""


def test_crawl_reads_the_whole_tree_of_a_cobra_tool(tmp_path):
    """Every listed subcommand is probed with `SUB --help` and read by the cobra parser."""
    result = _crawl(COBRA, tmp_path / "log", depth=3)
    root = result.root
    assert result.version == "wg-cobra version 1.2.3"
    assert [c.name for c in root.subcommands] == ["broken", "completion", "help", "pr", "repo"]
    listing = root.find(("pr", "list"))
    assert listing is not None and not listing.stub
    assert listing.probe == ("pr", "list", "--help")
    assert listing.parser == "cobra"
    assert listing.summary == "List pull requests"  # from the parent's listing
    assert "ls" in listing.aliases
    assert {f.long for f in listing.flags} >= {"--limit", "--state"}
    assert "--verbose" in {f.long for f in listing.global_flags}
    assert "--verbose" not in {f.long for f in listing.flags}
    assert root.find(("repo", "clone")).flags


def test_help_and_completion_are_kept_as_stubs_and_never_probed(tmp_path):
    """`help` and `completion` stay in the tree as stubs; no probe is spent on them."""
    log = tmp_path / "log"
    result = _crawl(COBRA, log, depth=3)
    assert result.root.find(("help",)).stub and result.root.find(("completion",)).stub
    calls = log.read_text().splitlines()
    assert not any(c.startswith(("help --help", "completion")) for c in calls)
    assert "help help" not in calls


def test_a_hanging_subcommand_keeps_its_stub_and_warns(tmp_path):
    """A subcommand whose help hangs is killed, kept as a stub, and named in a warning; the rest is read."""
    result = _crawl(COBRA, tmp_path / "log", hang=True, depth=3, timeout_s=2)
    broken = result.root.find(("broken",))
    assert broken.stub and broken.summary == "Hangs when asked for help"
    (warning,) = [w for w in result.warnings if "broken" in w]
    assert "did not finish within 2 s" in warning and "kept it as a stub" in warning
    assert result.transient  # a timeout: the result is not to be cached
    assert not result.root.find(("pr", "view")).stub


def test_depth_limits_the_recursion(tmp_path):
    """With depth 1 the first level is probed and its subcommands stay stubs, unprobed."""
    log = tmp_path / "log"
    result = _crawl(COBRA, log, depth=1)
    assert not result.root.find(("pr",)).stub
    assert result.root.find(("pr", "list")).stub
    assert not any(line.startswith("pr list") for line in log.read_text().splitlines())
    depth0 = _crawl(COBRA, None, depth=0)
    assert all(sub.stub for sub in depth0.root.subcommands)


def test_max_nodes_stops_the_crawl_and_says_so(tmp_path):
    """Past max_nodes no more commands are probed, and a warning says how many were left."""
    result = _crawl(COBRA, tmp_path / "log", depth=3, max_nodes=3)
    assert result.nodes == 3
    assert any(
        "stopped after 3 commands: 3 more" in w and "--max-nodes" in w for w in result.warnings
    )
    probed = [c.path for c in result.root.walk() if c.path and not c.stub]
    assert probed == [("pr",)]  # the root, then `broken` (which fails) and `pr`, in listing order


def test_the_tree_does_not_depend_on_parallelism():
    """One worker or many, the same tree comes out, in the listing's order."""
    one = _crawl(COBRA, None, depth=3, jobs=1)
    many = _crawl(COBRA, None, depth=3, jobs=8)
    assert one.root == many.root
    assert one.warnings == many.warnings


def test_a_tool_that_echoes_its_root_help_for_every_subcommand(tmp_path):
    """When `SUB --help` prints the parent's help again, the stub is kept and the warning says why."""
    tool = _script(tmp_path, "echoer", f"print({ROOT_HELP.format(name='echoer')!r})\n")
    result = _crawl(tool, None, depth=2)
    assert [c.name for c in result.root.subcommands] == ["alpha", "beta"]
    assert all(c.stub for c in result.root.subcommands)
    assert any("alpha" in w and "same help as its parent" in w for w in result.warnings)


ARCHIVER_HELP = """Usage: {name} <command> [<switches>...] <archive_name> [<file_names>...]

<Commands>
  a : Add files to archive
  l : List contents of archive

<Switches>
  -- : Stop switches parsing
  -r : Recurse subdirectories
"""


def test_a_command_whose_help_is_its_parents_takes_the_parents_usage(tmp_path):
    """An archiver answers every `CMD --help` with its own help, whose usage has a slot for the
    command (`TOOL <command> [<switches>...] <archive_name> [<file_names>...]`): each command's
    usage is that line with its name in the slot, its operands that line's (the switches are none)."""
    tool = _script(tmp_path, "packer", f"print({ARCHIVER_HELP.format(name='packer')!r})\n")
    result = _crawl(tool, None, depth=2)
    by_name = {c.name: c for c in result.root.subcommands}
    assert by_name["a"].summary == "Add files to archive"
    assert by_name["l"].usage == ("packer l [<switches>...] <archive_name> [<file_names>...]",)
    assert [(p.name, p.required) for p in by_name["l"].positionals] == [
        ("archive_name", True),
        ("file_names", False),
    ]


def test_falls_back_to_help_sub_when_sub_help_fails(tmp_path):
    """A tool whose `SUB --help` is an error is read through `TOOL help SUB`."""
    body = f"""
    root = {ROOT_HELP.format(name="fallback")!r}
    sub = {SUB_HELP!r}
    if args in (["--help"], ["-h"]):
        print(root)
    elif args[:1] == ["help"] and len(args) == 2:
        print(sub.format(name="fallback", sub=args[1]))
    else:
        print("Error: unknown flag: --help", file=sys.stderr)
        sys.exit(1)
    """
    tool = _script(tmp_path, "fallback", body)
    result = _crawl(tool, None, depth=1)
    alpha = result.root.find(("alpha",))
    assert not alpha.stub
    assert alpha.probe == ("help", "alpha")
    assert "--alpha-only" in {f.long for f in alpha.flags}


def test_a_help_printed_with_a_failing_exit_status_is_still_used(tmp_path):
    """When no probe exits 0, the first one that parsed into content is kept."""
    body = f"""
    print({ROOT_HELP.format(name="grumpy")!r} if len(args) == 1 else
          {SUB_HELP!r}.format(name="grumpy", sub=args[0]), file=sys.stderr)
    sys.exit(2)
    """
    tool = _script(tmp_path, "grumpy", body)
    result = _crawl(tool, None, depth=1)
    assert result.root.probe == ("--help",)
    assert result.root.find(("beta",)).probe == ("beta", "--help")
    assert "--beta-only" in {f.long for f in result.root.find(("beta",)).flags}


def test_unreadable_root_returns_no_tree_and_the_reasons(tmp_path):
    """A tool with no readable help gives no root, and a problem per probe tried."""
    result = _crawl(str(FIXTURES / "tools" / "wg-binary"), None, depth=1)
    assert result.root is None
    assert len(result.warnings) == 3
    assert all("binary data" in w for w in result.warnings)


def test_man_flags_fill_in_only_what_help_lacks():
    """Merging a man page adds its unknown flags and never replaces a flag the help described."""
    helped = Command(flags=(Flag(long="--all", short="-a", description="from help"),))
    man = Command(
        flags=(
            Flag(long="--all", description="from man"),
            Flag(long="--bare", description="man only"),
        )
    )
    merged = _merge_man_flags(helped, man)
    assert [f.long for f in merged.flags] == ["--all", "--bare"]
    assert merged.flags[0].description == "from help"


def test_a_man_page_spelling_the_help_omits_becomes_an_alias():
    """gzip: help "-c, --stdout", man "-c --stdout --to-stdout": one flag, --to-stdout its alias, nothing doubled."""
    helped = Command(
        flags=(
            Flag(long="--stdout", short="-c", description="write on standard output"),
            Flag(long="--quiet", short="-q"),
        )
    )
    man = Command(
        flags=(
            Flag(long="--stdout", short="-c", aliases=("--to-stdout",)),
            Flag(long="--quiet", short="-q", aliases=("--stdout",)),
        )
    )
    merged = _merge_man_flags(helped, man)
    assert [f.spellings for f in merged.flags] == [
        ("--stdout", "-c", "--to-stdout"),
        ("--quiet", "-q"),
    ]


def test_content_and_jobs_defaults():
    """A node with only prose has no content; the default pool is at least two workers."""
    assert not has_content(Command(summary="text"))
    assert has_content(Command(positionals=()).with_changes(flags=(Flag(long="--x"),)))
    assert default_jobs() >= 2


def test_progress_reports_each_command_read():
    """The progress callback sees every probed subcommand once, with a running count."""
    seen = []
    result = _crawl(
        COBRA, None, depth=3, progress=lambda done, total, path: seen.append((done, total, path))
    )
    assert [done for done, _, _ in seen] == list(range(1, len(seen) + 1))
    assert len(seen) == result.nodes - 1  # the root is read before the first report
    assert {path for _, _, path in seen} == {
        ("broken",),
        ("pr",),
        ("repo",),
        ("pr", "list"),
        ("pr", "view"),
        ("repo", "clone"),
    }
    assert all(done <= total for done, total, _ in seen)


def _lister(tmp_path: Path, *, alias: bool = False) -> str:
    """A cargo-like tool: `--help` shows `build` and "See all commands with --list"; `--list` adds
    `vendor` (and, with ``alias``, the alias `b`)."""
    alias_line = '"    b                    alias: build\\n"' if alias else '""'
    body = f"""
    if args == ["--list"]:
        print("Installed Commands:\\n    build                Compile a package\\n"
              {alias_line} "    vendor               Vendor all dependencies\\n")
    elif args == ["--help"]:
        print("Usage: lister [OPTIONS] [COMMAND]\\n\\nOptions:\\n  -v, --verbose  Use verbose output\\n\\n"
              "Commands:\\n    build       Compile a package\\n    ...         See all commands with --list\\n")
    else:
        sys.exit(1)
    """
    return _script(tmp_path, "lister", body)


def test_a_tool_that_lists_all_commands_with_list(tmp_path):
    """When the help says `See all commands with --list` (cargo), the commands it lists are added, aliases not."""
    result = _crawl(_lister(tmp_path, alias=True), None, depth=0)
    assert [c.name for c in result.root.subcommands] == ["build", "vendor"]


def test_listed_subcommands_become_clean_stubs_under_their_parent():
    """A parser's listing is placed under the node's path; duplicates, dashed and empty names are dropped."""
    from wrapgen.probe.crawl import _normalise

    parsed = Command(
        path=("ignored",),
        parser="gnu",
        subcommands=(
            Command(path=("list",), summary="List"),
            Command(path=("list",), summary="again"),
            Command(path=("--all",)),
            Command(path=()),
            Command(path=("show",), subcommands=(Command(path=("x",)),)),
        ),
    )
    node = _normalise(parsed, ("pr",), ("pr", "--help"), "gnu")
    assert node.path == ("pr",) and node.probe == ("pr", "--help") and not node.stub
    assert [(s.path, s.summary, s.stub) for s in node.subcommands] == [
        (("pr", "list"), "List", True),
        (("pr", "show"), "", True),
    ]
    assert node.subcommands[1].subcommands == ()


def test_commands_the_short_help_shows_beside_a_fuller_list_are_marked_common(tmp_path):
    """With `--list` adding commands (cargo), the ones `--help` showed are marked common; the added ones are not."""
    result = _crawl(_lister(tmp_path), None, depth=0)
    assert [(c.name, c.common) for c in result.root.subcommands] == [
        ("build", True),
        ("vendor", False),
    ]


def test_a_probed_command_keeps_the_common_mark_of_its_listing():
    """The parent's listing said the command is common: reading the command's own help does not lose that."""
    from wrapgen.probe.crawl import _carry_stub

    stub = Command(
        path=("log",), summary="Show commit logs", group="examine", common=True, stub=True
    )
    read = Command(path=("log",), flags=(Flag(long="--oneline"),))
    carried = _carry_stub(read, stub)
    assert carried.common and carried.group == "examine" and carried.flags == read.flags


GLOBALS_HINT_ROOT = """Usage:
  {name} [command]

Available Commands:
  copy        Copy things
  options     Print the flags every command takes

Use "{name} help flags" for to see the global flags.
"""


def test_global_flags_from_the_command_the_root_help_names(tmp_path):
    """rclone's 'Use "TOOL help flags" for to see the global flags': that page's flags (all but its
    own --help) become every command's global flags, read once."""
    log = tmp_path / "log"
    tool = _script(
        tmp_path,
        "wg-globals",
        f"""
        open({str(log)!r}, "a").write(" ".join(args) + "\\n")
        if args == ["--help"]:
            print({GLOBALS_HINT_ROOT!r}.format(name="wg-globals"))
        elif args == ["help", "flags"]:
            print("Usage:\\n  wg-globals help flags [flags]\\n\\nFlags:\\n  -h, --help   help for flags\\n\\n"
                  "Global Flags:\\n  -n, --dry-run    Do a trial run\\n\\nBackend Flags:\\n      --s3-key string   S3 key\\n")
        elif args == ["copy", "--help"]:
            print("Usage:\\n  wg-globals copy src dst [flags]\\n\\nFlags:\\n  -h, --help   help for copy\\n")
        elif args[:1] == ["options"]:
            print("Usage:\\n  wg-globals options\\n\\nFlags:\\n  -h, --help   help for options\\n")
    """,
    )
    with Prober(tool, name="wg-globals", timeout_s=10, use_man=False, sandbox=False) as prober:
        result = crawl(prober, parse_help, depth=1)
    copy = result.root.find(("copy",))
    assert [f.spellings for f in copy.global_flags] == [("--dry-run", "-n"), ("--s3-key",)]
    assert "--help" in {s for f in copy.flags for s in f.spellings}
    assert [line for line in log.read_text().splitlines() if line == "help flags"] == ["help flags"]


def test_options_page_named_by_the_hint_is_that_node(tmp_path):
    """kubectl: `TOOL options` (its --help prints nothing) is read once, as the global flags and as
    the `options` node itself."""
    log = tmp_path / "log"
    tool = _script(
        tmp_path,
        "wg-opts",
        f"""
        open({str(log)!r}, "a").write(" ".join(args) + "\\n")
        if args == ["--help"]:
            print("Usage:\\n  wg-opts [command]\\n\\nAvailable Commands:\\n  get         Get things\\n"
                  "  options     Print the list of flags inherited by all commands\\n\\n"
                  'Use "wg-opts options" for a list of global command-line options (applies to all commands).\\n')
        elif args == ["options"]:
            print("The following options can be passed to any command:\\n\\n"
                  "    --kubeconfig='':\\n\\tPath to the kubeconfig file\\n")
        elif args == ["get", "--help"]:
            print("Usage:\\n  wg-opts get [flags]\\n\\nOptions:\\n    --watch=false:\\n\\tWatch\\n")
    """,
    )
    with Prober(tool, name="wg-opts", timeout_s=10, use_man=False, sandbox=False) as prober:
        result = crawl(prober, parse_help, depth=1)
    options = result.root.find(("options",))
    assert options is not None and not options.stub and options.probe == ("options",)
    assert "--kubeconfig" in {s for f in options.global_flags for s in f.spellings}
    assert "--kubeconfig" in {
        s for f in result.root.find(("get",)).global_flags for s in f.spellings
    }
    assert "options --help" not in log.read_text().splitlines()
    assert not result.warnings


def test_man_page_fills_the_value_of_a_bare_help_entry():
    """find's help names "-regextype" bare; find(1) says "-regextype type": the merged flag takes a value,
    while a help entry with its own description keeps what help says."""
    bare = Command(flags=(Flag(aliases=("-regextype",)), Flag(short="-x", description="mine")))
    man = Command(
        flags=(
            Flag(
                aliases=("-regextype",),
                takes_value=True,
                value_name="type",
                type="string",
                description="Changes the regex syntax",
            ),
            Flag(short="-x", takes_value=True, value_name="v", type="string", description="man's"),
        )
    )
    merged = _merge_man_flags(bare, man)
    regextype, x = merged.flags
    assert (regextype.takes_value, regextype.value_name, regextype.description) == (
        True,
        "type",
        "Changes the regex syntax",
    )
    assert (x.takes_value, x.description) == (False, "mine")


def test_a_root_that_says_tool_command_help_is_crawled_with_sub_help(tmp_path):
    """aws-style: the root says "Use NAME <command> help"; `SUB help` is asked first and `SUB --help` never runs."""
    marker = tmp_path / "ran"
    tool = _script(
        tmp_path,
        "cloudy",
        f'''
        ROOT = """usage: cloudy [options] <command> <subcommand> [parameters]
        To see help text, you can run:
          cloudy help
          cloudy <command> help

        Commands:
          store       Keep things
          fetch       Get things
        """
        SUB = """usage: cloudy {{sub}} [options]

        Options:
          --{{sub}}-only  a flag only {{sub}} has
        """
        if args in (["--help"], ["help"]):
            print(ROOT)
        elif args == ["--version"]:
            print("cloudy 1.0")
        elif len(args) == 2 and args[1] == "help":
            print(SUB.format(sub=args[0]))
        else:
            open({str(marker)!r}, "a").write(" ".join(args) + "\\n")  # the real action
            sys.exit(2)
        ''',
    )
    result = _crawl(tool, depth=1)
    store = result.root.find(("store",))
    assert store is not None and store.probe == ("store", "help")
    assert any("--store-only" in f.spellings for f in store.flags)
    assert not marker.exists(), marker.read_text() if marker.exists() else ""
