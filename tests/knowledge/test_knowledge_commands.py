"""One definition each of 'mega-command' and 'not a command', and per-tool facts as data.

propose (select.exclusion_reason), check (W008) and promote (plan_promotion) used to keep their
own lists and disagreed (propose dropped ``sudo``, check let it through); these tests pin that all
three now answer from wrapgen/knowledge/commands.py.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
import yaml

from wrapgen.check.rules import lint_manifest
from wrapgen.flows.promote import parse_path_wrap, plan_promotion
from wrapgen.knowledge import commands, tools
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.pack.manifest import parse_manifest
from wrapgen.propose.select import Candidate, exclusion_reason

MEGA = sorted(load("commands")["mega_names"].names)
NOT_COMMANDS = sorted(load("commands")["not_commands"].names)
PACKAGE = Path(__file__).resolve().parents[2] / "wrapgen"


def _w008(verb: str, arg: str = "argv") -> list[str]:
    text = textwrap.dedent(f"""\
        pack_id: box
        description: A box.
        bin: box
        verbs:
          {verb}:
            description: Do it.
            cli: [box, {verb}, --, '{{{{{arg}}}}}']
            args:
              type: object
              properties:
                {arg}: {{type: array, items: {{type: string}}}}
              additionalProperties: false
            policy: {{effect: write}}
        """)
    manifest, diagnostics = parse_manifest(text.encode(), path="pack.yaml")
    return [d.code for d in lint_manifest(manifest, diagnostics, derived=False)]


def _promoted(words: list[str]) -> tuple[tuple[str, ...], ...]:
    tool = Tool(
        name="box",
        root=Command(
            subcommands=tuple(
                Command(path=(w,), flags=(Flag(long="--all"),)) for w in ["get", *words]
            )
        ),
    )
    wrap = parse_path_wrap(
        yaml.safe_dump(
            {"pack_id": "box", "wrap": {"bin": "box", "allowedSubcommands": ["get", *words]}}
        )
    )
    return plan_promotion(wrap, tool).commands


@pytest.mark.parametrize("word", MEGA)
def test_propose_check_and_promote_agree_on_every_mega_command(word):
    """Each mega name is left out by propose, is W008 in check, and is never promoted."""
    cand = Candidate(path=(word,), command=Command(path=(word,)))
    assert exclusion_reason(cand) is not None
    assert "W008" in _w008(word, arg="items")
    assert _promoted([word]) == (("get",),)


def test_sudo_is_a_mega_command_for_check_too():
    """The copies disagreed on sudo: propose dropped it while check's W008 let a `sudo` verb through."""
    assert commands.is_mega_command("sudo")
    assert "W008" in _w008("sudo", arg="items")
    assert "W008" in _w008("container.sudo", arg="items")
    assert "W008" not in _w008("list", arg="items")


@pytest.mark.parametrize("arg", ["argv", "args", "arg", "arguments", "command", "cmd", "rest"])
def test_every_mega_arg_name_is_w008(arg):
    """A list forwarded under a command-line name is W008 whatever the verb is called."""
    assert "W008" in _w008("deliver", arg=arg)


@pytest.mark.parametrize("word", NOT_COMMANDS)
def test_propose_and_promote_agree_on_what_is_not_a_command(word):
    """help, completion, version, options ... are left out by propose and skipped by promote."""
    cand = Candidate(path=(word,), command=Command(path=(word,)))
    assert exclusion_reason(cand) == commands.not_command_reason(word)
    assert _promoted([word]) == (("get",),)


def test_not_a_command_ignores_case():
    """Cobra's hidden `__completeNoDesc` is matched however it is spelled."""
    assert commands.is_not_command("__completeNoDesc") and commands.is_not_command("__COMPLETE")
    assert not commands.is_not_command("get")


def test_a_forwarded_command_line_is_recognised_from_operands_and_usage():
    """A variadic <command> operand or a `COMMAND [ARG]...` usage forwards a command line."""
    assert commands.forwards_command_line(
        Command(positionals=(Positional("<command>", variadic=True),))
    )
    assert commands.forwards_command_line(Command(usage=("nohup COMMAND [ARG]...",)))
    assert not commands.forwards_command_line(
        Command(positionals=(Positional("<commands>", variadic=True),))
    )
    assert commands.forwarding_operand("x_args") and commands.forwarding_operand("expression")
    assert not commands.forwarding_operand("paths")


def test_per_tool_facts_are_data_keyed_by_the_tool():
    """curl takes no --x=v and jq needs its filter before --: facts looked up by base name."""
    assert not tools.accepts_equals("curl", style="gnu")
    assert not tools.accepts_equals("/usr/bin/curl", style="gnu")
    assert tools.accepts_equals("git", style="git") and tools.accepts_equals("rg", style="")
    assert not tools.accepts_equals("x", style="man")
    assert (
        tools.operands_before_dash_dash("/usr/bin/jq") == 1
        and tools.operands_before_dash_dash("rg") is None
    )


_TOOL_NAMES = "|".join(
    sorted(
        {e.name for e in load("tools")["no_equals"]}
        | {e.name for e in load("tools")["dash_dash_after"]}
        | {e.tool for e in load("dangerous_flags")["catalogue"] if e.tool != "*"}
        | {"gitk", "kubectl"}
    )
)
# `tool == "curl"`, `base in ("jq",)`, or a literal table of tools: `{"jq": 1}`, `frozenset({"curl"})`
_COMPARISON = re.compile(
    r"""(?:==|!=|\bin)\s*[\(\[{]?\s*["'](?:%s)["']|[{(]\s*["'](?:%s)["']\s*[:,})]"""
    % (_TOOL_NAMES, _TOOL_NAMES)
)


@pytest.mark.parametrize("folder", ["propose", "check", "flows", "knowledge"])
def test_generic_code_names_no_tool(folder):
    """No `tool == "curl"` (or `in {"jq"}`) in generic code: a per-tool fact lives in knowledge/data."""
    hits = [
        f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _COMPARISON.search(line)
    ]
    assert hits == []
