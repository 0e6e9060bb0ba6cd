"""A subcommand whose own help discovery could not read (a stub) takes the flags its uses pass: a
switch as a switch, a flag whose uses give it a value as a flag with a value of that kind, and a
flag whose 'value' is the operand every other use gives as a switch. A command whose help was read
keeps its own flags only."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose
from wrapgen.propose.evidence import flags_from_uses

_PKG = UsedOperand("package", "package")


def _uses() -> tuple[Use, ...]:
    return (
        Use(path=("list",), operands=(_PKG,), count=2),
        Use(path=("list",), flags=("--installed",), count=2),
        Use(
            path=("list",),
            flags=("--since",),
            valued=("--since",),
            values=(UsedOperand("number"),),
            operands=(_PKG,),
        ),
        Use(path=("list",), flags=("-V",), valued=("-V",), values=(_PKG,)),
    )


def test_a_stub_takes_the_flags_its_uses_pass_as_they_pass_them():
    stub = Command(path=("list",), stub=True)
    flags = {f.spelling: f for f in flags_from_uses(stub, _uses()).flags}
    assert set(flags) == {"--installed", "--since", "-V"}
    assert not flags["--installed"].takes_value
    assert flags["--since"].takes_value and flags["--since"].type == "integer"
    # "list -V PACKAGE": the word after it is the operand the other uses give, not its value
    assert not flags["-V"].takes_value and flags["-V"].short == "-V"


def test_a_command_whose_help_was_read_keeps_its_own_flags():
    read = Command(path=("list",), flags=(Flag(long="--all"),))
    assert flags_from_uses(read, _uses()) is read


def test_a_verb_of_a_stub_offers_the_flags_its_uses_pass():
    root = Command(
        path=(),
        summary="Manage widgets.",
        subcommands=(
            Command(path=("list",), summary="list widgets", stub=True),
            Command(
                path=("show",),
                summary="show a widget",
                positionals=(Positional("NAME"),),
            ),
        ),
    )
    usage = (UsageEvidence(tool="wdg", source="tldr-pages", uses=_uses()),)
    verbs = propose(Tool(name="wdg", root=root), usage=usage).manifest["verbs"]
    props = verbs["list"]["args"]["properties"]
    assert {"installed", "since"} <= set(props), props
    assert props["installed"]["type"] == "boolean" and props["since"]["type"] == "integer"
