"""Batch conversion of the example internal tools, whose packs then run the real scripts (bash, coreutils).

Writing, --check, broken recipes and overrides without running the tools are in tests/flows/test_batch.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml


def _exec(cli, pack_dir, verb, *kv):
    result = cli("exec", str(pack_dir), verb, "--json", "--", *kv)
    return json.loads(result.stdout)


def test_batch_writes_example_packs_and_they_run(examples, tmp_path, cli):
    """Batch converts both example tools; the generated packs execute against the real scripts."""
    out = tmp_path / "out"
    result = cli("batch", str(examples), "-o", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "deployctl" in result.stdout and "notes" in result.stdout and "written" in result.stdout
    deploy = yaml.safe_load((out / "deployctl" / "pack.yaml").read_text())
    assert deploy["bin"] == "deployctl"
    assert set(deploy["verbs"]) == {
        "list",
        "status",
        "history",
        "logs",
        "deploy",
        "rollback",
        "destroy",
    }
    assert deploy["verbs"]["destroy"]["policy"] == {"effect": "destructive", "confirm": True}
    assert deploy["verbs"]["list"]["title"]["live"] == [
        "Listing services in {{env}}",
        "Listing services",
    ]

    pack = out / "deployctl"
    assert _exec(cli, pack, "deploy", "service=web", "version=1.0") == {
        "ok": False,
        "error": "confirmation required: pass confirm=true",
    }
    assert _exec(cli, pack, "deploy", "service=web", "version=1.0", "confirm=true")["ok"] is True
    assert _exec(cli, pack, "list") == {
        "ok": True,
        "result": [{"service": "web", "version": "1.0", "env": "staging"}],
    }
    assert _exec(cli, pack, "status", "service=web")["result"]["version"] == "1.0"
    assert "deploy staging web 1.0" in _exec(cli, pack, "history", "service=web")["result"]

    notes = out / "notes"
    manifest = yaml.safe_load((notes / "pack.yaml").read_text())
    assert manifest["bin"] == "notes" and {"list", "tags"} <= set(manifest["verbs"])
    Path(os.environ["NOTES_FILE"]).write_text(
        json.dumps(
            {"next_id": 2, "notes": [{"id": 1, "title": "Hello", "body": "x", "tags": ["ops"]}]}
        )
    )
    assert _exec(cli, notes, "tags") == {"ok": True, "result": ["ops"]}
    assert _exec(cli, notes, "list")["result"][0]["title"] == "Hello"
    added = _exec(cli, notes, "add", "title=Deploy day", "body=web 1.0", "tag=web", "confirm=true")
    assert added["ok"] and added["result"]["id"] == 2 and added["result"]["tags"] == ["web"]
    assert [n["title"] for n in _exec(cli, notes, "list", "tag=web")["result"]] == ["Deploy day"]
    assert _exec(cli, notes, "show", "id=2")["result"]["body"] == "web 1.0"
    assert (
        _exec(cli, notes, "delete", "id=2")["error"] == "confirmation required: pass confirm=true"
    )
    title = cli("title", str(notes), "add", "--", "title=Deploy day")
    assert title.stdout.strip() == "Adding the note “Deploy day”"
