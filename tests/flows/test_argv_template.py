"""wrap.argv_template (issue 11 item 7): every proposal declares it in its tool's form; promote carries a
PATH wrap's template over; a verb added by hand without cli[] renders right for that tool."""

from __future__ import annotations

import yaml

from wrapgen.flows.promote import parse_path_wrap, plan_promotion
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.propose.core import propose
from wrapgen.propose.template import argv_template
from wrapgen.runtime.render import expand_argv_template, render_argv


def _cmd(path, flags=(), **kw):
    return Command(
        path=tuple(path.split()),
        summary=f"Show {path}",
        flags=tuple(
            Flag(long=f"--{f}", takes_value=True, type="string", description=f"The {f}")
            for f in flags
        ),
        **kw,
    )


SUBCOMMANDS = Tool(
    name="kc",
    root=Command(
        subcommands=(
            _cmd("get", ["selector"], positionals=(Positional("type"),)),
            _cmd("list", ["limit"]),
            _cmd("status"),
            _cmd("show", positionals=(Positional("name"),)),
            _cmd("describe", positionals=(Positional("name"),)),
        )
    ),
)

BARE = Tool(
    name="grepish",
    root=Command(
        summary="Search files for a pattern",
        usage=("grepish [OPTIONS] PATTERN [PATH...]",),
        flags=(Flag(long="--ignore-case", short="-i", description="Case-insensitive search"),),
        positionals=(
            Positional("PATTERN"),
            Positional("PATH", required=False, variadic=True, type="path"),
        ),
    ),
)


def test_a_tool_with_subcommands_gets_verb_and_flags():
    manifest = propose(SUBCOMMANDS).manifest
    assert manifest["wrap"] == {"argv_template": ["kc", "{{verb}}", "{{flags}}"]}


def test_a_tool_without_subcommands_gets_flags_only():
    """{{verb}} would turn the verb's name into a subcommand grepish does not have."""
    manifest = propose(BARE).manifest
    assert manifest["wrap"] == {"argv_template": ["grepish", "{{flags}}"]}
    template = manifest["wrap"]["argv_template"]
    # a verb added by hand without cli[] renders as the tool composes a command
    argv = expand_argv_template(
        template, verb="search", bin="grepish", properties={"ignore_case": {"type": "boolean"}}
    )
    assert render_argv(argv, {"ignore_case": True}) == ["grepish", "--ignore-case"]


def test_a_given_template_wins():
    assert argv_template("kc", [("get",)], ["kc", "--context", "prod", "{{verb}}", "{{flags}}"])[
        :3
    ] == ["kc", "--context", "prod"]


def test_promote_carries_the_path_wraps_template_over():
    wrap = parse_path_wrap(
        yaml.safe_dump(
            {
                "pack_id": "kc",
                "wrap": {
                    "bin": "kc",
                    "allowedSubcommands": ["get", "list"],
                    "argv_template": ["kc", "{{verb}}", "--quiet", "{{flags}}"],
                },
            }
        )
    )
    assert wrap.argv_template == ("kc", "{{verb}}", "--quiet", "{{flags}}")
    recipes = plan_promotion(wrap, SUBCOMMANDS).recipes()
    assert [r.argv_template for r in recipes] == [("kc", "{{verb}}", "--quiet", "{{flags}}")]
    manifest = propose(SUBCOMMANDS, recipes[0]).manifest
    assert manifest["wrap"]["argv_template"] == ["kc", "{{verb}}", "--quiet", "{{flags}}"]


def test_a_path_wrap_without_a_template_gets_the_composed_one():
    wrap = parse_path_wrap(
        yaml.safe_dump({"pack_id": "kc", "wrap": {"bin": "kc", "allowedSubcommands": ["get"]}})
    )
    recipes = plan_promotion(wrap, SUBCOMMANDS).recipes()
    assert recipes[0].argv_template is None
    assert propose(SUBCOMMANDS, recipes[0]).manifest["wrap"]["argv_template"] == [
        "kc",
        "{{verb}}",
        "{{flags}}",
    ]
