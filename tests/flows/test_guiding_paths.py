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
