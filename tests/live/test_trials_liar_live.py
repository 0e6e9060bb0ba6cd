"""wrap against a tool whose help lies about itself (tests/fixtures/tools/wg-liar): what its trials
see decides, never what its help says.

- its own state in HOME on every run (--version included) is no write of any verb;
- `status` ("It only reads") writes a file: relabelled write; `clean` deletes one: a write too;
- `show [NAME]` needs NAME after all, and reads "--" as a widget's name: "--" dropped, NAME required;
- `lint FILE` exits 1 with its findings on stdout: exit 1 declared an answer, and the envelope keeps them;
- `list --format json` prints JSON, which its help never says: the JSON selection; `stats` prints
  JSON with no flag: json: true;
- `crash` and `dump` crash and print binary: left out, with the reason, and the wrap goes on.
"""

from __future__ import annotations

import json
import shutil

import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES

_PICKS = ("list", "show", "status", "clean", "lint", "stats", "crash", "dump")


def _wrap(tmp_path, cli, monkeypatch, *extra):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shutil.copy2(FIXTURES / "tools" / "wg-liar", bin_dir / "wg-liar")
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ['PATH']}")
    picks = [a for name in _PICKS for a in ("--pick", name)]
    result = cli("wrap", "wg-liar", "-o", str(tmp_path / "out"), "--no-cache", *picks, *extra)
    assert "Traceback" not in result.stderr
    return result


def test_trials_decide_what_the_help_said(tmp_path, cli, monkeypatch):
    """Each lie of the help is caught by a trial, and the pack says what was seen."""
    result = _wrap(tmp_path, cli, monkeypatch)
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "wg-liar" / "pack.yaml").read_text())["verbs"]
    # its own state (~/.wg-liar/signature, written on --version too) is no write
    assert verbs["list"]["policy"]["effect"] == "read"
    assert ".wg-liar" not in json.dumps(verbs)
    # a help sentence never overrules what a trial saw
    assert verbs["status"]["policy"] == {"effect": "write", "confirm": True}
    assert "created work/status.cache" in verbs["status"]["x-why"]
    # "--" read as a name: dropped; the optional NAME is required after all
    assert "--" not in verbs["show"]["cli"]
    assert verbs["show"]["args"]["required"] == ["name"]
    assert "reads '--' as an operand" in verbs["show"]["x-why"]
    # findings on stdout with exit 1: an answer
    assert verbs["lint"]["exit_codes"] == {"1": "findings reported"}
    # JSON found by a trial
    assert verbs["list"]["json"] == ["--format", "json"]
    assert verbs["stats"]["json"] is True  # JSON with no flag
    # crashes and garbage: left out with the reason, the rest written
    assert "crash" not in verbs and "dump" not in verbs
    assert "crashed on the sample inputs ('KeyError: 'widgets'')" in result.stdout
    assert "printed binary output" in result.stdout


def test_when_every_pick_is_left_out_the_error_says_why(tmp_path, cli, monkeypatch):
    """Every candidate left out by its trial: the error names each one's reason, not only the count."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-liar", bin_dir / "wg-liar")
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ['PATH']}")
    out = str(tmp_path / "out")
    result = cli("wrap", "wg-liar", "-o", out, "--no-cache", "--pick", "crash", "--pick", "dump")
    assert result.exit_code != 0 and "Traceback" not in result.stderr
    assert "every candidate was left out" in result.stderr
    assert "crash: tried: it crashed on the sample inputs ('KeyError" in result.stderr
    assert "dump: tried: it printed binary output" in result.stderr
    assert "--no-try" in result.stderr


def test_the_pack_answers_as_the_trials_showed(tmp_path, cli, monkeypatch):
    """Called through the pack: show finds its widget, lint's findings come back with exit 1, list is JSON."""
    assert _wrap(tmp_path, cli, monkeypatch).exit_code == 0
    pack = str(tmp_path / "out" / "wg-liar")
    (tmp_path / "widgets.txt").write_text("gear\n")
    monkeypatch.chdir(tmp_path)
    show = json.loads(cli("exec", pack, "show", "--json", "--", "name=gear").stdout)
    assert show == {"ok": True, "result": "widget gear: 3 parts\n"}
    lint = json.loads(cli("exec", pack, "lint", "--json", "--", "file=widgets.txt").stdout)
    assert lint["ok"] is False and lint["exit_code"] == 1
    assert "findings reported" in lint["error"] and "W001" in lint["output"]
    listed = json.loads(cli("exec", pack, "list", "--json").stdout)
    assert listed == {
        "ok": True,
        "result": [{"name": "gear", "parts": 3}, {"name": "spring", "parts": 1}],
    }


def test_a_second_wrap_finds_nothing_to_change(tmp_path, cli, monkeypatch):
    """What the trials record is the same every run: wrap --check after wrap is up to date."""
    assert _wrap(tmp_path, cli, monkeypatch).exit_code == 0
    again = _wrap(tmp_path, cli, monkeypatch, "--check")
    assert again.exit_code == 0 and "check: up to date" in again.stdout, again.stdout


def _hand_pack(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shutil.copy2(FIXTURES / "tools" / "wg-liar", bin_dir / "wg-liar")
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ['PATH']}")
    pack = tmp_path / "packs" / "wg-liar"
    pack.mkdir(parents=True)
    show = {
        "description": "Show a widget.",
        "cli": ["wg-liar", "show", "--", "{{name}}"],
        "args": {
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The widget's name"}},
            "required": ["name"],
            "additionalProperties": False,
        },
        "policy": {"effect": "read", "confirm": False},
    }
    data = {
        "pack_id": "wg-liar",
        "description": "Widgets.",
        "bin": "wg-liar",
        "json": False,
        "verbs": {"show": show},
    }
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return pack


def test_check_try_and_probe_report_a_double_dash_the_tool_refuses(tmp_path, cli, monkeypatch):
    """check --try (W068) and check --probe (P004) both find the "--" wg-liar reads as a name."""
    pack = _hand_pack(tmp_path, monkeypatch)
    assert cli("build", str(pack)).exit_code == 0
    tried = json.loads(cli("check", "--try", "--format", "json", str(pack)).stdout)
    assert {f["code"] for f in tried["findings"]} >= {"W068"}, tried
    probed = cli("check", "--probe", str(pack))
    assert "P004" in probed.stdout and "refuses '--' or reads it as an operand" in probed.stdout


def test_a_value_its_own_parser_reads_only_apart_goes_in_the_next_argument(
    tmp_path, cli, monkeypatch
):
    """`find --owner NAME` reads its options itself and takes `--owner=NAME` for one unknown option:
    the trial of the joined and the split form shows it, and the pack's call finds the owner's
    widgets."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-liar", bin_dir / "wg-liar")
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ['PATH']}")
    out = tmp_path / "out"
    result = cli("wrap", "wg-liar", "-o", str(out), "--no-cache", "--pick", "find")
    assert result.exit_code == 0, result.stdout + result.stderr
    verb = yaml.safe_load((out / "wg-liar" / "pack.yaml").read_text())["verbs"]["find"]
    assert "--owner" in verb["cli"] and not any("--owner=" in t for t in verb["cli"]), verb["cli"]
    assert "reads the first as one unknown option" in verb["x-why"]
    called = cli("exec", str(out / "wg-liar"), "find", "--json", "--", "owner=ann")
    envelope = json.loads(called.stdout)
    assert envelope["ok"] and "owner: ann" in envelope["result"], envelope
