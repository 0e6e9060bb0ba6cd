"""Structured results through jc (docs/runtime.md): a verb that declares ``jc: PARSER`` answers with
jc's JSON of its text; a parser that cannot read the text gives a clear failure with the raw text
kept; the runtime imports jc only for such a verb. The tool here is this interpreter printing fixed
text; real tools against jc's own output are in tests/live/test_runtime_jc_live.py."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from packs_runtime.packtools import binding_dict, verb

from wrapgen.runtime import execute
from wrapgen.runtime.execute import parse_with_jc

jc = pytest.importorskip("jc")  # the test extra installs it (pyproject.toml); CI does too (.ci/run)

PY = sys.executable
UNAME = "Linux vm 6.1.0 #1 SMP PREEMPT_DYNAMIC Debian 6.1.0 (2024-01-01) x86_64 GNU/Linux\n"


def _printing(text: str, parser: str) -> dict:
    argv = [PY, "-c", "import sys; sys.stdout.write(sys.argv[1])", text]
    data = verb(argv, json_sel=[])
    data["jc"] = parser
    return binding_dict("t", PY, {"v": data})


def test_a_jc_verb_answers_with_jcs_own_json():
    envelope = execute(_printing(UNAME, "uname"), "v", {})
    assert envelope == {"ok": True, "result": jc.parse("uname", UNAME, quiet=True)}
    assert envelope["result"]["kernel_name"] == "Linux"


def test_text_the_parser_cannot_read_is_a_clear_failure_with_the_raw_text():
    envelope = execute(_printing("not uname output\n", "uname"), "v", {})
    assert envelope["ok"] is False
    assert envelope["error"].startswith(
        f"could not parse {PY.rsplit('/', 1)[-1]} output with jc.uname: "
    )
    assert envelope["output"] == "not uname output\n"


def test_a_parser_that_finds_nothing_in_text_is_a_failure():
    """git_log makes [] of text that is no log: an empty answer would hide that nothing was read."""
    envelope = parse_with_jc("git", "git_log", "fatal: not a git repository\n")
    assert envelope == {
        "ok": False,
        "error": "could not parse git output with jc.git_log: the parser found nothing in the output",
        "output": "fatal: not a git repository\n",
    }


def test_empty_output_is_an_empty_answer():
    assert parse_with_jc("git", "git_log", "") == {"ok": True, "result": []}


def test_a_parser_jc_does_not_have_is_named():
    envelope = parse_with_jc("ps", "no_such_parser", "x\n")
    assert envelope == {
        "ok": False,
        "error": "could not parse ps output with jc.no_such_parser: the installed jc has no parser 'no_such_parser'",
        "output": "x\n",
    }


def test_without_jc_installed_the_failure_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "jc", None)  # import jc -> ImportError
    envelope = parse_with_jc("ps", "ps", "PID TTY TIME CMD\n")
    assert (
        envelope["ok"] is False
        and "jc is not installed" in envelope["error"]
        and "wrapgen[jc]" in envelope["error"]
    )
    assert envelope["output"] == "PID TTY TIME CMD\n"


def test_a_failed_call_is_not_handed_to_jc():
    """The tool's own failure stays its own: jc only reads the output of a successful call."""
    argv = [PY, "-c", "import sys; sys.exit('no such thing')"]
    data = verb(argv, json_sel=[])
    data["jc"] = "uname"
    assert execute(binding_dict("t", PY, {"v": data}), "v", {}) == {
        "ok": False,
        "error": "no such thing",
        "exit_code": 1,
    }


def test_a_malformed_jc_in_the_binding_is_refused():
    binding = _printing(UNAME, "uname")
    binding["verbs"]["v"]["jc"] = "../../evil"
    envelope = execute(binding, "v", {})
    assert (
        envelope["ok"] is False and "jc" in envelope["error"] and "malformed" in envelope["error"]
    )


def test_the_runtime_imports_jc_only_for_a_verb_that_declares_it():
    """A plain verb's call leaves jc unimported; a jc verb's call imports it (a fresh interpreter each)."""
    code = """
import json, sys
sys.path.insert(0, sys.argv[1])
from packs_runtime.packtools import binding_dict, verb
from wrapgen.runtime import execute
PY = sys.executable
data = verb([PY, "-c", "print('Linux a 1 #1 SMP x86_64 GNU/Linux')"], json_sel=[])
if sys.argv[2] == "jc":
    data["jc"] = "uname"
envelope = execute(binding_dict("t", PY, {"v": data}), "v", {})
print(json.dumps([envelope["ok"], "jc" in sys.modules]))
"""
    tests_dir = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    plain = subprocess.run(
        [PY, "-c", code, tests_dir, "plain"], capture_output=True, text=True, timeout=60
    )
    with_jc = subprocess.run(
        [PY, "-c", code, tests_dir, "jc"], capture_output=True, text=True, timeout=60
    )
    assert json.loads(plain.stdout) == [True, False], plain.stderr
    assert json.loads(with_jc.stdout) == [True, True], with_jc.stderr


def test_jc_is_the_runtimes_only_module_loaded_by_name():
    """The runtime's sources import only the standard library (test_runtime_schema.py); the one module
    loaded by name instead, jc, is loaded in parse_with_jc and nowhere else."""
    import ast
    from pathlib import Path

    import wrapgen

    found = []
    for path in sorted((Path(wrapgen.__file__).parent / "runtime").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                for inner in ast.walk(node):
                    if (
                        isinstance(inner, ast.Call)
                        and getattr(inner.func, "attr", None) == "import_module"
                    ):
                        found.append((path.name, node.name, ast.literal_eval(inner.args[0])))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
                found.append((path.name, "?", "__import__"))
    assert sorted(set(found)) == [("execute.py", "parse_with_jc", "jc")]
