"""Discovery and wrap on real Symfony Console (composer), cleo (poetry), kingpin (amtool) and urfave/cli
(runc, mender-artifact) tools; skipped only where the tool is absent (.ci/run installs them)."""

from __future__ import annotations

import yaml

from conftest import require_tool
from wrapgen.probe.discover import discover


def _nodes(tool):
    return {node.path: node for node in tool.root.walk()}


def test_composer_commands_come_from_list_json():
    require_tool("composer")
    tool = discover("composer", depth=2, cache=False)
    nodes = _nodes(tool)
    assert not tool.warnings or all("sandbox" in w or "bubblewrap" in w for w in tool.warnings), (
        tool.warnings
    )
    assert {("install",), ("require",), ("update",), ("show",)} <= set(nodes)
    root_flags = {s for f in tool.root.flags for s in f.spellings}
    assert {"--quiet", "--working-dir", "-vvv"} <= root_flags and not {
        "--format",
        "--raw",
        "--short",
    } & root_flags
    install = nodes[("install",)]
    assert install.parser == "symfony" and not install.stub and "i" in install.aliases
    assert "--dry-run" in {f.long for f in install.flags} and "--quiet" in {
        f.long for f in install.global_flags
    }


def test_poetry_namespaces_and_their_commands():
    require_tool("poetry")
    tool = discover("poetry", depth=3, cache=False, timeout_s=60)
    nodes = _nodes(tool)
    for path in (("add",), ("cache", "clear"), ("env", "info"), ("self", "show", "plugins")):
        assert path in nodes and not nodes[path].stub, (path, tool.warnings)
    assert "--format" not in {f.long for f in tool.root.flags}
    add = nodes[("add",)]
    assert "--group" in {f.long for f in add.flags} and "--no-interaction" in {
        f.long for f in add.global_flags
    }


def test_amtool_reaches_every_leaf_of_its_kingpin_tree():
    require_tool("amtool")
    tool = discover("amtool", depth=3, cache=False)
    nodes = _nodes(tool)
    assert ("alert", "alert") not in nodes
    for path in (
        ("alert", "query"),
        ("silence", "import"),
        ("config", "routes", "test"),
        ("template", "render"),
    ):
        assert path in nodes and not nodes[path].stub, path
    query = nodes[("alert", "query")]
    assert query.parser == "kingpin" and "--receiver" in {f.long for f in query.flags}
    assert "--timeout" in {f.long for f in query.global_flags}


def test_urfave_tools_read_with_their_categories_and_help():
    require_tool("mender-artifact")
    tool = discover("mender-artifact", depth=2, cache=False)
    nodes = _nodes(tool)
    assert ("write", "rootfs-image") in nodes and not nodes[("write", "rootfs-image")].stub
    assert nodes[("write",)].group == "Artifact creation and validation"
    assert nodes[("help",)].aliases == ("h",)  # the framework's own, listed, never probed
    rootfs = nodes[("write", "rootfs-image")]
    assert {"--artifact-name", "--device-type", "--file"} <= {f.long for f in rootfs.flags}


def test_runc_commands_and_global_options():
    require_tool("runc")
    tool = discover("runc", depth=1, cache=False)
    nodes = _nodes(tool)
    assert {("checkpoint",), ("run",), ("list",)} <= set(nodes)
    assert {"--root", "--debug"} <= {f.long for f in tool.root.global_flags}
    assert (
        nodes[("checkpoint",)].parser == "urfave"
        and nodes[("checkpoint",)].positionals[0].name == "container-id"
    )


def _wrapped(cli, tmp_path, name: str) -> dict:
    result = cli("wrap", name, "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    return yaml.safe_load((tmp_path / name / "pack.yaml").read_text())


def test_wrap_gives_five_to_twelve_commands_for_each_framework(cli, tmp_path):
    for name, expected in (
        ("composer", {"install", "show", "outdated"}),
        ("amtool", {"alert.query", "silence.add"}),
        ("mender-artifact", {"read", "validate"}),
    ):
        require_tool(name)
        verbs = _wrapped(cli, tmp_path / name, name)["verbs"]
        assert 5 <= len(verbs) <= 12, (name, list(verbs))
        assert expected & set(verbs), (name, list(verbs))
