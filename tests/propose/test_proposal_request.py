"""The typed request propose() reads from a recipe: converted once at the boundary, same proposal either way."""

from __future__ import annotations

import pytest

from wrapgen.model.recipe import PolicySetting, ProposalRequest, TitleSetting, VerbSettings
from wrapgen.model.tool import Command, Flag, Tool
from wrapgen.pack.recipe import parse_recipe
from wrapgen.propose import propose

_RECIPE = """\
tool: tool
pack_id: things
description: Things, named.
json: false
commands:
  - list
  - {path: view, name: show, policy: write, title: {live: "Looking"}}
  - status
overrides:
  show: {name: look, policy: {confirm: false}, timeout_s: 9, args: {include: []}}
  status: {description: How things are., title: {}}
"""


def _tool() -> Tool:
    subs = tuple(
        Command(
            path=(w,),
            summary=f"{w.capitalize()} things",
            flags=(Flag(long="--limit", takes_value=True, type="integer"),),
        )
        for w in ("list", "view", "status", "delete")
    )
    return Tool(name="tool", root=Command(path=(), subcommands=subs))


def test_a_recipe_and_its_request_propose_the_same():
    """propose(tool, Recipe) and propose(tool, ProposalRequest.of(Recipe)) give the same proposal."""
    recipe = parse_recipe(_RECIPE)
    assert propose(_tool(), recipe) == propose(_tool(), ProposalRequest.of(recipe))
    assert propose(_tool()) == propose(_tool(), ProposalRequest())


def test_the_request_reads_every_setting_of_the_recipe():
    """Pack settings, listed entries and overrides arrive typed: policies, titles and args as values."""
    request = ProposalRequest.of(parse_recipe(_RECIPE))
    assert (request.pack_id, request.description, request.json) == (
        "things",
        "Things, named.",
        False,
    )
    assert [c.path for c in request.commands] == [("list",), ("view",), ("status",)]
    view = request.entry_for(("view",))
    assert view.name == "show" and view.policy == PolicySetting(effect="write")
    assert view.title == TitleSetting(live=("Looking",))
    show = request.overrides["show"]
    assert (
        show.policy == PolicySetting(confirm=False)
        and show.include_args == ()
        and show.timeout_s == 9
    )
    assert (
        request.overrides["status"].title == TitleSetting()
        and not request.overrides["status"].title
    )


def test_an_override_wins_setting_by_setting_and_takes_a_policy_whole():
    """The override's settings over the entry's; its policy {confirm: false} replaces the entry's policy."""
    settings = ProposalRequest.of(parse_recipe(_RECIPE)).settings_for("show", ("view",))
    assert settings.name == "look"
    assert settings.policy == PolicySetting(
        confirm=False
    )  # not merged with the entry's effect: write
    assert settings.title == TitleSetting(live=("Looking",))  # the entry's, the override set none
    assert settings.timeout_s == 9
    assert ProposalRequest().settings_for("x", ("x",)) == VerbSettings(path=("x",))


def test_the_proposal_applies_the_typed_settings():
    """Renames, policy, description, title, timeout and pack settings all reach the manifest."""
    manifest = propose(_tool(), parse_recipe(_RECIPE)).manifest
    assert (manifest["pack_id"], manifest["description"], manifest["json"]) == (
        "things",
        "Things, named.",
        False,
    )
    assert list(manifest["verbs"]) == ["list", "look", "status"]
    look = manifest["verbs"]["look"]
    assert look["policy"] == {
        "effect": "read",
        "confirm": False,
    }  # the override's policy replaced the entry's
    assert look["timeout_s"] == 9 and look["args"]["properties"] == {}
    assert look["title"]["live"] == ["Looking"]
    assert manifest["verbs"]["status"]["description"] == "How things are."


def test_a_mapping_is_refused_with_a_message():
    """A raw dict is not a recipe: propose says what it takes instead."""
    with pytest.raises(TypeError, match="Recipe"):
        propose(_tool(), {"tool": "tool"})
