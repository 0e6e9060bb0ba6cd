"""Where a command's uses leave room, its other flags fill it: those whose long name many tools'
uses pass (the shipped table, ``wrapgen.usage.flag_spread``) before the rest, which keep the help's
order. A subcommand's verb is filled as a whole tool's is (a key-value store's ``get`` offered
no ``--prefix``: seven flags no table knows came before it in the help)."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.propose import propose
from wrapgen.usage import EXCLUDE_ENV, _table, flag_spread

# flags no tool's uses pass, listed before the one many do
OBSCURE = [f"--wgzz-knob-{i}" for i in range(8)]


def _tool() -> Tool:
    flags = tuple(Flag(long=name, description=f"Tune knob {name[-1]}") for name in OBSCURE)
    get = Command(
        path=("get",),
        summary="Get keys",
        positionals=(Positional(name="key"),),
        flags=(*flags, Flag(long="--prefix", description="Get keys with matching prefix")),
    )
    others = tuple(Command(path=(n,), summary=f"List the {n}") for n in ("alarms", "members"))
    return Tool(name="kvtool", root=Command(subcommands=(get, *others)))


def test_a_flag_many_tools_pass_fills_before_the_helps_order():
    spread = flag_spread()
    assert spread.get("--prefix", 0) >= 2 and not any(spread.get(n) for n in OBSCURE)
    cli = propose(_tool()).manifest["verbs"]["get"]["cli"]
    assert "--prefix" in cli, cli
    assert sum(token in OBSCURE for token in cli) < len(OBSCURE), cli  # the room was filled


def test_the_tools_left_out_of_the_table_are_left_out_of_the_spread(monkeypatch):
    """The benchmark's regime without usage data leaves the held-out tools out of the spread too."""
    everyone = ",".join(_table())
    assert flag_spread({EXCLUDE_ENV: everyone}) == {}
    monkeypatch.setenv(EXCLUDE_ENV, everyone)
    cli = propose(_tool()).manifest["verbs"]["get"]["cli"]
    assert "--prefix" not in cli and OBSCURE[0] in cli, cli  # the help's order alone


def test_a_filled_flag_never_takes_an_operands_name():
    """A project generator's ``--name`` beside its ``NAME`` operand: filling the room with the flag
    renamed the operand every call gives (``name_arg``); an unasked flag of that name stays out."""
    create = Command(
        path=("generate",),
        summary="Generate a new project",
        positionals=(Positional(name="NAME", required=True),),
        flags=(
            *(Flag(long=name, description=f"Knob {name[-1]}") for name in OBSCURE[:3]),
            Flag(long="--name", takes_value=True, description="Package name"),
        ),
    )
    others = tuple(Command(path=(n,), summary=f"List the {n}") for n in ("alarms", "members"))
    tool = Tool(name="gentool", root=Command(subcommands=(create, *others)))
    verb = propose(tool).manifest["verbs"]["generate"]
    assert "name" in verb["args"]["properties"] and "name_arg" not in verb["args"]["properties"]
    assert "--name" not in verb["cli"], verb["cli"]
