"""A command its tool marks as beta or preview ranks after its stable peers (phrases.json
"summary_weights"); it is not left out, and the word beta in what a command does is no mark."""

from __future__ import annotations

from support.propose import chosen

from wrapgen.model.tool import Command, Tool
from wrapgen.propose import propose
from wrapgen.propose.select import Candidate, rank_score


def _family(name: str, summary: str, mark: str = "") -> Command:
    """A family with a listing and a getter, each summary ending in the tool's mark."""
    tail = f" {mark}" if mark else ""
    return Command(
        path=(name,),
        summary=f"{summary}{tail}",
        subcommands=(
            Command(path=(name, "list"), summary=f"List {name} items{tail}"),
            Command(path=(name, "get"), summary=f"Get one {name} item{tail}"),
        ),
    )


def _score(summary: str) -> float:
    cmd = Command(path=("queues", "list"), summary=summary)
    return rank_score(Candidate(path=cmd.path, command=cmd), "read", min_depth=2)


def test_each_spelling_of_the_mark_costs_the_same_and_plain_text_none():
    stable = _score("List queues")
    for summary in (
        "List queues [open beta]",
        "List queues [private beta]",
        "List queues (beta)",
        "Beta: list queues",
        "List queues (preview)",
    ):
        assert _score(summary) < stable, summary
    # what a command does may name the word: a statistics tool's fit is no beta of its own
    assert _score("Fit a beta distribution to the samples") == stable
    assert _score("Create a preview deployment") == stable


def test_stable_families_are_proposed_before_marked_ones_and_marked_ones_still_fill():
    """Six families in help order, the first three marked: the stable ones' reads come first; with
    room left, the marked ones still fill the pack (a mark is a penalty, not a reason to leave out)."""
    marked = [_family(n, f"Manage {n}", "[open beta]") for n in ("alpha", "bravo", "charlie")]
    stable = [_family(n, f"Manage {n}") for n in ("delta", "echo", "foxtrot")]
    tool = Tool(name="cloudtool", root=Command(subcommands=(*marked, *stable)))
    names = chosen(propose(tool))
    stable_reads = {f"{n}.{v}" for n in ("delta", "echo", "foxtrot") for v in ("list", "get")}
    assert stable_reads <= set(names), names
    first_marked = min(
        i for i, n in enumerate(names) if n.split(".")[0] in {"alpha", "bravo", "charlie"}
    )
    assert all(names.index(n) < first_marked for n in stable_reads), names
    assert len(names) > len(stable_reads), names
