"""Rendering cli[] and the argv_template fallback (docs/contract.md §5, §6, §7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wrapgen.runtime import RenderError, expand_argv_template, render_argv

JSON = ["--json"]


# --- docs/contract.md §5 vectors -------------------------------------------------------------


def test_vector_positionals():
    """transit plan A B --json: positional slots take one value each, JSON last."""
    assert render_argv(
        ["transit", "plan", "{{from}}", "{{to}}"], {"from": "A", "to": "B"}, json_selection=JSON
    ) == ["transit", "plan", "A", "B", "--json"]


def test_vector_flag_equals_value():
    """--folder={{folder}} is substituted as text."""
    assert render_argv(
        ["mail", "list", "--folder={{folder}}"], {"folder": "inbox"}, json_selection=JSON
    ) == ["mail", "list", "--folder=inbox", "--json"]


def test_vector_missing_memo_and_true_confirm():
    """A missing memo drops --memo; confirm=true keeps --confirm and drops its slot."""
    template = [
        "mail",
        "send",
        "--to",
        "{{to}}",
        "--subject",
        "{{subject}}",
        "--memo",
        "{{memo}}",
        "--confirm",
        "{{confirm}}",
    ]
    args = {"to": "user@example.com", "subject": "Hello", "confirm": True}
    assert render_argv(template, args, json_selection=JSON) == [
        "mail",
        "send",
        "--to",
        "user@example.com",
        "--subject",
        "Hello",
        "--confirm",
        "--json",
    ]


def test_vector_value_with_space_is_one_element():
    """A value with a space stays one argv element; the missing --from pair goes."""
    assert render_argv(
        ["mail", "find", "--query", "{{q}}", "--from", "{{from}}"],
        {"q": "a b"},
        json_selection=JSON,
    ) == ["mail", "find", "--query", "a b", "--json"]


def test_vector_dash_value_after_double_dash():
    """After a literal --, a dashed value is an operand and allowed."""
    assert render_argv(["grep", "-r", "--", "{{pattern}}"], {"pattern": "-v"}) == [
        "grep",
        "-r",
        "--",
        "-v",
    ]


def test_vector_option_injection_refused():
    """A dashed value in a positional slot not behind -- is refused, naming the arg."""
    with pytest.raises(RenderError) as caught:
        render_argv(["grep", "-r", "{{pattern}}"], {"pattern": "-v"})
    assert "option injection" in caught.value.message and "'pattern'" in caught.value.message
    assert caught.value.arg == "pattern" and "--" in caught.value.hint


# --- the rules one by one ----------------------------------------------------------------------


@pytest.mark.parametrize("empty", [None, "", [], False])
def test_empty_values_drop_token_and_flag(empty):
    """missing, null, "", [] and false drop the slot and the literal flag before it."""
    assert render_argv(["t", "--memo", "{{memo}}", "x"], {"memo": empty}) == ["t", "x"]
    assert render_argv(["t", "--memo", "{{memo}}", "x"], {}) == ["t", "x"]


def test_numbers_render_in_json_form():
    """Numbers are one token in JSON form: 3, 1.5."""
    assert render_argv(["t", "-n", "{{n}}", "{{f}}"], {"n": 3, "f": 1.5}) == ["t", "-n", "3", "1.5"]


def test_list_repeats_the_flag():
    """A list after a literal flag repeats the flag per element."""
    assert render_argv(["t", "--label", "{{labels}}"], {"labels": ["a", "b"]}) == [
        "t",
        "--label",
        "a",
        "--label",
        "b",
    ]


def test_list_without_flag_is_one_token_each():
    """A list in a positional slot gives one token per element."""
    assert render_argv(["git", "add", "--", "{{paths}}"], {"paths": ["a b", "-c"]}) == [
        "git",
        "add",
        "--",
        "a b",
        "-c",
    ]


def test_mixed_token_booleans_and_lists():
    """In a mixed token booleans are true/false and a list is joined with commas."""
    assert render_argv(["t", "--x={{b}}", "--l={{l}}"], {"b": False, "l": ["a", 2]}) == [
        "t",
        "--x=false",
        "--l=a,2",
    ]


def test_mixed_token_missing_drops_only_the_token():
    """A mixed token with an unvalued placeholder goes alone (docs/contract.md §5 rule 3, changed
    2026-12-01): the flag before it stays, even where it then reads the next token (check's W015 warns)."""
    assert render_argv(["t", "-o", "{{name}}.txt", "z"], {}) == ["t", "-o", "z"]
    assert render_argv(["t", "--a={{a}}:{{b}}"], {"a": "x"}) == ["t"]
    assert render_argv(["t", "--list", "--sort={{sort}}", "--", "{{p}}"], {"p": "v1"}) == [
        "t",
        "--list",
        "--",
        "v1",
    ]


def test_double_dash_is_never_dropped():
    """A literal -- survives even when the slot after it is empty."""
    assert render_argv(["git", "log", "--", "{{paths}}"], {}) == ["git", "log", "--"]


def test_mixed_token_injection_refused():
    """{{name}}.txt with a dashed name is refused: the template token did not start with -."""
    with pytest.raises(RenderError):
        render_argv(["t", "{{name}}.txt"], {"name": "-rf"})


def test_flag_equals_form_is_always_safe():
    """--flag={{x}} accepts a dashed value: it cannot become an option."""
    assert render_argv(["t", "--offset={{o}}"], {"o": -5}) == ["t", "--offset=-5"]


def test_negative_number_after_flag_refused():
    """--offset -5 as separate tokens is refused (docs/contract.md §5 rule 5)."""
    with pytest.raises(RenderError):
        render_argv(["t", "--offset", "{{o}}"], {"o": -5})


def test_dashed_list_element_refused_before_double_dash():
    """A list element that starts with - is refused outside the -- region."""
    with pytest.raises(RenderError):
        render_argv(["t", "--label", "{{l}}"], {"l": ["ok", "--exec=x"]})


def test_nul_refused_everywhere():
    """A NUL byte in any arg value is refused, even in a --flag= token."""
    with pytest.raises(RenderError) as caught:
        render_argv(["t", "--q={{q}}"], {"q": "a\0b"})
    assert "NUL" in caught.value.message and caught.value.arg == "q"


def test_lone_surrogate_refused_not_raised_by_spawn():
    """A lone surrogate (valid JSON, no UTF-8 bytes) is refused at render, before exec() could fail on it."""
    with pytest.raises(RenderError) as caught:
        render_argv(["t", "--", "{{p}}"], {"p": ["ok", "x\ud800"]})
    assert caught.value.arg == "p"


def test_lone_surrogate_is_an_envelope_from_execute(tmp_path):
    """execute() answers a lone surrogate with ok: false instead of raising from Popen."""
    from wrapgen.runtime import execute

    binding = {
        "pack_id": "t",
        "bin": "echo",
        "verbs": {
            "say": {
                "description": "say",
                "argv": ["echo", "{{w}}"],
                "json": [],
                "args": {
                    "type": "object",
                    "properties": {"w": {"type": "string"}},
                    "additionalProperties": False,
                },
                "policy": {"effect": "read", "confirm": False, "declared": True},
                "timeout_s": 5,
            }
        },
    }
    envelope = execute(binding, "say", {"w": "\udfff"})
    assert envelope["ok"] is False and "'w'" in envelope["error"]


def test_object_value_refused():
    """An object cannot become an argument."""
    with pytest.raises(RenderError):
        render_argv(["t", "{{o}}"], {"o": {"a": 1}})


def test_json_selection_goes_before_double_dash():
    """The JSON selection goes right before a literal -- (docs/contract.md §5 rule 6)."""
    assert render_argv(
        ["git", "log", "--", "{{p}}"], {"p": "x"}, json_selection=["--format", "json"]
    ) == ["git", "log", "--format", "json", "--", "x"]


def test_json_selection_not_appended_twice():
    """A selection already in cli[] literally is not appended again."""
    assert render_argv(
        ["kubectl", "get", "pods", "-o", "json"], {}, json_selection=["-o", "json"]
    ) == ["kubectl", "get", "pods", "-o", "json"]


def test_no_json_selection():
    """json false (empty selection) appends nothing."""
    assert render_argv(["t", "a"], {}, json_selection=[]) == ["t", "a"]


# --- docs/contract.md §6 ----------------------------------------------------------------------


def test_expand_verb_drops_bin_segment():
    """{{verb}}: mail.list in pack mail gives list; pr.list in gh gives pr list."""
    assert expand_argv_template(
        ["mail", "{{verb}}", "{{flags}}"], verb="mail.list", bin="mail", properties={}
    ) == ["mail", "list"]
    assert expand_argv_template(
        ["gh", "{{verb}}", "{{flags}}"], verb="pr.list", bin="gh", properties={}
    ) == ["gh", "pr", "list"]


def test_expand_flags_in_property_order_skipping_consumed():
    """{{flags}} covers unconsumed properties in order, underscores becoming dashes."""
    props = {
        "repo": {"type": "string"},
        "max_count": {"type": "integer"},
        "all": {"type": "boolean"},
    }
    template = expand_argv_template(
        ["gh", "{{verb}}", "{{flags}}", "--repo={{repo}}"],
        verb="pr.list",
        bin="gh",
        properties=props,
    )
    assert template == [
        "gh",
        "pr",
        "list",
        "--max-count",
        "{{max_count}}",
        "--all",
        "{{all}}",
        "--repo={{repo}}",
    ]


def test_expanded_template_renders_per_spec_6():
    """--name value for strings and numbers, --name for true, nothing for false, repeated for lists."""
    props = {"state": {}, "limit": {}, "web": {}, "draft": {}, "label": {}}
    template = expand_argv_template(
        ["gh", "{{verb}}", "{{flags}}"], verb="pr.list", bin="gh", properties=props
    )
    args = {"state": "open", "limit": 5, "web": True, "draft": False, "label": ["x", "y"]}
    assert render_argv(template, args) == [
        "gh",
        "pr",
        "list",
        "--state",
        "open",
        "--limit",
        "5",
        "--web",
        "--label",
        "x",
        "--label",
        "y",
    ]


def test_expand_confirm_only_when_listed():
    """confirm/apply reach {{flags}} only when the schema lists them."""
    assert expand_argv_template(["t", "{{flags}}"], verb="x", bin="t", properties={}) == ["t"]
    assert expand_argv_template(
        ["t", "{{flags}}"], verb="x", bin="t", properties={"confirm": {}}
    ) == ["t", "--confirm", "{{confirm}}"]


# --- properties -------------------------------------------------------------------------------

_scalar = st.one_of(
    st.text(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
)
_value = st.one_of(_scalar, st.lists(st.one_of(st.text(), st.integers()), max_size=4))
_literal = st.sampled_from(["-r", "--name", "--", "x", "--opt=1", "sub", "-"])
_slot = st.sampled_from(["{{a}}", "{{b}}", "{{c}}", "--k={{a}}", "{{b}}.txt", "pre{{c}}post"])
_template = st.lists(st.one_of(_literal, _slot), max_size=10).map(lambda rest: ["tool", *rest])
_args = st.fixed_dictionaries({}, optional={"a": _value, "b": _value, "c": _value})


@settings(max_examples=200, deadline=None)
@given(_template, _args)
def test_property_no_new_options(template, args):
    """Rendering never yields an option the template did not have, except after a literal --."""
    try:
        argv = render_argv(template, args)
    except RenderError:
        return
    assert all(isinstance(token, str) and "\0" not in token for token in argv)
    literal_flags = {t for t in template if t.startswith("-") and "{{" not in t}
    dashed_templates = [t for t in template if t.startswith("-")]
    cut = argv.index("--") if "--" in argv and "--" in template else len(argv)
    for token in argv[:cut]:
        if token.startswith("-"):
            assert token in literal_flags or any(
                t.startswith("-") and "{{" in t for t in dashed_templates
            ), token
            if token not in literal_flags:
                # it came from a template token that itself starts with '-' (such as --k={{a}})
                assert token.startswith("--k=")


# lone surrogates (category Cs) have no bytes for exec(): refused like NUL, tested on their own
_no_nul = st.text(
    alphabet=st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), min_size=1
)


@settings(max_examples=150, deadline=None)
@given(_no_nul, st.lists(_no_nul, min_size=1, max_size=4))
def test_property_values_stay_single_elements(value, items):
    """A string value is exactly one argv element, and each list item exactly one, whatever they hold."""
    argv = render_argv(["t", "--", "{{v}}", "{{items}}"], {"v": value, "items": items})
    assert argv == ["t", "--", value, *items]


@settings(max_examples=200, deadline=None)
@given(_template, _args)
def test_property_deterministic(template, args):
    """The same template and args always render the same argv."""
    try:
        first = render_argv(template, args)
    except RenderError as error:
        with pytest.raises(RenderError) as again:
            render_argv(template, args)
        assert again.value.message == error.message
        return
    assert render_argv(template, args) == first


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text(), st.sampled_from(["{{v}}", "--v={{v}}", "x{{v}}", "--"]))
def test_property_nul_always_refused(before, after, slot):
    """A value holding NUL is refused wherever its slot is, even when the slot is unused."""
    with pytest.raises(RenderError):
        render_argv(["t", "--", slot], {"v": before + "\0" + after})


def test_lone_dash_is_not_a_flag():
    """A literal "-" (stdin) before an empty slot stays: it is an operand, not a flag."""
    assert render_argv(["cat", "-", "{{more}}"], {}) == ["cat", "-"]


def test_mixed_token_list_of_empties_is_no_value():
    """A list holding only null/"" counts as no value in a mixed token too."""
    assert render_argv(["t", "-x", "--l={{l}}"], {"l": [None, ""]}) == ["t", "-x"]


def test_end_of_options_is_written_once_before_an_array_of_revisions():
    """`--end-of-options` is no flag that owns the next slot: it stands once before every item of a
    revisions array (`git diff HEAD^ HEAD`), and stays when the array is empty (git takes it alone)."""
    template = ["git", "diff", "--end-of-options", "{{revs}}", "--", "{{paths}}"]
    assert render_argv(template, {"revs": ["HEAD^", "HEAD"]}) == [
        "git",
        "diff",
        "--end-of-options",
        "HEAD^",
        "HEAD",
        "--",
    ]
    assert render_argv(template, {}) == ["git", "diff", "--end-of-options", "--"]
    assert render_argv(template, {"revs": ["HEAD"], "paths": ["a", "b"]}) == [
        "git",
        "diff",
        "--end-of-options",
        "HEAD",
        "--",
        "a",
        "b",
    ]
