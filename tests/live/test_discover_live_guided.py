"""Discovery guided by use (issue 26 item 3): a launcher script probed as the program it starts,
priority paths read first on a tool too large to read within the deadline, ``--pick`` reaching a
command the crawl would not have read."""

from __future__ import annotations

import os
import stat
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import flag_of, require_tool
from tests.support.tools import python_tool
from wrapgen.flows.wrap import wrap
from wrapgen.parse import parse_help
from wrapgen.parse.script import hands_over
from wrapgen.probe.crawl import crawl
from wrapgen.probe.discover import discover
from wrapgen.probe.prober import Prober
from wrapgen.probe.sandbox import sandbox_status

pytestmark = [pytest.mark.live, pytest.mark.usefixtures("own_cache")]

SYSTEM_PYTHON = "/usr/bin/python3"

# An argparse program with subcommands, started by the launcher below (no network, no state).
PROGRAM = """\
import argparse
parser = argparse.ArgumentParser(prog="cloudish")
parser.add_argument("--project", help="the project to use")
sub = parser.add_subparsers(dest="command", metavar="COMMAND")
config = sub.add_parser("config", help="Manage the configuration")
config_sub = config.add_subparsers(dest="action", metavar="ACTION")
listing = config_sub.add_parser("list", help="List the properties")
listing.add_argument("--all", action="store_true", help="list unset properties too")
config_sub.add_parser("set", help="Set a property").add_argument("name")
sub.add_parser("info", help="Show what is installed")
parser.parse_args()
"""

# A software kit's launcher: functions that look for an interpreter, a loop over candidates, a
# `case` over a variable and the program started by the last statement, without `exec`. It never
# reads its arguments but to hand all of them over.
LAUNCHER = """\
#!/bin/sh
# finds an interpreter, then runs the program with every argument
_which() {
  command -v "$1" 2>/dev/null
}
pick_python() {
  for candidate in "$@"; do
    if _which "$candidate" >/dev/null; then
      echo "$candidate"
      return
    fi
  done
}
ROOT_DIR=$(dirname "$0")
if [ -z "$KIT_PYTHON" ]; then
  KIT_PYTHON=$(pick_python {python} python3)
fi
case ":$KIT_SITE:" in
  ::) KIT_ARGS="-S" ;;
  *) KIT_ARGS="" ;;
esac
export KIT_PYTHON
"$KIT_PYTHON" $KIT_ARGS "{program}" "$@"
"""


def _system_python() -> str:
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        pytest.skip(f"{SYSTEM_PYTHON} is not installed")
    return SYSTEM_PYTHON


def _launcher(tmp_path: Path) -> Path:
    program = tmp_path / "lib" / "cloudish.py"
    program.parent.mkdir()
    program.write_text(PROGRAM)
    launcher = tmp_path / "bin" / "cloudish"
    launcher.parent.mkdir()
    launcher.write_text(
        LAUNCHER.replace("{python}", _system_python()).replace("{program}", str(program))
    )
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return launcher


def test_a_launcher_with_a_set_up_of_its_own_is_probed_as_its_program(tmp_path):
    """A shell launcher with functions, a loop and a case, ending in `PYTHON SCRIPT "$@"`, is read
    from the argparse program it starts: its subcommands, theirs, and their flags."""
    if not sandbox_status().available:
        pytest.skip(
            "bubblewrap cannot run here: a launcher with a set-up of its own is read, not run"
        )
    launcher = _launcher(tmp_path)
    assert hands_over(launcher.read_text())
    tool = discover(str(launcher), depth=2, cache=False)
    assert tool.root.parser == "argparse"
    assert {"config", "info"} <= {c.name for c in tool.root.subcommands}
    listing = tool.root.find(("config", "list"))
    assert listing is not None and not listing.stub
    assert flag_of(listing, "--all") is not None


def test_outside_the_sandbox_such_a_launcher_is_read_not_run(tmp_path):
    """Without the sandbox the same launcher is read as a script: its set-up may run any command."""
    launcher = _launcher(tmp_path)
    tool = discover(str(launcher), depth=1, cache=False, sandbox=False)
    assert tool.root.parser == "script"


def test_a_launcher_that_reads_its_arguments_is_read_not_run(tmp_path):
    """The same launcher with a `case "$1"` of its own is no hand-over: it is read as a script, and
    what its dispatch names are its commands (none of the program's)."""
    launcher = _launcher(tmp_path)
    text = launcher.read_text().replace(
        "export KIT_PYTHON\n", 'case "$1" in\n  update) echo updating; exit 0 ;;\nesac\n'
    )
    launcher.write_text(text)
    assert not hands_over(text)
    tool = discover(str(launcher), depth=1, cache=False)
    assert tool.root.parser == "script"
    assert [c.name for c in tool.root.subcommands] == ["update"]


# -- a tool too large to read within the deadline ----------------------------------------------------

COMMANDS = 240  # each page takes SLOW_S: read in listing order, four at a time, far past DEADLINE_S
SLOW_S = 1.0
DEADLINE_S = 30.0

LARGE = """\
import sys, time
args = [a for a in sys.argv[1:]]
n = {n}
if args in (["--help"], ["-h"], []):
    print("Usage:\\n  large <command> [flags]\\n\\nAvailable Commands:")
    for i in range(n):
        print(f"  c{{i:03d}}        Command number {{i}}")
    print("\\nFlags:\\n  -h, --help   help for large")
    sys.exit(0)
time.sleep({slow})
if len(args) == 3 and args[2] == "--help" and args[1] not in ("leaf", "other", "secret"):
    args = args[:1] + ["--help"]  # an unknown word: the parent's help again, as cobra prints it
if len(args) == 2 and args[1] == "--help":
    name = args[0]
    print(f"Usage:\\n  large {{name}} <command> [flags]\\n\\nAvailable Commands:")
    print(f"  leaf        The leaf of {{name}}\\n  other       Another of {{name}}\\n")
    print(f"Flags:\\n  -h, --help   help for {{name}}\\n      --{{name}}-flag   only {{name}} has it")
    sys.exit(0)
if len(args) == 3 and args[2] == "--help":
    name, sub = args[0], args[1]
    print(f"Usage:\\n  large {{name}} {{sub}} [flags]\\n\\nFlags:\\n  -h, --help   help for {{sub}}")
    print(f"      --deep-{{sub}}   a flag of {{name}} {{sub}}")
    sys.exit(0)
print("unknown command", file=sys.stderr)
sys.exit(2)
"""


def _large(tmp_path: Path) -> str:
    return python_tool(tmp_path / "large", textwrap.dedent(LARGE.format(n=COMMANDS, slow=SLOW_S)))


def test_priority_paths_are_read_first_and_the_rest_left_where_it_cannot_be_read(tmp_path):
    """The last command of a long listing and its child, asked for first, are read (with their
    flags) though the crawl could not read the whole listing; the rest is left as stubs."""
    tool = _large(tmp_path)
    wanted = ("c239", "leaf")
    with Prober(
        tool, name="large", timeout_s=20, use_man=False, sandbox=False, deadline_s=DEADLINE_S
    ) as prober:
        result = crawl(prober, parse_help, depth=2, jobs=4, priority_paths=(wanted,), rest_by_s=0)
    root = result.root
    last = root.find(("c239",))
    leaf = root.find(wanted)
    assert last is not None and not last.stub and flag_of(last, "--c239-flag") is not None
    assert leaf is not None and not leaf.stub and flag_of(leaf, "--deep-leaf") is not None
    assert root.find(("c000",)).stub  # the rest: listed, never read
    assert result.guided_stop
    assert any("left" in w and "unread" in w for w in result.warnings)


def test_a_small_rest_is_read_whatever_the_pace(tmp_path):
    """A rest of at most ``rest_read`` commands is read though the pace says it would not fit
    (``rest_by_s=0``, as a loaded machine makes any pace): the tree does not depend on the load."""
    tool = python_tool(tmp_path / "small", textwrap.dedent(LARGE.format(n=12, slow=0.2)))
    with Prober(
        tool, name="large", timeout_s=20, use_man=False, sandbox=False, deadline_s=DEADLINE_S
    ) as prober:
        kept = crawl(prober, parse_help, depth=1, jobs=4, priority_paths=(("c011",),), rest_by_s=0)
        read = crawl(
            prober,
            parse_help,
            depth=1,
            jobs=4,
            priority_paths=(("c011",),),
            rest_by_s=0,
            rest_read=11,
        )
    assert kept.guided_stop and kept.root.find(("c000",)).stub
    assert not read.guided_stop
    for i in range(12):
        command = read.root.find((f"c{i:03d}",))
        assert not command.stub and flag_of(command, f"--c{i:03d}-flag") is not None, i


def test_every_generation_of_the_rest_is_judged(tmp_path):
    """The rest's own pages list more commands (each of twelve lists two): that next generation is
    judged as the first was. Within ``rest_read`` in all, all is read; past it, at a pace that
    cannot fit (``rest_by_s=0``), the first generation (11, within ``rest_read``) is read and the
    commands its pages list are left as stubs."""
    tool = python_tool(tmp_path / "small", textwrap.dedent(LARGE.format(n=12, slow=0.1)))
    with Prober(
        tool, name="large", timeout_s=20, use_man=False, sandbox=False, deadline_s=DEADLINE_S
    ) as prober:
        options = dict(depth=2, jobs=4, priority_paths=(("c011",),), rest_by_s=0)
        judged = crawl(prober, parse_help, **options, rest_read=15)
        read = crawl(prober, parse_help, **options, rest_read=100)
    assert judged.guided_stop
    assert not judged.root.find(("c000",)).stub
    assert judged.root.find(("c000", "leaf")).stub
    assert any("left 22 more unread" in w for w in judged.warnings), judged.warnings
    assert not read.guided_stop
    assert not read.root.find(("c000", "leaf")).stub


# A tool whose every page costs 0.2 s of CPU (a runtime's start-up), whatever the machine's load.
BURNING = LARGE.replace("time.sleep({slow})", "while time.process_time() < {slow}: pass")


def test_a_rest_that_costs_more_cpu_than_allowed_is_judged_by_the_pace(tmp_path):
    """Twelve commands are within ``rest_read``, but at 0.2 s of CPU a read they cost more than a
    ``rest_cpu_s`` of 1 s: the pace decides (and cannot fit: ``rest_by_s=0``). The CPU a read
    takes does not shrink on an idle machine nor grow much on a busy one."""
    tool = python_tool(tmp_path / "burning", textwrap.dedent(BURNING.format(n=12, slow=0.2)))
    with Prober(
        tool, name="large", timeout_s=20, use_man=False, sandbox=False, deadline_s=DEADLINE_S
    ) as prober:
        options = dict(depth=1, jobs=4, priority_paths=(("c011",),), rest_by_s=0, rest_read=100)
        judged = crawl(prober, parse_help, **options, rest_cpu_s=1.0)
        read = crawl(prober, parse_help, **options, rest_cpu_s=None)
    assert judged.guided_stop and judged.root.find(("c000",)).stub
    assert not judged.root.find(("c011",)).stub
    assert not read.guided_stop and not read.root.find(("c000",)).stub


def test_pick_reaches_a_command_the_crawl_would_not_have_read(tmp_path):
    """`wrap --pick "c200 other"` on the large tool with depth 1: the picked command, below the
    depth and far down the listing, is read and becomes the pack's verb with its own flag."""
    tool = _large(tmp_path)
    result = wrap(
        tool,
        out_dir=tmp_path / "packs",
        picks=["c200 other"],
        discover_options={"depth": 1, "deadline_s": DEADLINE_S, "cache": False},
        probe_json_fields=False,
    )
    verbs = result.proposal.manifest["verbs"]
    assert list(verbs) == ["c200.other"], verbs
    assert "--deep-other" in repr(verbs["c200.other"])


# A cobra-style tool of five leaf commands, each with a flag of its own.
NAMED = """\
import sys
SAYS = {"deploy": "Deploy the app", "list": "List the apps", "status": "Display the status",
        "show": "Show an app", "get": "Get a value"}
args = sys.argv[1:]
if args in (["--help"], ["-h"], []):
    print("Usage:\\n  named <command> [flags]\\n\\nAvailable Commands:")
    for name, says in SAYS.items():
        print(f"  {name:<10}  {says}")
    print("\\nFlags:\\n  -h, --help   help for named")
    sys.exit(0)
if len(args) == 2 and args[0] in SAYS and args[1] in ("--help", "-h"):
    name = args[0]
    print(f"{SAYS[name]}\\n\\nUsage:\\n  named {name} [flags]\\n")
    print(f"Flags:\\n  -h, --help   help for {name}\\n      --{name}-flag string   only {name} has it")
    sys.exit(0)
print("unknown command", file=sys.stderr)
sys.exit(2)
"""


def test_a_command_the_proposal_chose_unread_is_read_before_it_is_written(tmp_path, monkeypatch):
    """Discovery, guided by a script's use of `deploy`, leaves the rest as stubs (no pace fits
    here); the proposal still chooses some of them (common reads); wrap reads those, so each verb
    has its own flags, not a stub's none."""
    from wrapgen.probe import discover as discovery

    monkeypatch.setattr(discovery, "GUIDED_REST_READ", 0)
    monkeypatch.setattr(discovery, "GUIDED_BY_S", 0.0)
    tool = python_tool(tmp_path / "named", NAMED)
    script = tmp_path / "release.sh"
    script.write_text("#!/bin/sh\nnamed deploy --deploy-flag x\n")
    result = wrap(
        tool,
        out_dir=tmp_path / "packs",
        usage_from=[script],
        discover_options={"depth": 1, "deadline_s": DEADLINE_S, "cache": False},
        probe_json_fields=False,
        trials=False,
    )
    verbs = result.proposal.manifest["verbs"]
    assert "status" in verbs and "list" in verbs, list(verbs)
    assert "--status-flag" in repr(verbs["status"]), verbs["status"]
    assert "--list-flag" in repr(verbs["list"]), verbs["list"]


def test_stubs_are_read_again_only_after_a_crawl_guided_by_use(tmp_path, monkeypatch):
    """The stubs the proposal chose are read (a handful of reads, not a second crawl) where use
    guided the crawl, which judged its rest too slow to read; a crawl no use guided left its stubs
    at its deadline or its node bound, and they stay."""
    import wrapgen.flows.wrap as flow
    import wrapgen.probe.discover as discovery
    from wrapgen.model.tool import Command, Tool

    stubs = Tool(
        name="named",
        root=Command(
            subcommands=tuple(
                Command(path=(name,), summary=says, stub=True)
                for name, says in (("list", "List the apps"), ("status", "Display the status"))
            )
        ),
    )
    crawls, reads = [], []

    def fake(discover, ref, options):
        crawls.append(options.get("priority_paths", ()))
        return replace(stubs, name=ref.bin)

    def fake_read(tool, paths, **options):
        reads.append(tuple(paths))
        return tool

    monkeypatch.setattr(flow, "_discovered", fake)
    monkeypatch.setattr(discovery, "read_stubs", fake_read)
    tool = python_tool(tmp_path / "named", NAMED)
    script = tmp_path / "release.sh"
    script.write_text("#!/bin/sh\nnamed deploy --deploy-flag x\n")
    common = dict(probe_json_fields=False, trials=False)
    wrap(tool, out_dir=tmp_path / "a", discover_options={"cache": False}, **common)
    assert len(crawls) == 1 and reads == []  # no use guided it
    crawls.clear()
    wrap(
        tool,
        out_dir=tmp_path / "b",
        usage_from=[script],
        discover_options={"cache": False},
        **common,
    )
    assert len(crawls) == 1 and len(reads) == 1 and ("status",) in reads[0], (crawls, reads)


TOPICS = """\
import sys
args = sys.argv[1:]
if args == ["accounts:show", "--help"]:
    print("show one account\\n\\nUsage:\\n  named accounts:show <name> [flags]\\n")
    print("Flags:\\n  -h, --help   help for accounts:show\\n      --json   print JSON")
    sys.exit(0)
print("unknown command", file=sys.stderr)
sys.exit(2)
"""


def _wrapped_as_used(tmp_path, source: str):
    """``wrap`` of the program ``source``, its crawl guided by a script's use (no cache, no trials)."""
    tool = python_tool(tmp_path / "named", source)
    script = tmp_path / "release.sh"
    script.write_text("#!/bin/sh\nnamed deploy --deploy-flag x\n")
    return wrap(
        tool,
        out_dir=tmp_path / "p",
        usage_from=[script],
        discover_options={"cache": False},
        probe_json_fields=False,
        trials=False,
    )


def test_a_stub_a_topic_lists_under_its_own_path_is_read_too(tmp_path, monkeypatch):
    """An oclif topic's help lists its commands by their own paths (``accounts:show`` under
    ``accounts``): a proposal that chose such a stub has it read like any other, and its read put
    in its place, though its path does not extend the topic's (found by walking down word by
    word, it was never read, and shipped with no operand)."""
    import wrapgen.flows.wrap as flow
    from wrapgen.model.tool import Command, Tool

    members = (Command(path=("accounts:show",), summary="show one account", stub=True),)
    topic = Command(path=("accounts",), summary="manage accounts", subcommands=members)

    def fake(discover, ref, options):
        return Tool(name=ref.bin, path=ref.path, root=Command(subcommands=(topic,)))

    monkeypatch.setattr(flow, "_discovered", fake)
    result = _wrapped_as_used(tmp_path, TOPICS)
    verb = result.proposal.manifest["verbs"]["accounts-show"]
    assert "{{name}}" in verb["cli"], verb


def test_the_picks_a_read_changes_are_read_in_the_next_round(tmp_path, monkeypatch):
    """What a command's own help says may change the picks (its listing row read as a list, its
    help says it deletes): the stubs the proposal chose in their place are read in a next round,
    not written as stubs with no operand."""
    import wrapgen.flows.wrap as flow
    import wrapgen.probe.discover as discovery
    from wrapgen.model.tool import Command, Tool

    names = [f"kind{i:02}" for i in range(14)]
    stubs = tuple(Command(path=(n,), summary=f"List the {n} items", stub=True) for n in names)
    reads = []

    def fake(discover, ref, options):
        return Tool(name=ref.bin, root=Command(subcommands=stubs))

    def fake_read(tool, paths, **options):
        reads.append(tuple(paths))
        subs = tuple(
            replace(c, stub=False, summary=f"Delete the {c.name} items") if c.path in paths else c
            for c in tool.root.subcommands
        )
        return replace(tool, root=replace(tool.root, subcommands=subs))

    monkeypatch.setattr(flow, "_discovered", fake)
    monkeypatch.setattr(discovery, "read_stubs", fake_read)
    result = _wrapped_as_used(tmp_path, NAMED)
    assert len(reads) >= 2 and not set(reads[0]) & set(reads[1]), reads
    chosen = {tuple(d.path.split()) for d in result.proposal.chosen}
    assert chosen <= {p for round in reads for p in round}, (chosen, reads)


def test_a_stub_whose_help_is_its_parents_page_again_stays_a_stub(tmp_path):
    """`read_stubs` on a tool that answers `CMD --help` with its own page: that page is no
    command's, so the stub stays as the listing gave it (as the crawl keeps it); a command with a
    page of its own is read and put in place."""
    from wrapgen.model.tool import Command, Tool
    from wrapgen.probe.discover import read_stubs

    echoing = NAMED.replace(
        'if len(args) == 2 and args[0] in SAYS and args[1] in ("--help", "-h"):',
        'if args == ["show", "--help"]:\n    args = ["--help"]\n'
        'if len(args) == 2 and args[0] in SAYS and args[1] in ("--help", "-h"):',
    ).replace(
        'if args in (["--help"], ["-h"], []):',
        'if args in (["--help"], ["-h"], []) or args == ["show", "--help"]:',
    )
    path = python_tool(tmp_path / "named", echoing)
    root = Command(
        usage=("named <command> [flags]",),
        subcommands=tuple(
            Command(path=(name,), summary=name, stub=True) for name in ("deploy", "list", "show")
        ),
    )
    tool = Tool(name="named", root=root, path=path)
    read = read_stubs(tool, [("list",), ("show",)], sandbox=False)
    listed = read.root.find(("list",))
    assert not listed.stub and any("--list-flag" in f.spellings for f in listed.flags)
    assert read.root.find(("show",)).stub
    assert read.root.find(("deploy",)).stub  # not asked for


def test_wrap_of_a_large_tool_stops_after_what_use_and_picks_ask(tmp_path):
    """Guided by a pick, discovery leaves the rest of a large listing unread and says so."""
    tool = _large(tmp_path)
    found = discover(tool, depth=1, deadline_s=DEADLINE_S, cache=False, priority_paths=(("c120",),))
    assert not found.root.find(("c120",)).stub
    assert sum(1 for c in found.root.subcommands if not c.stub) < COMMANDS
    assert any("--pick a command to read it" in w for w in found.warnings)


def test_a_real_large_cli_reads_a_path_asked_for_below_its_depth():
    """kubectl with depth 1 and `config view` asked for: `config` and `config view` are read (the
    latter below the depth), with the flags of its own page."""
    require_tool("kubectl")
    tool = discover("kubectl", depth=1, cache=False, priority_paths=(("config", "view"),))
    view = tool.root.find(("config", "view"))
    assert view is not None and not view.stub
    assert flag_of(view, "--minify") is not None and flag_of(view, "--raw") is not None
    assert not tool.root.find(("config",)).stub


def test_a_path_its_parent_does_not_list_is_read_where_its_own_help_names_it(tmp_path):
    """`c010 secret` (hidden: `c010`'s page lists only leaf and other) asked for is probed and kept,
    since its help's usage names it; `c010 ghost`, whose --help prints `c010`'s page, is no command."""
    tool = _large(tmp_path)
    found = discover(
        tool,
        depth=1,
        deadline_s=DEADLINE_S,
        cache=False,
        priority_paths=(("c010", "secret"), ("c010", "ghost")),
    )
    secret = found.root.find(("c010", "secret"))
    assert secret is not None and not secret.stub and flag_of(secret, "--deep-secret") is not None
    assert found.root.find(("c010", "ghost")) is None
    assert [c.name for c in found.root.find(("c010",)).subcommands] == ["leaf", "other", "secret"]
