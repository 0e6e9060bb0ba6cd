"""command_title and title_findings (docs/contract.md §11, M026), and `wrapgen title`."""

from __future__ import annotations

import json

import pytest
from packs_runtime.packtools import binding_dict, verb, write_pack

from wrapgen.errors import WrapgenError
from wrapgen.runtime.titles import command_title, title_findings

FIND_TITLE = {
    "live": ["Searching the Inbox for “{{q}}”", "Searching the Inbox"],
    "done": [
        "Searched the Inbox for “{{q}}”",
        "Searched the Inbox for mail from {{from}}",
        "Searched the Inbox",
    ],
}
ARGS = {
    "type": "object",
    "properties": {
        "q": {"type": "string"},
        "from": {"type": "string"},
        "labels": {"type": "array"},
        "n": {"type": "integer"},
    },
    "additionalProperties": False,
}


def _pack(title, *, verb_key="find"):
    return binding_dict(
        "mail",
        "mail",
        {verb_key: verb(["mail", "find"], args=ARGS, title=title), "plain": verb(["mail", "x"])},
    )


MAIL = _pack(FIND_TITLE)


def test_first_complete_template_wins():
    """The first template whose placeholders all have values is used."""
    assert command_title(MAIL, "find", {"q": "invoice"}) == "Searching the Inbox for “invoice”"
    assert (
        command_title(MAIL, "find", {"from": "a@b.c"}, {"n": 1})
        == "Searched the Inbox for mail from a@b.c"
    )


def test_plain_fallback_when_nothing_has_a_value():
    """With no values, the placeholder-free last template shows; never an empty slot."""
    assert command_title(MAIL, "find", {}) == "Searching the Inbox"
    assert command_title(MAIL, "find", {"q": "", "from": None}, done=True) == "Searched the Inbox"


def test_done_defaults_to_having_a_result():
    """done defaults to result is not None; done=True forces it without a result."""
    assert command_title(MAIL, "find", {"q": "x"}, result=[]) == "Searched the Inbox for “x”"
    assert command_title(MAIL, "find", {"q": "x"}, done=True) == "Searched the Inbox for “x”"
    assert (
        command_title(MAIL, "find", {"q": "x"}, result={"a": 1}, done=False)
        == "Searching the Inbox for “x”"
    )


def test_result_fields_only_in_done():
    """{{result.a.b}} reads the JSON result in done; in live it has no value."""
    pack = _pack(
        {
            "live": ["Reading {{result.mail.subject}}", "Reading mail"],
            "done": ["Read {{result.mail.subject}}", "Read mail"],
        }
    )
    result = {"mail": {"subject": "Hello  there"}}
    assert command_title(pack, "find", {}, result) == "Read Hello there"
    assert command_title(pack, "find", {}, done=False) == "Reading mail"
    assert command_title(pack, "find", {}, {"mail": {}}) == "Read mail"


def test_result_list_index():
    """A numeric path segment indexes a list in the result."""
    pack = _pack({"done": ["Got {{result.0.name}}", "Got it"]})
    assert command_title(pack, "find", {}, [{"name": "first"}]) == "Got first"


def test_values_flattened_to_one_line():
    """Runs of white space become one space, trimmed."""
    assert command_title(MAIL, "find", {"q": "  a\n\tb   c "}) == "Searching the Inbox for “a b c”"


def test_whitespace_only_value_counts_as_none():
    """A value that flattens to nothing is no value."""
    assert command_title(MAIL, "find", {"q": " \n "}) == "Searching the Inbox"


def test_cut_to_60_characters():
    """A long value is cut to 60 characters in all, ending in …."""
    title = command_title(MAIL, "find", {"q": "x" * 100})
    value = title[len("Searching the Inbox for “") : -1]
    assert len(value) == 60 and value == "x" * 59 + "…"
    assert (
        command_title(MAIL, "find", {"q": "y" * 60}) == "Searching the Inbox for “" + "y" * 60 + "”"
    )


def test_list_joined_with_comma_skipping_others():
    """A list joins its string and number elements with ", "; other elements are skipped."""
    pack = _pack({"live": ["Labels {{labels}}", "Labels"]})
    assert (
        command_title(pack, "find", {"labels": ["a", 2, None, {"x": 1}, True, "b c"]})
        == "Labels a, 2, b c"
    )
    assert command_title(pack, "find", {"labels": [None, True]}) == "Labels"


def test_numbers_in_json_form():
    """Numbers show in their JSON form."""
    pack = _pack({"live": ["Top {{n}}", "Top"]})
    assert command_title(pack, "find", {"n": 5}) == "Top 5"
    assert command_title(pack, "find", {"n": 2.5}) == "Top 2.5"


@pytest.mark.parametrize("empty", [None, "", [], True, False, {"a": 1}])
def test_no_value_kinds(empty):
    """null, "", [], booleans and objects count as no value."""
    assert command_title(MAIL, "find", {"q": empty}) == "Searching the Inbox"


def test_single_template_string():
    """A form may be one template instead of a list."""
    pack = _pack({"live": "Finding mail"})
    assert command_title(pack, "find", {}) == "Finding mail"


def test_none_when_undeclared():
    """No title, or not the form asked for: None (the host uses its own)."""
    assert command_title(MAIL, "plain", {}) is None
    assert command_title(_pack({"live": ["Finding"]}), "find", {}, done=True) is None
    assert command_title(_pack({"live": ["Finding {{q}}"]}), "find", {}) is None


def test_manifest_dict_and_pack_dir(tmp_path):
    """pack may be a manifest dict, a pack directory, or a pack_id."""
    manifest = {"pack_id": "mail", "verbs": {"find": {"title": {"live": "Finding {{q}}"}}}}
    assert command_title(manifest, "find", {"q": "z"}) == "Finding z"
    directory = write_pack(tmp_path, "mail", "mail", MAIL["verbs"])
    assert command_title(directory, "find", {"q": "z"}) == "Searching the Inbox for “z”"


def test_unknown_verb_raises():
    """An unknown verb is a WrapgenError listing the valid verbs."""
    with pytest.raises(WrapgenError) as caught:
        command_title(MAIL, "nope", {})
    assert "find, plain" in caught.value.hint


# --- M026 -------------------------------------------------------------------------------------


def test_findings_clean_title():
    """A title with known args, result only in done and plain fallbacks has no findings."""
    assert title_findings(FIND_TITLE, ["q", "from"]) == []
    assert title_findings({"done": ["Read {{result.subject}}", "Read"]}, []) == []


def test_findings_unknown_argument():
    """A template naming an unknown argument is reported at its index."""
    findings = title_findings({"live": ["Finding {{qq}}", "Finding"]}, ["q"])
    assert findings == [("title.live[0]", "names unknown argument {{qq}} (arguments: q)")]


def test_findings_result_in_live():
    """{{result...}} in live is reported."""
    findings = title_findings({"live": ["Reading {{result.a}}", "Reading"]}, [])
    assert [path for path, _ in findings] == ["title.live[0]"] and "in live" in findings[0][1]


def test_findings_no_plain_fallback():
    """A form whose last template has placeholders is reported at that template."""
    assert title_findings({"done": ["Found {{q}}", "Found {{q}} again"]}, ["q"]) == [
        (
            "title.done[1]",
            "no plain fallback: end done with a template without placeholders, so a title always shows",
        )
    ]
    assert title_findings({"live": "Finding {{q}}"}, ["q"])[0][0] == "title.live"


def test_findings_shapes():
    """A title that is not a mapping, an empty list or a non-string template is reported."""
    assert title_findings("x", []) == [("title", "a title is a mapping with live and/or done")]
    assert title_findings({"live": []}, [])[0][0] == "title.live"
    assert title_findings({"live": [3, "ok"]}, []) == [("title.live[0]", "a template is a string")]


# --- wrapgen title ----------------------------------------------------------------------------


@pytest.fixture
def mail_dir(tmp_path):
    return write_pack(
        tmp_path,
        "mail",
        "mail",
        _pack({**FIND_TITLE, "done": ["Read {{result.subject}}", *FIND_TITLE["done"]]})["verbs"],
    )


def test_cli_title_live(cli, mail_dir):
    """wrapgen title prints the live title from k=v args."""
    result = cli("title", str(mail_dir), "find", "--", "q=bills")
    assert (result.exit_code, result.stdout) == (0, "Searching the Inbox for “bills”\n")


def test_cli_title_done_with_result(cli, mail_dir, tmp_path):
    """--result FILE gives the JSON result; --done without it uses args only."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"subject": "Hi"}))
    assert cli("title", str(mail_dir), "find", "--result", str(path)).stdout == "Read Hi\n"
    assert (
        cli(
            "title",
            str(mail_dir),
            "find",
            "--result",
            "-",
            stdin='{"ok": true, "result": {"subject": "Yo"}}',
        ).stdout
        == "Read Yo\n"
    )
    assert (
        cli("title", str(mail_dir), "find", "--done", "--", "q=x").stdout
        == "Searched the Inbox for “x”\n"
    )


def test_cli_title_undeclared_prints_nothing(cli, mail_dir):
    """No title declared: nothing printed, exit 0."""
    assert (
        cli("title", str(mail_dir), "plain").stdout,
        cli("title", str(mail_dir), "plain").exit_code,
    ) == ("", 0)


def test_cli_title_errors(cli, mail_dir):
    """Unknown verb, unknown key and a missing VERB are errors with hints, never tracebacks."""
    unknown_verb = cli("title", str(mail_dir), "nope")
    assert unknown_verb.exit_code == 1 and "unknown verb 'nope'" in unknown_verb.stderr
    unknown_key = cli("title", str(mail_dir), "find", "--", "zz=1")
    assert unknown_key.exit_code == 2 and "unknown argument 'zz'" in unknown_key.stderr
    assert cli("title", str(mail_dir)).exit_code == 2
