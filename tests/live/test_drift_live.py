"""Drift against real installed tools: `wrapgen wrap` records the tool, `wrapgen check --drift` re-reads it
and classifies what changed, `wrapgen serve` warns at start, `batch --check` says it in one line.

An "older" tool is made by editing what the pack recorded (its source and snapshot), the way a pack
made from an older release would read; the tool itself is the one installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import require_tool
from wrapgen.check.drift import SOURCE_FILE
from wrapgen.errors import ExitStatus


def _wrapgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wrapgen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ},
    )


@pytest.fixture(scope="module")
def rg_pack(tmp_path_factory, own_cache_module) -> Path:
    require_tool("rg")
    out = tmp_path_factory.mktemp("packs")
    done = _wrapgen("wrap", "rg", "-o", str(out), cwd=out)
    assert done.returncode == 0, done.stderr
    return out / "rg"


@pytest.fixture(scope="module")
def own_cache_module(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    old = os.environ.get("WRAPGEN_CACHE_DIR")
    os.environ["WRAPGEN_CACHE_DIR"] = str(cache)
    yield cache
    if old is None:
        os.environ.pop("WRAPGEN_CACHE_DIR", None)
    else:
        os.environ["WRAPGEN_CACHE_DIR"] = old


def _copy(pack: Path, to: Path) -> Path:
    to.mkdir()
    for name in ("pack.yaml", "binding.json", "adapter.py", SOURCE_FILE):
        (to / name).write_bytes((pack / name).read_bytes())
    return to


def _older(pack: Path, to: Path, *, drop_flags: int = 0, version: str = "ripgrep 12.1.1") -> Path:
    """The pack as if made from an older rg: another version line and help, fewer root flags."""
    copy = _copy(pack, to)
    manifest = (copy / "pack.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(manifest)
    manifest = manifest.replace(f"version: {data['source']['version']}", f"version: {version}")
    manifest = manifest.replace(data["source"]["help_sha256"], "a" * 64)
    (copy / "pack.yaml").write_text(manifest, encoding="utf-8")
    snap = json.loads((copy / SOURCE_FILE).read_text(encoding="utf-8"))
    used = {
        t.split("=")[0]
        for verb in data["verbs"].values()
        for t in verb["cli"]
        if str(t).startswith("-")
    }
    flags = snap["commands"][""]["flags"]
    unused = [g for g in flags if g.split()[0] not in used]
    snap["commands"][""]["flags"] = [g for g in flags if g not in unused[:drop_flags]]
    (copy / SOURCE_FILE).write_text(json.dumps(snap), encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "wrapgen", "build", str(copy)], check=True, capture_output=True
    )
    return copy


def test_wrap_records_the_tool(rg_pack):
    data = yaml.safe_load((rg_pack / "pack.yaml").read_text(encoding="utf-8"))
    version = (
        subprocess.run(["rg", "--version"], capture_output=True, text=True)
        .stdout.splitlines()[0]
        .strip()
    )
    assert data["source"]["version"] == version
    assert len(data["source"]["help_sha256"]) == 64
    snap = json.loads((rg_pack / SOURCE_FILE).read_text(encoding="utf-8"))
    assert snap["help_sha256"] == data["source"]["help_sha256"]
    assert set(snap["verbs"]) == set(data["verbs"]) and "" in snap["commands"]
    assert any(g.split()[0] == "--glob" for g in snap["commands"][""]["flags"])


def test_check_drift_unchanged_tool(rg_pack):
    done = _wrapgen("check", "--drift", str(rg_pack), cwd=rg_pack)
    assert done.returncode == ExitStatus.OK, done.stdout + done.stderr
    assert ": unchanged" in done.stdout and "no drift" in done.stdout


def test_check_drift_new_flags_are_compatible(rg_pack, tmp_path):
    older = _older(rg_pack, tmp_path / "rg", drop_flags=14)
    done = _wrapgen("check", "--drift", str(older), cwd=tmp_path)
    assert done.returncode == ExitStatus.DRIFT_COMPATIBLE, done.stdout + done.stderr
    new = yaml.safe_load((rg_pack / "pack.yaml").read_text(encoding="utf-8"))["source"][
        "version"
    ].split()[1]
    assert f"rg 12.1.1 -> {new}: compatible, 14 new flags" in done.stdout
    report = json.loads(
        _wrapgen("check", "--drift", "--format", "json", str(older), cwd=tmp_path).stdout
    )
    (pack,) = report["packs"]
    assert pack["level"] == "compatible" and report["exit_status"] == ExitStatus.DRIFT_COMPATIBLE
    assert {c["kind"] for c in pack["changes"]} == {"version", "new-flags"}


def test_check_drift_a_used_flag_gone_is_breaking(rg_pack, tmp_path):
    """A verb that uses a flag the installed rg does not have (as a newer rg that dropped it would)."""
    copy = _copy(rg_pack, tmp_path / "rg")
    manifest = (copy / "pack.yaml").read_text(encoding="utf-8")
    verb = next(iter(yaml.safe_load(manifest)["verbs"]))
    data = yaml.safe_load(manifest)
    data["verbs"][verb]["cli"] = [
        *data["verbs"][verb]["cli"][:1],
        "--no-such-flag-any-more",
        *data["verbs"][verb]["cli"][1:],
    ]
    snap = json.loads((copy / SOURCE_FILE).read_text(encoding="utf-8"))
    snap["commands"][""]["flags"].append(
        "--no-such-flag-any-more"
    )  # rg had it when the pack was made
    (copy / SOURCE_FILE).write_text(json.dumps(snap), encoding="utf-8")
    data["source"]["help_sha256"] = "b" * 64
    (copy / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    done = _wrapgen("check", "--drift", str(copy), cwd=tmp_path)
    assert done.returncode == ExitStatus.DRIFT_BREAKING, done.stdout + done.stderr
    assert f"breaking: `rg` no longer takes --no-such-flag-any-more (verb {verb})" in done.stdout


def test_check_drift_tool_not_installed_is_breaking(rg_pack, tmp_path):
    copy = _copy(rg_pack, tmp_path / "rg")
    manifest = (copy / "pack.yaml").read_text(encoding="utf-8")
    (copy / "pack.yaml").write_text(
        manifest.replace("bin: rg", "bin: wrapgen-no-such-tool-xyz")
        .replace("[rg,", "[wrapgen-no-such-tool-xyz,")
        .replace("- rg\n", "- wrapgen-no-such-tool-xyz\n"),
        encoding="utf-8",
    )
    done = _wrapgen("check", "--drift", str(copy), cwd=tmp_path)
    assert done.returncode == ExitStatus.DRIFT_BREAKING, done.stdout + done.stderr
    assert "wrapgen-no-such-tool-xyz: breaking: tool not found" in done.stdout


def _serve_stderr(pack: Path, *extra: str, cwd: Path, wait_for: str | None) -> str:
    """What `wrapgen serve PACK` says on stderr: until ``wait_for`` appears (the check runs in the
    background), or for a few seconds when None; then stdin is closed and the server ends."""
    import select
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "wrapgen", "serve", *extra, str(pack)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=cwd,
    )
    seen = b""
    deadline = time.monotonic() + (120 if wait_for else 8)
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([process.stderr], [], [], 0.5)
            if ready:
                chunk = os.read(process.stderr.fileno(), 65536)
                if not chunk:
                    break
                seen += chunk
                if wait_for and wait_for.encode() in seen:
                    break
    finally:
        rest = process.communicate(timeout=60)[1]  # closes stdin: the server ends on EOF
    return (seen + rest).decode("utf-8", "replace")


def test_serve_warns_at_start_when_the_version_drifted(rg_pack, tmp_path):
    """The start-up check reads only `rg --version`; the warning names the pack and says what to run."""
    pytest.importorskip("mcp")
    older = _older(rg_pack, tmp_path / "rg")
    said = _serve_stderr(older, cwd=tmp_path, wait_for="to see what changed")
    assert "warning: rg: the tool drifted since the pack was made (rg 12.1.1 -> " in said
    assert f"wrapgen check --drift {older}" in said
    assert "drifted" not in _serve_stderr(rg_pack, cwd=tmp_path, wait_for=None)
    assert "drifted" not in _serve_stderr(older, "--no-drift-check", cwd=tmp_path, wait_for=None)


def test_batch_check_reports_drift_in_one_line(tmp_path):
    require_tool("jq")
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    (recipes / "jq.yaml").write_text("tool: jq\n", encoding="utf-8")
    out = tmp_path / "adapters"
    assert _wrapgen("batch", str(recipes), "-o", str(out), cwd=tmp_path).returncode == 0
    clean = _wrapgen("batch", str(recipes), "-o", str(out), "--check", cwd=tmp_path)
    assert clean.returncode == 0 and "drift:" not in clean.stdout
    manifest = (out / "jq" / "pack.yaml").read_text(encoding="utf-8")
    version = yaml.safe_load(manifest)["source"]["version"]
    (out / "jq" / "pack.yaml").write_text(
        manifest.replace(f"version: {version}", "version: jq-1.5"), encoding="utf-8"
    )
    drifted = _wrapgen("batch", str(recipes), "-o", str(out), "--check", "--no-cache", cwd=tmp_path)
    assert drifted.returncode == ExitStatus.FAILED
    assert (
        f"drift: jq 1.5 -> {version.split('-')[-1]}: metadata, version line was 'jq-1.5', now '{version}'"
        in drifted.stdout
    )


def _npm_install(prefix: Path, spec: str) -> None:
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(prefix), spec],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def test_two_real_versions_of_a_tool(tmp_path):
    """semver 5.7.2 then 7.6.3 from the npm registry, installed in place: the pack made from 5.7.2
    sees 7's --rtl, --ltr and -n as compatible drift, and its verbs still work."""
    require_tool("npm")
    require_tool("node")
    prefix = tmp_path / "semver"
    _npm_install(prefix, "semver@5.7.2")
    tool = prefix / "node_modules" / ".bin" / "semver"
    # node resolves the package next to the script, which the help sandbox does not show: probe unsandboxed
    env = {**os.environ, "WRAPGEN_SANDBOX": "off", "WRAPGEN_CACHE_DIR": str(tmp_path / "cache")}

    def wrapgen(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "wrapgen", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )

    made = wrapgen("wrap", str(tool), "-o", str(tmp_path / "packs"))
    assert made.returncode == 0, made.stderr
    pack = tmp_path / "packs" / "semver"
    assert wrapgen("check", "--drift", str(pack)).returncode == ExitStatus.OK
    _npm_install(prefix, "semver@7.6.3")
    done = wrapgen("check", "--drift", "--format", "json", str(pack))
    assert done.returncode == ExitStatus.DRIFT_COMPATIBLE, done.stdout + done.stderr
    (report,) = json.loads(done.stdout)["packs"]
    new_flags = [c for c in report["changes"] if c["kind"] == "new-flags"]
    assert [c["count"] for c in new_flags] == [3], report
    assert report["level"] == "compatible" and "3 new flags" in report["summary"]
