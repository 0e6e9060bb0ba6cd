"""build and emit: pack.yaml -> binding.json + adapter.py, byte-stable, written atomically."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import textwrap
from pathlib import Path

import pytest

from wrapgen import __version__
from wrapgen.errors import ManifestError, WrapgenError
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.emit import write_files

PACKS = Path(__file__).resolve().parent.parent / "packs"

GH = textwrap.dedent(
    """\
    pack_id: gh
    description: Work with GitHub.
    bin: gh
    wrap:
      argv_template: [gh, '{{verb}}', '{{flags}}']
    verbs:
      pr.list:
        description: List pull requests.
        args:
          type: object
          properties:
            state: {type: string, enum: [open, closed]}
            draft: {type: boolean}
            max_count: {type: integer, minimum: 1}
          additionalProperties: false
        policy: {effect: read}
        title: {live: Listing pull requests}
      pr.merge:
        description: Merge a pull request.
        cli: [gh, pr, merge, '--', '{{number}}']
        args:
          type: object
          properties:
            number: {type: integer, minimum: 1}
          additionalProperties: false
        policy: {effect: destructive}
        json: false
        timeout_s: 120
      status:
        description: Show status.
        cli: [gh, status]
    """
)


def _copy_pack(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(PACKS / name, target)
    for derived in ("binding.json", "adapter.py"):
        (target / derived).unlink(missing_ok=True)
    return target


def test_binding_follows_the_architecture_layout():
    """binding.json: version, sha256 of pack.yaml's bytes, resolved argv/json/policy/timeout/title."""
    raw = GH.encode()
    files = render_pack_files(raw)
    assert sorted(files) == ["adapter.py", "binding.json"]
    binding = json.loads(files["binding.json"])
    assert binding["binding_version"] == 1
    assert binding["pack_sha256"] == hashlib.sha256(raw).hexdigest()
    assert binding["wrapgen_version"] == __version__
    assert (binding["pack_id"], binding["bin"], binding["description"]) == (
        "gh",
        "gh",
        "Work with GitHub.",
    )
    listing, merge, status = (binding["verbs"][k] for k in ("pr.list", "pr.merge", "status"))
    assert listing["argv_from"] == "argv_template"
    assert listing["json"] == ["--json"]
    assert listing["policy"] == {"effect": "read", "confirm": False, "declared": True}
    assert listing["timeout_s"] == 60
    assert listing["title"] == {"live": ["Listing pull requests"]}
    assert (
        merge["argv"] == ["gh", "pr", "merge", "--", "{{number}}"] and merge["argv_from"] == "cli"
    )
    assert merge["json"] == [] and merge["timeout_s"] == 120
    assert merge["policy"] == {"effect": "destructive", "confirm": True, "declared": True}
    assert "title" not in merge
    assert status["policy"] == {"effect": "read", "confirm": False, "declared": False}
    assert status["args"] == {"type": "object", "properties": {}, "additionalProperties": False}
    assert (
        files["binding.json"]
        == json.dumps(binding, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    )


def test_argv_template_fallback_is_expanded_by_the_runtime():
    """A verb without cli[] records the runtime's docs/contract.md §6 expansion: tail split on dots, flags in order."""
    from wrapgen.runtime import expand_argv_template

    binding = json.loads(render_pack_files(GH.encode())["binding.json"])
    argv = binding["verbs"]["pr.list"]["argv"]
    assert argv == [
        "gh",
        "pr",
        "list",
        "--state",
        "{{state}}",
        "--draft",
        "{{draft}}",
        "--max-count",
        "{{max_count}}",
    ]
    assert argv == expand_argv_template(
        ["gh", "{{verb}}", "{{flags}}"],
        verb="pr.list",
        bin="gh",
        properties={"state": {}, "draft": {}, "max_count": {}},
    )


def test_default_argv_template_is_bin_verb_flags():
    """Without wrap.argv_template the fallback is [bin, {{verb}}, {{flags}}]."""
    raw = GH.replace("wrap:\n  argv_template: [gh, '{{verb}}', '{{flags}}']\n", "").encode()
    binding = json.loads(render_pack_files(raw)["binding.json"])
    assert binding["verbs"]["pr.list"]["argv"][:3] == ["gh", "pr", "list"]


def test_render_is_byte_identical_and_path_free(tmp_path):
    """The same bytes give the same derived files, with no absolute path or timestamp in them."""
    raw = (PACKS / "git" / "pack.yaml").read_bytes()
    first, second = render_pack_files(raw), render_pack_files(raw)
    assert first == second
    for text in first.values():
        assert str(PACKS) not in text and "/tmp" not in text and "/home" not in text
        assert text.endswith("\n") and "\r" not in text


def test_adapter_is_a_thin_generated_entry_point():
    """adapter.py: shebang, a docstring naming `wrapgen build`, exec_exit (exec_main, then a quick exit) with its own directory."""
    adapter = render_pack_files((PACKS / "jq" / "pack.yaml").read_bytes())["adapter.py"]
    assert adapter.startswith("#!/usr/bin/env python3\n")
    assert "Generated from pack.yaml by `wrapgen build`" in adapter
    assert "from wrapgen.runtime import exec_exit" in adapter
    assert "exec_exit(sys.argv[1:], pack_dir=Path(__file__).resolve().parent)" in adapter
    compile(adapter, "adapter.py", "exec")


def test_an_invalid_manifest_is_not_rendered():
    """render_pack_files raises ManifestError with the field of each problem."""
    with pytest.raises(ManifestError) as caught:
        render_pack_files(GH.replace("bin: gh\n", "").encode())
    assert caught.value.diagnostics[0].message == "missing required field 'bin'"


def test_build_writes_an_executable_adapter_and_twice_changes_no_byte(tmp_path, cli):
    """`wrapgen build DIR` writes both files (adapter.py 0755); a second build touches nothing."""
    pack = _copy_pack("git", tmp_path)
    result = cli("build", str(pack))
    assert result.exit_code == 0, result.stderr
    assert "wrote adapter.py, binding.json" in result.stdout
    adapter = pack / "adapter.py"
    assert stat.S_IMODE(adapter.stat().st_mode) == 0o755
    assert stat.S_IMODE((pack / "binding.json").stat().st_mode) == 0o644
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in pack.iterdir()}
    result = cli("build", str(pack))
    assert result.exit_code == 0 and "up to date" in result.stdout
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in pack.iterdir()}
    assert after == before
    # the committed example pack is what build produces
    assert (pack / "binding.json").read_bytes() == (PACKS / "git" / "binding.json").read_bytes()


def test_built_binding_is_accepted_by_the_runtime(tmp_path, cli):
    """The runtime's load_binding trusts what build wrote, and refuses it once pack.yaml changes."""
    from wrapgen.runtime import BindingError, load_binding

    pack = _copy_pack("jq", tmp_path)
    assert cli("build", str(pack)).exit_code == 0
    assert set(load_binding(pack)["verbs"]) == {"keys", "length", "type", "paths", "validate"}
    with open(pack / "pack.yaml", "a") as handle:
        handle.write("# edited\n")
    with pytest.raises(BindingError):
        load_binding(pack)


def test_build_check_prints_a_diff_and_writes_nothing(tmp_path, cli):
    """`wrapgen build --check` exits 1 with a unified diff while stale, 0 once built."""
    pack = _copy_pack("jq", tmp_path)
    result = cli("build", "--check", str(pack))
    assert result.exit_code == 1
    assert "+++ b/binding.json" in result.stdout and "+++ b/adapter.py" in result.stdout
    assert not (pack / "binding.json").exists()
    assert cli("build", str(pack)).exit_code == 0
    result = cli("build", "--check", str(pack))
    assert (result.exit_code, result.stdout) == (0, "")


def test_build_refuses_a_pack_with_lint_errors_but_not_warnings(tmp_path, cli):
    """Errors (here a shell pipe) stop the build and write nothing; warnings are printed only."""
    pack = tmp_path / "gh"
    pack.mkdir()
    (pack / "pack.yaml").write_text(GH.replace("cli: [gh, status]", "cli: [gh, status, '|', cat]"))
    result = cli("build", str(pack))
    assert result.exit_code == 1
    assert "W007 error" in result.stderr and "not built" in result.stderr
    assert not (pack / "binding.json").exists()
    (pack / "pack.yaml").write_text(GH)
    result = cli("build", str(pack))
    assert result.exit_code == 0
    assert "W003 warning" in result.stderr and "W011 warning" in result.stderr
    assert (pack / "adapter.py").exists()


def test_build_of_a_malformed_pack_is_an_error_not_a_traceback(tmp_path, cli):
    """A YAML syntax error: `Error: ...`, the line, a hint, exit 1."""
    (tmp_path / "pack.yaml").write_text("pack_id: [oops\n")
    result = cli("build", str(tmp_path))
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr
    assert (
        "Error:" in result.stderr and "pack.yaml:2: W001 error YAML syntax error" in result.stderr
    )
    assert "hint:" in result.stderr


def test_write_files_check_mode_reports_without_writing(tmp_path):
    """check=True returns a diff per differing file and leaves the directory as it was."""
    (tmp_path / "a.txt").write_text("old\n")
    diffs = write_files(tmp_path, {"a.txt": "new\n", "b.txt": "b\n"}, check=True)
    assert len(diffs) == 2
    assert "-old\n+new\n" in diffs[0]
    assert diffs[1].startswith("--- /dev/null\n+++ b/b.txt\n")
    assert (tmp_path / "a.txt").read_text() == "old\n" and not (tmp_path / "b.txt").exists()
    assert len(write_files(tmp_path, {"a.txt": "new\n", "b.txt": "b\n"})) == 2
    assert write_files(tmp_path, {"a.txt": "new\n", "b.txt": "b\n"}) == []


def test_write_files_repairs_a_lost_executable_bit(tmp_path):
    """Same bytes but adapter.py not executable: one mode note, then fixed."""
    write_files(tmp_path, {"adapter.py": "x\n"})
    os.chmod(tmp_path / "adapter.py", 0o644)
    assert write_files(tmp_path, {"adapter.py": "x\n"}, check=True) == [
        "mode adapter.py: 0644 -> 0755\n"
    ]
    write_files(tmp_path, {"adapter.py": "x\n"})
    assert stat.S_IMODE((tmp_path / "adapter.py").stat().st_mode) == 0o755


def test_an_interrupted_write_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    """Ctrl-C between writing and renaming: the target keeps its old bytes, the temp file is gone."""
    (tmp_path / "binding.json").write_text("old\n")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_files(tmp_path, {"binding.json": "new\n" * 1000})
    assert (tmp_path / "binding.json").read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binding.json"]


@pytest.mark.parametrize("relpath", ["../escape.txt", "/etc/passwd", ""])
def test_write_files_refuses_paths_outside_the_directory(tmp_path, relpath):
    """A relative path that climbs out, an absolute one, or an empty one is refused."""
    with pytest.raises(WrapgenError):
        write_files(tmp_path / "pack", {relpath: "x"})
    assert not (tmp_path / "escape.txt").exists()


def test_build_pack_is_the_python_face_of_build(tmp_path):
    """wrapgen.build_pack writes the derived files once; again it reports no change."""
    import wrapgen

    pack = _copy_pack("jq", tmp_path)
    assert len(wrapgen.build_pack(pack, check=True)) == 2 and not (pack / "adapter.py").exists()
    assert len(wrapgen.build_pack(pack)) == 2
    assert wrapgen.build_pack(pack) == []
    assert wrapgen.load_pack(pack).data["pack_id"] == "jq"


def test_one_broken_pack_does_not_stop_the_others(tmp_path, cli):
    """`wrapgen build A B` with A malformed: A's problem is printed, B is still built, exit 1."""
    broken = tmp_path / "packs" / "broken"
    broken.mkdir(parents=True)
    (broken / "pack.yaml").write_text("pack_id: [\n")
    good = _copy_pack("jq", tmp_path / "packs")
    result = cli("build", str(tmp_path / "packs"))
    assert result.exit_code == 1
    assert "W001 error YAML syntax error" in result.stderr and "Traceback" not in result.stderr
    assert (good / "binding.json").exists()


def test_build_accepts_the_pack_yaml_path_itself(tmp_path, cli):
    """`wrapgen build DIR/pack.yaml` builds DIR, like `wrapgen build DIR`."""
    pack = _copy_pack("jq", tmp_path)
    result = cli("build", str(pack / "pack.yaml"))
    assert result.exit_code == 0, result.stderr
    assert (pack / "adapter.py").exists()
    assert cli("check", str(pack / "pack.yaml")).exit_code == 0
