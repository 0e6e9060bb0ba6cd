"""`wrapgen exec` and adapter.py: the command line of the JSON face (docs/contract.md §10, §14)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from packs_runtime.packtools import verb, write_pack

PY = sys.executable
ECHO = [PY, "-c", "import json, sys; print(json.dumps(sys.argv[1:]))"]
SCHEMA = {
    "type": "object",
    "properties": {
        "q": {"type": "string"},
        "n": {"type": "integer"},
        "all": {"type": "boolean"},
        "label": {"type": "array", "items": {"type": "string"}},
    },
    "additionalProperties": False,
}


@pytest.fixture
def pack(tmp_path):
    """A pack whose verbs echo their argv as JSON (the JSON selection is taken out of the echo)."""
    return write_pack(
        tmp_path,
        "echo",
        PY,
        {
            "show": verb(
                [*ECHO, "--q={{q}}", "--n={{n}}", "--all", "{{all}}", "--label", "{{label}}"],
                args=SCHEMA,
                json_sel=[],
            ),
            "fail": verb([PY, "-c", "import sys; sys.exit('broken')"], json_sel=[]),
            "drop": verb(ECHO, effect="destructive", json_sel=[]),
        },
    )


def test_exec_kv_args_typed_one_line(cli, pack):
    """k=v after -- are typed by the schema; --json prints one line; exit 0 when ok."""
    result = cli(
        "exec", str(pack), "show", "--json", "--", "q=a b", "n=3", "all=yes", "label=x", "label=y"
    )
    assert result.exit_code == 0
    assert result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == {
        "ok": True,
        "result": '["--q=a b", "--n=3", "--all", "--label", "x", "--label", "y"]\n',
    }


def test_exec_without_json_is_indented(cli, pack):
    """Without --json the envelope is indented."""
    result = cli("exec", str(pack), "show")
    assert result.stdout == json.dumps({"ok": True, "result": "[]\n"}, indent=2) + "\n"


def test_exec_not_ok_exits_1(cli, pack):
    """A failing tool gives exit 1 and its stderr as error."""
    result = cli("exec", str(pack), "fail", "--json")
    assert result.exit_code == 1 and json.loads(result.stdout) == {
        "ok": False,
        "error": "broken",
        "exit_code": 1,
    }


def test_exec_confirm_gate_from_kv(cli, pack):
    """confirm=true on the command line opens the gate; without it, exit 1."""
    assert json.loads(cli("exec", str(pack), "drop", "--json").stdout) == {
        "ok": False,
        "error": "confirmation required: pass confirm=true",
    }
    assert cli("exec", str(pack), "drop", "--json", "--", "confirm=true").exit_code == 0
    assert cli("exec", str(pack), "drop", "--json", "--", "apply=yes").exit_code == 0


def test_exec_unknown_key_is_a_usage_error(cli, pack):
    """An unknown key exits 2 naming the valid keys."""
    result = cli("exec", str(pack), "show", "--", "qq=1")
    assert result.exit_code == 2 and result.stdout == ""
    assert (
        "unknown argument 'qq'" in result.stderr
        and "valid arguments: all, apply, confirm, label, n, q" in result.stderr
    )


def test_exec_bad_value_is_a_usage_error(cli, pack):
    """A value of the wrong type exits 2 with a hint."""
    result = cli("exec", str(pack), "show", "--", "n=many")
    assert (
        result.exit_code == 2
        and "n=many: not an integer" in result.stderr
        and "hint:" in result.stderr
    )


def test_exec_unknown_verb_is_an_envelope(cli, pack):
    """An unknown verb is an envelope (exit 1), suggesting the close one."""
    result = cli("exec", str(pack), "shw", "--json")
    envelope = json.loads(result.stdout)
    assert (
        result.exit_code == 1
        and "unknown verb 'shw'" in envelope["error"]
        and "'show'" in envelope["error"]
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["exec"],
        ["exec", "onlypack"],
        ["exec", "p", "v", "--bogus"],
        ["exec", "p", "v", "q=1"],
        ["exec", "--envelope"],
        ["exec", "--envelope", "-", "p"],
    ],
)
def test_exec_usage_errors(cli, argv):
    """Malformed command lines exit 2 with an Error and a hint, printing no envelope."""
    result = cli(*argv)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and "hint:" in result.stderr


def test_exec_unknown_pack(cli, tmp_path):
    """A pack that is neither a directory nor a known pack_id exits 2."""
    result = cli("exec", "nopack", "v", cwd=tmp_path)
    assert (
        result.exit_code == 2
        and "no pack 'nopack'" in result.stderr
        and "WRAPGEN_PATH" in result.stderr
    )


def test_exec_pack_id_from_adapters(cli, tmp_path):
    """PACK may be a pack_id under ./adapters."""
    write_pack(tmp_path / "adapters", "hello", PY, {"hi": verb([PY, "-c", "print(1)"])})
    result = cli("exec", "hello", "hi", "--json", cwd=tmp_path)
    assert result.stdout == '{"ok": true, "result": 1}\n'


def test_exec_envelope_from_file_and_stdin(cli, tmp_path, pack, monkeypatch):
    """--envelope FILE and --envelope - run a whole envelope and print one line."""
    envelope = {"pack_id": "echo", "verb_key": "show", "args": {"n": 2}}
    monkeypatch.setenv("WRAPGEN_PATH", str(pack.parent))
    path = tmp_path / "e.json"
    path.write_text(json.dumps(envelope))
    from_file = cli("exec", "--envelope", str(path))
    from_stdin = cli("exec", "--envelope", "-", stdin=json.dumps(envelope))
    assert from_file.stdout == from_stdin.stdout == '{"ok": true, "result": "[\\"--n=2\\"]\\n"}\n'
    assert from_file.exit_code == 0


def test_exec_envelope_not_json(cli):
    """A malformed envelope is an envelope error, exit 1."""
    result = cli("exec", "--envelope", "-", stdin="{nope")
    assert result.exit_code == 1 and json.loads(result.stdout)["error"].startswith(
        "the envelope is not JSON"
    )


def test_exec_help(cli):
    """--help prints the usage and exits 0."""
    result = cli("exec", "--help")
    assert result.exit_code == 0 and "wrapgen exec PACK VERB [--json]" in result.stdout


# --- adapter.py as a process, the way build generates it ------------------------------------------

ADAPTER = textwrap.dedent('''\
    #!/usr/bin/env python3
    """Adapter for this pack: serves its JSON face through wrapgen's runtime."""
    import sys
    from pathlib import Path

    from wrapgen.runtime import exec_exit

    if __name__ == "__main__":
        exec_exit(sys.argv[1:], pack_dir=Path(__file__).resolve().parent)
''')


def _adapter(pack: Path, *args, stdin: str = ""):
    script = pack / "adapter.py"
    script.write_text(ADAPTER)
    env = {key: value for key, value in os.environ.items() if key != "WRAPGEN_PATH"}
    return subprocess.run(
        [PY, str(script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=pack.parent,
        timeout=60,
    )


def test_adapter_verb_form(pack):
    """adapter.py VERB --json -- k=v prints the same one-line envelope as wrapgen exec."""
    result = _adapter(pack, "show", "--json", "--", "q=x")
    assert (result.returncode, result.stdout) == (0, '{"ok": true, "result": "[\\"--q=x\\"]\\n"}\n')


def test_adapter_envelope_on_stdin(pack):
    """adapter.py with no arguments, or --envelope -, reads one envelope on stdin."""
    envelope = json.dumps({"pack_id": "echo", "verb_key": "fail", "args": {}})
    for args in ((), ("--envelope", "-")):
        result = _adapter(pack, *args, stdin=envelope)
        assert (result.returncode, result.stdout) == (
            1,
            '{"ok": false, "error": "broken", "exit_code": 1}\n',
        )


def test_adapter_usage_error(pack):
    """adapter.py with k=v but no verb exits 2 with a message, no traceback."""
    result = _adapter(pack, "--", "q=1")
    assert result.returncode == 2 and "Error:" in result.stderr and "Traceback" not in result.stderr


def test_installed_wrapgen_exec_end_to_end(pack):
    """The installed `wrapgen exec` command runs a pack for real."""
    result = subprocess.run(
        [PY, "-m", "wrapgen", "exec", str(pack), "show", "--json", "--", "all=true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (0, '{"ok": true, "result": "[\\"--all\\"]\\n"}\n')
