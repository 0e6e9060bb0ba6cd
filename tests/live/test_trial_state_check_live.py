"""A tool that writes its own state into HOME on its commands but not on --version (a telemetry file
under ~/.config): wrap reads that folder, made by two or more verbs' trials, as the tool's own, and
`check --try` reads it so too (it reported every such read as W062, "it writes", while wrap kept
them reads). A verb that writes elsewhere is still a write to both."""

from __future__ import annotations

import json

import pytest
import yaml

pytestmark = pytest.mark.live

_TOOL = '''#!/usr/bin/python3
import os, sys
ROOT = """Usage: wgstate COMMAND

Commands:
  info     Show information about the workspace
  status   Show the status of the daemon
  stamp    Show the stamp of the workspace

Options:
  -h, --help  show this help
"""
PAGES = {
    "info": "Usage: wgstate info\\n\\nShow information about the workspace.\\n",
    "status": "Usage: wgstate status\\n\\nShow the status of the daemon.\\n",
    "stamp": "Usage: wgstate stamp\\n\\nShow the stamp of the workspace.\\n",
}
args = sys.argv[1:]
if args == ["--version"]:
    print("wgstate 1.0")
    sys.exit(0)
if not args or args[0] in ("-h", "--help"):
    print(ROOT)
    sys.exit(0)
if args[0] in PAGES and ("-h" in args or "--help" in args):
    print(PAGES[args[0]])
    sys.exit(0)
state = os.path.join(os.environ["HOME"], ".config", "wgstate")
os.makedirs(state, exist_ok=True)
with open(os.path.join(state, "telemetry.json"), "w") as out:
    out.write("{}")
if args[0] == "stamp":
    with open("stamp.txt", "w") as out:
        out.write("stamped")
print(args[0] + ": fine")
'''


def test_check_try_reads_the_tools_own_state_as_wrap_does(tmp_path, cli, monkeypatch):
    tool = tmp_path / "bin" / "wgstate"
    tool.parent.mkdir()
    tool.write_text(_TOOL)
    tool.chmod(0o755)
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "packs"
    result = cli("wrap", str(tool), "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    pack = out / "wgstate"
    verbs = yaml.safe_load((pack / "pack.yaml").read_text())["verbs"]
    effects = {name: body["policy"]["effect"] for name, body in verbs.items()}
    assert effects.get("info") == "read" and effects.get("status") == "read", effects
    assert effects.get("stamp") != "read", effects  # it writes stamp.txt in its working directory
    tried = json.loads(cli("check", "--try", "--format", "json", str(pack)).stdout)
    writes = [f for f in tried["findings"] if f["code"] == "W062"]
    assert writes == [], writes
