"""A tool without subcommands whose uses each pass a different switch once (a page of examples shows
each everyday form once): the switches its uses pass become forms of its main mode, the most used
first and a switch before a value, up to the pack's minimum; each form keeps the uses that pass it
and its switch stays offered on the main mode. Options spelled as single-dash words (``-plain``:
neither long nor short) are keyed by that spelling, and a use's unique abbreviation of one (``-p``)
folds onto it."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose
from wrapgen.propose.args import plan_args
from wrapgen.propose.evidence import fold

_FILE = UsedOperand("file", "file")


def _dumper() -> Tool:
    """A byte dumper: words of options, one letter each or single-dash words."""
    root = Command(
        path=(),
        summary="Make a dump of a file's bytes.",
        usage=("bdump [options] [infile]",),
        flags=(
            Flag(short="-a", description="toggle autoskip of empty lines"),
            Flag(
                short="-c",
                takes_value=True,
                value_name="cols",
                type="integer",
                description="format <cols> octets per line",
            ),
            Flag(aliases=("-plain",), description="output in plain dump style"),
            Flag(short="-u", description="use upper case letters"),
            Flag(short="-i", description="output in C include file style"),
        ),
        positionals=(Positional("infile", required=False),),
    )
    return Tool(name="bdump", root=root)


def _uses(*shapes: tuple[tuple[str, ...], int]) -> tuple[UsageEvidence, ...]:
    uses = tuple(
        Use(
            path=(),
            flags=flags,
            valued=tuple(f for f in flags if f == "-c"),
            values=tuple(UsedOperand("number", "") for f in flags if f == "-c"),
            operands=(_FILE,),
            count=count,
        )
        for flags, count in shapes
    )
    return (UsageEvidence(tool="bdump", source="tldr-pages", uses=uses),)


def _verbs(tool: Tool, usage) -> dict:
    return propose(tool, usage=usage).manifest["verbs"]


def test_each_switch_a_use_passes_is_a_form_of_the_main_mode():
    usage = _uses(((), 2), (("-c",), 1), (("-u",), 1), (("-p",), 1), (("-i",), 1), (("-a",), 1))
    verbs = _verbs(_dumper(), usage)
    assert len(verbs) >= 5, list(verbs)
    fixed = {
        tuple(t for t in v["cli"][1:] if t.startswith("-") and t != "--") for v in verbs.values()
    }
    # the switches make forms; the value flag, as often used, ranks after them and finds no room
    for switch in ("-plain", "-u", "-i"):
        assert any(switch in f for f in fixed), (switch, fixed)
    assert not any(
        v["cli"][1:3] == ["-c", "{{c}}"] and "c" in v["args"].get("required", [])
        for v in verbs.values()
    )
    main = next(v for v in verbs.values() if "the tool's main mode" in v["x-why"])
    # the forms' switches stay offered on the main mode, so a use passing two stays expressible
    assert {"plain", "u", "i"} <= set(main["args"]["properties"]), main["args"]["properties"]
    form = next(v for v in verbs.values() if "-plain" in v["cli"] and v is not main)
    assert "a form of the main mode with -plain: a use passes it" in form["x-why"]


def test_a_switch_more_uses_pass_comes_first():
    usage = _uses(((), 1), (("-u",), 1), (("-i",), 1), (("-a",), 3), (("-plain",), 1))
    why = [v["x-why"] for v in _verbs(_dumper(), usage).values()]
    forms = [w for w in why if "a form of the main mode" in w]
    assert forms and forms[0].startswith("a form of the main mode with -a: 3 uses pass it"), forms


def test_no_uses_no_use_forms():
    verbs = _verbs(_dumper(), (UsageEvidence(tool="bdump", source="tldr-pages"),))
    assert not any(
        "uses pass it" in v["x-why"] or "use passes it" in v["x-why"] for v in verbs.values()
    )


def test_a_single_dash_word_is_its_flags_spelling_and_takes_its_abbreviation():
    root = _dumper().root
    plain = root.flags[2]
    assert plain.spelling == "-plain" and plain.name == "plain"
    folded = fold(Use(path=(), flags=("-p|-postscript",), operands=(_FILE,)), root)
    assert folded is not None and folded.use.flags == ("-plain",)
    # a letter the model knows as a short flag of its own stays that flag
    assert fold(Use(path=(), flags=("-u",)), root).use.flags == ("-u",)
    # a letter no single-dash word starts with stays as written
    assert fold(Use(path=(), flags=("-z",)), root).use.flags == ("-z",)


def _finder() -> Tool:
    """A finder of many predicates, each with a value, none with a name a table knows."""
    words = [f"-pred{i}" for i in range(20)]
    root = Command(
        path=(),
        summary="Look for widgets.",
        usage=("wfind [path...] [expression]",),
        flags=tuple(
            Flag(aliases=(w,), takes_value=True, value_name="X", description=f"widget test {i}")
            for i, w in enumerate(words)
        ),
        positionals=(Positional("path", required=False, variadic=True),),
    )
    return Tool(name="wfind", root=root)


def _valued(*flags: str, count: int = 1) -> Use:
    return Use(
        path=(),
        flags=flags,
        valued=flags,
        values=tuple(UsedOperand("text") for _ in flags),
        operands=(UsedOperand("directory", "directory"),),
        count=count,
    )


def test_a_verb_fills_its_room_with_what_the_tools_other_uses_pass_first():
    """Past its own uses' flags, a verb of a tool without subcommands offers the flags the tool's
    other uses pass before the rest of the help's order: the last of twenty predicates, used by
    another verb's uses, is offered; without that, the help's first twelve fill the room."""
    root = _finder().root
    plan = plan_args(root, tool="wfind", effect="read", fill=True, max_args=12)
    assert "pred19" not in plan.properties
    plan = plan_args(
        root, tool="wfind", effect="read", fill=True, max_args=12, fill_first=frozenset({"-pred19"})
    )
    assert "pred19" in plan.properties


def test_value_modes_some_use_passes_together_stay_offered_on_each_other():
    """Every use passes a value flag, so each is a mode; two that one use combines stay offered on
    each other's verbs, one no use combines with another is that mode's alone."""
    usage = (
        UsageEvidence(
            tool="wfind",
            source="tldr-pages",
            uses=(
                _valued("-pred0"),
                _valued("-pred1"),
                _valued("-pred1", "-pred0"),
                _valued("-pred2", count=2),
            ),
        ),
    )
    verbs = _verbs(_finder(), usage)
    by_required = {tuple(v["args"].get("required") or ()): v for v in verbs.values()}
    pred0 = next(v for r, v in by_required.items() if "pred0" in r)
    pred2 = next(v for r, v in by_required.items() if "pred2" in r)
    assert "pred2" not in pred0["args"]["properties"]
    assert {"pred0", "pred1"} <= set(pred2["args"]["properties"])


def test_with_no_use_the_help_ranks_forms_of_single_dash_words_too():
    """A tool whose options are single-dash words and that no use names: its switches a person
    reaches for (a name the flags table knows, a help that says what it shows) make forms, as
    long options do elsewhere; a letter alone does not."""
    root = Command(
        path=(),
        summary="Make a report of a widget file.",
        usage=("wreport [options] FILE",),
        flags=(
            Flag(aliases=("-stat",), description="show the widget statistics"),
            Flag(aliases=("-sort",), description="print the widgets in order"),
            Flag(short="-x", description="print the widgets in hex"),
        ),
        positionals=(Positional("FILE"),),
    )
    verbs = _verbs(Tool(name="wreport", root=root), ())
    fixed = [v["cli"][1] for v in verbs.values() if "its help ranks it" in v["x-why"]]
    assert {"-stat", "-sort"} <= set(fixed) and "-x" not in fixed, fixed


def test_a_pack_short_of_its_minimum_takes_the_switches_a_point_short():
    """A checker whose help pairs no short letter with its long names and whose switches score one
    point each: none reaches the form threshold, so the pack would hold its main mode alone; the
    switches a point short fill it toward its minimum instead (tweaks that score nothing stay out)."""
    root = Command(
        path=(),
        summary="Check source files for problems.",
        usage=("chk [options] [file...]",),
        flags=(
            Flag(long="--env-info", description="Output execution environment information"),
            Flag(
                long="--print-config",
                takes_value=True,
                value_name="path",
                description="Print the configuration for the given file",
            ),
            Flag(long="--stats", description="Add statistics to the lint report"),
            Flag(long="--concurrency", takes_value=True, description="Number of threads"),
        ),
        positionals=(Positional("file", required=False, variadic=True),),
    )
    verbs = propose(Tool(name="chk", root=root), usage=()).manifest["verbs"]
    fixed = {t for body in verbs.values() for t in body["cli"] if t.startswith("--")}
    assert {"--env-info"} <= fixed and any("print-config" in n for n in verbs), verbs.keys()
    assert not any("concurrency" in name for name in verbs)
