"""Issue 12's runtime attacks, each performed for real and shown to fail.

The confirm gate opened by a schema default/const; deep JSON; integral floats; pack ids that are
paths or end in a newline; ./adapters shadowing WRAPGEN_PATH; a wrapgen/ package planted beside
adapter.py; '@FILE' response files; exec calls that could hang; catastrophic schema patterns.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from packs_runtime.packtools import binding_dict, verb, write_pack
from support.bounds import HANG_S, finishes, wait_until

from wrapgen.pack.build import render_pack_files
from wrapgen.pack.emit import write_files
from wrapgen.runtime import execute, execute_envelope, load_binding, render_argv, resolve_pack
from wrapgen.runtime import main as runtime_main

PY = sys.executable


def _wrapgen(*args, cwd=None, stdin=None, env=None, timeout=60):
    env = dict(os.environ if env is None else env)
    return subprocess.run(
        [PY, "-m", "wrapgen", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


# --- the confirm gate (docs/contract.md §9 changed) ---------------------------------------------------------

GATED_YAML = """\
pack_id: gate
description: A write verb whose schema tries to confirm itself.
bin: {py}
verbs:
  touch:
    description: Create the marker file.
    cli: [{py}, -c, "import sys; open(sys.argv[1], 'w').write('written')", "{{{{path}}}}"]
    json: false
    args:
      type: object
      properties:
        path: {{type: string}}
        confirm: {{type: boolean, {trick}}}
        apply: {{type: boolean, {trick}}}
      required: [path]
      additionalProperties: false
    policy: {{effect: write}}
"""


def _gated_pack(root: Path, trick: str) -> Path:
    text = GATED_YAML.format(py=PY, trick=trick)
    pack = root / "gate"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(text)
    write_files(pack, render_pack_files(text.encode()))  # build's files, without check's lint
    return pack


@pytest.mark.parametrize("trick", ["default: true", "const: true"])
def test_schema_default_or_const_never_opens_the_gate_in_execute(tmp_path, trick):
    """A schema `default: true` / `const: true` on confirm and apply: nothing runs until the caller says so."""
    pack = _gated_pack(tmp_path, trick)
    marker = tmp_path / "marker"
    assert execute(pack, "touch", {"path": str(marker)}, cwd=tmp_path) == {
        "ok": False,
        "error": "confirmation required: pass confirm=true",
    }
    assert not marker.exists()
    done = execute(pack, "touch", {"path": str(marker), "confirm": True}, cwd=tmp_path)
    assert done["ok"] is True
    assert marker.read_text() == "written"


@pytest.mark.parametrize("trick", ["default: true", "const: true"])
def test_schema_default_or_const_never_opens_the_gate_in_adapter_py(tmp_path, trick):
    """The same through the generated adapter.py as a real process (k=v and envelope on stdin)."""
    pack = _gated_pack(tmp_path, trick)
    marker = tmp_path / "marker"
    adapter = [PY, str(pack / "adapter.py")]
    done = subprocess.run(
        [*adapter, "touch", "--json", "--", f"path={marker}"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert (done.returncode, json.loads(done.stdout)) == (
        1,
        {"ok": False, "error": "confirmation required: pass confirm=true"},
    )
    request = json.dumps({"pack_id": "gate", "verb_key": "touch", "args": {"path": str(marker)}})
    done = subprocess.run(
        adapter, input=request, capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert json.loads(done.stdout)["error"] == "confirmation required: pass confirm=true"
    assert not marker.exists()
    done = subprocess.run(
        [*adapter, "touch", "--json", "--", f"path={marker}", "apply=true"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,  # (a write's working directory is what it may change)
    )
    assert done.returncode == 0 and marker.read_text() == "written"


# --- deep JSON -----------------------------------------------------------------------------------

DEEP = 100_000


def test_deep_json_output_of_a_tool_is_an_envelope():
    """A tool printing 100k-deep JSON: ok false with a clear message, no RecursionError."""
    code = f"import sys; sys.stdout.write('[' * {DEEP} + ']' * {DEEP})"
    envelope = execute(binding_dict("t", PY, {"v": verb([PY, "-c", code], json_sel=[PY])}), "v", {})
    assert envelope == {
        "ok": False,
        "error": "output is JSON nested too deeply (more than about 1,000 levels)",
    }


def test_deep_json_lines_output_is_an_envelope():
    """The JSON-lines path (a stream of documents) too."""
    code = f"import sys; sys.stdout.write('1\\n' + '[' * {DEEP} + ']' * {DEEP})"
    envelope = execute(binding_dict("t", PY, {"v": verb([PY, "-c", code], json_sel=[PY])}), "v", {})
    assert envelope["ok"] is False and "nested too deeply" in envelope["error"]


def test_deep_envelope_on_stdin_is_an_envelope(tmp_path):
    """`wrapgen exec --envelope -` with a 100k-deep envelope: an envelope on stdout, exit 1, no traceback."""
    done = _wrapgen("exec", "--envelope", "-", stdin="[" * DEEP + "]" * DEEP, cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert json.loads(done.stdout) == {
        "ok": False,
        "error": "the envelope is nested too deeply (more than about 1,000 levels)",
    }


def test_deep_args_in_process_are_an_envelope():
    """A host passing 100k-deep args in-process gets an envelope, not a RecursionError."""
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    binding = binding_dict("t", PY, {"v": verb([PY, "-c", "pass", "{{q}}"], args=schema)})
    envelope = execute(binding, "v", {"q": deep})
    assert envelope == {
        "ok": False,
        "error": "args are nested too deeply (more than about 1,000 levels)",
    }


# --- numbers -------------------------------------------------------------------------------------


def test_integral_floats_render_as_integers():
    """1.0 renders as 1 (--max-count=1.0 is an error for git); 1.5 and big numbers keep their JSON form."""
    assert render_argv(["git", "log", "--max-count={{n}}"], {"n": 1.0}) == [
        "git",
        "log",
        "--max-count=1",
    ]
    assert render_argv(["git", "log", "-n", "{{n}}"], {"n": 3.0}) == ["git", "log", "-n", "3"]
    assert render_argv(["t", "{{n}}"], {"n": [2.0, 2.5]}) == ["t", "2", "2.5"]
    assert render_argv(["t", "--n={{n}}"], {"n": 2.5}) == ["t", "--n=2.5"]
    assert render_argv(["t", "--n={{n}}"], {"n": -0.0}) == ["t", "--n=0"]


def test_integral_float_reaches_a_real_tool_as_an_integer(tmp_path):
    """Through execute: the tool's argv holds --max-count=1."""
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    binding = binding_dict(
        "t",
        PY,
        {
            "v": verb(
                [
                    PY,
                    "-c",
                    "import sys, json; print(json.dumps(sys.argv[1:]))",
                    "--max-count={{n}}",
                ],
                json_sel=[],
                args=schema,
            )
        },
    )
    assert execute(binding, "v", {"n": 1.0}) == {"ok": True, "result": '["--max-count=1"]\n'}


# --- pack ids ------------------------------------------------------------------------------------


def test_pack_id_with_a_trailing_newline_is_refused_by_the_schema():
    """The schema's pattern is anchored with \\Z: "nl\\n" breaks it (Python's $ would accept it)."""
    import jsonschema

    from wrapgen.pack.manifest import pack_schema

    schema = pack_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    base = {"description": "x", "bin": "env", "verbs": {"a": {"description": "x"}}}
    assert validator.is_valid({**base, "pack_id": "nl"})
    assert not validator.is_valid({**base, "pack_id": "nl\n"})


def test_pack_id_with_a_trailing_newline_is_refused_by_the_runtime(tmp_path):
    """An envelope or a binding whose pack_id is "t\\n" is refused."""
    pack = write_pack(tmp_path, "t", PY, {"v": verb([PY, "-c", "print(1)"])})
    assert (
        "is not a pack id"
        in execute_envelope({"pack_id": "t\n", "verb_key": "v"}, pack_dir=pack)["error"]
    )
    binding = json.loads((pack / "binding.json").read_text())
    binding["pack_id"] = "t\n"
    (pack / "binding.json").write_text(json.dumps(binding))
    with pytest.raises(Exception, match="no valid pack_id"):
        load_binding(pack)


def test_envelope_pack_id_that_is_a_path_is_refused(tmp_path, monkeypatch):
    """{"pack_id": "../../packs/x"} names no pack: refused, and the pack at that path never runs."""
    marker = tmp_path / "ran"
    write_pack(
        tmp_path / "packs",
        "x",
        PY,
        {"v": verb([PY, "-c", f"open({str(marker)!r}, 'w')"], json_sel=[])},
    )
    cwd = tmp_path / "a" / "b"
    cwd.mkdir(parents=True)
    monkeypatch.chdir(cwd)
    envelope = execute_envelope({"pack_id": "../../packs/x", "verb_key": "v"})
    assert envelope["ok"] is False and "never by a path" in envelope["error"]
    done = _wrapgen(
        "exec",
        "--envelope",
        "-",
        stdin=json.dumps({"pack_id": "../../packs/x", "verb_key": "v"}),
        cwd=cwd,
    )
    assert done.returncode == 1 and "never by a path" in json.loads(done.stdout)["error"]
    assert not marker.exists()


# --- WRAPGEN_PATH before ./adapters (docs/contract.md §14 changed) --------------------------------------------


def test_adapters_of_an_untrusted_cwd_do_not_shadow_wrapgen_path(tmp_path):
    """A ./adapters/<id> planted in the working directory loses to the installed pack on WRAPGEN_PATH."""
    marker = tmp_path / "pwned"
    installed = tmp_path / "installed"
    write_pack(installed, "tool", PY, {"v": verb([PY, "-c", "print('installed')"], json_sel=[])})
    untrusted = tmp_path / "repo"
    write_pack(
        untrusted / "adapters",
        "tool",
        PY,
        {"v": verb([PY, "-c", f"open({str(marker)!r}, 'w'); print('planted')"], json_sel=[])},
    )
    env = {**os.environ, "WRAPGEN_PATH": str(installed)}
    done = _wrapgen("exec", "tool", "v", "--json", cwd=untrusted, env=env)
    assert json.loads(done.stdout) == {"ok": True, "result": "installed\n"}
    assert not marker.exists()


def test_resolve_pack_searches_wrapgen_path_first(tmp_path, monkeypatch):
    """In-process hosts (serve, export) resolve the same way."""
    write_pack(tmp_path / "installed", "tool", PY, {"v": verb(["true"])})
    write_pack(tmp_path / "repo" / "adapters", "tool", PY, {"v": verb(["true"])})
    monkeypatch.setenv("WRAPGEN_PATH", str(tmp_path / "installed"))
    assert resolve_pack("tool", cwd=tmp_path / "repo") == tmp_path / "installed" / "tool"


# --- adapter.py never imports from its own directory ----------------------------------------------

PLAIN_YAML = """\
pack_id: plain
description: Prints one word.
bin: {py}
verbs:
  hello:
    description: Print hello.
    cli: [{py}, -c, "print('hello')"]
    json: false
    policy: {{effect: read}}
"""


def test_adapter_py_ignores_a_wrapgen_package_planted_beside_it(tmp_path):
    """A wrapgen/ package (and a pathlib.py) planted in the pack directory is never imported by adapter.py."""
    text = PLAIN_YAML.format(py=PY)
    pack = tmp_path / "plain"
    pack.mkdir()
    (pack / "pack.yaml").write_text(text)
    write_files(pack, render_pack_files(text.encode()))
    marker = tmp_path / "pwned"
    planted = pack / "wrapgen"
    (planted / "runtime").mkdir(parents=True)
    payload = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    (planted / "__init__.py").write_text(payload)
    (planted / "runtime" / "__init__.py").write_text(
        payload + "def exec_main(*a, **k):\n    print('planted'); return 0\n"
    )
    (pack / "pathlib.py").write_text(payload)
    done = subprocess.run(
        [PY, str(pack / "adapter.py"), "hello", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert json.loads(done.stdout) == {"ok": True, "result": "hello\n"}, done.stderr
    assert not marker.exists(), marker.read_text()


# --- response files ('@FILE') ----------------------------------------------------------------------

ARGPARSE_TOOL = """\
import argparse, json
parser = argparse.ArgumentParser(fromfile_prefix_chars="@")
parser.add_argument("--delete-everything", action="store_true")
parser.add_argument("name", nargs="?")
print(json.dumps(vars(parser.parse_args())))
"""


def _argparse_pack(tmp_path: Path, response_files: bool) -> dict:
    script = tmp_path / "tool.py"
    script.write_text(ARGPARSE_TOOL)
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    binding = binding_dict(
        "af", PY, {"show": verb([PY, str(script), "{{name}}"], json_sel=[], args=schema)}
    )
    binding["response_files"] = response_files
    return binding


def test_at_file_smuggles_options_into_a_response_file_tool(tmp_path):
    """Why the rule exists: without it, '@FILE' makes argparse read --delete-everything from the file."""
    (tmp_path / "args").write_text("--delete-everything\n")
    binding = _argparse_pack(tmp_path, False)
    envelope = execute(binding, "show", {"name": f"@{tmp_path / 'args'}"}, cwd=tmp_path)
    assert json.loads(envelope["result"])["delete_everything"] is True


def test_at_file_is_refused_for_a_response_file_tool(tmp_path):
    """With response_files: true in the binding, an '@' value is refused before anything runs."""
    (tmp_path / "args").write_text("--delete-everything\n")
    binding = _argparse_pack(tmp_path, True)
    envelope = execute(binding, "show", {"name": f"@{tmp_path / 'args'}"})
    assert envelope["ok"] is False and envelope["error"].startswith(
        "response file refused: arg 'name'"
    )
    assert json.loads(execute(binding, "show", {"name": "plain"}, cwd=tmp_path)["result"]) == {
        "delete_everything": False,
        "name": "plain",
    }


def test_response_files_flag_comes_from_pack_yaml():
    """pack.yaml's response_files: true reaches binding.json; its absence is false."""
    text = PLAIN_YAML.format(py=PY)
    assert json.loads(render_pack_files(text.encode())["binding.json"])["response_files"] is False
    with_flag = text.replace("verbs:\n", "response_files: true\nverbs:\n")
    assert (
        json.loads(render_pack_files(with_flag.encode())["binding.json"])["response_files"] is True
    )


# --- exec never hangs ------------------------------------------------------------------------------


def test_envelope_read_is_bounded_in_time(monkeypatch):
    """A stdin that never sends end of file: the read gives up after ENVELOPE_TIMEOUT_S with a usage error."""
    from wrapgen.errors import UsageError

    monkeypatch.setattr(runtime_main, "ENVELOPE_TIMEOUT_S", 0.5)
    read, write = os.pipe()
    try:
        os.write(write, b'{"pack_id": ')
        with pytest.raises(UsageError, match="no complete envelope"):
            finishes(runtime_main._read_bounded, read, what="stdin")
    finally:
        os.close(read)
        os.close(write)


def test_adapter_py_with_a_terminal_stdin_does_not_wait(tmp_path):
    """adapter.py with no arguments and a terminal on stdin: a usage error at once, not a wait for input."""
    text = PLAIN_YAML.format(py=PY)
    pack = tmp_path / "plain"
    pack.mkdir()
    (pack / "pack.yaml").write_text(text)
    write_files(pack, render_pack_files(text.encode()))
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [PY, str(pack / "adapter.py")], stdin=slave, capture_output=True, text=True, timeout=30
        )
    finally:
        os.close(master)
        os.close(slave)
    assert done.returncode == 2 and "no envelope: stdin is a terminal" in done.stderr


def test_envelope_from_a_fifo_without_writer_does_not_hang(tmp_path, monkeypatch):
    """`--envelope FIFO` with nobody writing: the open does not block and the read gives up in time."""
    from wrapgen.errors import UsageError

    monkeypatch.setattr(runtime_main, "ENVELOPE_TIMEOUT_S", 0.5)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="no complete envelope on .*fifo within 0.5 s"):
        finishes(runtime_main._read_envelope, str(fifo))


def test_a_fifo_planted_as_pack_yaml_does_not_hang(tmp_path):
    """A pack directory whose pack.yaml is a FIFO is refused at once (opening it would block)."""
    pack = tmp_path / "adapters" / "trap"
    pack.mkdir(parents=True)
    os.mkfifo(pack / "pack.yaml")
    (pack / "binding.json").write_text("{}")
    done = _wrapgen("exec", str(pack), "v", "--json", cwd=tmp_path, timeout=60)
    assert done.returncode == 1 and "pack.yaml" in json.loads(done.stdout)["error"]


CATASTROPHIC = {"type": "object", "properties": {"name": {"type": "string", "pattern": "^(a+)+$"}}}


def test_catastrophic_pattern_is_stopped_with_a_clear_error():
    """^(a+)+$ against 'aaaa...b' would run for ages; the check is stopped after about 1 s."""
    binding = binding_dict(
        "t", PY, {"v": verb([PY, "-c", "print(1)", "{{name}}"], args=CATASTROPHIC)}
    )
    envelope = execute(binding, "v", {"name": "a" * 60 + "b"})
    assert (
        envelope["ok"] is False
        and "took longer than 1 s" in envelope["error"]
        and "backtracks catastrophically" in envelope["error"]
    )
    assert execute(binding, "v", {"name": "aaa"}) == {"ok": True, "result": 1}
    assert "does not match" in execute(binding, "v", {"name": "aab"})["error"]


def test_catastrophic_pattern_does_not_freeze_other_calls(monkeypatch):
    """While one call's pattern check runs away, another thread's call completes (no GIL freeze):
    the runaway's check (given all the time it wants here) is still running when the other call has
    its answer, and is then stopped by the test."""
    import functools
    import signal

    from wrapgen.runtime import schema

    runaway_checks = []
    fork = os.fork

    def recorded_fork():
        pid = fork()
        if pid and threading.current_thread().name == "runaway":
            runaway_checks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded_fork)
    monkeypatch.setattr(
        schema, "pattern_search", functools.partial(schema.pattern_search, timeout_s=HANG_S)
    )
    slow = binding_dict("t", PY, {"v": verb([PY, "-c", "print(1)", "{{name}}"], args=CATASTROPHIC)})
    fast = binding_dict(
        "f", sys.executable, {"v": verb([sys.executable, "-c", "print('hi')"], json_sel=[])}
    )
    answers = []
    runaway = threading.Thread(
        target=lambda: answers.append(execute(slow, "v", {"name": "a" * 60 + "b"})),
        name="runaway",
    )
    runaway.start()
    try:
        wait_until(lambda: runaway_checks, what="the runaway's pattern check to start")
        assert execute(fast, "v", {}) == {"ok": True, "result": "hi\n"}
        assert runaway.is_alive(), "the other call waited for the runaway pattern check"
    finally:
        for pid in runaway_checks:
            os.kill(pid, signal.SIGKILL)
        runaway.join()
    assert answers[0]["ok"] is False and "pattern" in answers[0]["error"]


def test_simple_patterns_are_still_checked_inline():
    """The common one-repeat patterns are matched in-process (no fork), with the same answers."""
    from wrapgen.runtime.schema import _simple_pattern, pattern_search

    assert (
        _simple_pattern(r"^[a-z][a-z0-9-]*$")
        and not _simple_pattern(r"^(a+)+$")
        and not _simple_pattern(r"(\w)\1")
    )
    assert pattern_search(r"^[a-z][a-z0-9-]*$", "git") is True
    assert pattern_search(r"^[a-z][a-z0-9-]*$", "Git") is False
    assert (
        pattern_search(r"^(\d+\.)*\d+$", "1.2.3") is True
        and pattern_search(r"^(\d+\.)*\d+$", "1..2") is False
    )
