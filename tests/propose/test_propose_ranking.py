"""Ranking: what the tool's own short help lists comes first, and a mixed command offers its listing form."""

from __future__ import annotations

from support.propose import chosen as _chosen

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.parse import parse_help
from wrapgen.propose import propose
from wrapgen.propose.select import COMMON_BONUS, Candidate, listing_mode, rank_reason, rank_score

# An excerpt of `git --help`: lower-case headings, each over its rows, and a pointer to `help -a`.
GIT_SHORT_HELP = """usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]
           <command> [<args>]

These are common Git commands used in various situations:

start a working area (see also: git help tutorial)
   clone     Clone a repository into a new directory

examine the history and state (see also: git help revisions)
   log       Show commit logs
   status    Show the working tree status

grow, mark and tweak your common history
   branch    List, create, or delete branches

'git help -a' and 'git help -g' list available subcommands and some
concept guides.
"""


def _sub(name, summary, group="", common=False, **kw):
    return Command(path=(name,), summary=summary, group=group, common=common, **kw)


def test_git_short_help_is_read_with_the_heading_above_each_row():
    """The git parser reads every row of a short help under the heading right above it, "(see also)" cut."""
    rows = {s.name: s.group for s in parse_help(GIT_SHORT_HELP, prog=("git",)).subcommands}
    assert rows == {
        "clone": "start a working area",
        "log": "examine the history and state",
        "status": "examine the history and state",
        "branch": "grow, mark and tweak your common history",
    }


def test_common_commands_rank_before_main_porcelain_and_the_reason_says_so():
    """A read the short help lists outranks an unlisted one under a strong heading, and its reason says why."""
    root = Command(
        subcommands=(
            _sub("range-diff", "Compare two commit ranges", "Main Porcelain Commands"),
            _sub("describe", "Give an object a human readable name", "Main Porcelain Commands"),
            _sub("shortlog", "Summarize 'git log' output", "Main Porcelain Commands"),
            _sub("whatchanged", "Show logs with differences", "Main Porcelain Commands"),
            _sub("stash", "Stash the changes away", "Main Porcelain Commands"),
            _sub("status", "Show the working tree status", "examine the history and state", True),
            _sub("grep", "Print lines matching a pattern", "examine the history and state", True),
            _sub("add", "Add file contents to the index", "work on the current change", True),
            _sub(
                "merge",
                "Join two or more development histories",
                "grow, mark and tweak your common history",
                True,
            ),
        )
    )
    proposal = propose(Tool(name="git", root=root))
    names = _chosen(proposal)
    assert names[:2] == ["status", "grep"], names
    status = next(d for d in proposal.chosen if d.name == "status")
    assert "common commands" in status.reason
    range_diff = next(d for d in proposal.chosen if d.name == "range-diff")
    assert "under 'Main Porcelain Commands'" in range_diff.reason


def test_a_heading_that_says_common_is_not_counted_on_top_of_the_common_mark():
    """On the short help, "grow, mark and tweak your common history" weighs no more than "collaborate"."""
    cmd = Command(path=("commit",), summary="Record changes")
    a = Candidate(
        path=("commit",), command=cmd, group="grow, mark and tweak your common history", common=True
    )
    b = Candidate(path=("commit",), command=cmd, group="collaborate", common=True)
    plain = Candidate(path=("commit",), command=cmd, group="collaborate")
    assert rank_score(a, "write", min_depth=1) == rank_score(b, "write", min_depth=1)
    assert (
        rank_score(b, "write", min_depth=1) - rank_score(plain, "write", min_depth=1)
        == COMMON_BONUS
    )


def test_without_a_short_help_the_core_heading_still_ranks_and_is_the_reason():
    """gh/docker style: no command is marked common, so a "Core commands" heading is what the reason cites."""
    cand = Candidate(
        path=("pr", "list"), command=Command(path=("pr", "list")), group="Core commands / General"
    )
    other = Candidate(
        path=("gist", "list"), command=Command(path=("gist", "list")), group="Additional commands"
    )
    assert rank_reason(cand) == "the help lists it under 'Core commands'"
    assert rank_reason(other) == ""
    assert rank_score(cand, "read", min_depth=2) > rank_score(other, "read", min_depth=2)


def test_listing_form_only_for_a_non_read_command_that_lists_and_has_the_switch():
    """A read command, one whose summary does not list, or one without `--list` gets no listing form."""
    switch = Flag(long="--list", short="-l", description="list things")
    lists = Command(
        path=("thing",),
        summary="List or delete things",
        flags=(switch,),
        positionals=(Positional(name="pattern"),),
    )
    assert listing_mode(Candidate(path=("thing",), command=lists), "read") is None
    assert (
        listing_mode(
            Candidate(path=("thing",), command=lists.with_changes(summary="Delete things")),
            "destructive",
        )
        is None
    )
    assert (
        listing_mode(
            Candidate(path=("thing",), command=lists.with_changes(flags=())), "destructive"
        )
        is None
    )
    assert (
        listing_mode(Candidate(path=("thing",), command=lists), "destructive").name == "thing.list"
    )


def test_proposal_offers_the_listing_form_as_a_read_verb_with_a_listing_title():
    """A mixed command's listing form is proposed as read, without confirm, running `CMD --list`."""
    switch = Flag(long="--list", short="-l", description="list branch names")
    delete = Flag(long="--delete", short="-d", description="delete fully merged branch")
    branch = _sub(
        "branch",
        "List, create, or delete branches",
        "grow",
        True,
        flags=(switch, delete),
        positionals=(Positional(name="pattern", variadic=True),),
        usage=("git branch [<options>] [-l] [<pattern>...]", "git branch -d <branch-name>"),
    )
    root = Command(
        subcommands=(
            branch,
            _sub("status", "Show the working tree status", "examine", True),
            _sub("log", "Show commit logs", "examine", True),
            _sub("add", "Add file contents", "work", True),
            _sub("commit", "Record changes", "grow", True),
        )
    )
    proposal = propose(Tool(name="git", root=root))
    verb = proposal.manifest["verbs"]["branch.list"]
    assert verb["policy"] == {"effect": "read", "confirm": False}
    assert verb["cli"][:3] == ["git", "branch", "--list"]
    assert "delete" not in verb["args"]["properties"] and "d" not in verb["args"]["properties"]
    assert verb["title"]["live"][-1].startswith("Listing")
    assert "listing form of 'branch'" in verb["x-why"]


def test_who_the_tool_acts_as_and_a_deploy_rank_among_a_cloud_clients_family_listings():
    """A cloud client lists a dozen families (each with its `list`) before `whoami` and `deploy`: the
    account check and the deploy are what people run first (commands.json common_reads,
    common_writes), so they are chosen however late the help lists them."""
    families = []
    for name in (
        "ai",
        "browser",
        "containers",
        "queues",
        "workflows",
        "vpc",
        "hyperdrive",
        "pipes",
    ):
        families.append(
            Command(
                path=(name,),
                summary=f"Manage {name}",
                subcommands=(
                    Command(path=(name, "list"), summary=f"List {name}"),
                    Command(path=(name, "get"), summary=f"Get one of the {name}"),
                ),
            )
        )
    root = Command(
        path=(),
        summary="A cloud client",
        subcommands=(
            *families,
            _sub("whoami", "Retrieve your user information"),
            _sub("deploy", "Deploy a Worker to the cloud"),
        ),
    )
    chosen = _chosen(propose(Tool(name="wg-cloud", root=root)))
    assert "whoami" in chosen and "deploy" in chosen, sorted(chosen)
