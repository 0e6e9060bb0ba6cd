"""The hostile pack forms (issue 27 item 4, issue 28 item 7): every one is refused by `check`.

Each file in ``tests/cases/hostile/`` is one form: a patch over a clean pack (a shipped adapter's, or a
plain pack of any tool), the check code that must refuse it, and why the form is hostile. A test
per file: the code fires on the patched pack and not on its base, so it is the form that is refused.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

from wrapgen.check.rules import check_pack
from wrapgen.errors import Diagnostic
from wrapgen.knowledge.hardening import hardening_for, missing_flags

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases" / "hostile"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
# error codes: a hostile form is refused, never only warned about
SEVERITY = "error"


def _plain(bin_name: str) -> dict:
    """A clean pack of five reads of ``bin_name``: the base of a form for a tool wrapgen ships no pack of."""
    verbs = {
        name: {
            "description": f"The {name} of the thing.",
            "cli": [bin_name, name],
            "policy": {"effect": "read"},
        }
        for name in ("status", "list", "show", "info", "check")
    }
    return {
        "pack_id": "plain",
        "description": "A plain pack for the hostile forms.",
        "bin": bin_name,
        "verbs": verbs,
    }


def _merge(base: dict, patch: dict) -> dict:
    """``patch`` over ``base``: mappings merged key by key, anything else (lists too) replaced; None deletes."""
    out = copy.deepcopy(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _with_args(pack: dict) -> dict:
    """Every placeholder of a verb that its args do not declare gets a string arg (a form names the
    hostile tokens; the rest of the verb is made valid around them)."""
    for verb in pack.get("verbs", {}).values():
        names = [m for token in verb.get("cli", []) for m in PLACEHOLDER.findall(str(token))]
        args = verb.setdefault(
            "args", {"type": "object", "properties": {}, "additionalProperties": False}
        )
        for name in names:
            args.setdefault("properties", {}).setdefault(
                name, {"type": "string", "description": f"The {name}."}
            )
    return pack


def _base(case: dict) -> dict:
    base = case["base"]
    if base == "plain":
        return _plain(case["bin"])
    return yaml.safe_load((REPO / "adapters" / base / "pack.yaml").read_text())


def _check(tmp_path: Path, pack: dict, name: str) -> list[Diagnostic]:
    directory = tmp_path / name
    directory.mkdir()
    (directory / "pack.yaml").write_text(yaml.safe_dump(pack, sort_keys=False))
    return [d for d in check_pack(directory) if d.code != "W012"]  # (no build: nothing derived)


def _cases():
    return sorted(CASES.glob("*.yaml"))


def test_the_corpus_holds_the_issue_count_of_forms_each_with_a_reason():
    """At least the 86 forms the red team counted; every one says why it is hostile."""
    cases = [yaml.safe_load(path.read_text()) for path in _cases()]
    assert len(cases) >= 86
    for case in cases:
        assert case["why"].strip() and re.fullmatch(r"W\d{3}", case["expect"])


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.stem)
def test_check_refuses_the_hostile_form(tmp_path, path):
    """The form's code fires as an error on the patched pack, and not on the clean base."""
    case = yaml.safe_load(path.read_text())
    base = _with_args(_base(case))
    hostile = _with_args(_merge(base, case["patch"]))
    before = [
        d for d in _check(tmp_path, base, "base") if d.code == case["expect"] and d.level != "info"
    ]
    assert not before, f"the base already gives {case['expect']}: {before}"
    found = [
        d
        for d in _check(tmp_path, hostile, "hostile")
        if d.code == case["expect"] and d.level != "info"
    ]
    assert found, f"{path.name}: {case['why']}: check did not give {case['expect']}"
    assert all(d.level == SEVERITY for d in found), found


UNHARDENED = REPO / "tests" / "cases" / "unhardened"


@pytest.mark.parametrize("path", sorted(UNHARDENED.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_pack_that_leaves_out_its_hardening_still_runs_with_it(tmp_path, path):
    """Forms that only leave the catalogue's hardening out are no longer the pack author's to get
    right: the binding (what the runtime runs) carries the base's hardening all the same, and check
    says so as information, never as an error."""
    from wrapgen.pack.derive import derived_binding

    case = yaml.safe_load(path.read_text())
    base = _with_args(_base(case))
    hostile = _with_args(_merge(base, case["patch"]))
    _check(tmp_path, base, "base")
    found = [d for d in _check(tmp_path, hostile, "hostile") if d.code == case["expect"]]
    assert found and all(d.level == "info" for d in found), found
    ours, theirs = derived_binding(tmp_path / "base"), derived_binding(tmp_path / "hostile")
    assert theirs.get("config_guard") == ours.get("config_guard")
    assert theirs["env"] == ours["env"]
    entry = hardening_for(theirs["bin"])
    for name, verb in theirs["verbs"].items():
        assert missing_flags(entry, verb["argv"]) == [], (name, case["why"])
