"""Batch conversion over the example internal tools: writing, --check, broken recipes, overrides."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wrapgen.errors import UsageError
from wrapgen.flows.batch import find_recipes

FIXTURE_TOOLS = Path(__file__).resolve().parents[1] / "fixtures" / "tools"


def test_find_recipes_skips_examples_subdirectory(tmp_path):
    """A directory is searched recursively, skipping hidden dirs and `examples/` unless named itself."""
    (tmp_path / "a.yaml").write_text("tool: git\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.yml").write_text("tool: git\n")
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "c.yaml").write_text("tool: git\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.yaml").write_text("tool: git\n")
    assert [p.name for p in find_recipes([tmp_path])] == ["a.yaml", "b.yml"]
    assert [p.name for p in find_recipes([tmp_path / "examples"])] == ["c.yaml"]
    assert [p.name for p in find_recipes([tmp_path / "a.yaml", tmp_path])] == ["a.yaml", "b.yml"]
    with pytest.raises(UsageError):
        find_recipes([tmp_path / "missing"])


def test_check_passes_unchanged_and_fails_on_drift_writing_nothing(examples, tmp_path, cli):
    """--check is silent on a match; after a hand edit it prints a diff, exits 1 and leaves the edit."""
    out = tmp_path / "out"
    assert cli("batch", str(examples / "deployctl.yaml"), "-o", str(out), "-j", "1").exit_code == 0
    ok = cli("batch", str(examples / "deployctl.yaml"), "-o", str(out), "--check", "-j", "1")
    assert ok.exit_code == 0 and "up to date" in ok.stdout
    pack_yaml = out / "deployctl" / "pack.yaml"
    edited = pack_yaml.read_text().replace(
        "Deploy services to the team's environments.", "Hand edited."
    )
    pack_yaml.write_text(edited)
    drift = cli("batch", str(examples / "deployctl.yaml"), "-o", str(out), "--check", "-j", "1")
    assert drift.exit_code == 1
    assert (
        f"--- a/{str(out).lstrip('/')}/deployctl/pack.yaml" in drift.stdout
        and "-description: Hand edited." in drift.stdout
    )
    assert "differs" in drift.stdout
    assert pack_yaml.read_text() == edited


def test_broken_recipe_does_not_stop_the_batch(examples, tmp_path, cli):
    """A typo recipe and a missing tool are reported at the end; the good recipe is still written."""
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "typo.yaml").write_text("tool: git\npack_id: typo\noverides: {}\n")
    (bad / "missing.yaml").write_text("tool: no-such-tool-xyz\n")
    out = tmp_path / "out"
    result = cli("batch", str(examples / "deployctl.yaml"), str(bad), "-o", str(out), "-j", "1")
    assert result.exit_code == 1
    assert (out / "deployctl" / "pack.yaml").exists()
    assert "2 of 3 recipes failed" in result.stderr
    assert (
        "unknown key 'overides'" in result.stderr and "did you mean 'overrides'?" in result.stderr
    )
    assert "no-such-tool-xyz" in result.stderr and "not installed" in result.stderr
    assert "FAILED" in result.stdout


def test_duplicate_pack_ids_write_neither(examples, tmp_path, cli):
    """Two recipes producing the same pack id are both reported and neither is written."""
    twin = examples / "twin.yaml"
    twin.write_text((examples / "deployctl.yaml").read_text())
    out = tmp_path / "out"
    result = cli("batch", str(examples / "deployctl.yaml"), str(twin), "-o", str(out), "-j", "1")
    assert result.exit_code == 1
    assert not (out / "deployctl").exists()
    assert result.stderr.count("pack id 'deployctl' is also produced by") == 2


def test_overrides_survive_help_changes_and_stale_names_warn(examples, tmp_path, cli):
    """After the tool's help changes, overrides still apply; names that vanished are warned with the closest."""
    script = examples / "bin" / "deployctl"
    text = script.read_text()
    # The tool renames --lines to --line-count and rewords its summaries.
    text = text.replace("--lines", "--line-count").replace(
        "Show the last lines", "Print the newest lines"
    )
    script.write_text(text)
    recipe = yaml.safe_load((examples / "deployctl.yaml").read_text())
    recipe["overrides"]["logs"] = {"args": {"include": ["lines"]}}
    recipe["overrides"]["lst"] = {"description": "Typo."}
    recipe["commands"].append("histroy")
    (examples / "deployctl.yaml").write_text(yaml.safe_dump(recipe, sort_keys=False))
    out = tmp_path / "out"
    result = cli("batch", str(examples / "deployctl.yaml"), "-o", str(out), "-j", "1")
    assert result.exit_code == 0, result.stderr
    manifest = yaml.safe_load((out / "deployctl" / "pack.yaml").read_text())
    assert manifest["verbs"]["destroy"]["policy"]["effect"] == "destructive"
    assert manifest["verbs"]["list"]["title"]["live"][0] == "Listing services in {{env}}"
    assert "newest lines" in manifest["verbs"]["logs"]["description"]
    assert (
        "args.include names `lines`" in result.stdout and "(closest: line_count)" in result.stdout
    )
    assert "override `lst` names no proposed command (closest: list)" in result.stdout
    assert "`histroy` is not a subcommand of deployctl any more (closest: history)" in result.stdout
    assert result.stdout.count("histroy") == 1


def test_batch_matches_wrap_recipe_and_parallel_matches_serial(examples, tmp_path, cli):
    """batch -j 2, batch -j 1 and `wrapgen wrap --recipe` write the same bytes."""
    one, two, single = tmp_path / "one", tmp_path / "two", tmp_path / "wrap"
    assert cli("batch", str(examples), "-o", str(one), "-j", "1").exit_code == 0
    assert cli("batch", str(examples), "-o", str(two), "-j", "2").exit_code == 0
    assert cli("wrap", "--recipe", str(examples / "notes.yaml"), "-o", str(single)).exit_code == 0
    for pack in ("deployctl", "notes"):
        for name in ("pack.yaml", "binding.json", "adapter.py"):
            assert (one / pack / name).read_bytes() == (two / pack / name).read_bytes()
    for name in ("pack.yaml", "binding.json", "adapter.py"):
        assert (one / "notes" / name).read_bytes() == (single / "notes" / name).read_bytes()


def test_memo_skips_unchanged_recipes_and_notices_edits(examples, tmp_path, monkeypatch):
    """A rerun of an unchanged recipe is memoized with the same files; an edited recipe converts again."""
    from wrapgen.flows.batch import run_batch

    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    recipe = examples / "deployctl.yaml"
    first = run_batch([recipe], out_dir=tmp_path / "out", jobs=1).outcomes[0]
    second = run_batch([recipe], out_dir=tmp_path / "out", jobs=1, check=True).outcomes[0]
    assert (
        not first.memoized and second.memoized and second.files == first.files and not second.diffs
    )
    assert (
        not run_batch([recipe], out_dir=tmp_path / "out", jobs=1, memo=False).outcomes[0].memoized
    )
    recipe.write_text(recipe.read_text().replace("Deploy services to", "Ship services to"))
    third = run_batch([recipe], out_dir=tmp_path / "out", jobs=1, check=True).outcomes[0]
    assert not third.memoized and third.diffs and "Ship services to" in third.files["pack.yaml"]


def test_check_compares_a_tool_whose_version_line_alone_changed_as_recorded(
    tmp_path, cli, own_cache
):
    """A tool whose help is the pack's but whose version line names a library's patch release
    (curl's 'OpenSSL/3.0.19' -> '3.0.22' on a machine updated since) passes --check with a warning
    that names the new line; a write records it; a changed help still fails --check."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "wg-form"
    text = (FIXTURE_TOOLS / "wg-form").read_text()
    script.write_text(
        text.replace('print("wg-form 0.1")', 'print("wg-form 0.1 (libwidget/2.1.0)")')
    )
    script.chmod(0o755)
    recipe = tmp_path / "wg-form.yaml"
    recipe.write_text("tool: wg-form\nsearch_paths: [bin]\n")
    out = tmp_path / "out"
    batch = ("batch", str(recipe), "-o", str(out), "-j", "1")
    assert cli(*batch).exit_code == 0
    pack_yaml = out / "wg-form" / "pack.yaml"
    made = pack_yaml.read_text()
    assert "libwidget/2.1.0" in made
    script.write_text(script.read_text().replace("libwidget/2.1.0", "libwidget/2.1.1"))
    check = cli(*batch, "--check")
    assert check.exit_code == 0, check.stdout
    assert "up to date" in check.stdout and "libwidget/2.1.1" in check.stdout
    assert pack_yaml.read_text() == made
    assert cli(*batch).exit_code == 0
    assert "libwidget/2.1.1" in pack_yaml.read_text()
    script.write_text(
        script.read_text()
        .replace("libwidget/2.1.1", "libwidget/2.1.2")
        .replace("Widgets in capitals", "Widgets in upper case")
    )
    changed = cli(*batch, "--check")
    assert changed.exit_code == 1 and "differs" in changed.stdout
