"""Declared exit codes (pack.yaml ``exit_codes``, docs/contract.md §8): a declared non-zero exit stays
``ok: false`` with its meaning, its status and stdout; an undeclared one is the seed envelope, with
stdout as ``output`` whenever the tool printed anything (SPEC, changed 2026-12-04).
A Python child is the tool; the case with real rg is tests/live/test_exit_codes_live.py."""

from __future__ import annotations

import sys

from packs_runtime.packtools import binding_of, verb

from wrapgen.pack.build import render_pack_files
from wrapgen.runtime import execute

PY = sys.executable
NO_MATCH = {"1": "no matches"}


def _run(code, *, exit_codes=NO_MATCH, json_sel=(), args=None):
    body = verb([PY, "-c", code], json_sel=list(json_sel))
    if exit_codes is not None:
        body["exit_codes"] = exit_codes
    return execute(binding_of({"v": body}), "v", args or {})


def test_declared_exit_says_its_meaning_and_keeps_stdout():
    """exit 1 declared as "no matches": the error says so, with the status, and stdout is kept as text."""
    envelope = _run("import sys; print('partial'); sys.stderr.write('noise'); sys.exit(1)")
    assert envelope == {
        "ok": False,
        "error": "no matches (exit 1)",
        "exit_code": 1,
        "output": "partial\n",
    }


def test_declared_exit_with_empty_stdout_gives_null_output():
    """Nothing on stdout: output is null, not an empty string."""
    assert _run("import sys; sys.exit(1)") == {
        "ok": False,
        "error": "no matches (exit 1)",
        "exit_code": 1,
        "output": None,
    }


def test_declared_exit_parses_json_when_selected():
    """JSON selected and stdout parses: output is the parsed value (JSON lines become a list)."""
    code = "import sys; print('{\"a\": 1}'); print('{\"a\": 2}'); sys.exit(1)"
    envelope = _run(code, json_sel=["--json"])
    assert envelope["output"] == [{"a": 1}, {"a": 2}]
    assert envelope["error"] == "no matches (exit 1)"


def test_declared_exit_keeps_text_when_json_does_not_parse():
    """JSON selected but stdout is not JSON: the text is kept rather than lost or turned into another error."""
    envelope = _run(
        "import sys; print('1c1'); print('< a'); sys.exit(1)",
        json_sel=["--json"],
        exit_codes={"1": "differences found"},
    )
    assert envelope == {
        "ok": False,
        "error": "differences found (exit 1)",
        "exit_code": 1,
        "output": "1c1\n< a\n",
    }


def test_undeclared_exit_keeps_the_seed_envelope_and_what_was_printed():
    """exit 2 when only 1 is declared: stderr's text as the error, no exit_code, and stdout kept as
    output (a linter's findings on an exit no one declared are still its answer)."""
    envelope = _run("import sys; print('out'); sys.stderr.write('regex parse error'); sys.exit(2)")
    assert envelope == {
        "ok": False,
        "error": "regex parse error",
        "exit_code": 2,
        "output": "out\n",
    }
    parsed = _run("import sys; print('[1, 2]'); sys.exit(2)", json_sel=["--json"])
    assert parsed == {"ok": False, "error": "exit 2", "exit_code": 2, "output": [1, 2]}


def test_undeclared_exit_without_stderr_is_exit_n():
    """An undeclared exit with nothing on stderr or stdout is still "exit N", and nothing else."""
    assert _run("import sys; sys.exit(3)") == {"ok": False, "error": "exit 3", "exit_code": 3}


def test_without_exit_codes_exit_1_is_exit_1_with_its_output():
    """A verb declaring nothing: exit 1 is "exit 1", and what it printed is kept."""
    assert _run("import sys; print('x'); sys.exit(1)", exit_codes=None) == {
        "ok": False,
        "error": "exit 1",
        "exit_code": 1,
        "output": "x\n",
    }


def test_success_is_unchanged_by_a_declaration():
    """Exit 0 is the ordinary result even when exit codes are declared."""
    assert _run("print('hit')") == {"ok": True, "result": "hit\n"}


def test_high_status_declared():
    """Any status 1..255 can be declared (255 included)."""
    assert (
        _run("import sys; sys.exit(255)", exit_codes={"255": "host unreachable"})["error"]
        == "host unreachable (exit 255)"
    )


def test_malformed_declaration_is_ignored():
    """A hand-edited binding with a non-string meaning or a non-mapping never crashes; the seed envelope results."""
    assert _run("import sys; sys.exit(1)", exit_codes={"1": 7}) == {
        "ok": False,
        "error": "exit 1",
        "exit_code": 1,
    }
    assert _run("import sys; sys.exit(1)", exit_codes=["1"]) == {
        "ok": False,
        "error": "exit 1",
        "exit_code": 1,
    }


def test_signal_is_not_an_answer():
    """A killed tool is a failure even when its status number happens to be declared."""
    code = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    assert _run(code, exit_codes={"9": "x", "137": "x"})["error"].startswith("killed by signal 9")


PACK = """\
pack_id: t
description: A test pack.
bin: {py}
json: false
exit_codes: {{"1": no matches}}
verbs:
  find:
    description: Exit with the given status.
    cli: [{py}, -c, "import sys; print('seen'); sys.exit(int(sys.argv[1]))", "{{{{status}}}}"]
    args:
      type: object
      properties:
        status: {{type: string}}
  compare:
    description: Exit with the given status, as diff does.
    cli: [{py}, -c, "import sys; sys.exit(int(sys.argv[1]))", "{{{{status}}}}"]
    exit_codes: {{"1": differences found}}
    args:
      type: object
      properties:
        status: {{type: string}}
  strict:
    description: Declares none.
    cli: [{py}, -c, "import sys; sys.exit(1)"]
    exit_codes: {{}}
"""


def _built():
    import json

    files = render_pack_files(PACK.format(py=PY).encode())
    return json.loads(files["binding.json"])


def test_built_binding_applies_pack_and_verb_exit_codes():
    """Through build: the pack's map reaches a verb without its own, a verb's map replaces it, {} declares none."""
    binding = _built()
    assert execute(binding, "find", {"status": "1"}) == {
        "ok": False,
        "error": "no matches (exit 1)",
        "exit_code": 1,
        "output": "seen\n",
    }
    assert execute(binding, "compare", {"status": "1"})["error"] == "differences found (exit 1)"
    assert execute(binding, "strict", {}) == {"ok": False, "error": "exit 1", "exit_code": 1}
    assert "exit_codes" not in binding["verbs"]["strict"]
