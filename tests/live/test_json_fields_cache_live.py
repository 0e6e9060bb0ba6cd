"""gh's `--json` field lists are asked once per binary: a second wrap takes them from the cache (gh's
eight sandboxed probes were about 2 s of every wrap), and asked at once rather than one after another."""

from __future__ import annotations

import sys
import textwrap
from types import SimpleNamespace

import pytest

from tests.support.sandbox import sandbox_required as _sandbox  # noqa: F401  (autouse)
from wrapgen.flows.wrap import json_field_lists
from wrapgen.model.tool import Command, Flag, Tool
from wrapgen.probe import json_fields


def _tool(tmp_path, names=("list", "view", "status")):
    script = tmp_path / "bin" / "fieldy"
    script.parent.mkdir()
    script.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        print("Specify one or more comma-separated fields for `--json`:")
        print("  id\\n  " + sys.argv[2] + "_name")
        """)
    )
    script.chmod(0o755)
    subs = tuple(
        Command(
            path=("pr", name), flags=(Flag(long="--json", takes_value=True, value_name="fields"),)
        )
        for name in names
    )
    tool = Tool(
        name="fieldy",
        root=Command(path=(), subcommands=(Command(path=("pr",), subcommands=subs),)),
        path=str(script),
    )
    proposal = SimpleNamespace(chosen=[SimpleNamespace(path=f"pr {name}") for name in names])
    return tool, str(script), proposal


def test_field_lists_come_from_the_cache_the_second_time(tmp_path, monkeypatch):
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    tool, path, proposal = _tool(tmp_path)
    first = json_field_lists(tool, proposal, bin_path=path)
    # the proposal's order, each path its own answer (the probes ran side by side)
    assert list(first) == [("pr", "list"), ("pr", "view"), ("pr", "status")]
    assert first == {("pr", name): ("id", f"{name}_name") for name in ("list", "view", "status")}

    def refuse(*_args, **_kwargs):
        raise AssertionError("the tool was run again")

    monkeypatch.setattr(json_fields, "run_isolated", refuse)
    assert json_field_lists(tool, proposal, bin_path=path) == first
    with pytest.raises(AssertionError, match="run again"):  # --no-cache asks again
        json_field_lists(tool, proposal, bin_path=path, cache=False)


def test_a_changed_binary_is_asked_again(tmp_path, monkeypatch):
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    tool, path, proposal = _tool(tmp_path, names=("list",))
    assert json_field_lists(tool, proposal, bin_path=path) == {("pr", "list"): ("id", "list_name")}
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('print("  added")\n')
    assert json_field_lists(tool, proposal, bin_path=path) == {
        ("pr", "list"): ("id", "list_name", "added")
    }
