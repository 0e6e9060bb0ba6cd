"""`wrap --split` (wrapgen/propose/split.py, flows/wrap.py wrap_split): one pack per command family."""

from __future__ import annotations

import pytest

from wrapgen.errors import UsageError
from wrapgen.flows.wrap import wrap_split
from wrapgen.model.tool import Command, Tool
from wrapgen.propose import propose
from wrapgen.propose.split import split_hint, split_tool

_READS = ("list", "view", "status", "diff", "checks", "show", "search")


def _family(name: str) -> Command:
    return Command(
        path=(name,),
        summary=f"Manage {name}s",
        usage=(f"tool {name} <command>",),
        subcommands=tuple(
            Command(path=(name, verb), summary=f"{verb.capitalize()} {name}s") for verb in _READS
        ),
    )


def _large() -> Tool:
    return Tool(
        name="tool",
        root=Command(
            summary="A tool.",
            subcommands=tuple(_family(n) for n in ("pr", "issue", "repo", "release")),
        ),
    )


def test_each_family_is_a_part_of_5_to_12_commands():
    parts = split_tool(_large(), propose=propose)
    assert [p.key for p in parts] == ["pr", "issue", "repo", "release"]
    for part in parts:
        verbs = propose(part.tool).manifest["verbs"]
        assert 5 <= len(verbs) <= 12
        assert all(v["cli"][1] == part.key for v in verbs.values())


def test_wrap_says_when_splitting_would_help():
    assert "--split" in propose(_large()).split_hint
    small = Tool(name="tool", root=Command(subcommands=(_family("pr"),)))
    assert split_hint(small) == "" and propose(small).split_hint == ""


def test_wrap_split_writes_one_checked_pack_per_family(tmp_path):
    # wrap resolves the tool on PATH: `true` stands in for a large tool whose help was read elsewhere
    results = wrap_split(
        "true", out_dir=tmp_path, discover=lambda *a, **k: _large(), probe_json_fields=False
    )
    assert [r.pack_id for r in results] == ["true-pr", "true-issue", "true-repo", "true-release"]
    for result in results:
        assert (tmp_path / result.pack_id / "binding.json").is_file()
        assert result.errors == ()


def test_a_tool_with_one_family_is_a_clear_usage_error(tmp_path):
    small = Tool(name="tool", root=Command(subcommands=(_family("pr"),)))
    with pytest.raises(UsageError, match="no two command families"):
        wrap_split(
            "tool", out_dir=tmp_path, discover=lambda *a, **k: small, probe_json_fields=False
        )
