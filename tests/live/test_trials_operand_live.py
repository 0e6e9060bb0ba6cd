"""``wrapgen wrap rg`` with trials: rg's search verbs exit with their usage without a pattern (the
schema cannot require it: ``rg --files`` takes none), so the trial retries with one, and the verbs stay
with ``pattern`` required instead of being dropped (the pack kept 2 of 7 verbs before)."""

from __future__ import annotations

import shutil

import pytest
import yaml

from wrapgen.probe.sandbox import reset_sandbox_status, sandbox_status


def test_rg_search_verbs_are_repaired_not_dropped(tmp_path, cli):
    if shutil.which("rg") is None or shutil.which("bwrap") is None:
        pytest.skip("rg and bwrap are needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    result = cli("wrap", "rg", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "rg" / "pack.yaml").read_text())["verbs"]
    assert 5 <= len(verbs) <= 12, list(verbs)
    assert verbs["search"]["args"]["required"] == ["pattern"]
    # search's uses all pass a pattern (required from the evidence); its siblings' help leaves it
    # optional, and their trials repair them: the pattern is made required, the verb kept
    repaired = [n for n, v in verbs.items() if "pattern made required" in v.get("x-why", "")]
    assert repaired, {n: v.get("x-why") for n, v in verbs.items()}
    assert all(verbs[n]["args"]["required"][:1] == ["pattern"] for n in repaired)
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "a.txt").write_text("needle here\n")
    found = cli(
        "exec",
        str(tmp_path / "out" / "rg"),
        "search",
        "--",
        "pattern=needle",
        cwd=tmp_path / "work",
    )
    assert found.exit_code == 0 and "needle here" in found.stdout, found.stdout + found.stderr


_ONLY_READ = """#!/usr/bin/python3
import sys
HELP = \"\"\"Usage: wgonly OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

  -s, --only-delimited   do not print lines not containing delimiters
  -h, --help             display this help and exit
\"\"\"
if sys.argv[1:2] in (["--help"], ["-h"]):
    print(HELP)
    sys.exit(0)
print("wgonly: you must specify a list of bytes, characters, or fields", file=sys.stderr)
print("Try 'wgonly --help' for more information.", file=sys.stderr)
sys.exit(1)
"""


def test_a_tool_whose_only_read_lacks_a_flag_still_gets_a_pack(tmp_path, cli, monkeypatch):
    """A tool whose one verb exits with its usage whatever it is given (its mode flag is one its help
    does not show): dropping it would leave no command, so wrap keeps it and says why (it failed
    with 'nothing to propose' before). (cut was this test's tool; its modes' trials now show their
    values refused, not an operand missing.)"""
    if shutil.which("bwrap") is None:
        pytest.skip("bwrap is needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    tool = tmp_path / "bin" / "wgonly"
    tool.parent.mkdir()
    tool.write_text(_ONLY_READ)
    tool.chmod(0o755)
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    result = cli("wrap", str(tool), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "wgonly" / "pack.yaml").read_text())["verbs"]
    assert len(verbs) >= 1
    assert any(
        "kept, since without it the pack would hold no command" in v["x-why"]
        for v in verbs.values()
    ), {n: v["x-why"] for n, v in verbs.items()}


def test_npm_ls_operand_npm_writes_as_required_is_made_optional(tmp_path, cli):
    """npm's usage writes `npm ls <package-spec>` though bare `npm ls` lists the tree: its uses leave
    the operand out (or its trial with a sample package fails and the retry without it exits 0), and
    the operand is optional, so the
    call an agent makes first (no args) lists what is installed, as `npm ls --json` by hand does."""
    import json
    import subprocess

    if shutil.which("npm") is None or shutil.which("bwrap") is None:
        pytest.skip("npm and bwrap are needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    result = cli("wrap", "npm", "-o", str(tmp_path / "out"), "--try-timeout", "20")
    assert result.exit_code == 0, result.stdout + result.stderr
    ls = yaml.safe_load((tmp_path / "out" / "npm" / "pack.yaml").read_text())["verbs"]["ls"]
    assert "package_spec" in ls["args"]["properties"] and "package_spec" not in ls["args"].get(
        "required", []
    )
    # optional by its uses (`npm ls` bare, twice on its page) or by its trial without the operand
    assert "package_spec made optional" in ls["x-why"] or "`npm ls`, 2" in ls["x-why"], ls["x-why"]
    work = tmp_path / "work"
    (work / "dep").mkdir(parents=True)
    (work / "package.json").write_text(json.dumps({"name": "app", "version": "1.0.0"}))
    (work / "dep" / "package.json").write_text(json.dumps({"name": "dep", "version": "2.1.0"}))
    subprocess.run(
        ["npm", "install", "./dep", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=work,
        check=True,
        capture_output=True,
        timeout=120,
    )
    call = cli("exec", str(tmp_path / "out" / "npm"), "ls", "--json", cwd=work)
    envelope = json.loads(call.stdout)
    by_hand = json.loads(
        subprocess.run(
            ["npm", "ls", "--json"], cwd=work, capture_output=True, text=True, timeout=60
        ).stdout
    )
    assert envelope["ok"] and envelope["result"] == by_hand and "dep" in by_hand["dependencies"]


def test_a_comparison_of_files_takes_two_and_answers_as_the_tool_does(tmp_path, cli):
    """diff's usage names one FILES operand; its trial with one sample file exits with its usage, the
    retry with two runs: the array takes at least two items (minItems 2), a call with one is refused
    before anything runs, and a call with two prints what `diff A B` prints (no default flag such as
    --unified=3 passed on the caller's behalf)."""
    import json
    import subprocess

    if shutil.which("diff") is None or shutil.which("bwrap") is None:
        pytest.skip("diff and bwrap are needed")
    reset_sandbox_status()
    assert sandbox_status().available, sandbox_status().reason
    result = cli("wrap", "diff", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "diff" / "pack.yaml").read_text())["verbs"]
    name, verb = next(
        (n, v)
        for n, v in verbs.items()
        if v["args"]["properties"].get("files", {}).get("type") == "array"
    )
    assert verb["args"]["properties"]["files"]["minItems"] == 2, verb
    assert "take at least two" in verb["x-why"]
    (tmp_path / "old.txt").write_text("a\nb\n")
    (tmp_path / "new.txt").write_text("a\nc\n")
    pack = str(tmp_path / "out" / "diff")
    one = cli("exec", pack, name, "--json", "--", "files=old.txt", cwd=tmp_path)
    assert one.exit_code == 1 and "at least 2 items" in json.loads(one.stdout)["error"]
    two = cli("exec", pack, name, "--json", "--", "files=old.txt", "files=new.txt", cwd=tmp_path)
    envelope = json.loads(two.stdout)
    human = subprocess.run(
        ["diff", "old.txt", "new.txt"], cwd=tmp_path, capture_output=True, text=True
    )
    assert human.returncode == 1
    assert envelope.get("output", envelope.get("result")) == human.stdout, envelope


def test_a_field_cutters_modes_are_tried_with_a_list_and_kept(tmp_path, cli, monkeypatch):
    """cut's -f and -c modes get a list (`1`) in their trials, not the word `sample` (which cut
    refuses, "invalid field value"): both are tried clean and kept, and the fields verb answers as
    `cut -d, -f 1` does; the bare main mode, which needs one of them, is left out."""
    import json
    import subprocess

    cut = shutil.which("cut")
    if cut is None or shutil.which("bwrap") is None:
        pytest.skip("cut and bwrap are needed")
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    result = cli("wrap", "cut", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "cut" / "pack.yaml").read_text())["verbs"]
    modes = {n: v for n, v in verbs.items() if any(str(t).startswith("--fields") for t in v["cli"])}
    assert modes, {n: v["cli"] for n, v in verbs.items()}
    name, fields = next(iter(modes.items()))
    assert "ran and exited 0" in fields["x-why"], fields["x-why"]
    work = tmp_path / "work"
    work.mkdir()
    (work / "rows.csv").write_text("alpha,1\nbeta,2\n")
    monkeypatch.chdir(work)
    props = fields["args"]["properties"]
    files = next(a for a, p in props.items() if p.get("type") == "array")
    delimiter = next(a for a in props if "delim" in a)
    field_list = next(a for a in fields["args"].get("required", []) if "field" in a)
    call = cli(
        "exec", str(tmp_path / "out" / "cut"), name, "--json", "--",
        f"{field_list}=1", f"{delimiter}=,", f"{files}=rows.csv",
    )  # fmt: skip
    human = subprocess.run(
        [cut, "-d,", "-f1", "rows.csv"], cwd=work, capture_output=True, text=True
    )
    assert json.loads(call.stdout) == {"ok": True, "result": human.stdout}
