"""Data-file cases of the proposal (tests/cases/propose/*.yaml): a tool's help and its uses in,
the expected picks out (house style 20). Each file says what it pins in ``about``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wrapgen.model.tool import Command, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose

CASES = Path(__file__).resolve().parents[1] / "cases" / "propose"


def _command(data: dict, prefix: tuple[str, ...] = ()) -> Command:
    data = dict(data)
    data.setdefault("path", list(prefix))
    return Command.from_dict(data)


def _uses(rows) -> tuple[UsageEvidence, ...]:
    uses = tuple(
        Use(
            path=tuple(row.get("path", ())),
            flags=tuple(row.get("flags", ())),
            valued=tuple(row.get("valued", ())),
            operands=tuple(UsedOperand(*cell) for cell in row.get("operands", ())),
            count=int(row.get("count", 1)),
            where=tuple(row.get("where", ("tldr-pages",))),
        )
        for row in rows
    )
    return (UsageEvidence(tool="case", source="tldr-pages", uses=uses),) if uses else ()


@pytest.mark.parametrize("path", sorted(CASES.glob("*.yaml")), ids=lambda p: p.stem)
def test_case(path):
    """The case's tool and uses give the picks (and args, x-why, note) the file expects."""
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert case.get("about"), f"{path.name}: say what the case pins"
    tool = Tool(name=case["tool"]["name"], root=_command(case["tool"]["root"]))
    proposal = propose(tool, usage=_uses(case.get("usage") or ()))
    verbs = proposal.manifest["verbs"]
    for name in case.get("picks", ()):
        assert name in verbs, f"{path.name}: {name} not picked: {sorted(verbs)}"
    for fixed in case.get("picks_fixed", ()):
        assert any(v["cli"][1 : 1 + len(fixed)] == list(fixed) for v in verbs.values()), sorted(
            v["cli"][1:3] for v in verbs.values()
        )
    for name, words in (case.get("why") or {}).items():
        assert words in verbs[name]["x-why"]
    for name, required in (case.get("required") or {}).items():
        assert set(required) <= set(verbs[name]["args"].get("required", ())), verbs[name]["args"]
    for name in {**(case.get("args") or {}), **(case.get("no_args") or {})}:
        assert name in verbs, f"{path.name}: no verb {name}: {sorted(verbs)}"
    for name, args in (case.get("args") or {}).items():
        assert set(args) <= set(verbs[name]["args"]["properties"]), verbs[name]["args"]
    for name, args in (case.get("no_args") or {}).items():
        assert not set(args) & set(verbs[name]["args"]["properties"]), verbs[name]["args"]
    for name, effect in (case.get("effects") or {}).items():
        assert verbs[name]["policy"]["effect"] == effect, verbs[name]["policy"]
    for name, types in (case.get("arg_types") or {}).items():
        props = verbs[name]["args"]["properties"]
        assert {k: props[k]["type"] for k in types} == types, props
    if "usage_note" in case:
        assert proposal.usage_note == case["usage_note"]
