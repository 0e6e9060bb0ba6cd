"""The paths `wrap` asks discovery to read first: picks, then local usage, then the shipped table."""

from __future__ import annotations

from wrapgen.flows.wrap import guiding_paths
from wrapgen.propose.select import MAX_VERBS


def test_picks_then_the_scripts_paths_most_used_first(tmp_path):
    """A pick comes first; a script's paths follow by how often it runs them."""
    script = tmp_path / "deploy.sh"
    script.write_text(
        "#!/bin/sh\nwidgetctl fleet list\nwidgetctl fleet list --all\nwidgetctl config show\n"
    )
    paths = guiding_paths("widgetctl", ["zone get"], usage_from=[script])
    assert paths == (("zone", "get"), ("fleet", "list"), ("config", "show"))


def test_the_shipped_tables_paths_are_capped_at_a_packs_size():
    """A tool the shipped table knows well gives at most MAX_VERBS paths, none empty."""
    paths = guiding_paths("git")
    assert 0 < len(paths) <= MAX_VERBS and all(paths)


def test_a_tool_nothing_names_gets_only_its_picks():
    """No evidence, no picks: discovery is not guided."""
    assert guiding_paths("no-such-tool-anywhere") == ()
    assert guiding_paths("no-such-tool-anywhere", ["a b"]) == (("a", "b"),)


def test_of_as_many_uses_each_family_comes_before_any_familys_second():
    """A cloud client's page shows each resource's create, list, show and delete once: of paths used
    as often, each family's first (a read) comes before any family's second path, so the last
    resource's list is read early too (by name alone, the first resources' paths took every place)."""
    from wrapgen.flows.wrap import _families_in_turn

    counts = {("zone", "create"): 2}
    for family in ("alpha", "beta", "zone"):
        for word in ("create", "delete", "list", "show"):
            counts.setdefault((family, word), 1)
    order = _families_in_turn(counts)
    assert order[0] == ("zone", "create")  # the most used first, whatever its family
    # each family's first turn (zone's was its create), reads first: the lists
    assert order[1:3] == [("alpha", "list"), ("beta", "list")]
    # then each family's second: the shows, and zone's list
    assert order[3:6] == [("alpha", "show"), ("beta", "show"), ("zone", "list")]
    assert set(order) == set(counts)
