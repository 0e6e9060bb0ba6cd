"""execute(): args -> argv -> process -> envelope (docs/contract.md §8, §9), against real processes (Python snippets as the
tool); the cases that run real tools (git, jq, head) are in tests/live/test_runtime_execute_live.py."""

from __future__ import annotations

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from packs_runtime.packtools import binding_of as _pack
from packs_runtime.packtools import verb, write_pack

from wrapgen.runtime import execute, execute_envelope

PY = sys.executable


def _py(code, **kwargs):
    """A verb that runs a Python snippet as the tool."""
    return verb([PY, "-c", code], **kwargs)


def _run(code, args=None, **kwargs):
    return execute(_pack({"v": _py(code, **kwargs)}), "v", args or {})


# --- results ----------------------------------------------------------------------------------


def test_json_result_is_parsed():
    """Exit 0 with JSON selected: the parsed document is the result."""
    binding = _pack(
        {
            "v": verb(
                [PY, "-c", "import sys; print('{\"a\": [1, 2]}'); assert sys.argv[-1] == '--json'"]
            )
        }
    )
    assert execute(binding, "v", {}) == {"ok": True, "result": {"a": [1, 2]}}


def test_json_lines_become_a_list():
    """JSON lines (or any stream of JSON values) become a list."""
    assert _run("print('{\"a\": 1}'); print('{\"a\": 2}'); print('3')") == {
        "ok": True,
        "result": [{"a": 1}, {"a": 2}, 3],
    }


def test_empty_output_is_null():
    """Empty output with JSON selected gives result null."""
    assert _run("pass") == {"ok": True, "result": None}


def test_output_not_json():
    """Output that is not JSON is an error quoting its first 200 characters."""
    envelope = _run("print('hello ' * 100)")
    assert envelope["ok"] is False
    assert envelope["error"].startswith("output is not JSON: hello hello")
    assert len(envelope["error"]) == len("output is not JSON: ") + 200


def test_text_result_when_json_false():
    """json false: the result is stdout as text, and no JSON flag is appended."""
    envelope = _run("import sys; print(sys.argv[1:])", json_sel=[])
    assert envelope == {"ok": True, "result": "[]\n"}


def test_invalid_utf8_is_replaced():
    """Invalid UTF-8 on stdout becomes U+FFFD, never an exception."""
    envelope = _run("import sys; sys.stdout.buffer.write(b'ok \\xff\\xfe end')", json_sel=[])
    assert envelope == {"ok": True, "result": "ok \ufffd\ufffd end"}


def test_env_for_the_tool():
    """The tool sees NO_COLOR=1 PAGER=cat GIT_PAGER=cat TERM=dumb, and (docs/contract.md §8 changed 2026-12-01) of
    the caller's environment only the allowlist: a variable the pack does not pass stays behind."""
    code = "import os, json; print(json.dumps({k: os.environ.get(k) for k in ('NO_COLOR', 'PAGER', 'GIT_PAGER', 'TERM', 'WG_CALLER')}))"
    envelope = execute(
        _pack({"v": _py(code)}), "v", {}, env={**os.environ, "WG_CALLER": "yes", "TERM": "xterm"}
    )
    assert envelope["result"] == {
        "NO_COLOR": "1",
        "PAGER": "cat",
        "GIT_PAGER": "cat",
        "TERM": "dumb",
        "WG_CALLER": None,
    }


def test_stdin_is_empty():
    """The tool's stdin is /dev/null: reading it gives nothing at once."""
    assert _run("import sys; print(repr(sys.stdin.read()))", json_sel=[]) == {
        "ok": True,
        "result": "''\n",
    }


def test_no_ansi_escape_reaches_a_text_result():
    """A tool that colours its output whatever NO_COLOR says: the result is the plain text."""
    code = "print('\\x1b[32m+ create\\x1b[0m resource \\x1b[1mweb\\x1b[0m')"
    envelope = _run(code, json_sel=[])
    assert envelope == {"ok": True, "result": "+ create resource web\n"}


def test_no_ansi_escape_reaches_a_json_result():
    """Escapes inside the strings of a JSON document (a tool's coloured messages) are taken out;
    the document is otherwise as printed."""
    doc = r'{"@message": "\u001b[32mApply complete\u001b[0m", "n": [1, "\u001b[1mx"]}'
    envelope = _run(f"print({doc!r})")
    assert envelope == {"ok": True, "result": {"@message": "Apply complete", "n": [1, "x"]}}


# --- failures of the tool ----------------------------------------------------------------------


def test_nonzero_exit_gives_stderr_without_ansi():
    """Non-zero exit: stderr, ANSI stripped and trimmed, is the error."""
    envelope = _run(
        "import sys; sys.stderr.write('\\n  \\x1b[31mfatal:\\x1b[0m bad thing\\x1b]8;;http://x\\x07 \\n'); sys.exit(2)"
    )
    assert envelope == {"ok": False, "error": "fatal: bad thing", "exit_code": 2}


def test_nonzero_exit_keeps_last_4000_chars():
    """A long stderr is cut to its last 4,000 characters."""
    envelope = _run("import sys; sys.stderr.write('a' * 5000 + 'END'); sys.exit(1)")
    assert len(envelope["error"]) == 4000 and envelope["error"].endswith("END")


def test_nonzero_exit_without_stderr():
    """Empty stderr gives "exit N"; what the tool printed on stdout stays as output."""
    assert _run("import sys; print('out'); sys.exit(3)") == {
        "ok": False,
        "error": "exit 3",
        "exit_code": 3,
        "output": "out\n",
    }


def test_killed_by_signal():
    """A tool killed by a signal says which."""
    assert _run("import os, signal; os.kill(os.getpid(), signal.SIGKILL)") == {
        "ok": False,
        "error": "killed by signal 9 (SIGKILL)",
    }


def test_timeout_uses_the_verb_timeout():
    """A hanging tool ends at the verb's timeout_s, said in whole seconds."""
    assert _run("import time; time.sleep(60)", timeout_s=1) == {
        "ok": False,
        "error": "timed out after 1 s",
    }


def test_output_cap_is_configurable():
    """A smaller cap is named in the error."""
    binding = _pack({"v": _py("print('x' * 5000)", json_sel=[])})
    assert execute(binding, "v", {}, output_cap=1024) == {
        "ok": False,
        "error": "output exceeded 1 KiB",
    }


def test_missing_binary():
    """A bin that is not installed: cannot run X: not found."""
    binding = _pack({"v": verb(["wrapgen-no-such-tool", "x"])}, bin="wrapgen-no-such-tool")
    assert execute(binding, "v", {}) == {
        "ok": False,
        "error": "cannot run wrapgen-no-such-tool: not found",
    }


def test_not_executable(tmp_path):
    """A bin without the execute bit: cannot run X: not executable."""
    tool = tmp_path / "tool"
    tool.write_text("#!/bin/sh\necho hi\n")
    binding = _pack({"v": verb([str(tool)])}, bin=str(tool))
    assert execute(binding, "v", {}) == {"ok": False, "error": f"cannot run {tool}: not executable"}


# --- refusals before the spawn ---------------------------------------------------------------------


def _touching(tmp_path, argv_tail, **kwargs):
    marker = tmp_path / "ran"
    return marker, verb(
        [PY, "-c", f"open({str(marker)!r}, 'w').close()", *argv_tail], json_sel=[], **kwargs
    )


def test_unknown_verb_lists_valid_ones():
    """An unknown verb is an envelope naming the valid verbs."""
    envelope = execute(_pack({"log": _py("pass"), "status": _py("pass")}), "stats", {})
    assert envelope["ok"] is False
    assert "unknown verb 'stats'" in envelope["error"] and "status" in envelope["error"]


def test_bad_args_are_named(tmp_path):
    """Args of the wrong type, unknown args and missing required ones are named; nothing runs."""
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 1}},
        "required": ["n"],
        "additionalProperties": False,
    }
    marker, v = _touching(tmp_path, [], args=schema)
    binding = _pack({"v": v})
    wrong = execute(binding, "v", {"n": "3", "x": 1})
    assert (
        wrong["ok"] is False
        and "n: expected integer" in wrong["error"]
        and "x: unknown argument" in wrong["error"]
    )
    assert "n: required" in execute(binding, "v", {})["error"]
    assert "at least 1" in execute(binding, "v", {"n": 0})["error"]
    assert not marker.exists()


def test_option_injection_refused(tmp_path):
    """A dashed value in a positional slot is refused with a fix; nothing runs."""
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    marker, v = _touching(tmp_path, ["{{q}}"], args=schema)
    envelope = execute(_pack({"v": v}), "v", {"q": "--output=/etc/passwd"})
    assert (
        envelope["ok"] is False
        and "option injection refused" in envelope["error"]
        and "'q'" in envelope["error"]
    )
    assert "does not start with '-'" in envelope["error"]
    assert not marker.exists()


def test_nul_refused(tmp_path):
    """A value with NUL is an envelope naming the arg; nothing runs."""
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    marker, v = _touching(tmp_path, ["--q={{q}}"], args=schema)
    envelope = execute(_pack({"v": v}), "v", {"q": "a\0b"})
    assert envelope["ok"] is False and "NUL" in envelope["error"] and "'q'" in envelope["error"]
    assert not marker.exists()


def test_confirm_gate(tmp_path):
    """A write verb runs only with confirm=true or apply=true (docs/contract.md §9)."""
    marker, v = _touching(tmp_path, [], effect="write")
    binding = _pack({"v": v})
    assert execute(binding, "v", {}, cwd=tmp_path) == {
        "ok": False,
        "error": "confirmation required: pass confirm=true",
    }
    assert execute(binding, "v", {"confirm": False}, cwd=tmp_path) == {
        "ok": False,
        "error": "confirmation required: pass confirm=true",
    }
    assert not marker.exists()
    done = execute(binding, "v", {"confirm": True}, cwd=tmp_path)  # (a write: its cwd is writable)
    assert done["ok"] is True and marker.exists()
    marker.unlink()
    assert execute(binding, "v", {"apply": True}, cwd=tmp_path)["ok"] is True and marker.exists()


def test_confirm_reaches_the_tool_only_when_cli_names_it():
    """confirm is accepted though the schema omits it, and is not passed unless cli[] has a slot."""
    plain = _py("import sys; print(sys.argv[1:])", json_sel=[], effect="destructive")
    named = verb(
        [PY, "-c", "import sys; print(sys.argv[1:])", "--yes", "{{confirm}}"],
        json_sel=[],
        effect="destructive",
    )
    binding = _pack({"plain": plain, "named": named})
    assert execute(binding, "plain", {"confirm": True}) == {"ok": True, "result": "[]\n"}
    assert execute(binding, "named", {"confirm": True}) == {"ok": True, "result": "['--yes']\n"}


def test_defaults_are_applied():
    """A missing arg with a schema default renders with the default."""
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 7}}}
    binding = _pack(
        {
            "v": verb(
                [PY, "-c", "import sys; print(sys.argv[1:])", "--n={{n}}"], json_sel=[], args=schema
            )
        }
    )
    assert execute(binding, "v", {}) == {"ok": True, "result": "['--n=7']\n"}


# --- packs on disk --------------------------------------------------------------------------------


def test_stale_binding_refused(tmp_path):
    """pack.yaml edited after the build: refused with the build command to run."""
    directory = write_pack(tmp_path, "t", PY, {"v": _py("pass")})
    assert execute(directory, "v", {}) == {"ok": True, "result": None}
    with open(directory / "pack.yaml", "a") as handle:
        handle.write("# edited\n")
    envelope = execute(directory, "v", {})
    assert envelope["ok"] is False
    assert envelope["error"].startswith(
        f"binding.json is out of date: run wrapgen build {directory}"
    )


def test_missing_binding_refused(tmp_path):
    """No binding.json: the same refusal."""
    directory = write_pack(tmp_path, "t", PY, {"v": _py("pass")})
    (directory / "binding.json").unlink()
    assert execute(directory, "v", {})["error"].startswith(
        "binding.json is out of date: run wrapgen build"
    )


def test_pack_id_found_in_adapters_and_wrapgen_path(tmp_path, monkeypatch):
    """A pack_id resolves in each WRAPGEN_PATH directory first, then in ./adapters (docs/contract.md §14 changed 2026-12-01)."""
    write_pack(tmp_path / "adapters", "t", PY, {"v": _py("print(1)")})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WRAPGEN_PATH", str(tmp_path / "empty"))
    assert execute("t", "v", {}) == {"ok": True, "result": 1}
    write_pack(tmp_path / "elsewhere", "t", PY, {"v": _py("print(2)")})
    monkeypatch.setenv(
        "WRAPGEN_PATH", os.pathsep.join([str(tmp_path / "empty"), str(tmp_path / "elsewhere")])
    )
    assert execute("t", "v", {}) == {"ok": True, "result": 2}
    assert "no pack 'nope'" in execute("nope", "v", {})["error"]


def test_execute_envelope(tmp_path):
    """A whole envelope runs; a pack_id not served by the given adapter dir is refused."""
    directory = write_pack(tmp_path, "t", PY, {"v": _py("print(5)")})
    assert execute_envelope({"pack_id": "t", "verb_key": "v", "args": {}}, pack_dir=directory) == {
        "ok": True,
        "result": 5,
    }
    assert (
        "not 'other'"
        in execute_envelope({"pack_id": "other", "verb_key": "v"}, pack_dir=directory)["error"]
    )
    assert (
        "unknown envelope field"
        in execute_envelope({"pack_id": "t", "verb_key": "v", "argz": {}}, pack_dir=directory)[
            "error"
        ]
    )
    assert execute_envelope([1], pack_dir=directory)["ok"] is False


_junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text()),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=5), st.none(), st.integers()), _junk)
def test_nothing_raises(verb_key, args):
    """Whatever the verb key and args, execute returns an envelope and never raises."""
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}
    binding = _pack(
        {"v": verb(["true", "--", "{{q}}", "{{n}}"], json_sel=[], args=schema)}, bin="true"
    )
    envelope = execute(binding, verb_key, args)
    assert set(envelope) in ({"ok", "result"}, {"ok", "error"})


# --- cancelling, the pack hash, finding a pack by id ----------------------------------------------


def test_cancelled_call_is_an_envelope():
    """execute(cancel=event) answers "cancelled" once the event is set."""
    import threading

    cancel = threading.Event()
    cancel.set()
    assert execute(_pack({"v": _py("import time; time.sleep(30)")}), "v", {}, cancel=cancel) == {
        "ok": False,
        "error": "cancelled",
    }


def test_pack_sha256_matches_hashlib():
    """The builtin sha256 the runtime uses gives hashlib's digest (what build records)."""
    import hashlib

    from wrapgen.runtime import pack_sha256

    for data in (b"", b"pack_id: x\n", bytes(range(256)) * 100):
        assert pack_sha256(data) == hashlib.sha256(data).hexdigest()


def test_bare_pack_id_skips_a_non_pack_directory(tmp_path, monkeypatch):
    """A directory named like the pack in cwd, without pack files, does not hide ./adapters/<id>."""
    write_pack(tmp_path / "adapters", "t", PY, {"v": _py("print(3)")})
    (tmp_path / "t").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WRAPGEN_PATH", raising=False)
    assert execute("t", "v", {}) == {"ok": True, "result": 3}
