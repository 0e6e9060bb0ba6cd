"""discover() end to end on tools shipped through Python packaging: clap (ruff, uv) with nested
subcommands, long and concise help; a typer app started by a launcher script."""

from __future__ import annotations

import stat
import sys

import pytest

from conftest import FIXTURES, flag_of, require_tool
from wrapgen.probe.discover import discover

pytestmark = [pytest.mark.live, pytest.mark.usefixtures("own_cache")]


def test_ruff_check_and_analyze_graph_are_read():
    """ruff, depth 2: `check` with its fix switches and output formats, `analyze graph` one level down."""
    require_tool("ruff")
    tool = discover("ruff", depth=2, cache=False)
    assert tool.root.parser == "clap"
    assert {"check", "format", "analyze", "rule"} <= {c.name for c in tool.root.subcommands}
    check = tool.root.find(("check",))
    assert check is not None and not check.stub and check.parser == "clap"
    assert {"--fix", "--no-fix", "--select", "--statistics"} <= {
        s for f in check.flags for s in f.spellings
    }
    output_format = flag_of(check, "--output-format")
    assert output_format.takes_value and {"json", "concise", "full"} <= set(output_format.choices)
    assert [(p.name, p.variadic) for p in check.positionals] == [("FILES", True)]
    graph = tool.root.find(("analyze", "graph"))
    assert graph is not None and not graph.stub and flag_of(graph, "--direction") is not None
    assert tool.root.find(("help",)).stub  # clap's own help command is listed, never probed


def test_uv_pip_install_is_read_with_its_operand_and_globals():
    """uv, depth 2: `pip install` from its concise --help, PACKAGE from Arguments:, the global flags apart."""
    require_tool("uv")
    tool = discover("uv", depth=2, cache=False)
    assert {"pip", "tool", "python", "cache", "sync"} <= {c.name for c in tool.root.subcommands}
    install = tool.root.find(("pip", "install"))
    assert install is not None and not install.stub and install.parser == "clap"
    requirements = flag_of(install, "--requirements")
    assert requirements.short == "-r" and requirements.takes_value
    assert [(p.name, p.variadic) for p in install.positionals] == [("PACKAGE", True)]
    assert "--offline" in {s for f in install.global_flags for s in f.spellings}
    assert set(flag_of(install, "--color").choices) == {"auto", "always", "never"}
    assert not [w for w in tool.warnings if "could not read" in w]


def test_typer_app_behind_a_launcher_is_read_through_rich_panels(tmp_path):
    """A typer app (rich panels) started by a launcher script: the tree, the columns and the operand."""
    pytest.importorskip("typer")
    launcher = tmp_path / "typer-demo"
    launcher.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "tools" / "typer_demo.py"}" "$@"\n'
    )
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    tool = discover(str(launcher), depth=2, cache=False)
    assert tool.root.parser == "click"
    assert [c.name for c in tool.root.subcommands] == ["deploy", "list-items", "users"]
    deploy = tool.root.find(("deploy",))
    assert flag_of(deploy, "--force").short == "-f" and flag_of(deploy, "--output").choices == (
        "json",
        "table",
    )
    assert [p.name for p in deploy.positionals] == ["env"]
    add = tool.root.find(("users", "add"))
    assert add is not None and not add.stub and flag_of(add, "--no-admin") is not None
