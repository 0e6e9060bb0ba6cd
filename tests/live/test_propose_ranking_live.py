"""Ranking on live git: `git --help`'s common commands come first, and branch/tag offer listing forms.

The ranking rules on stored and hand-made help are in tests/propose/test_propose_ranking.py."""

from __future__ import annotations

import subprocess

from support.propose import chosen as _chosen

from conftest import require_tool
from wrapgen.model.tool import Command, Tool
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import Prober
from wrapgen.propose import propose
from wrapgen.propose.select import Candidate, listing_mode


def test_live_git_crawl_marks_the_commands_git_help_lists_as_common():
    """`git --help`'s commands are marked common under their heading there; the rest keep `help -a`'s group."""
    with Prober(require_tool("git"), name="git", timeout_s=20, use_man=False) as prober:
        result = crawl(prober, parse_help, depth=0)
    subs = {s.name: s for s in result.root.subcommands}
    assert subs["log"].common and subs["log"].group == "examine the history and state"
    # the rows under "grow, mark and ..." and "collaborate" count too
    assert subs["commit"].common and subs["push"].common and subs["branch"].common
    assert not subs["range-diff"].common and subs["range-diff"].group == "Main Porcelain Commands"
    assert not subs["blame"].common
    assert len(subs) > 100  # `help -a` still supplies every command


def test_live_git_proposal_prefers_the_common_commands():
    """From live git, the reads `git --help` lists come first and every write is one it lists (no stash.apply)."""
    with Prober(require_tool("git"), name="git", timeout_s=20, use_man=False) as prober:
        result = crawl(prober, parse_help, depth=0)
    proposal = propose(Tool(name="git", root=result.root))
    names = _chosen(proposal)
    reads = [d.name for d in proposal.chosen if d.effect == "read"]
    writes = [d.name for d in proposal.chosen if d.effect != "read"]
    assert set(reads[:5]) == {"status", "log", "diff", "show", "grep"}, names
    common = {s.name for s in result.root.subcommands if s.common}
    assert writes and set(writes) <= common and {"add", "commit"} <= set(writes), names
    log = next(d for d in proposal.chosen if d.name == "log")
    assert "lists it among its common commands" in log.reason


def _git_help(*args: str) -> Command:
    done = subprocess.run(["git", *args, "-h"], capture_output=True, text=True)
    text = done.stdout or done.stderr  # `git branch -h` prints to stderr, `git tag -h` to stdout
    return parse_help(text, prog=("git", *args), style="git")


def test_git_branch_offers_a_read_only_listing_form():
    """`git branch` (List, create, or delete) yields branch.list: --list fixed, no delete/move flags, only <pattern>."""
    require_tool("git")
    branch = _git_help("branch")
    cand = Candidate(
        path=("branch",),
        command=branch.with_changes(path=("branch",), summary="List, create, or delete branches"),
        common=True,
    )
    listing = listing_mode(cand, "destructive")
    assert listing is not None and listing.fixed == ("--list",) and listing.name == "branch.list"
    assert listing.listing and listing.common and listing.summary == "List branch names."
    spellings = {s for f in listing.command.flags for s in f.spellings}
    assert {"--all", "--sort", "--merged"} <= spellings
    assert (
        not {
            "--delete",
            "-D",
            "--move",
            "--copy",
            "--force",
            "--set-upstream-to",
            "--edit-description",
        }
        & spellings
    )
    assert [p.name for p in listing.command.positionals] == ["pattern"]


def test_git_tag_listing_keeps_only_what_its_list_usage_line_names():
    """`git tag -l [--contains <commit>] ... [<pattern>...]`: flags named there, `<commit>` is no operand."""
    require_tool("git")
    tag = _git_help("tag")
    cand = Candidate(
        path=("tag",),
        command=tag.with_changes(
            path=("tag",), summary="Create, list, delete or verify a tag object"
        ),
    )
    listing = listing_mode(cand, "destructive")
    spellings = {s for f in listing.command.flags for s in f.spellings}
    assert {"--list", "--sort", "--contains"} <= spellings
    assert not {"--file", "--message", "--delete", "--verify", "--annotate"} & spellings
    assert [p.name for p in listing.command.positionals] == ["pattern"]
