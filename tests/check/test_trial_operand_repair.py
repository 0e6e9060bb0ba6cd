"""A trial that ends in the tool's usage, repaired instead of dropped: the optional operand slots of a
verb (``optional_operands``) are what the retry fills, and ``apply_evidence`` makes them required."""

from __future__ import annotations

from wrapgen.check.trial_evidence import Evidence, apply_evidence, optional_operands


def _verb(cli, properties, required=()):
    return {
        "description": "Search.",
        "cli": cli,
        "policy": {"effect": "read", "confirm": False},
        "args": {"type": "object", "properties": properties, "required": list(required)},
    }


RG_SEARCH = _verb(
    [
        "rg",
        "--fixed-strings",
        "{{fixed_strings}}",
        "--glob",
        "{{glob}}",
        "--",
        "{{pattern}}",
        "{{paths}}",
    ],
    {
        "fixed_strings": {"type": "boolean"},
        "glob": {"type": "string"},
        "pattern": {"type": "string"},
        "paths": {"type": "array", "items": {"type": "string"}},
    },
)


def test_operand_slots_are_the_bare_ones_in_cli_order():
    assert optional_operands(RG_SEARCH) == ("pattern", "paths")


def test_a_flag_value_a_switch_and_a_required_operand_are_no_candidates():
    verb = _verb(
        [
            "git",
            "show",
            "--format",
            "{{format}}",
            "--stat",
            "{{stat}}",
            "--end-of-options",
            "{{objects}}",
        ],
        {"format": {"type": "string"}, "stat": {"type": "boolean"}, "objects": {"type": "string"}},
        required=["objects"],
    )
    assert optional_operands(verb) == ()
    verb["args"]["required"] = []
    assert optional_operands(verb) == ("objects",)


def test_apply_evidence_makes_the_filled_operand_required_and_says_why():
    manifest = {"bin": "rg", "verbs": {"search": RG_SEARCH}}
    evidence = Evidence("search", "failed", "exit 2", required_args=("pattern",))
    out, dropped = apply_evidence(manifest, [evidence])
    assert dropped == {}
    assert out["verbs"]["search"]["args"]["required"] == ["pattern"]
    assert (
        "without pattern it exits with its usage: pattern made required"
        in out["verbs"]["search"]["x-why"]
    )
    assert (
        RG_SEARCH["args"]["required"] == []
    )  # the proposal's own manifest is not changed in place


def test_a_verb_still_at_its_usage_is_dropped_as_before():
    manifest = {"bin": "rg", "verbs": {"search": RG_SEARCH}}
    out, dropped = apply_evidence(
        manifest, [Evidence("search", "lacks-operand", "'required arguments'")]
    )
    assert "search" in dropped and "search" not in out["verbs"]
