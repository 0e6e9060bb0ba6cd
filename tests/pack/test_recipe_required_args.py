"""A recipe's ``args.required``: an arg the tool's grammar leaves optional that every call of this verb
needs (rg's pattern: `rg --files` takes none, so discovery cannot require it; a search without one is a
usage error, which `check --try` reports as W063)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wrapgen.model.recipe import ProposalRequest
from wrapgen.pack.recipe import RecipeError, parse_recipe

REPO = Path(__file__).resolve().parents[2]


def test_required_args_reach_the_proposal_request():
    recipe = parse_recipe(
        "tool: rg\noverrides:\n  search:\n    args: {include: [pattern, paths], required: [pattern]}\n"
    )
    assert recipe.overrides["search"].required_args == ("pattern",)
    assert ProposalRequest.of(recipe).overrides["search"].required_args == ("pattern",)


@pytest.mark.parametrize(
    "args", ["{include: [paths], required: [pattern]}", "{exclude: [pattern], required: [pattern]}"]
)
def test_an_arg_required_but_not_offered_is_a_recipe_error(args):
    with pytest.raises(RecipeError) as caught:
        parse_recipe(f"tool: rg\noverrides:\n  search:\n    args: {args}\n", source="r.yaml")
    assert "required but not offered" in str(caught.value) + str(getattr(caught.value, "hint", ""))


def test_the_shipped_rg_and_kubectl_packs_require_what_their_commands_need():
    rg = yaml.safe_load((REPO / "adapters" / "rg" / "pack.yaml").read_text())["verbs"]
    for verb in ("search", "search.json", "count", "files-with-matches", "files-without-match"):
        assert rg[verb]["args"]["required"] == ["pattern"], verb
    assert "required" not in rg["files"]["args"]  # `rg --files` takes no pattern
    kubectl = yaml.safe_load((REPO / "adapters" / "kubectl" / "pack.yaml").read_text())["verbs"]
    assert kubectl["describe"]["args"]["required"] == ["type"]
