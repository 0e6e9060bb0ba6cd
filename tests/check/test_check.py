"""wrapgen check: every code fires on a pack that earns it, and the example packs stay clean."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.packs import findings, write_pack
from wrapgen.check.rules import RULES, all_rules, check_pack, check_packs, rule
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.emit import write_files

PACKS = Path(__file__).resolve().parent.parent / "packs"

BASE = textwrap.dedent(
    """\
    pack_id: mail
    description: Read and send mail.
    bin: mail
    verbs:
      list:
        description: Mail in a folder.
        cli: [mail, list, '--folder={{folder}}']
        args:
          type: object
          properties:
            folder: {type: string}
          additionalProperties: false
        policy: {effect: read}
      find:
        description: Mail matching a query.
        cli: [mail, find, --query, '{{q}}', --from, '{{from}}']
        args:
          type: object
          properties:
            q: {type: string}
            from: {type: string}
          additionalProperties: false
        policy: {effect: read}
        title:
          live: ['Searching the Inbox for “{{q}}”', Searching the Inbox]
          done: ['Searched the Inbox for “{{q}}”', Searched the Inbox]
      show:
        description: One message.
        cli: [mail, show, --, '{{id}}']
        args:
          type: object
          properties:
            id: {type: string}
          required: [id]
          additionalProperties: false
        policy: {effect: read}
      send:
        description: Send a message.
        cli: [mail, send, --to, '{{to}}', --confirm, '{{confirm}}']
        args:
          type: object
          properties:
            to: {type: string}
          additionalProperties: false
        policy: {effect: write}
      delete:
        description: Delete a message.
        cli: [mail, delete, --, '{{id}}']
        args:
          type: object
          properties:
            id: {type: string}
          additionalProperties: false
        policy: {effect: destructive}
    """
)


def _pack(tmp_path: Path, text: str, *, name: str = "mail", build: bool = True) -> Path:
    return write_pack(tmp_path, text, name=name, build=build)


def _codes(pack: Path) -> list[str]:
    return [d.code for d in check_pack(pack)]


_findings = findings


def test_base_pack_is_clean(tmp_path):
    """The fixture every other test mutates has no finding at all."""
    assert check_pack(_pack(tmp_path, BASE)) == []


@pytest.mark.parametrize("name", ["git", "jq"])
def test_example_packs_stay_clean(name, cli):
    """tests/packs/* (pack.yaml plus committed derived files) pass check with no finding."""
    assert check_pack(PACKS / name) == []
    result = cli("check", str(PACKS / name))
    assert result.exit_code == 0
    assert result.stdout == "1 pack checked: 0 errors, 0 warnings\n"


def test_a_directory_of_packs_checks_each_pack(cli):
    """`wrapgen check tests/packs` expands to every pack below it."""
    result = cli("check", str(PACKS))
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{len(list(PACKS.glob('*/pack.yaml')))} packs checked")


def test_W001_schema_violation_has_field_and_line(tmp_path, cli):
    """A bad timeout: W001 error at verbs.list.timeout_s with its line; check exits 1."""
    pack = _pack(
        tmp_path,
        BASE.replace(
            "    policy: {effect: read}\n", "    policy: {effect: read}\n    timeout_s: soon\n", 1
        ),
        build=False,
    )
    [finding] = check_pack(pack)
    assert (finding.code, finding.level, finding.field, finding.line) == (
        "W001",
        "error",
        "verbs.list.timeout_s",
        14,
    )
    result = cli("check", str(pack))
    assert result.exit_code == 1
    assert f"{pack / 'pack.yaml'}:14: W001 error verbs.list.timeout_s: " in result.stdout


@pytest.mark.parametrize(
    "old, new", [("pack_id: mail", "pack_id: 2mail"), ("  show:", "  Show_Message:")]
)
def test_W002_bad_names(tmp_path, old, new):
    """A pack_id or verb name that breaks docs/contract.md §4 is W002."""
    pack = _pack(tmp_path, BASE.replace(old, new), build=False)
    assert "W002" in _codes(pack)


def test_W003_too_few_verbs_is_only_a_warning(tmp_path, cli):
    """Four verbs: a W003 warning, and check still exits 0."""
    text = BASE[: BASE.index("  delete:")]
    pack = _pack(tmp_path, text)
    assert _codes(pack) == ["W003"]
    result = cli("check", str(pack))
    assert result.exit_code == 0 and "W003 warning verbs: 4 verbs" in result.stdout


def test_W003_too_many_verbs(tmp_path):
    """Thirteen verbs: W003 suggests two packs."""
    extra = "".join(
        f"  extra{i}:\n    description: Extra.\n    cli: [mail, x{i}]\n    policy: {{effect: read}}\n"
        for i in range(8)
    )
    [finding] = _findings(_pack(tmp_path, BASE + extra), "W003")
    assert "13 verbs" in finding.message and "two packs" in finding.hint


def test_W004_binding_serving_other_names(tmp_path):
    """binding.json that lost a verb and serves an undeclared one is name drift."""
    pack = _pack(tmp_path, BASE)
    binding = json.loads((pack / "binding.json").read_text())
    binding["verbs"]["remove"] = binding["verbs"].pop("delete")
    (pack / "binding.json").write_text(json.dumps(binding))
    messages = [d.message for d in _findings(pack, "W004")]
    assert any("'delete' is missing from binding.json" in m for m in messages)
    assert any("serves 'remove'" in m for m in messages)


def test_W004_alias_shadowing_another_verb(tmp_path):
    """An alias equal to another verb's name would make two commands answer to one name."""
    text = BASE.replace(
        "    policy: {effect: destructive}\n",
        "    policy: {effect: destructive}\n    aliases: {en: [show]}\n",
    )
    [finding] = _findings(_pack(tmp_path, text), "W004")
    assert finding.field == "verbs.delete.aliases.en"


def test_W005_placeholder_without_argument(tmp_path):
    """`{{folderz}}` names no argument: W005 at that token's line."""
    pack = _pack(tmp_path, BASE.replace("'--folder={{folder}}'", "'--folder={{folderz}}'"))
    [finding] = _findings(pack, "W005")
    assert (finding.field, finding.line) == ("verbs.list.cli[2]", 7)
    assert "folderz" in finding.message and "folder" in finding.hint


def test_confirm_and_apply_placeholders_need_no_property(tmp_path):
    """`{{confirm}}` is always accepted (docs/contract.md §9), so the send verb is not W005."""
    assert "W005" not in _codes(_pack(tmp_path, BASE))


def test_W006_first_token_not_the_bin(tmp_path):
    """A cli[] that starts with another program is W006."""
    [finding] = _findings(_pack(tmp_path, BASE.replace("[mail, list,", "[mutt, list,")), "W006")
    assert finding.field == "verbs.list.cli[0]"


@pytest.mark.parametrize(
    "tokens",
    [
        "[mail, list, '|', grep, x]",
        "[mail, list, ';', rm, x]",
        "[mail, list, '&&', rm, x]",
        "[mail, list, '>', out.txt]",
        "[mail, list, '<', in.txt]",
        "[mail, list, '2>', /dev/null]",
        "[mail, sh, -c, 'mail list']",
        "[mail, list, bash, -c, x]",
        "[mail, list, '--since={{result.date}}']",
    ],
)
def test_W007_shell_in_between(tmp_path, tokens):
    """Pipes, lists, redirections, sh -c and {{result...}} in cli[] are W007."""
    text = BASE.replace("[mail, list, '--folder={{folder}}']", tokens)
    assert "W007" in _codes(_pack(tmp_path, text))


def test_W006_and_W007_on_a_template_verb_point_at_the_verb(tmp_path):
    """A verb rendered from wrap.argv_template is linted on its expansion, reported at the verb."""
    text = BASE.replace("bin: mail\n", "bin: mail\nwrap:\n  argv_template: [sh, -c, '{{verb}}']\n")
    text = text.replace("    cli: [mail, list, '--folder={{folder}}']\n", "")
    findings = [d for d in check_pack(_pack(tmp_path, text)) if d.code in ("W006", "W007")]
    assert {(d.code, d.field) for d in findings} == {("W006", "verbs.list"), ("W007", "verbs.list")}
    assert all("argv_template" in d.message for d in findings)


MEGA = """\
  run:
    description: Run anything.
    cli: [mail, run, --, '{{argv}}']
    args:
      type: object
      properties:
        argv: {type: array, items: {type: string}}
      additionalProperties: false
    policy: {effect: write}
"""


def test_W008_mega_command(tmp_path):
    """`run -- {{argv}}` forwards arbitrary arguments: W008."""
    [finding] = _findings(_pack(tmp_path, BASE + MEGA), "W008")
    assert finding.field == "verbs.run.cli[3]"


def test_W008_also_by_arg_name_but_not_with_a_flag(tmp_path):
    """A list arg named cmd fires anywhere; `--label {{cmd}}` (a flag before it) does not."""
    text = BASE + MEGA.replace("run:", "deliver:").replace("mail, run", "mail, deliver").replace(
        "argv", "cmd"
    )
    assert "W008" in _codes(_pack(tmp_path, text))
    flagged = text.replace("--, '{{cmd}}'", "--label, '{{cmd}}'")
    assert "W008" not in _codes(_pack(tmp_path / "flagged", flagged))


def test_W009_positional_not_behind_double_dash(tmp_path):
    """`show {{id}}` without `--` is a W009 warning; a non-negative integer slot is not."""
    text = BASE.replace("[mail, show, --, '{{id}}']", "[mail, show, '{{id}}']")
    [finding] = _findings(_pack(tmp_path, text), "W009")
    assert (finding.level, finding.field) == ("warning", "verbs.show.cli[2]")
    # the hint never tells a pack whose tool refuses "--" to put one back
    assert (
        "where the tool takes '--'" in finding.hint and "not one the tool refuses" in finding.hint
    )
    safe = text.replace(
        "id: {type: string}\n      required", "id: {type: integer, minimum: 0}\n      required"
    )
    assert "W009" not in _codes(_pack(tmp_path / "safe", safe))


def test_a_switch_before_an_optional_self_contained_slot_is_kept_and_W014_is_retired(tmp_path):
    """`--unread --folder={{folder}}` keeps --unread when folder is empty (docs/contract.md §5 rule 3, changed 2026-12-01), so check has no W014 to give."""
    from wrapgen.runtime import render_argv

    text = BASE.replace(
        "[mail, list, '--folder={{folder}}']", "[mail, list, --unread, '--folder={{folder}}']"
    )
    assert "[mail, list, --unread, '--folder={{folder}}']" in text
    assert render_argv(["mail", "list", "--unread", "--folder={{folder}}"], {}) == [
        "mail",
        "list",
        "--unread",
    ]
    assert render_argv(["mail", "list", "--unread", "--folder={{folder}}"], {"folder": "x"}) == [
        "mail",
        "list",
        "--unread",
        "--folder=x",
    ]
    codes = _codes(_pack(tmp_path, text))
    assert "W014" not in codes and "W014" not in all_rules()


def test_W010_write_verb_not_confirm_gated(tmp_path):
    """`effect: destructive, confirm: false` is an error."""
    text = BASE.replace("{effect: destructive}", "{effect: destructive, confirm: false}")
    [finding] = _findings(_pack(tmp_path, text), "W010")
    assert (finding.level, finding.field) == ("error", "verbs.delete.policy.confirm")


def test_W011_verb_without_policy(tmp_path):
    """A verb with no policy is a warning: the runtime treats it as read."""
    text = BASE.replace("    policy: {effect: read}\n", "", 1)
    [finding] = _findings(_pack(tmp_path, text), "W011")
    assert (finding.level, finding.field, finding.line) == ("warning", "verbs.list", 5)


def test_W012_derived_files_missing_stale_or_not_executable(tmp_path):
    """No derived files, an edited pack.yaml, or adapter.py without its x bit: W012."""
    pack = _pack(tmp_path, BASE, build=False)
    assert sorted(d.message for d in _findings(pack, "W012")) == [
        "adapter.py is missing",
        "binding.json is missing",
    ]
    write_files(pack, render_pack_files(BASE.encode()))
    (pack / "pack.yaml").write_text(BASE.replace("Read and send mail.", "Read mail."))
    assert [d.message for d in _findings(pack, "W012")] == [
        "binding.json is out of date with pack.yaml"
    ]
    (pack / "pack.yaml").write_text(BASE)
    os.chmod(pack / "adapter.py", 0o644)
    assert [d.message for d in _findings(pack, "W012")] == [
        "adapter.py has mode 0644, expected 0755"
    ]


def test_W013_directory_name_differs_from_pack_id(tmp_path):
    """A pack in a directory not named after its pack_id is a warning."""
    [finding] = _findings(_pack(tmp_path, BASE, name="post"), "W013")
    assert finding.level == "warning" and "'post'" in finding.message


@pytest.mark.parametrize(
    "title, words",
    [
        ("{live: ['Searching {{query}}', Searching]}", "unknown argument"),
        (
            "{done: ['Found {{result.count}}', Found], live: ['Found {{result.count}}', Searching]}",
            "in live",
        ),
        ("{live: 'Searching for {{q}}'}", "no plain fallback"),
    ],
)
def test_M026_title_problems(tmp_path, title, words):
    """Unknown argument, result in live, no plain fallback: M026 at the title field."""
    plain = BASE.replace(
        "      live: ['Searching the Inbox for “{{q}}”', Searching the Inbox]\n"
        "      done: ['Searched the Inbox for “{{q}}”', Searched the Inbox]\n",
        "",
    )
    text = plain.replace("    title:\n", f"    title: {title}\n")
    assert text != plain != BASE
    findings = _findings(_pack(tmp_path, text), "M026")
    assert findings and all(
        d.level == "error" and d.field.startswith("verbs.find.title.live") for d in findings
    )
    assert any(words in d.message for d in findings)


def test_json_format_lists_findings(tmp_path, cli):
    """--format json gives ok, counts and each finding with code, level, path, line and field."""
    pack = _pack(
        tmp_path, BASE.replace("{effect: destructive}", "{effect: destructive, confirm: false}")
    )
    result = cli("check", "--format", "json", str(pack))
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["ok"], report["errors"], report["warnings"]) == (False, 1, 0)
    assert report["findings"][0]["code"] == "W010"
    assert report["findings"][0]["path"] == str(pack / "pack.yaml")


def test_a_missing_directory_is_a_finding(tmp_path, cli):
    """check on a path without pack.yaml reports W001 and exits 1, no traceback."""
    result = cli("check", str(tmp_path / "nope"))
    assert result.exit_code == 1 and "W001 error no pack.yaml here" in result.stdout


def test_every_code_is_registered_once_with_severity():
    """The registry holds each code docs/packs-and-check.md documents, each with a severity and summary."""
    expected = {f"W{n:03d}" for n in range(1, 14)} | {"M026"}
    rules = all_rules()
    assert expected <= set(rules)
    assert all(r.severity in ("error", "warning") and r.summary for r in rules.values())
    with pytest.raises(ValueError):
        rule("W001", severity="error", summary="again")(lambda ctx: [])


def test_a_new_rule_plugs_into_the_registry(tmp_path):
    """The extension point: a rule registered with @rule runs in check (here a dangerous-flag rule)."""

    def dangerous_output_flag(ctx):
        for verb in ctx.verbs:
            for index, flag, _ in verb.literal_flags():
                if verb.effect == "read" and flag == "--output":
                    yield ctx.diagnostic(
                        "W999", verb.field_of(index), "--output writes a file on a read verb"
                    )

    rule("W999", severity="error", summary="test rule")(dangerous_output_flag)
    try:
        text = BASE.replace(
            "[mail, list, '--folder={{folder}}']",
            "[mail, list, '--output=x', '--folder={{folder}}']",
        )
        [finding] = _findings(_pack(tmp_path, text), "W999")
        assert (finding.field, finding.level) == ("verbs.list.cli[2]", "error")
    finally:
        del RULES["W999"]


def test_check_packs_concatenates_in_order(tmp_path):
    """check_packs over two dirs returns each pack's findings, first pack first."""
    first = _pack(tmp_path, BASE.replace("    policy: {effect: read}\n", "", 1), name="mail")
    second = _pack(
        tmp_path / "other",
        BASE.replace("{effect: destructive}", "{effect: destructive, confirm: false}"),
    )
    codes = [(Path(d.path).parent, d.code) for d in check_packs([first, second])]
    assert codes == [(first, "W011"), (second, "W010")]


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from(["", "x", "-v", "{{q}}", "read", "write", "object", "array", "|", "--"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["type", "properties", "q", "items", "effect", "confirm", "live", "done", "de", "x"]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)
_verb = st.fixed_dictionaries(
    {"description": st.sampled_from(["Do it.", ""])},
    optional={
        "cli": st.lists(
            st.sampled_from(
                ["mail", "sh", "-c", "--", "{{q}}", "{{nope}}", "{{result.x}}", "|", "--x={{q}}"]
            ),
            max_size=6,
        ),
        "args": _json,
        "policy": _json,
        "title": _json,
        "json": _json,
        "timeout_s": _json,
        "aliases": _json,
    },
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    verbs=st.dictionaries(
        st.sampled_from(["list", "run", "a.b", "Bad", "exec"]), _verb, max_size=4
    ),
    wrap=_json,
)
def test_check_never_raises_on_arbitrary_manifests(tmp_path, verbs, wrap):
    """Any manifest shape gives diagnostics (each with a code and a line), never an exception."""
    import yaml

    data = {"pack_id": "mail", "description": "Mail.", "bin": "mail", "verbs": verbs, "wrap": wrap}
    pack = tmp_path / "mail"
    pack.mkdir(exist_ok=True)
    (pack / "pack.yaml").write_text(yaml.safe_dump(data))
    for finding in check_pack(pack):
        assert finding.code in all_rules() and finding.line >= 1


def test_W015_flag_before_an_optional_mixed_value_token(tmp_path):
    """`-o {{name}}.txt` with an optional name warns (the flag would stay and read the next token); required, it does not."""
    text = BASE.replace("[mail, list, '--folder={{folder}}']", "[mail, list, -o, '{{folder}}.txt']")
    assert "[mail, list, -o, '{{folder}}.txt']" in text
    [finding] = _findings(_pack(tmp_path, text), "W015")
    assert (finding.level, finding.field) == ("warning", "verbs.list.cli[2]")
    required = text.replace(
        "folder: {type: string}\n      additionalProperties: false",
        "folder: {type: string}\n      required: [folder]\n      additionalProperties: false",
        1,
    )
    assert required != text
    assert "W015" not in _codes(_pack(tmp_path / "required", required))
    joined = text.replace(
        "[mail, list, -o, '{{folder}}.txt']", "[mail, list, '--out={{folder}}.txt']"
    )
    assert "W015" not in _codes(_pack(tmp_path / "joined", joined))
