"""The discovery cache: where it lives, what its key depends on, and that bad entries are ignored."""

from __future__ import annotations

import os
import shutil

import pytest

from wrapgen.model.tool import Command, Flag, Tool
from wrapgen.probe import cache

pytestmark = pytest.mark.usefixtures("own_cache")


def _tool() -> Tool:
    root = Command(
        flags=(Flag(long="--all", short="-a", description="all"),),
        subcommands=(Command(path=("list",), summary="List things", stub=True),),
    )
    return Tool(name="demo", root=root, path="/bin/demo", version="demo 1.0", warnings=("w",))


def test_cache_dir_prefers_the_explicit_variable(tmp_path, monkeypatch):
    """WRAPGEN_CACHE_DIR wins, then XDG_CACHE_HOME/wrapgen, then ~/.cache/wrapgen."""
    assert cache.cache_dir() == tmp_path / "cache"
    monkeypatch.delenv("WRAPGEN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "wrapgen"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "wrapgen"


def test_key_changes_with_the_binary_and_the_options(tmp_path):
    """The key depends on size, mtime and options; the same file and options give the same key."""
    binary = tmp_path / "tool"
    binary.write_text("#!/bin/sh\n")
    first = cache.cache_key(str(binary), options={"depth": 3})
    assert first == cache.cache_key(str(binary), options={"depth": 3})
    assert first != cache.cache_key(str(binary), options={"depth": 2})
    os.utime(binary, ns=(1, 1_000_000_000))
    touched = cache.cache_key(str(binary), options={"depth": 3})
    assert touched != first
    binary.write_text("#!/bin/sh\n# longer\n")
    os.utime(binary, ns=(1, 1_000_000_000))
    assert cache.cache_key(str(binary), options={"depth": 3}) != touched
    assert cache.cache_key(str(tmp_path / "missing"), options={}) is None


def test_key_changes_with_discoverys_own_code(tmp_path, monkeypatch):
    """A change to discovery's source files (their fingerprint) gives a new key: no stale parse is reused."""
    binary = tmp_path / "tool"
    binary.write_text("#!/bin/sh\n")
    before = cache.cache_key(str(binary), options={})
    monkeypatch.setattr(cache, "source_fingerprint", lambda *parts: "another-code-version")
    assert cache.cache_key(str(binary), options={}) != before


def test_key_changes_with_the_knowledge_discovery_reads(tmp_path, monkeypatch):
    """Discovery reads knowledge tables (which help sentences are banners): the key covers them, so
    a changed table reads the help again (a cached summary that was a banner outlived its fix)."""
    binary = tmp_path / "tool"
    binary.write_text("#!/bin/sh\n")
    seen = []
    monkeypatch.setattr(cache, "source_fingerprint", lambda *parts: seen.append(parts) or "x")
    cache.cache_key(str(binary), options={})
    assert seen and "knowledge" in seen[0] and "parse" in seen[0]


def test_fingerprint_follows_the_files_it_covers():
    """source_fingerprint("probe") differs from the whole package's and is stable between calls."""
    from wrapgen.fingerprint import source_fingerprint

    assert source_fingerprint("probe") == source_fingerprint("probe")
    assert source_fingerprint("probe") != source_fingerprint()


def test_store_then_load_gives_the_same_tool(tmp_path):
    """A stored Tool loads back equal, from a file inside the cache directory."""
    tool = _tool()
    assert cache.store("k1", tool)
    assert (tmp_path / "cache" / "k1.json").is_file()
    assert cache.load("k1") == tool
    assert cache.load("other") is None


def test_global_flags_every_command_shares_are_stored_once(tmp_path):
    """A cobra-like tree whose commands all carry the same global flags loads back equal, the flags written once."""
    verbose = (Flag(long="--verbose-logging-of-everything", short="-v", description="talk"),)
    leaves = tuple(
        Command(path=("remote", name), global_flags=verbose) for name in ("add", "ls", "rm")
    )
    root = Command(
        flags=(Flag(long="--all"),),
        global_flags=verbose,
        subcommands=(
            Command(path=("remote",), global_flags=verbose, subcommands=leaves),
            Command(path=("version",)),
        ),
    )
    tool = Tool(name="demo", root=root, path="/bin/demo")
    assert cache.store("k1", tool)
    assert cache.load("k1") == tool
    assert (tmp_path / "cache" / "k1.json").read_text().count(
        "--verbose-logging-of-everything"
    ) == 1


@pytest.mark.parametrize(
    "content",
    [
        "",
        "{not json",
        "[]",
        '{"key": "k1"}',
        '{"key": "k1", "tool": {"model_version": 1, "name": "x", "root": {}}, '
        '"shared_globals": [], "globals_of": [3]}',
        '{"key": "k1", "tool": {"model_version": 999}}',
        '{"key": "k1", "tool": {"model_version": 1, "name": "x", "root": {"flags": [{"bogus": 1}]}}}',
    ],
)
def test_a_corrupt_entry_is_ignored(tmp_path, content):
    """Garbage, a wrong shape or another model version in an entry reads as a miss, never an error."""
    directory = tmp_path / "cache"
    directory.mkdir()
    (directory / "k1.json").write_text(content)
    assert cache.load("k1") is None


def test_an_entry_written_under_another_key_is_ignored(tmp_path):
    """A file renamed to another key's name is not trusted."""
    cache.store("k1", _tool())
    shutil.copy(tmp_path / "cache" / "k1.json", tmp_path / "cache" / "k2.json")
    assert cache.load("k2") is None


def test_an_unwritable_cache_is_not_an_error(tmp_path, monkeypatch):
    """When the cache directory cannot be created, store says False and nothing raises."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(blocker / "sub"))
    assert cache.store("k1", _tool()) is False
    assert cache.load("k1") is None


def test_a_second_discovery_of_an_unchanged_tool_runs_no_probe(tmp_path, monkeypatch):
    """discover() twice: the second answers from the cache (no process runs); touching the tool re-probes."""
    from conftest import FIXTURES
    from wrapgen.probe.discover import discover

    tool = tmp_path / "wg-cobra"
    shutil.copy(FIXTURES / "tools" / "wg-cobra", tool)
    log = tmp_path / "calls.log"
    monkeypatch.setenv("WG_LOG", str(log))
    # the tool logs outside the probe's scratch directories: passed by name, and no sandbox
    monkeypatch.setenv("WRAPGEN_PROBE_PASS_ENV", "WG_LOG")
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    first = discover(str(tool), depth=2)
    calls = log.read_text().count("\n")
    assert calls >= 6
    again = discover(str(tool), depth=2)
    assert again == first
    assert log.read_text().count("\n") == calls, "the cached discovery ran the tool"
    discover(str(tool), depth=2, cache=False)
    assert log.read_text().count("\n") == 2 * calls
    os.utime(tool, ns=(1, 1_000_000_000))
    discover(str(tool), depth=2)
    assert log.read_text().count("\n") == 3 * calls


def test_a_launcher_is_keyed_by_the_program_it_starts(tmp_path, monkeypatch):
    """A launcher script (a pyenv shim) unchanged while the program behind it is upgraded: rediscovered, not stale."""
    from wrapgen.probe.discover import discover

    monkeypatch.setenv(
        "WRAPGEN_SANDBOX", "off"
    )  # the program logs its calls outside the scratch directories

    program = tmp_path / "real-tool"
    calls = tmp_path / "calls"

    def install(version: str, flag: str) -> None:
        program.write_text(
            "#!/usr/bin/env python3\nimport sys\n"
            f"open({str(calls)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
            f"if sys.argv[1:] == ['--version']: print('real-tool {version}')\n"
            f"else: print('Usage: real-tool [OPTIONS]\\n\\nOptions:\\n  {flag}  do it\\n  -h, --help  show help')\n"
        )
        program.chmod(0o755)

    launcher = tmp_path / "shim"
    launcher.write_text(f'#!/bin/sh\nexec "{program}" "$@"\n')
    launcher.chmod(0o755)
    install("1.0", "--alpha")
    first = discover(str(launcher), depth=0)
    assert "--alpha" in {s for f in first.root.flags for s in f.spellings}
    help_probes = calls.read_text().count("--help")
    again = discover(str(launcher), depth=0)
    assert again.root.flags == first.root.flags
    assert calls.read_text().count("--help") == help_probes, "unchanged: answered from the cache"
    install("2.0", "--beta")
    upgraded = discover(str(launcher), depth=0)
    assert "--beta" in {s for f in upgraded.root.flags for s in f.spellings}
