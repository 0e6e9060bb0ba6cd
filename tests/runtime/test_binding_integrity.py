"""Issue 12, "what runs is not what was reviewed": a binding.json edited after it was built (pack.yaml's
sha kept) is refused by ``wrapgen exec`` and ``adapter.py``; an untouched pack runs whether its trusted
stamp is there or not, corrupt, or cannot be written (docs/runtime.md, docs/contract.md §2).

The tool is this Python interpreter; every test has a cache directory of its own (WRAPGEN_CACHE_DIR).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wrapgen.pack.build import build_pack
from wrapgen.runtime import binding as binding_module
from wrapgen.runtime import execute, execute_envelope, load_binding
from wrapgen.runtime.binding import BindingError, cache_dir, read_stamp, stamp_path, write_stamp

PY = sys.executable
MISMATCH = "binding.json does not match pack.yaml: run wrapgen build"
HELLO = {"ok": True, "result": "hello\n"}

PACK_YAML = """\
pack_id: py
description: A pack whose tool is Python.
bin: {py}
verbs:
  hello:
    description: Say hello.
    cli: [{py}, -c, "print('hello')"]
    json: false
    policy: {{effect: read}}
  touch:
    description: Create the marker file.
    cli: [{py}, -c, "import sys; open(sys.argv[1], 'w').write('written')", "{{{{path}}}}"]
    json: false
    args:
      type: object
      properties:
        path: {{type: string}}
      required: [path]
      additionalProperties: false
    policy: {{effect: write}}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    directory = tmp_path / "cache"
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(directory))
    return directory


def _pack(root: Path, *, build: bool = True) -> Path:
    """``root/py`` with pack.yaml and its derived files; ``build=False`` writes them without a stamp."""
    pack = root / "py"
    pack.mkdir(parents=True)
    text = PACK_YAML.format(py=PY)
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    if build:
        build_pack(pack)
    else:
        from wrapgen.pack.build import render_pack_files

        for name, body in render_pack_files(text.encode("utf-8")).items():
            (pack / name).write_text(body, encoding="utf-8")
        (pack / "adapter.py").chmod(0o755)
    return pack


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pack_sha(pack: Path) -> str:
    return _sha(pack / "pack.yaml")


def _edit(pack: Path, change) -> None:
    """The attack: edit binding.json, keep its pack_sha256 (so the old staleness check passes)."""
    binding = json.loads((pack / "binding.json").read_text(encoding="utf-8"))
    change(binding)
    (pack / "binding.json").write_text(
        json.dumps(binding, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )


def _argv_to_marker(marker: Path):
    def change(binding):
        binding["verbs"]["hello"]["argv"] = [PY, "-c", f"open({str(marker)!r}, 'w'); print(1)"]

    return change


def _write_made_read(binding):
    binding["verbs"]["touch"]["policy"] = {"effect": "read", "confirm": False, "declared": True}


def _wrapgen(*args, cwd, env=None):
    return subprocess.run(
        [PY, "-m", "wrapgen", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ if env is None else env),
        timeout=120,
    )


def _adapter(pack: Path, *args, cwd):
    return subprocess.run(
        [PY, str(pack / "adapter.py"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ),
        timeout=120,
    )


def _count_derivations(monkeypatch) -> list:
    calls = []
    real = binding_module.derive_binding_sha256

    def counting(pack_dir, **kwargs):
        calls.append(pack_dir)
        return real(pack_dir, **kwargs)

    monkeypatch.setattr(binding_module, "derive_binding_sha256", counting)
    return calls


# --- the attack ------------------------------------------------------------------------------------


def test_changed_argv_is_refused_in_process(tmp_path, cache):
    """argv of a read verb pointed at another program, sha kept: refused, nothing spawned."""
    marker = tmp_path / "pwned"
    pack = _pack(tmp_path)
    assert execute(pack, "hello") == HELLO
    _edit(pack, _argv_to_marker(marker))
    envelope = execute(pack, "hello")
    assert (
        envelope["ok"] is False and MISMATCH in envelope["error"] and str(pack) in envelope["error"]
    )
    assert (
        execute_envelope({"pack_id": "py", "verb_key": "hello"}, pack_dir=pack)["error"]
        == envelope["error"]
    )
    with pytest.raises(BindingError, match="does not match pack.yaml"):
        load_binding(pack)
    assert not marker.exists()


def test_write_verb_made_read_is_refused_in_process(tmp_path, cache):
    """policy of a write verb changed to read (no confirm): refused for the mismatch, not run."""
    marker = tmp_path / "written"
    pack = _pack(tmp_path)
    gated = execute(pack, "touch", {"path": str(marker)})
    assert gated["ok"] is False and "confirm" in gated["error"] and not marker.exists()
    _edit(pack, _write_made_read)
    envelope = execute(pack, "touch", {"path": str(marker)})
    assert envelope["ok"] is False and MISMATCH in envelope["error"]
    assert not marker.exists()


def test_tampered_binding_is_refused_by_wrapgen_exec_as_a_process(tmp_path, cache):
    marker = tmp_path / "pwned"
    pack = _pack(tmp_path)
    _edit(pack, _argv_to_marker(marker))
    done = _wrapgen("exec", str(pack), "hello", "--json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert MISMATCH in json.loads(done.stdout)["error"] and "Traceback" not in done.stderr
    env = {**os.environ, "WRAPGEN_PATH": str(tmp_path)}  # an envelope naming the pack by its id
    done = subprocess.run(
        [PY, "-m", "wrapgen", "exec", "--envelope", "-"],
        input='{"pack_id": "py", "verb_key": "hello"}',
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1 and MISMATCH in json.loads(done.stdout)["error"]
    assert not marker.exists()


def test_tampered_binding_is_refused_by_adapter_py(tmp_path, cache):
    """The pack's own adapter.py, run as a process: both changes are refused, nothing runs."""
    marker, written = tmp_path / "pwned", tmp_path / "written"
    pack = _pack(tmp_path)
    _edit(pack, _argv_to_marker(marker))
    _edit(pack, _write_made_read)
    for args in (["hello", "--json"], ["touch", "--json", "--", f"path={written}"]):
        done = _adapter(pack, *args, cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert MISMATCH in json.loads(done.stdout)["error"] and "Traceback" not in done.stderr
    assert not marker.exists() and not written.exists()


def test_tampered_binding_is_refused_without_any_stamp(tmp_path, cache):
    """Edited before its first call (no stamp yet): the derivation refuses it, and stamps nothing for it."""
    marker = tmp_path / "pwned"
    pack = _pack(tmp_path, build=False)
    _edit(pack, _argv_to_marker(marker))
    assert MISMATCH in execute(pack, "hello")["error"]
    assert read_stamp(_pack_sha(pack)) is None
    assert not marker.exists()


def test_a_forged_wrapgen_version_does_not_hide_a_change(tmp_path, cache):
    """A binding claiming another wrapgen version runs when the rest is what pack.yaml derives to;
    with a changed argv as well it is refused."""
    marker = tmp_path / "pwned"
    pack = _pack(tmp_path, build=False)
    _edit(pack, lambda b: b.update(wrapgen_version="0.0.9"))
    assert execute(pack, "hello") == HELLO
    _edit(pack, _argv_to_marker(marker))
    assert MISMATCH in execute(pack, "hello")["error"]
    assert not marker.exists()


def test_a_wrapgen_package_planted_in_the_pack_or_cwd_does_not_derive(tmp_path, cache, monkeypatch):
    """The derive process imports the installed wrapgen, never one in the pack directory or the cwd
    (which could print whatever sha the tampered binding has)."""
    marker, planted_ran = tmp_path / "pwned", tmp_path / "planted-ran"
    pack = _pack(tmp_path, build=False)
    _edit(pack, _argv_to_marker(marker))
    fake_sha = _sha(pack / "binding.json")
    for where in (pack, tmp_path / "cwd"):
        fake = where / "wrapgen" / "pack"
        fake.mkdir(parents=True)
        (where / "wrapgen" / "__init__.py").write_text(
            f"open({str(planted_ran)!r}, 'w')\n__version__ = '0.1.0'\n"
        )
        (fake / "__init__.py").write_text("")
        (fake / "derive.py").write_text(f"print({fake_sha!r})\n")
    monkeypatch.chdir(tmp_path / "cwd")
    assert MISMATCH in execute(pack, "hello")["error"]
    done = _adapter(pack, "hello", "--json", cwd=tmp_path / "cwd")
    assert done.returncode == 1 and MISMATCH in json.loads(done.stdout)["error"]
    assert not marker.exists() and not planted_ran.exists()


# --- an untouched pack runs ------------------------------------------------------------------------


def test_build_writes_the_stamp_and_a_hit_derives_nothing(tmp_path, cache, monkeypatch):
    pack = _pack(tmp_path)
    stamp = stamp_path(_pack_sha(pack))
    assert stamp.parent == cache / "trusted"
    assert stamp.name == f"{_pack_sha(pack)}-{binding_module.__version__}"
    assert stamp.read_text() == _sha(pack / "binding.json") + "\n"
    calls = _count_derivations(monkeypatch)
    assert execute(pack, "hello") == HELLO
    assert calls == []


def test_build_check_writes_no_stamp(tmp_path, cache):
    pack = _pack(tmp_path, build=False)
    assert build_pack(pack, check=True) == []
    assert not (cache / "trusted").exists()
    assert build_pack(pack) == []  # up to date: nothing rewritten, but the stamp is recorded
    assert read_stamp(_pack_sha(pack)) == _sha(pack / "binding.json")


def test_a_stamp_miss_derives_once_then_hits(tmp_path, cache, monkeypatch):
    pack = _pack(tmp_path, build=False)
    assert read_stamp(_pack_sha(pack)) is None
    calls = _count_derivations(monkeypatch)
    assert execute(pack, "hello") == HELLO
    assert len(calls) == 1
    assert read_stamp(_pack_sha(pack)) == _sha(pack / "binding.json")
    assert execute(pack, "hello")["ok"] is True
    assert len(calls) == 1


def test_a_stamp_miss_runs_through_wrapgen_exec_and_adapter_py(tmp_path, cache):
    pack = _pack(tmp_path, build=False)
    done = _adapter(pack, "hello", "--json", cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout) == HELLO, done.stderr
    assert read_stamp(_pack_sha(pack)) == _sha(pack / "binding.json")
    done = _wrapgen("exec", str(pack), "hello", "--json", cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["ok"] is True


def test_a_corrupt_stamp_is_a_miss_and_is_rewritten(tmp_path, cache, monkeypatch):
    pack = _pack(tmp_path)
    stamp = stamp_path(_pack_sha(pack))
    calls = _count_derivations(monkeypatch)
    for garbage in (b"not a sha\n", b"\xff\xfe" * 40, b"", b"0" * 63):
        stamp.write_bytes(garbage)
        assert execute(pack, "hello")["ok"] is True
        assert stamp.read_text() == _sha(pack / "binding.json") + "\n"
    assert len(calls) == 4
    stamp.unlink()
    stamp.mkdir()  # not a regular file either: a miss, and the rename over it fails quietly
    assert execute(pack, "hello")["ok"] is True


def test_a_stamp_for_another_binding_is_checked_again(tmp_path, cache):
    """A stamp naming another sha (an older build) does not refuse a binding that derives correctly."""
    pack = _pack(tmp_path)
    write_stamp(_pack_sha(pack), "0" * 64)
    assert execute(pack, "hello")["ok"] is True
    assert read_stamp(_pack_sha(pack)) == _sha(pack / "binding.json")


def test_an_unwritable_cache_derives_each_time(tmp_path, monkeypatch):
    """A cache directory that cannot be made (a file stands in its place): every call derives, and runs;
    a tampered binding is still refused."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(blocker / "cache"))
    pack = _pack(tmp_path)  # build cannot stamp: it still builds
    calls = _count_derivations(monkeypatch)
    assert execute(pack, "hello")["ok"] is True
    assert execute(pack, "hello")["ok"] is True
    assert len(calls) == 2
    assert write_stamp(_pack_sha(pack), _sha(pack / "binding.json")) is False
    marker = tmp_path / "pwned"
    _edit(pack, _argv_to_marker(marker))
    assert MISMATCH in execute(pack, "hello")["error"] and not marker.exists()


# --- when the binding cannot be derived -----------------------------------------------------------


def test_an_invalid_pack_yaml_is_a_clear_envelope(tmp_path, cache):
    """pack.yaml that is no manifest, with a binding that records its sha: refused, saying why, no traceback."""
    marker = tmp_path / "pwned"
    pack = tmp_path / "bad"
    pack.mkdir()
    (pack / "pack.yaml").write_text("pack_id: bad\nverbs: 3\n")
    (pack / "binding.json").write_text(
        json.dumps(
            {
                "binding_version": 1,
                "pack_id": "bad",
                "pack_sha256": _pack_sha(pack),
                "bin": PY,
                "verbs": {
                    "v": {
                        "argv": [PY, "-c", f"open({str(marker)!r}, 'w')"],
                        "json": [],
                        "args": {},
                        "policy": {"effect": "read", "confirm": False, "declared": True},
                    }
                },
            }
        )
    )
    envelope = execute(pack, "v")
    assert envelope["ok"] is False
    assert (
        "cannot check binding.json against pack.yaml" in envelope["error"]
        and "not a valid pack manifest" in envelope["error"]
    )
    assert "wrapgen check" in envelope["error"]
    done = _wrapgen("exec", str(pack), "v", cwd=tmp_path)
    assert done.returncode == 1 and "not a valid pack manifest" in json.loads(done.stdout)["error"]
    assert "Traceback" not in done.stderr + done.stdout
    assert not marker.exists()
    assert read_stamp(_pack_sha(pack)) is None


def test_wrapgen_not_importable_by_the_derive_process_is_a_clear_envelope(
    tmp_path, cache, monkeypatch
):
    pack = _pack(tmp_path, build=False)
    monkeypatch.setattr(binding_module, "DERIVE_MODULE", "wrapgen.pack.no_such_module")
    envelope = execute(pack, "hello")
    assert (
        envelope["ok"] is False
        and "cannot check binding.json against pack.yaml" in envelope["error"]
    )
    assert "No module named" in envelope["error"] and "Traceback" not in envelope["error"]


def test_a_derive_process_that_hangs_is_stopped(tmp_path, cache, monkeypatch):
    slow = tmp_path / "slowpath"
    slow.mkdir()
    (slow / "slowderive.py").write_text("import time\ntime.sleep(60)\n")
    monkeypatch.setenv("PYTHONPATH", str(slow))
    monkeypatch.setattr(binding_module, "DERIVE_MODULE", "slowderive")
    monkeypatch.setattr(binding_module, "DERIVE_TIMEOUT_S", 1)
    pack = _pack(tmp_path, build=False)
    envelope = execute(pack, "hello")
    assert envelope["ok"] is False and "took longer than 1 s" in envelope["error"]


# --- the derive module and the cache directory ----------------------------------------------------


def test_derive_module_prints_the_sha_of_what_build_writes(tmp_path, cache):
    pack = _pack(tmp_path)
    done = subprocess.run(
        [PY, "-m", "wrapgen.pack.derive", str(pack)], capture_output=True, text=True, timeout=120
    )
    assert (
        done.returncode == 0
        and done.stdout == _sha(pack / "binding.json") + "\n"
        and done.stderr == ""
    )
    other = subprocess.run(
        [PY, "-m", "wrapgen.pack.derive", str(pack), "--wrapgen-version", "9.9"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert other.returncode == 0 and other.stdout != done.stdout
    usage = subprocess.run(
        [PY, "-m", "wrapgen.pack.derive"], capture_output=True, text=True, timeout=120
    )
    assert usage.returncode == 2 and usage.stderr.startswith("error: usage:")
    missing = subprocess.run(
        [PY, "-m", "wrapgen.pack.derive", str(tmp_path / "nowhere")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        missing.returncode == 1
        and missing.stderr.startswith("error: cannot read")
        and "Traceback" not in missing.stderr
    )
    assert list((cache / "trusted").iterdir()) == [
        stamp_path(_pack_sha(pack))
    ]  # derive itself writes nothing


@pytest.mark.parametrize(
    "env",
    [
        {"WRAPGEN_CACHE_DIR": "/x/explicit", "XDG_CACHE_HOME": "/x/xdg", "HOME": "/x/home"},
        {"WRAPGEN_CACHE_DIR": "", "XDG_CACHE_HOME": "/x/xdg", "HOME": "/x/home"},
        {"XDG_CACHE_HOME": "/x/xdg", "HOME": "/x/home"},
        {"HOME": "/x/home"},
        {"XDG_CACHE_HOME": "", "HOME": "/x/home"},
    ],
)
def test_the_runtime_and_the_discovery_cache_agree_on_the_directory(env, monkeypatch):
    from wrapgen.probe.cache import cache_dir as discovery_cache_dir

    for name in ("WRAPGEN_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cache_dir() == discovery_cache_dir()
    assert stamp_path("a" * 64).parent == discovery_cache_dir() / "trusted"


def test_only_a_binding_rendered_from_pack_yaml_is_stamped(tmp_path, cache):
    """write_files vouches for a binding.json that build rendered (its provenance travels with the
    text, through a worker process too), never for the same text read back from a pack directory."""
    import pickle

    from wrapgen.pack.build import render_pack_files
    from wrapgen.pack.emit import RenderedBinding, write_files

    pack = _pack(tmp_path, build=False)
    read_back = (pack / "binding.json").read_text(encoding="utf-8")
    write_files(tmp_path / "copy", {"binding.json": read_back})
    assert read_stamp(_pack_sha(pack)) is None
    rendered = render_pack_files((pack / "pack.yaml").read_bytes())["binding.json"]
    assert rendered == read_back and isinstance(rendered, RenderedBinding)
    carried = pickle.loads(pickle.dumps(rendered))
    assert isinstance(carried, RenderedBinding) and carried.pack_sha256 == _pack_sha(pack)
    write_files(tmp_path / "copy", {"binding.json": carried})
    assert read_stamp(_pack_sha(pack)) == _sha(pack / "binding.json")
