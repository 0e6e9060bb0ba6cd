"""A statement runner (a database shell: ``TOOL FILENAME [SQL]``) wrapped as its user would: its main
mode is a confirm-gated write (the statement decides what a call changes, and a trial with a harmless
sample never relabels it), and the switch that opens the store read-only makes a read form of it
that passes the safe-mode switch too. Where the tool's safe mode breaks its start-up, the read form's
trial shows it and the read goes on without that switch. Run on a fake shell (both ways) and on
sqlite3, whose read form answers a query and refuses a write and a shell escape."""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest
import yaml

from tests.conftest import require_tool

pytestmark = pytest.mark.live

_HELP = """Usage: wgstore [OPTIONS] FILENAME [SQL]
FILENAME is the name of a widget store database.
OPTIONS include:
   -json                set output mode to 'json'
   -readonly            open the database read-only
   -safe                enable safe-mode
   -bail                stop after hitting an error
"""


def _fake(tmp_path, *, safe_breaks: bool):
    tool = tmp_path / "bin" / "wgstore"
    tool.parent.mkdir()
    tool.write_text(
        "#!/usr/bin/python3\n"
        "import sys\n"
        f"HELP = {_HELP!r}\n"
        "args = sys.argv[1:]\n"
        "if args[:1] in (['--help'], ['-help'], ['-h']):\n"
        "    print(HELP, end='')\n"
        "    sys.exit(0)\n"
        "if '--' in args:\n"
        "    sys.exit('Error: unknown option: -')\n"
        f"if '-safe' in args and {safe_breaks!r}:\n"
        "    sys.exit('Error: configuration locked')\n"
        "print('[{\"answer\": 1}]')\n"
    )
    tool.chmod(0o755)
    return tool


def _wrap(tool, tmp_path, cli, monkeypatch) -> dict:
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "packs"
    result = cli("wrap", str(tool), "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    (pack,) = [p for p in out.iterdir() if (p / "pack.yaml").is_file()]
    return yaml.safe_load((pack / "pack.yaml").read_text()) | {"_dir": str(pack)}


def _read_form(pack: dict) -> tuple[str, dict]:
    forms = [(n, v) for n, v in pack["verbs"].items() if "-readonly" in v["cli"]]
    assert len(forms) == 1, {n: v["cli"] for n, v in pack["verbs"].items()}
    return forms[0]


@pytest.mark.parametrize("safe_breaks", [False, True])
def test_the_read_only_form_keeps_safe_mode_unless_it_breaks_the_tool(
    safe_breaks, tmp_path, cli, monkeypatch
):
    pack = _wrap(_fake(tmp_path, safe_breaks=safe_breaks), tmp_path, cli, monkeypatch)
    main = next(v for v in pack["verbs"].values() if "-readonly" not in v["cli"])
    assert main["policy"] == {"effect": "write", "confirm": True}, main["x-why"]
    name, form = _read_form(pack)
    assert form["policy"] == {"effect": "read", "confirm": False}, form["x-why"]
    if safe_breaks:
        assert "-safe" not in form["cli"] and "-safe dropped" in form["x-why"], form
    else:
        assert "-safe" in form["cli"] and "ran and exited 0" in form["x-why"], form


def test_sqlite3s_read_form_answers_and_refuses_writes_and_escapes(tmp_path, cli, monkeypatch):
    sqlite = require_tool("sqlite3")
    pack = _wrap("sqlite3", tmp_path, cli, monkeypatch)
    name, form = _read_form(pack)
    assert "-safe" in form["cli"] and form["policy"]["effect"] == "read"
    work = tmp_path / "work"
    work.mkdir()
    with sqlite3.connect(work / "shop.db") as db:
        db.execute("CREATE TABLE items (name TEXT, count INTEGER)")
        db.execute("INSERT INTO items VALUES ('alpha', 1), ('beta', 2)")
    db.close()
    database = next(a for a in form["args"]["required"] if "file" in a or "name" in a)
    statement = next(a for a in form["args"]["properties"] if a != database)
    monkeypatch.chdir(work)

    def call(sql: str) -> dict:
        args = [f"{database}=shop.db", f"{statement}={sql}"]
        return json.loads(cli("exec", pack["_dir"], name, "--json", "--", *args).stdout)

    query = "SELECT name, count FROM items ORDER BY name"
    human = subprocess.run(
        [sqlite, "-json", "shop.db", query], cwd=work, capture_output=True, text=True
    )
    assert call(query) == {"ok": True, "result": json.loads(human.stdout)}
    assert call("DELETE FROM items")["ok"] is False
    assert call(".shell touch escaped")["ok"] is False and not (work / "escaped").exists()
    with sqlite3.connect(work / "shop.db") as db:
        assert db.execute("SELECT count(*) FROM items").fetchone() == (2,)
    db.close()
