"""Operands as proposals pass them: one argv element per operand the usage names, never split or doubled."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.model.tool import Command, Positional
from wrapgen.parse import parse_help
from wrapgen.propose.args import plan_args
from wrapgen.propose.operands import DASH_DASH_AFTER, operands

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def parsed(name: str) -> Command:
    """The model of a captured help text, as discovery builds it."""
    path = next(HELP.glob(f"*/{name}.txt"))
    return parse_help(
        path.read_text(encoding="utf-8"), prog=tuple(name.split("_")), style=path.parent.name
    )


def tail_of(name: str, **kw) -> tuple[str, ...]:
    command = parsed(name)
    return plan_args(
        command,
        tool=name.split("_")[0],
        effect="read",
        style="cobra",
        include=kw.pop("include", None),
        **kw,
    ).cli_tail


def test_docker_pull_takes_the_image_reference_as_one_operand():
    """docker pull renders '-- {{name}}' (nginx:1.25 as one element), not name, tag and digest apart."""
    ops = operands(parsed("docker_pull"))
    assert [(p.name, p.required, p.description) for p in ops] == [
        ("NAME", True, "name[:tag|@digest]")
    ]
    tail = tail_of("docker_pull", include=["NAME"])
    assert tail[-2:] == ("--", "{{name}}")
    assert not any("tag" in t or "digest" in t for t in tail)


def test_gh_issue_view_has_one_operand_not_number_and_number_arg():
    """gh issue view {<number> | <url>} gives one required arg 'number', described as 'number or url'."""
    command = parsed("gh_issue_view")
    ops = operands(command)
    assert [(p.name, p.required, p.description) for p in ops] == [
        ("number|url", True, "number or url")
    ]
    plan = plan_args(command, tool="gh", effect="read", style="cobra", include=["number"])
    assert plan.cli_tail == ("--", "{{number}}")
    assert "number_arg" not in plan.properties and plan.required == ("number",)


def test_upper_case_alternatives_and_variadic_operands():
    """docker inspect's NAME|ID [NAME|ID...] is one array arg; kubectl logs' (POD | TYPE/NAME) one required arg."""
    plan = plan_args(
        parsed("docker_inspect"), tool="docker", effect="read", style="cobra", include=["name"]
    )
    assert plan.properties["names"]["type"] == "array" and plan.cli_tail[-2:] == ("--", "{{names}}")
    plan = plan_args(
        parsed("kubectl_logs"), tool="kubectl", effect="read", style="cobra", include=["pod"]
    )
    assert plan.required == ("pod",) and plan.cli_tail[-2:] == ("--", "{{pod}}")


def test_words_of_the_command_path_are_not_operands():
    """'terraform [global options] plan' read as operands 'global' and 'plan' is trimmed to nothing."""
    command = Command(
        path=("plan",),
        usage=("terraform [global options] plan [options]",),
        positionals=(Positional(name="global"), Positional(name="plan")),
    )
    assert operands(command) == []


@pytest.mark.parametrize("tool", sorted(DASH_DASH_AFTER))
def test_dash_dash_quirk_keeps_operands_before_the_separator(tool):
    """jq reads '--' before its filter as the filter: the first operand stands before '--'."""
    command = parsed("jq") if list(HELP.glob("*/jq.txt")) else pytest.skip("no jq fixture")
    plan = plan_args(command, tool=tool, effect="read", style="gnu", include=None)
    names = list(plan.properties)
    first = next(n for n in names if "{{%s}}" % n in plan.cli_tail)
    assert plan.cli_tail.index("{{%s}}" % first) < plan.cli_tail.index("--")
