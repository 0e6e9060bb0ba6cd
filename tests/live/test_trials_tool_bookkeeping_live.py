"""Reads that leave their own bookkeeping in a fresh HOME stay reads when tried: rclone makes its
empty config folder, pm2 starts its daemon (socket, pid and logs in ~/.pm2), composer protects its
folders with a .htaccess. Before, each trial called these reads writes (W062)."""

from __future__ import annotations

import json

import pytest
import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import require_tool


@pytest.mark.parametrize(
    "bin_name, cli_",
    [
        ("rclone", ["rclone", "listremotes"]),
        ("pm2", ["pm2", "list"]),
        ("composer", ["composer", "show", "--platform"]),
    ],
)
def test_a_read_that_keeps_its_own_books_is_still_a_read(tmp_path, cli, bin_name, cli_):
    require_tool(bin_name)
    pack = tmp_path / bin_name
    pack.mkdir()
    verbs = {
        "list": {
            "description": "List.",
            "cli": cli_,
            "policy": {"effect": "read", "confirm": False},
        }
    }
    (pack / "pack.yaml").write_text(
        yaml.safe_dump(
            {
                "pack_id": bin_name,
                "description": f"{bin_name} reads.",
                "bin": bin_name,
                "json": False,
                "verbs": verbs,
            },
            sort_keys=False,
        )
    )
    # pm2's first call starts its daemon: on a busy machine that takes longer than the default
    # trial timeout, and a read still running then would count as long-running, not as a read
    result = cli("check", "--try", "--try-timeout", "60", "--format", "json", str(pack))
    report = json.loads(result.stdout)
    codes = {f["code"] for f in report["findings"] if f["code"].startswith("W06")}
    assert "W062" not in codes, report["trials"]
    assert any("list: tried: it ran and exited 0" in line for line in report["trials"]), report[
        "trials"
    ]
