"""check's trust rules (wrapgen/check/trust.py): each attack of issue 12 that check used to pass now fails it."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from tests.support.packs import findings, write_pack
from wrapgen.check.rules import all_rules, check_pack
from wrapgen.check.trust import pattern_danger, pattern_unbounded

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
        cli: [mail, find, '--query={{q}}']
        args:
          type: object
          properties:
            q: {type: string}
          additionalProperties: false
        policy: {effect: read}
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
        cli: [mail, send, '--to={{to}}']
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


def _pack(tmp_path: Path, text: str) -> Path:
    return write_pack(tmp_path, text)


_findings = findings


def test_base_pack_has_no_trust_finding(tmp_path):
    """The fixture the attacks mutate is clean, so each finding below is the attack's."""
    assert check_pack(_pack(tmp_path, BASE)) == []


def test_codes_are_registered_with_their_severities():
    """W050-W053 are registered (through _RULE_MODULES) as errors."""
    rules = all_rules()
    assert {
        code: rules[code].severity for code in ("W050", "W051", "W052", "W053")
    } == dict.fromkeys(("W050", "W051", "W052", "W053"), "error")


@pytest.mark.parametrize("gate", ["confirm", "apply"])
@pytest.mark.parametrize("keyword", ["default", "const"])
def test_W040_schema_default_or_const_on_the_gate_is_an_error(tmp_path, cli, gate, keyword):
    """A `default: true` / `const: true` on confirm or apply (which opened the gate with nobody asking) fails check."""
    text = BASE.replace(
        "        to: {type: string}\n",
        f"        to: {{type: string}}\n        {gate}: {{type: boolean, {keyword}: true}}\n",
    )
    pack = _pack(tmp_path, text)
    [finding] = _findings(pack, "W050")
    assert finding.level == "error"
    assert finding.field == f"verbs.send.args.properties.{gate}.{keyword}"
    assert (
        finding.line
        == text.splitlines().index(f"        {gate}: {{type: boolean, {keyword}: true}}") + 1
    )
    result = cli("check", str(pack))
    assert result.exit_code == 1 and "W050 error" in result.stdout


def test_W040_a_plain_confirm_property_is_fine(tmp_path):
    """Listing confirm as a boolean with a description (no default) is allowed."""
    text = BASE.replace(
        "        to: {type: string}\n",
        "        to: {type: string}\n        confirm: {type: boolean, description: Really send}\n",
    )
    assert _findings(_pack(tmp_path, text), "W050") == []


@pytest.mark.parametrize("bin_name", ["./mail", "bin/mail", "../tools/mail", "~/bin/mail"])
def test_W041_relative_bin_is_an_error(tmp_path, cli, bin_name):
    """A bin that resolves against the caller's directory (`./tool`, `bin/tool`) fails check."""
    text = BASE.replace("bin: mail", f"bin: '{bin_name}'").replace("[mail, ", f"['{bin_name}', ")
    pack = _pack(tmp_path, text)
    [finding] = _findings(pack, "W051")
    assert (finding.level, finding.field, finding.line) == ("error", "bin", 3)
    assert cli("check", str(pack)).exit_code == 1


def test_W041_absolute_bin_is_fine(tmp_path):
    """/usr/bin/mail names one file whatever the caller's directory: no finding."""
    text = BASE.replace("bin: mail", "bin: /usr/bin/mail").replace("[mail, ", "[/usr/bin/mail, ")
    assert _findings(_pack(tmp_path, text), "W051") == []


def _with_pattern(pattern: str, *, max_length: int | None = None, array: bool = False) -> str:
    extra = f", maxLength: {max_length}" if max_length is not None else ""
    schema = f"{{type: string, pattern: '{pattern}'{extra}}}"
    if array:
        schema = f"{{type: array, items: {schema}}}"
    return BASE.replace("        q: {type: string}\n", f"        q: {schema}\n")


@pytest.mark.parametrize(
    "pattern", ["^(a+)+$", "(a|a)*x", "(.*)*y", r"^(\w+\s?)+$", "(x+x+)+y", "(a+){1,100}b"]
)
def test_W042_catastrophic_pattern_is_an_error(tmp_path, cli, pattern):
    """Nested quantifiers and quantified overlapping alternations fail check, maxLength or not."""
    pack = _pack(tmp_path, _with_pattern(pattern, max_length=64))
    [finding] = _findings(pack, "W052")
    assert finding.level == "error" and finding.field == "verbs.find.args.properties.q.pattern"
    assert cli("check", str(pack)).exit_code == 1


def test_W042_the_flagged_pattern_really_backtracks():
    """The attack itself: ^(a+)+$ takes exponentially longer per added 'a' (why check must refuse it)."""
    import time

    def cost(n: int) -> float:
        start = time.perf_counter()
        re.search("^(a+)+$", "a" * n + "!")
        return time.perf_counter() - start

    small, large = cost(12), cost(20)
    assert large > small * 20  # 2**8 = 256 times the work in theory
    assert pattern_danger("^(a+)+$")


def test_W042_inside_array_items_too(tmp_path):
    """A pattern on array items is checked like one on a string property."""
    pack = _pack(tmp_path, _with_pattern("(a+)+", max_length=10, array=True))
    [finding] = _findings(pack, "W052")
    assert finding.field == "verbs.find.args.properties.q.items.pattern"


def test_a_pattern_re_cannot_compile_is_reported_not_raised():
    """pattern_danger (also used by serve) names an uncompilable pattern instead of raising."""
    assert "cannot compile" in pattern_danger("[a-")
    assert pattern_danger(5) == "a pattern must be a string"


@pytest.mark.parametrize(
    "pattern",
    [
        "^[^@]",
        "^[a-z][a-z0-9-]*$",
        "([a-z]+-)*[a-z]+",
        r"(\d{1,3}\.){3}\d{1,3}",
        "(get|post)*",
        r"^v?[0-9]+(\.[0-9]+)*$",
        "^(?:[a-zA-Z0-9._-]+/)*[a-zA-Z0-9._-]+$",
        "(?>a+)+",
        "(a++)+",
    ],
)
def test_safe_patterns_are_not_flagged(pattern):
    """Patterns whose repetitions are delimited (slugs, versions, paths) or atomic are not catastrophic."""
    assert pattern_danger(pattern) is None


def test_W043_unbounded_pattern_without_max_length_is_an_error(tmp_path, cli):
    """A pattern with + or * and no maxLength fails check; adding maxLength fixes it."""
    pack = _pack(tmp_path, _with_pattern(r"^\s*\S+\s*x"))
    [finding] = _findings(pack, "W053")
    assert finding.level == "error" and finding.field == "verbs.find.args.properties.q.pattern"
    assert cli("check", str(pack)).exit_code == 1
    assert _findings(_pack(tmp_path, _with_pattern(r"^\s*\S+\s*x", max_length=256)), "W053") == []


def test_W043_a_linear_pattern_needs_no_max_length(tmp_path):
    """^[^@] (no unbounded quantifier: linear, constant when anchored) gets no finding without maxLength."""
    assert not pattern_unbounded("^[^@]")
    assert check_pack(_pack(tmp_path, _with_pattern("^[^@]"))) == []
