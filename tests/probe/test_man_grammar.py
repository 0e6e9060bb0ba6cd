"""A help printed in one mode only, and the man page's fuller SYNOPSIS (issue 11, item 2; found by
bench/pack_tasks.py: the fresh git pack could not diff two commits).

`git diff -h` outside a repository prints only `git diff --no-index [<options>] <path> <path>`;
git-diff(1) shows every form. The crawl takes the page's usage and operands then, and only then.
"""

from __future__ import annotations

from dataclasses import replace

from conftest import FIXTURES
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import _merge_man_flags
from wrapgen.propose.args import plan_args


def _read(style: str, name: str, prog: tuple[str, ...]):
    return parse_help(
        (FIXTURES / "help" / style / f"{name}.txt").read_text(), prog=prog, style=style
    )


def test_the_pages_synopsis_gives_the_operands_a_one_mode_help_left_out():
    helped = _read("git", "git_diff", ("git", "diff"))
    man = _read("man", "git_diff", ("git", "diff"))
    assert [p.name for p in helped.positionals] == ["path"]  # the --no-index form only
    merged = _merge_man_flags(helped, man)
    names = [p.name for p in merged.positionals]
    assert "commit" in names and "path" in names
    assert next(
        p for p in merged.positionals if p.name == "commit"
    ).variadic  # "<commit> [<commit>...] <commit>"
    assert len(merged.usage) > 1
    assert [f.description for f in merged.flags[: len(helped.flags)]] == [
        f.description for f in helped.flags
    ]
    tail = plan_args(merged, tool="git", effect="read", style="git").cli_tail
    assert tail.index("{{commits}}") < tail.index("--") < tail.index("{{paths}}")


def test_a_help_whose_operands_the_page_does_not_extend_keeps_its_own_grammar():
    helped = _read("git", "git_diff", ("git", "diff"))
    man = _read("man", "git_diff", ("git", "diff"))
    # the page names no operand the help lacks: nothing to take from it
    narrow = replace(man, positionals=tuple(p for p in man.positionals if p.name == "path"))
    assert _merge_man_flags(helped, narrow).usage == helped.usage
    # a page about another command (its SYNOPSIS does not name this one) gives no grammar either
    other = replace(man, usage=tuple(u.replace("git diff", "git log") for u in man.usage))
    assert _merge_man_flags(helped, other).positionals == helped.positionals
