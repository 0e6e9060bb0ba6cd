"""The memory limit against a real tool (jq): the issue's attack ends at the pack's limit."""

from __future__ import annotations

from packs_runtime.packtools import binding_dict, verb

from wrapgen.runtime import execute


def test_jq_building_a_huge_array_hits_the_limit():
    """The issue's attack: `jq -n '[range(1e9)]'` would grow to several GB; it ends at the pack's limit."""
    from conftest import require_tool

    require_tool("jq")
    binding = binding_dict("jq", "jq", {"q": verb(["jq", "-n", "[range(1e9)]"], json_sel=[])})
    binding["limits"] = {"memory_mb": 256}
    envelope = execute(binding, "q", {})
    assert envelope == {
        "ok": False,
        "error": "exceeded the memory limit of 256 MiB; a pack that needs more sets limits: {memory_mb: N} in pack.yaml",
    }
