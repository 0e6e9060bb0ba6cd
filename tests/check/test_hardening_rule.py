"""The hardened-tools catalogue: validated when loaded, applied by the proposal, enforced by check (W040)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest

from wrapgen.check.rules import check_pack
from wrapgen.knowledge.harden import harden_manifest
from wrapgen.knowledge.hardening import (
    HardeningDataError,
    config_overrides_in,
    env_settings,
    hardening_for,
    load_catalogue,
    missing_flags,
    parse_catalogue,
)

REPO = Path(__file__).resolve().parents[2]


def _codes(directory) -> list[tuple[str, str]]:
    return [(d.code, d.field) for d in check_pack(directory) if d.code == "W040"]


def test_every_catalogue_entry_has_a_reason_and_git_covers_the_issue_keys():
    """Every tool and entry says why; git's overrides include the keys issue 12 names."""
    catalogue = load_catalogue()
    assert {"git", "curl", "kubectl", "docker"} <= set(catalogue)
    for entry in catalogue.values():
        assert entry.reason.strip()
        for item in (*entry.config, *entry.env, *entry.verb_flags, *entry.flags):
            assert item.reason.strip()
        for _, why in entry.not_covered:
            assert why.strip()
    keys = {o.key for o in hardening_for("git").config}
    assert {
        "core.fsmonitor",
        "core.hooksPath",
        "core.sshCommand",
        "core.pager",
        "core.editor",
        "credential.helper",
        "protocol.ext.allow",
        "core.askPass",
    } <= keys
    # kubectl and docker: no longer notes only, a credential guard each (tests/check/test_credential_guard_rule.py)
    assert (
        not hardening_for("kubectl").empty and hardening_for("kubectl").credential_guard is not None
    )
    assert (
        hardening_for("kubectl").not_covered
        and hardening_for("docker").credential_guard is not None
    )


@pytest.mark.parametrize(
    "broken, words",
    [
        ({"git": {"reason": "x", "config": [{"key": "core.pager", "value": "cat"}]}}, "reason"),
        (
            {
                "git": {
                    "reason": "x",
                    "config": [
                        {"key": "core.pager", "value": "cat", "reason": "a"},
                        {"key": "core.Pager", "value": "less", "reason": "b"},
                    ],
                }
            },
            "second time",
        ),
        (
            {
                "git": {
                    "reason": "x",
                    "verb_flags": [
                        {"verbs": ["diff"], "flags": ["--a"], "reason": "a"},
                        {"verbs": ["log", "diff"], "flags": ["--b", "--a"], "reason": "b"},
                    ],
                }
            },
            "again",
        ),
        ({"curl": {"reason": "x", "config": [{"key": "a.b", "value": "c", "reason": "d"}]}}, "git"),
        ({"curl": {"reason": ""}}, "reason"),
    ],
)
def test_a_malformed_catalogue_is_refused_with_the_entry_named(broken, words):
    """A missing reason, a key set twice, a verb given a flag twice, config for a non-git tool: errors."""
    with pytest.raises(HardeningDataError, match=words):
        parse_catalogue({"version": 1, "reason": "r", "tools": broken})


def test_git_env_settings_are_a_consistent_git_config_block():
    """GIT_CONFIG_COUNT matches the KEY_n/VALUE_n pairs, which read back as the catalogue's config."""
    entry = hardening_for("/usr/bin/git")
    env = env_settings(entry)
    assert int(env["GIT_CONFIG_COUNT"]) == len(entry.config)
    assert config_overrides_in(env) == {o.key.lower(): o.value for o in entry.config}
    assert env["GIT_TERMINAL_PROMPT"] == "0"


def test_harden_manifest_adds_flags_before_the_literal_dashdash_and_env_set():
    """git diff gets --no-ext-diff --no-textconv --ignore-submodules=dirty right before its '--'; status
    the last alone; env.set the block; the input manifest is not changed."""
    manifest = {
        "pack_id": "git",
        "description": "d",
        "bin": "git",
        "verbs": {
            "diff": {"description": "d", "cli": ["git", "diff", "--stat", "--", "{{paths}}"]},
            "log": {"description": "d", "cli": ["git", "log", "--max-count={{n}}"]},
            "status": {"description": "d", "cli": ["git", "status"]},
        },
    }
    before = copy.deepcopy(manifest)
    out = harden_manifest(manifest, tool="git")
    assert manifest == before
    assert out["verbs"]["diff"]["cli"] == [
        "git",
        "diff",
        "--stat",
        "--no-ext-diff",
        "--no-textconv",
        "--ignore-submodules=dirty",
        "--",
        "{{paths}}",
    ]
    # never right before a placeholder (omitting it would drop them): at the end when there is no '--'
    assert out["verbs"]["log"]["cli"] == [
        "git",
        "log",
        "--max-count={{n}}",
        "--no-ext-diff",
        "--no-textconv",
        "--ignore-submodules=dirty",
    ]
    assert out["verbs"]["status"]["cli"] == ["git", "status", "--ignore-submodules=dirty"]
    assert out["env"]["set"] == env_settings(hardening_for("git"))
    assert harden_manifest(out, tool="git") == out, "hardening twice changes nothing"


def test_harden_manifest_keeps_a_packs_own_git_config_and_wins_over_it():
    """A pack's own GIT_CONFIG_* entries stay, renumbered; a catalogued key gets the catalogue's value."""
    manifest = {
        "pack_id": "git",
        "description": "d",
        "bin": "git",
        "verbs": {},
        "env": {
            "set": {
                "GIT_CONFIG_COUNT": "2",
                "GIT_CONFIG_KEY_0": "color.ui",
                "GIT_CONFIG_VALUE_0": "never",
                "GIT_CONFIG_KEY_1": "core.fsmonitor",
                "GIT_CONFIG_VALUE_1": "/evil",
                "OTHER": "1",
            }
        },
    }
    out = harden_manifest(manifest, tool="git")["env"]["set"]
    config = config_overrides_in(out)
    assert config["color.ui"] == "never" and config["core.fsmonitor"] == "false"
    assert out["OTHER"] == "1"


def test_curl_verbs_get_the_protocol_restriction():
    """Every curl verb gets --proto =http,https --proto-redir =http,https --globoff and -sS, and every
    string arg a pattern that refuses CR and LF."""
    out = harden_manifest(
        {
            "pack_id": "curl",
            "description": "d",
            "bin": "curl",
            "verbs": {
                "get": {
                    "description": "d",
                    "cli": ["curl", "--location", "{{location}}", "--", "{{url}}"],
                }
            },
        },
        tool="curl",
    )
    assert out["verbs"]["get"]["cli"] == [
        "curl",
        "--location",
        "{{location}}",
        "--proto",
        "=http,https",
        "--proto-redir",
        "=http,https",
        "--globoff",
        "-sS",
        "--",
        "{{url}}",
    ]
    assert "env" not in out


def test_an_uncatalogued_tool_comes_back_unchanged():
    """jq is not in the catalogue: nothing is added."""
    manifest = {
        "pack_id": "jq",
        "description": "d",
        "bin": "jq",
        "verbs": {"q": {"description": "d", "cli": ["jq", "{{f}}"]}},
    }
    assert harden_manifest(manifest, tool="jq") == manifest


def test_missing_flags_sees_a_flag_right_before_a_placeholder_as_missing():
    """`--no-textconv {{x}}` is dropped with x: it does not count."""
    entry = hardening_for("git")
    assert missing_flags(entry, ["git", "blame", "--no-textconv", "--", "{{f}}"]) == []
    assert missing_flags(entry, ["git", "blame", "--no-textconv", "{{f}}"]) == [("--no-textconv",)]


def test_shipped_git_and_curl_packs_pass_w040():
    """adapters/git, adapters/curl and tests/packs/git carry their hardening: no W040."""
    for directory in ("adapters/git", "adapters/curl", "tests/packs/git"):
        assert _codes(REPO / directory) == [], directory


def _binding(pack: Path) -> dict:
    from wrapgen.pack.derive import derived_binding

    return derived_binding(pack)


def test_a_git_pack_stripped_of_its_hardening_still_runs_hardened(tmp_path):
    """Without env.set, config_guard and a diff verb's --no-ext-diff, the pack builds (W040 is
    information, naming what is left out) and its binding, all the runtime runs, carries all of it."""
    pack = tmp_path / "git"
    shutil.copytree(REPO / "tests" / "packs" / "git", pack)
    whole = _binding(pack)
    text = (pack / "pack.yaml").read_text()
    head, _, rest = text.partition("env:\n")
    _, _, verbs = rest.partition("verbs:\n")
    stripped = head + "verbs:\n" + verbs.replace("--stat, --no-ext-diff, --no-textconv,", "--stat,")
    assert (
        "config_guard" not in stripped and "--no-ext-diff" not in stripped.split("diff:")[1][:400]
    )
    (pack / "pack.yaml").write_text(stripped)
    findings = [d for d in check_pack(pack) if d.code == "W040"]
    assert [d.level for d in findings] == ["info"]
    assert "env.set" in findings[0].message and "config_guard" in findings[0].message
    assert "--no-ext-diff" in findings[0].message
    binding = _binding(pack)
    assert binding["env"]["set"] == whole["env"]["set"]
    assert binding["config_guard"] == whole["config_guard"]
    assert "--no-ext-diff" in binding["verbs"]["diff"]["argv"]
    assert set(binding["verbs"]["diff"]["argv"]) == set(whole["verbs"]["diff"]["argv"])


def test_a_narrowed_config_guard_is_replaced_and_a_wider_one_kept(tmp_path):
    """A config_guard that does less than the catalogue's is replaced by it in the binding; one that
    does more (pack.yaml may only add) is kept as written."""
    pack = tmp_path / "git"
    shutil.copytree(REPO / "tests" / "packs" / "git", pack)
    text = (pack / "pack.yaml").read_text()
    whole = _binding(pack)["config_guard"]
    narrowed = text.replace("scopes: [local, worktree]", "scopes: [worktree]")
    assert narrowed != text
    (pack / "pack.yaml").write_text(narrowed)
    assert _binding(pack)["config_guard"] == whole
    assert [d.level for d in check_pack(pack) if d.code == "W040"] == ["info"]
    wider = text.replace("scopes: [local, worktree]", "scopes: [local, worktree, global]")
    (pack / "pack.yaml").write_text(wider)
    assert _binding(pack)["config_guard"]["scopes"] == ["local", "worktree", "global"]
    assert [d for d in check_pack(pack) if d.code == "W040"] == []


def test_a_curl_verb_without_proto_gets_it_from_the_runtime(tmp_path):
    """A curl read verb without --proto =http,https: information from check, the flag in the binding."""
    pack = tmp_path / "curl"
    shutil.copytree(REPO / "adapters" / "curl", pack)
    text = (pack / "pack.yaml").read_text()
    (pack / "pack.yaml").write_text(text.replace("      - --proto\n      - =http,https\n", "", 1))
    findings = [d for d in check_pack(pack) if d.code == "W040"]
    assert [d.level for d in findings] == ["info"] and "--proto =http,https" in findings[0].message
    argv = _binding(pack)["verbs"]["get"]["argv"]
    assert argv[argv.index("--proto") + 1] == "=http,https"


def test_a_pack_that_sets_a_hardening_value_otherwise_is_refused(tmp_path):
    """env.set giving one of git's overrides another value is an error naming it; the binding keeps
    the catalogue's value all the same."""
    pack = tmp_path / "git"
    shutil.copytree(REPO / "tests" / "packs" / "git", pack)
    text = (pack / "pack.yaml").read_text()
    assert "GIT_CONFIG_VALUE_1: /dev/null" in text
    (pack / "pack.yaml").write_text(
        text.replace("GIT_CONFIG_VALUE_1: /dev/null", "GIT_CONFIG_VALUE_1: ./hooks")
    )
    errors = [d for d in check_pack(pack) if d.code == "W040" and d.level == "error"]
    assert errors and "core.hookspath=./hooks" in errors[0].message
    assert _binding(pack)["env"]["set"]["GIT_CONFIG_VALUE_1"] == "/dev/null"
