"""Every name wrapgen makes goes through wrapgen.names: no help text can produce an invalid verb, arg or pack id."""

from __future__ import annotations

import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from wrapgen.check.rules import lint_manifest
from wrapgen.flows.promote import split_by_family
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.names import (
    ARG_NAME_RE,
    PACK_ID_RE,
    VERB_NAME_RE,
    arg_name,
    is_arg_name,
    is_pack_id,
    is_verb_name,
    proposed_pack_id,
    proposed_verb_name,
    sub_pack_id,
)
from wrapgen.pack.manifest import dump_manifest, parse_manifest
from wrapgen.pack.recipe import CommandSpec, Recipe
from wrapgen.propose import propose
from wrapgen.propose.args import arg_name as flag_arg_name
from wrapgen.propose.args import positional_arg_name

# Flags whose name has no letter to start a verb name with: the class of --0 (found by the property test).
DIGIT_AND_SYMBOL_FLAGS = (
    "--0",
    "--1",
    "--42",
    "--9lives",
    "--1-2",
    "--0.5",
    "--_",
    "--.",
    "---",
    "--_0",
    "--Über",
)

_LIST_HELP = "List all supported file types"  # reads as a mode flag (rg --type-list)


def _mode_tool(
    *flags: Flag, name: str = "tool", summary: str = "Search files for a pattern"
) -> Tool:
    return Tool(name=name, root=Command(path=(), summary=summary, flags=flags))


def _assert_pack_writes(proposal) -> None:
    """Every name valid, the pack dumps (dump_manifest validates against the schema), and check has no error."""
    manifest = proposal.manifest
    assert is_pack_id(manifest["pack_id"]), manifest["pack_id"]
    for verb_name, verb in manifest["verbs"].items():
        assert is_verb_name(verb_name), verb_name
        assert all(is_arg_name(a) for a in verb["args"]["properties"]), list(
            verb["args"]["properties"]
        )
    text = dump_manifest(manifest)
    parsed, diagnostics = parse_manifest(text.encode(), path="pack.yaml")
    errors = [
        d.format() for d in lint_manifest(parsed, diagnostics, derived=False) if d.level == "error"
    ]
    assert errors == []


def test_a_mode_flag_named_0_gives_the_verb_x0_and_a_pack_that_writes():
    """`--0` (a mode flag) is the verb `x0`, as a subcommand `2fa` is `x2fa`: never the invalid `0`."""
    proposal = propose(_mode_tool(Flag(long="--0", description=_LIST_HELP)))
    assert list(proposal.manifest["verbs"]) == ["search", "x0"]
    assert proposal.manifest["verbs"]["x0"]["cli"][:2] == ["tool", "--0"]
    _assert_pack_writes(proposal)


@pytest.mark.parametrize("spelling", DIGIT_AND_SYMBOL_FLAGS)
def test_digit_and_symbol_only_mode_flags_give_valid_verbs(spelling):
    """A mode flag of digits or symbols only still gives valid verb names and a pack that writes and checks."""
    _assert_pack_writes(propose(_mode_tool(Flag(long=spelling, description=_LIST_HELP))))


@pytest.mark.parametrize("spelling", DIGIT_AND_SYMBOL_FLAGS)
def test_digit_and_symbol_only_value_flags_give_valid_arg_names(spelling):
    """A value flag `--0 N` on a subcommand is an arg with a valid name (`x_0`), and the pack writes."""
    sub = Command(
        path=("list",),
        summary="List things",
        flags=(Flag(long=spelling, takes_value=True, type="integer", description="how many"),),
    )
    _assert_pack_writes(propose(Tool(name="tool", root=Command(path=(), subcommands=(sub,)))))
    assert flag_arg_name(Flag(long="--0", takes_value=True)) == "x_0"


def test_a_short_only_mode_named_by_a_digit_in_its_help_is_valid():
    """`-1  read (1) ...`: the word in parentheses that starts with the switch's letter names a
    short-only mode; `1` becomes `x1`."""
    proposal = propose(
        _mode_tool(Flag(short="-1", description="read (1) all inputs into an array"))
    )
    assert "x1" in proposal.manifest["verbs"]
    _assert_pack_writes(proposal)


def test_a_kind_filter_whose_kinds_start_with_digits_gives_valid_verbs():
    """fd-style `--type` kinds `'1' or '1x'` name the mode `x1xs`, not `1xs`."""
    kinds = Flag(
        long="--type",
        takes_value=True,
        description="Filter the search by type: '1' or '1x': one thing, 'b' or 'bee': bees, "
        "'c' or 'cat': cats",
    )
    proposal = propose(_mode_tool(kinds, summary="Do stuff"))
    assert "x1xs" in proposal.manifest["verbs"]
    _assert_pack_writes(proposal)


def test_a_tool_named_by_digits_gets_a_valid_main_verb_and_pack_id():
    """A tool `2fa` whose help names no verb: main mode and pack id are `x2fa`."""
    proposal = propose(
        _mode_tool(Flag(long="--0", description=_LIST_HELP), name="2fa", summary="Do stuff")
    )
    assert proposal.manifest["pack_id"] == "x2fa"
    assert "x2fa" in proposal.manifest["verbs"]
    _assert_pack_writes(proposal)


def test_the_listing_form_of_a_capitalised_command_is_lower_case():
    """`Br --list` (git branch --list's shape) gives `br.list`, not `Br.list`."""
    sub = Command(
        path=("Br",),
        summary="List, create, or delete branches",
        flags=(Flag(long="--list", description="List branches"),),
    )
    proposal = propose(Tool(name="tool", root=Command(path=(), subcommands=(sub,))))
    assert "br.list" in proposal.manifest["verbs"]
    _assert_pack_writes(proposal)


def test_an_invalid_name_given_by_a_program_is_made_valid():
    """A Recipe built in code (no schema) naming a command `Pr_List` or renaming it `0` still writes valid names."""
    subs = tuple(
        Command(path=(w,), summary=f"{w.capitalize()} things") for w in ("list", "view", "status")
    )
    tool = Tool(name="tool", root=Command(path=(), subcommands=subs))
    recipe = Recipe(
        tool="tool",
        commands=(CommandSpec(path=("list",), name="Pr_List"), CommandSpec(path=("view",))),
        overrides={"view": CommandSpec(name="0")},
    )
    proposal = propose(tool, recipe)
    assert list(proposal.manifest["verbs"]) == ["pr-list", "x0"]
    recipe = Recipe(tool="tool", pack_id="My Pack")
    assert propose(tool, recipe).manifest["pack_id"] == "my-pack"


def test_promote_splits_into_valid_pack_ids():
    """A family word of symbols or capitals still gives a valid split pack id; an invalid base is refused."""
    paths = [("Über", str(i)) for i in range(8)] + [("--", str(i)) for i in range(8)]
    packs = split_by_family(paths, pack_id="k", limit=8)
    assert [p for p, _ in packs] == ["k-ber", "k-x"]
    with pytest.raises(ValueError):
        sub_pack_id("K", "x")


# -- names.py, for any text ----------------------------------------------------------------------

_ANY_TEXT = st.text(alphabet=string.ascii_letters + string.digits + "-_. /Üü", max_size=16)


@given(_ANY_TEXT)
@example("0")
@example("9lives")
@example(".")
@example("a..b")
@example("_")
def test_proposed_verb_name_is_valid_for_any_text(text):
    """Whatever a heuristic proposes, the name is valid (or "" for "name it from the path")."""
    name = proposed_verb_name(text)
    assert name == "" if text == "" else is_verb_name(name)


@given(st.from_regex(VERB_NAME_RE, fullmatch=True))
def test_proposed_verb_name_keeps_a_valid_name(name):
    """A name that is already valid is never changed (so packs stay byte for byte)."""
    assert proposed_verb_name(name) == name


@given(st.from_regex(PACK_ID_RE, fullmatch=True))
def test_proposed_pack_id_keeps_a_valid_id(pack_id):
    """A valid pack id is never changed."""
    assert proposed_pack_id(pack_id) == pack_id


@given(_ANY_TEXT)
@example("0")
@example("")
@example("--")
def test_arg_sub_pack_and_pack_ids_are_valid_for_any_text(text):
    """arg_name, sub_pack_id and proposed_pack_id give names their patterns accept, for any text."""
    assert ARG_NAME_RE.fullmatch(arg_name(text))
    assert is_arg_name(positional_arg_name(Positional(name=text, variadic=True)))
    assert is_pack_id(sub_pack_id("kube", text))
    assert is_pack_id(proposed_pack_id(text))


def test_a_subcommand_word_starting_with_a_dash_is_not_proposed():
    """A help that lists `-` (stdin) or `-x` as a subcommand: left out, since in cli[] it stands where a flag would
    (found by the property test: check's W014 refused the pack)."""
    subs = (
        Command(path=("-",), summary="", flags=(Flag(long="--0", short="-a", takes_value=True),)),
        Command(path=("list",), summary="List things"),
    )
    proposal = propose(Tool(name="tool", root=Command(path=(), subcommands=subs)))
    assert list(proposal.manifest["verbs"]) == ["list"]
    left = {d.path: d.reason for d in proposal.decisions if not d.chosen}
    assert left["-"].startswith("left out: not a subcommand")
    _assert_pack_writes(proposal)


def test_the_wizard_refuses_an_invalid_rename_and_says_the_valid_form():
    """Renaming to `Mail.List` in the wizard is refused (names.is_verb_name) with the name names.py would make."""
    from wrapgen.flows.wizard import _rename

    said: list[str] = []
    _rename(
        None, "list", "list", lambda prompt: "Mail.List", said.append
    )  # refused before the session is used
    assert said == [
        "    a name is lower-case words joined by dots, like pr.list (mail.list would do); unchanged"
    ]


@pytest.mark.parametrize(
    "flag, operand", [("--result", "file"), ("--limit", "result"), ("--limit", "result...")]
)
def test_an_arg_named_result_is_renamed(flag, operand):
    """A flag `--result` or an operand `<result>` is the arg `result_value`: `{{result}}` is the command's result,
    which check (W007) refuses in cli[] (found by the property test)."""
    sub = Command(
        path=("list",),
        summary="List things",
        flags=(Flag(long=flag, takes_value=True, required=True),),
        positionals=(Positional(name=operand.rstrip("."), variadic=operand.endswith("...")),),
    )
    proposal = propose(Tool(name="tool", root=Command(path=(), subcommands=(sub,))))
    args = proposal.manifest["verbs"]["list"]["args"]["properties"]
    assert "result" not in args and ("result_value" in args or "results" in args), list(args)
    _assert_pack_writes(proposal)
    assert arg_name("result") == "result_value" and arg_name("result", plural=True) == "results"
