"""Operands and grammar read from captured help of real tools (issue 11 item 2).

Each test parses a fixture under tests/fixtures/help and plans the verb's args as propose does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.knowledge.hardening import harden_cli, hardening_for
from wrapgen.model.tool import Command, Positional
from wrapgen.parse import parse_help
from wrapgen.propose.args import plan_args
from wrapgen.propose.operands import operands, usage_split
from wrapgen.runtime.render import RenderError, render_argv

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def _parsed(style: str, name: str) -> Command:
    prog = tuple(name.split("_"))
    return parse_help(
        (HELP / style / f"{name}.txt").read_text(encoding="utf-8"), prog=prog, style=style
    )


def test_git_show_puts_its_objects_before_dash_dash_behind_end_of_options():
    """git show [<object>...]: after '--' git reads HEAD as a path; the objects stand before it."""
    show = _parsed("git", "git_show").with_changes(path=("show",))
    plan = plan_args(show, tool="git", effect="read", style="git", include=["oneline", "objects"])
    tail = list(plan.cli_tail)
    assert tail[-3:] == ["--end-of-options", "{{objects}}", "--"]
    assert "objects" in plan.required
    assert plan.properties["objects"]["type"] == "array"


def test_git_show_renders_a_revision_as_a_revision_and_refuses_a_dashed_one():
    show = _parsed("git", "git_show").with_changes(path=("show",))
    plan = plan_args(show, tool="git", effect="read", style="git", include=["objects"])
    cli = ["git", "show", *plan.cli_tail]
    assert render_argv(cli, {"objects": ["HEAD"]}) == [
        "git",
        "show",
        "--end-of-options",
        "HEAD",
        "--",
    ]
    # the runtime's rule holds before '--' whatever the template says: no value becomes an option
    with pytest.raises(RenderError, match="option injection refused"):
        render_argv(cli, {"objects": ["--output=/tmp/x"]})


def test_usage_split_reads_only_the_commands_own_lines():
    """git show -h also prints git log's usage, whose '[--]' says nothing about show's operands."""
    show = _parsed("git", "git_show").with_changes(path=("show",))
    assert usage_split(show) is None


def test_usage_split_ignores_a_flag_that_contains_an_operand_name():
    """git commit's '--pathspec-from-file' stands before '[--]'; <pathspec> itself comes after it."""
    commit = Command(
        path=("commit",),
        usage=(
            "git commit [-a] [--pathspec-from-file=<file> [--pathspec-file-nul]] [--] [<pathspec>...]",
        ),
        positionals=(Positional("pathspec", required=False, variadic=True),),
    )
    assert usage_split(commit) == 0
    plan = plan_args(commit, tool="git", effect="write", style="git", include=["pathspecs"])
    assert plan.cli_tail == ("--", "{{pathspecs}}")


def test_a_flags_choices_are_never_operands():
    """ssh-keygen's '[-t dsa | ecdsa | ... | rsa]': ecdsa is a value of -t, not an operand."""
    root = _parsed("gnu", "ssh-keygen")
    names = [p.name for p in root.positionals]
    assert not any("ecdsa" in n for n in names), names


def test_an_operand_of_a_mode_line_only_stays_with_that_mode():
    """'ssh-keygen -M generate [-O option] output_file': the plain ssh-keygen takes no output_file."""
    root = _parsed("gnu", "ssh-keygen")
    assert {p.name for p in root.positionals} >= {"output_file", "file"}
    assert operands(root) == []
    plan = plan_args(root, tool="ssh-keygen", effect="read", style="gnu")
    assert not any(
        t.startswith("{{") and t.strip("{}") in ("output_file", "files") for t in plan.cli_tail
    )
    # the mode that names it keeps it
    assert [p.name for p in operands(root, mode=("-M",))] == ["output_file"]


def test_a_listing_entry_gives_its_command_the_operands_it_spells():
    """systemctl's listing 'start UNIT...': the start command requires units, after '--'."""
    root = _parsed("gnu", "systemctl")
    start = next(s for s in root.subcommands if s.name == "start")
    assert [(p.name, p.required, p.variadic) for p in start.positionals] == [("UNIT", True, True)]
    plan = plan_args(start, tool="systemctl", effect="write", style="gnu")
    assert plan.required == ("units",)
    assert plan.cli_tail[-2:] == ("--", "{{units}}")
    status = next(s for s in root.subcommands if s.name == "status")
    assert status.positionals and not status.positionals[0].required


def test_a_required_flag_gets_no_default_and_is_required():
    """kubectl scale prints '--replicas=0:' and 'Required.': required, and no default of 0 to render."""
    scale = _parsed("cobra", "kubectl_scale")
    replicas = next(f for f in scale.flags if f.long == "--replicas")
    assert replicas.required
    plan = plan_args(
        scale,
        tool="kubectl",
        effect="write",
        style="cobra",
        include=["replicas", "current_replicas"],
    )
    assert "replicas" in plan.required
    assert "default" not in plan.properties["replicas"]
    assert (
        "default" not in plan.properties["current_replicas"]
    )  # a write verb: the tool's own default applies


def test_a_default_in_prose_is_not_a_default():
    """gh pr create '--head branch ... (default: current branch)' is prose, not a value to pass."""
    create = _parsed("cobra", "gh_pr_create")
    head = next(f for f in create.flags if f.long == "--head")
    assert head.default is None
    plan = plan_args(create, tool="gh", effect="read", style="cobra", include=["head"])
    assert "default" not in plan.properties["head"]


def test_a_machine_readable_default_is_said_not_passed():
    """The runtime renders a schema default on every call, and a flag passed at its default is not a
    flag left out (diff's --unified=3 turns normal output into a unified diff): the default is in the
    description, and the tool applies its own."""
    get = _parsed("cobra", "gh_pr_list")
    plan = plan_args(get, tool="gh", effect="read", style="cobra", include=["limit"])
    assert "default" not in plan.properties["limit"]
    assert "30" in plan.properties["limit"]["description"]


def test_hardening_flags_stay_options_before_end_of_options():
    entry = hardening_for("git")
    cli = harden_cli(entry, ["git", "show", "--end-of-options", "{{objects}}", "--"])
    assert cli.index("--no-ext-diff") < cli.index("--end-of-options")


def test_the_json_selection_goes_before_end_of_options():
    argv = render_argv(
        ["tool", "show", "--end-of-options", "{{rev}}"], {"rev": "main"}, json_selection=["--json"]
    )
    assert argv == ["tool", "show", "--json", "--end-of-options", "main"]
