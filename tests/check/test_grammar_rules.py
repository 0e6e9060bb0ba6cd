"""check's grammar rules (wrapgen/check/grammar.py): W070 to W073 fire on the packs issue 11 found, and
stay quiet on right ones."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.support.packs import findings, write_pack
from wrapgen.check.grammar import operand_diagnostics, operand_slots
from wrapgen.check.rules import all_rules
from wrapgen.pack.build import resolve_verb
from wrapgen.pack.manifest import read_manifest

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def _pack(tmp_path: Path, text: str, name: str = "git") -> Path:
    return write_pack(tmp_path, textwrap.dedent(text), name=name)


_codes = findings


GIT_SHOW = """\
    pack_id: git
    description: Read a repository.
    bin: git
    json: false
    verbs:
      show:
        description: Show an object.
        cli: [git, show, {tail}]
        args:
          type: object
          properties:
            objects: {{type: array, items: {{type: string}}}}
          additionalProperties: false
        policy: {{effect: read}}
"""


def test_codes_are_registered():
    rules = all_rules()
    assert rules["W071"].severity == "error"
    assert rules["W072"].severity == "warning" and rules["W073"].severity == "warning"


def test_W071_a_revision_after_dash_dash_is_an_error(tmp_path):
    """The shipped git pack of before issue 11: `git show -- {{objects}}` answers HEAD with nothing."""
    pack = _pack(tmp_path, GIT_SHOW.format(tail="'--', '{{objects}}'"))
    found = _codes(pack, "W071")
    assert (
        len(found) == 1 and "objects" in found[0].message and found[0].field == "verbs.show.cli[3]"
    )


def test_W071_quiet_on_a_revision_before_dash_dash(tmp_path):
    pack = _pack(tmp_path, GIT_SHOW.format(tail="--end-of-options, '{{objects}}', '--'"))
    assert _codes(pack, "W071") == []


def test_W071_only_for_tools_of_that_grammar(tmp_path):
    text = (
        GIT_SHOW.format(tail="'--', '{{objects}}'")
        .replace("pack_id: git", "pack_id: other")
        .replace("bin: git", "bin: other")
        .replace("[git, show", "[other, show")
    )
    assert _codes(_pack(tmp_path, text, "other"), "W071") == []


SSH_KEYGEN = """\
    pack_id: ssh-keygen
    description: Keys.
    bin: ssh-keygen
    json: false
    verbs:
      keys.show:
        description: Show a key.
        cli: [ssh-keygen, -t, '{{type}}', --, '{{ecdsa}}']
        args:
          type: object
          properties:
            type: {type: string, enum: [dsa, ecdsa, rsa]}
            ecdsa: {type: string}
          additionalProperties: false
        policy: {effect: read}
"""


def test_W072_an_operand_named_after_a_choice_of_another_arg(tmp_path):
    found = _codes(_pack(tmp_path, SSH_KEYGEN, "ssh-keygen"), "W072")
    assert len(found) == 1 and "'ecdsa'" in found[0].message and "'type'" in found[0].message


def test_W073_cli_that_is_exactly_the_fallback(tmp_path):
    text = """\
        pack_id: mail
        description: Mail.
        bin: mail
        json: false
        wrap:
          argv_template: [mail, '{{verb}}', '{{flags}}']
        verbs:
          list:
            description: List mail.
            cli: [mail, list, --folder, '{{folder}}']
            args:
              type: object
              properties:
                folder: {type: string}
              additionalProperties: false
            policy: {effect: read}
          find:
            description: Find mail.
            cli: [mail, find, '--query={{q}}']
            args:
              type: object
              properties:
                q: {type: string}
              additionalProperties: false
            policy: {effect: read}
    """
    found = _codes(_pack(tmp_path, text, "mail"), "W073")
    assert [d.field for d in found] == ["verbs.list.cli"]


def test_operand_slots_skip_flag_values_and_see_end_of_options():
    argv = ["git", "log", "-n", "{{n}}", "--end-of-options", "{{rev}}", "--", "{{paths}}"]
    assert operand_slots(argv) == [(5, "rev", False), (7, "paths", True)]


def _verb(tmp_path: Path, text: str, name: str, pack_name: str):
    manifest, _ = read_manifest(_pack(tmp_path, text, pack_name))
    return manifest, resolve_verb(manifest.data, name)


SYSTEMCTL = """\
    pack_id: systemctl
    description: Units.
    bin: systemctl
    json: false
    verbs:
      start:
        description: Start units.
        cli: [systemctl, start{tail}]
        args:
          type: object
          properties: {props}
          additionalProperties: false
        policy: {{effect: write}}
"""


def test_W070_a_verb_without_the_operand_its_command_requires(tmp_path):
    """systemctl's help lists `start UNIT...`; `systemctl start` alone is a usage error."""
    help_text = (HELP / "gnu" / "systemctl.txt").read_text()
    manifest, verb = _verb(tmp_path, SYSTEMCTL.format(tail="", props="{}"), "start", "systemctl")
    found = operand_diagnostics(
        manifest, "start", verb, help_text, bin_name="systemctl", path=["start"]
    )
    assert [d.code for d in found] == ["W070"] and "UNIT" in found[0].message


def test_W070_quiet_when_the_verb_has_the_slot(tmp_path):
    help_text = (HELP / "gnu" / "systemctl.txt").read_text()
    text = SYSTEMCTL.format(
        tail=", --, '{{units}}'", props="{units: {type: array, items: {type: string}}}"
    )
    manifest, verb = _verb(tmp_path / "b", text, "start", "systemctl")
    assert (
        operand_diagnostics(
            manifest, "start", verb, help_text, bin_name="systemctl", path=["start"]
        )
        == []
    )


def test_W072_with_the_help_a_flag_choice_as_an_operand(tmp_path):
    """ssh-keygen's usage spells -t's choices as alternatives: {{ecdsa}} is -t's value."""
    help_text = (HELP / "gnu" / "ssh-keygen.txt").read_text()
    text = """\
        pack_id: ssh-keygen
        description: Keys.
        bin: ssh-keygen
        json: false
        verbs:
          ssh-keygen:
            description: Make a key.
            cli: [ssh-keygen, --, '{{ecdsa}}']
            args:
              type: object
              properties:
                ecdsa: {type: string}
              additionalProperties: false
            policy: {effect: write}
    """
    manifest, verb = _verb(tmp_path, text, "ssh-keygen", "ssh-keygen")
    found = operand_diagnostics(
        manifest, "ssh-keygen", verb, help_text, bin_name="ssh-keygen", path=[]
    )
    assert [d.code for d in found] == ["W072"] and "-t" in found[0].message


def test_the_probe_reports_W070_under_the_code_grammar_uses():
    from wrapgen.check import grammar, probe

    assert probe.PROBE_OPERAND_CODE == grammar.MISSING_OPERAND_CODE == "W070"
