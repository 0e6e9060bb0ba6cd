"""A tool whose help speaks of a query language and has a flag that runs one of its commands and
exits (a database shell's ``-c COMMAND``): a ``query`` verb, a confirm-gated write, with the
statement required, its uses folded onto it, and its JSON selection before the statement flag.
A shell's ``-c`` on a tool that speaks of no query language makes no such verb."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose
from wrapgen.propose.evidence import operands_from_uses
from wrapgen.propose.valuemodes import runs_and_exits


def _store(summary: str = "") -> Tool:
    """A widget store's shell: an interactive session on FILENAME, or one statement and exit."""
    root = Command(
        path=(),
        summary=summary,
        usage=("wgstore [OPTIONS] FILENAME [SQL]",),
        flags=(
            Flag(aliases=("-json",), description="set output mode to 'json'"),
            Flag(aliases=("-csv",), description="set output mode to 'csv'"),
            Flag(aliases=("-readonly",), description="open the store read-only"),
            Flag(
                short="-c",
                takes_value=True,
                value_name="COMMAND",
                description='run "COMMAND" and exit',
            ),
            Flag(
                short="-s",
                takes_value=True,
                value_name="COMMAND",
                description='run "COMMAND" and exit',
            ),
        ),
        positionals=(Positional("FILENAME"), Positional("SQL", required=False)),
    )
    return Tool(name="wgstore", root=root)


def _uses() -> tuple[UsageEvidence, ...]:
    text = UsedOperand("text", "")
    return (
        UsageEvidence(
            tool="wgstore",
            source="tldr-pages",
            uses=(
                Use(path=(), flags=("-c",), valued=("-c",), values=(text,), count=2),
                Use(
                    path=(),
                    flags=("-c",),
                    valued=("-c",),
                    values=(text,),
                    operands=(UsedOperand("file", "dbfile"),),
                ),
                Use(path=(), operands=(UsedOperand("file", "dbfile"),)),
            ),
        ),
    )


def test_a_flag_that_runs_one_command_and_exits_is_read_as_such():
    assert runs_and_exits(Flag(short="-c", takes_value=True, description='run "COMMAND" and exit'))
    assert runs_and_exits(
        Flag(long="--execute", takes_value=True, description="Execute command and quit.")
    )
    before = Flag(long="-cmd", takes_value=True, description='run "COMMAND" before reading stdin')
    assert not runs_and_exits(before)


def test_a_query_language_tool_gets_a_query_verb_that_is_a_confirm_gated_write():
    pack = propose(_store("A shell on a SQL widget store."), usage=_uses())
    verbs = pack.manifest["verbs"]
    assert "query" in verbs, list(verbs)
    query = verbs["query"]
    assert query["policy"]["effect"] == "write" and query["policy"]["confirm"]
    assert query["cli"].count("-c") == 1 and "-s" not in query["cli"]
    statement = query["cli"][query["cli"].index("-c") + 1]
    assert statement.startswith("{{") and statement.strip("{}") in query["args"]["required"]
    # the store's output mode stands before the statement that runs and exits
    assert query["cli"].index("-json") < query["cli"].index("-c")
    # two of the three uses run a statement on no file: the store's FILENAME is no longer required
    assert "filename" not in query["args"].get("required", [])
    assert "used: 3" in query["x-why"], query["x-why"]


def test_a_tool_that_speaks_of_no_query_language_gets_no_query_verb():
    root = Command(
        path=(),
        summary="A command interpreter for widgets.",
        usage=("wgshell [OPTIONS] [FILE]",),
        flags=(
            Flag(
                short="-c",
                takes_value=True,
                value_name="COMMAND",
                description='run "COMMAND" and exit',
            ),
        ),
        positionals=(Positional("FILE", required=False),),
    )
    pack = propose(Tool(name="wgshell", root=root), usage=())
    assert "query" not in pack.manifest["verbs"]
    assert not any("{{c}}" in v["cli"] for v in pack.manifest["verbs"].values())


def test_an_operand_plain_uses_leave_out_is_optional_whatever_the_grammar_says():
    """Twice without the operand, passing no value flag that may give it: optional. Once (a page's
    bare "display help" example), a use asking for help, or one passing another value flag
    (``--from-file``) leaves it required; so does an optional operand before it (place decides)."""
    grammar = (Positional("FILENAME"), Positional("SQL", required=False))
    given = Use(path=(), operands=(UsedOperand("file", "dbfile"),))
    assert not operands_from_uses(grammar, (Use(path=(), count=2), given))[0].required
    assert operands_from_uses(grammar, (Use(path=()), given))[0].required
    asks = Use(path=(), flags=("--help",), count=2)
    assert operands_from_uses(grammar, (asks, given))[0].required
    other = Use(path=(), flags=("--from-file",), valued=("--from-file",), count=2)
    assert operands_from_uses(grammar, (other, given))[0].required
    own = Use(path=(), flags=("-c",), valued=("-c",), count=2)
    assert not operands_from_uses(grammar, (own, given), own=("-c",))[0].required
    after = (Positional("REV", required=False), Positional("FILE"))
    assert operands_from_uses(after, (Use(path=(), count=2), given))[1].required


def _shell_with_switches() -> Tool:
    """A widget store's shell that takes the statement as an operand, with a switch to open the
    store read-only and one that keeps statements from reaching outside."""
    root = Command(
        path=(),
        usage=("wgstore [OPTIONS] FILENAME [SQL]",),
        flags=(
            Flag(aliases=("-json",), description="set output mode to 'json'"),
            Flag(aliases=("-readonly",), description="open the store read-only"),
            Flag(aliases=("-safe",), description="enable safe-mode"),
            Flag(aliases=("-bail",), description="stop after hitting an error"),
        ),
        positionals=(Positional("FILENAME"), Positional("SQL", required=False)),
    )
    return Tool(name="wgstore", root=root)


def test_a_statement_operand_makes_a_write_no_trial_overturns_and_a_read_only_form_reads():
    """``wgstore FILENAME [SQL]``: the statement decides what a call changes, so the main mode is a
    write whose reason is decided (not the unsure write a trial may relabel); the switch that opens
    the store read-only makes a read form of it, which also passes the safe-mode switch and keeps the
    JSON selection."""
    from wrapgen.propose.policy import UNSURE_WRITE

    manifest = propose(_shell_with_switches(), usage=()).manifest
    verbs = manifest["verbs"]
    main = verbs["wgstore"]
    assert main["policy"] == {"effect": "write", "confirm": True}
    assert UNSURE_WRITE not in main["x-why"] and "runs the SQL" in main["x-why"], main["x-why"]
    assert "-readonly" not in main["cli"]
    (name, form), *_ = [(n, v) for n, v in verbs.items() if "-readonly" in v["cli"]]
    assert form["policy"] == {"effect": "read", "confirm": False}, form["x-why"]
    assert "-safe" in form["cli"] and form["cli"].index("-safe") < form["cli"].index("-readonly")
    # the JSON selection ("set output mode to 'json'") stays on the read form
    assert form.get("json", manifest.get("json")) == ["-json"], (
        form.get("json"),
        manifest.get("json"),
    )


def test_without_a_read_only_switch_there_is_no_read_form():
    tool = _shell_with_switches()
    bare = tool.root.with_changes(
        flags=tuple(f for f in tool.root.flags if "-readonly" not in f.spellings)
    )
    verbs = propose(Tool(name="wgstore", root=bare), usage=()).manifest["verbs"]
    assert not [v for v in verbs.values() if v["policy"]["effect"] == "read"], verbs
