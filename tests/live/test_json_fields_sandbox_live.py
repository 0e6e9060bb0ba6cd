"""`TOOL CMD --json` (asked for gh's field lists) runs in the probe sandbox with the probes'
environment, never with the caller's HOME, files or tokens; without a sandbox it is not run at all.
The tool here takes `--json` for a switch and runs its action: the attack a field probe must survive."""

from __future__ import annotations

import sys
import textwrap
from types import SimpleNamespace

from tests.support.sandbox import sandbox_required as _sandbox  # noqa: F401  (autouse)
from wrapgen.flows.wrap import json_field_lists
from wrapgen.model.tool import Command, Flag, Tool


def _tool(tmp_path, marker):
    script = tmp_path / "bin" / "fieldy"
    script.parent.mkdir()
    script.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import os, sys
        # a tool whose --json is a switch: it runs `delete` and writes where it can
        for target in ({str(marker)!r}, os.path.join(os.environ.get("HOME", "/nonexistent"), "deleted")):
            try:
                open(target, "w").write("ran")
            except OSError:
                pass
        token = os.environ.get("GH_TOKEN", "")
        print("Specify one or more comma-separated fields for `--json`:")
        print("  id\\n  name" + ("\\n  leaked" + token if token else ""))
        """)
    )
    script.chmod(0o755)
    delete = Command(
        path=("repo", "delete"), flags=(Flag(long="--json", takes_value=True, value_name="fields"),)
    )
    repo = Command(path=("repo",), subcommands=(delete,))
    tool = Tool(name="fieldy", root=Command(path=(), subcommands=(repo,)), path=str(script))
    return tool, str(script)


def test_field_probe_runs_sandboxed_with_the_probe_environment(tmp_path, monkeypatch):
    marker = tmp_path / "outside" / "marker"
    marker.parent.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GH_TOKEN", "secret123")
    tool, path = _tool(tmp_path, marker)
    notes: list[str] = []
    proposal = SimpleNamespace(chosen=[SimpleNamespace(path="repo delete")])
    fields = json_field_lists(tool, proposal, bin_path=path, notes=notes)
    assert fields == {("repo", "delete"): ("id", "name")}  # it ran, and no token reached it
    assert not marker.exists() and not (home / "deleted").exists()
    assert notes == []


def test_without_a_sandbox_the_field_probe_does_not_run(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    tool, path = _tool(tmp_path, marker)
    notes: list[str] = []
    proposal = SimpleNamespace(chosen=[SimpleNamespace(path="repo delete")])
    assert json_field_lists(tool, proposal, bin_path=path, notes=notes) == {}
    assert not marker.exists()
    assert len(notes) == 1 and "WRAPGEN_SANDBOX=off" in notes[0] and "only sandboxed" in notes[0]
