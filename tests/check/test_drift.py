"""check/drift.py, the pure classifier, on gh's real captured help (tests/fixtures/help/cobra): the
captured tree is the "new" gh; the "old" gh is the same tree edited the way an older release differs
(fewer flags, a command missing, another summary), so every class of change has a real help behind it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from wrapgen.check.drift import (
    Change,
    Drift,
    classify,
    help_sha256,
    not_found,
    pack_paths,
    short_version,
    snapshot,
    snapshot_text,
    verb_path,
    version_drift,
)
from wrapgen.errors import ExitStatus
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.propose.policy import classify as guess

CAPTURED = Path(__file__).resolve().parents[1] / "fixtures" / "help" / "cobra"


def _command(name: str) -> Command:
    return Command.from_dict(json.loads((CAPTURED / f"{name}.json").read_text(encoding="utf-8")))


def _swap(parent: Command, child: Command) -> Command:
    return parent.with_changes(
        subcommands=tuple(child if s.path == child.path else s for s in parent.subcommands)
    )


def _gh(version: str = "gh version 2.46.0 (2024-03-20)", *, root: Command | None = None) -> Tool:
    """gh as captured: the root, with `pr` (and `pr list`) and `issue view` read in full."""
    if root is None:
        pr = _swap(_command("gh_pr"), _command("gh_pr_list"))
        root = _swap(_command("gh"), pr)
        issue = next(s for s in root.subcommands if s.path == ("issue",))
        issue = issue.with_changes(subcommands=(_command("gh_issue_view"),), stub=False)
        root = _swap(root, issue)
    return Tool(name="gh", root=root, version=version)


def _edit(tool: Tool, path: tuple[str, ...], **changes) -> Tool:
    """``tool`` with the command at ``path`` changed."""

    def walk(node: Command) -> Command:
        if node.path == path:
            return node.with_changes(**changes)
        return node.with_changes(subcommands=tuple(walk(s) for s in node.subcommands))

    return replace(tool, root=walk(tool.root))


def _effect(command: Command) -> str:
    return guess(command).effect


MANIFEST_VERBS = {
    "pr.list": {
        "cli": [
            "gh",
            "pr",
            "list",
            "--state={{state}}",
            "--label",
            "{{label}}",
            "--limit={{limit}}",
        ]
    },
    "issue.view": {
        "cli": ["gh", "issue", "view", "--comments", "{{comments}}", "--", "{{number}}"]
    },
}


def _pack(old: Tool) -> tuple[dict, dict]:
    snap = snapshot(old, MANIFEST_VERBS, effect_of=_effect)
    manifest = {
        "pack_id": "gh",
        "bin": "gh",
        "verbs": MANIFEST_VERBS,
        "source": {"version": snap["version"], "help_sha256": snap["help_sha256"]},
    }
    return manifest, snap


def _older() -> Tool:
    """An older gh: `pr list` without --app, --draft and --head; no `gh browse`; version 2.40.0."""
    new = _gh()
    pr_list = new.root.find(("pr", "list"))
    old_flags = tuple(f for f in pr_list.flags if f.long not in ("--app", "--draft", "--head"))
    old = _edit(new, ("pr", "list"), flags=old_flags)
    old = replace(
        old,
        version="gh version 2.40.0 (2023-12-07)",
        root=old.root.with_changes(
            subcommands=tuple(s for s in old.root.subcommands if s.path != ("browse",))
        ),
    )
    return old


def test_the_fixture_is_what_the_classifier_reads():
    new = _gh()
    assert verb_path(new.root, MANIFEST_VERBS["pr.list"]["cli"]) == ("pr", "list")
    assert verb_path(new.root, MANIFEST_VERBS["issue.view"]["cli"]) == ("issue", "view")
    assert {"--state", "--label", "--limit", "--app"} <= {
        f.long for f in new.root.find(("pr", "list")).flags
    }


def test_unchanged_tool_is_no_drift():
    manifest, snap = _pack(_gh())
    drift = classify(manifest, snap, _gh(), effect_of=_effect)
    assert drift.changes == () and drift.level == "none" and drift.exit_status == ExitStatus.OK
    assert drift.summary() == "gh 2.46.0: unchanged"


def test_new_flags_and_commands_are_compatible():
    """The issue's example line: an upgrade that only adds is compatible, with the counts."""
    manifest, snap = _pack(_older())
    drift = classify(manifest, snap, _gh(), effect_of=_effect)
    kinds = {c.kind: c for c in drift.changes}
    assert kinds["new-flags"].count == 3 and kinds["new-commands"].count == 1
    assert drift.level == "compatible" and drift.exit_status == ExitStatus.DRIFT_COMPATIBLE
    assert drift.summary() == "gh 2.40.0 -> 2.46.0: compatible, 3 new flags; 1 new command"
    assert "version" in kinds and kinds["version"].level == "metadata"


def test_a_flag_a_verb_uses_gone_is_breaking():
    manifest, snap = _pack(_gh())
    pr_list = _gh().root.find(("pr", "list"))
    newer = _edit(
        _gh(), ("pr", "list"), flags=tuple(f for f in pr_list.flags if f.long != "--label")
    )
    drift = classify(manifest, snap, replace(newer, version="gh version 3.0.0"), effect_of=_effect)
    gone = [c for c in drift.changes if c.kind == "flag-gone"]
    assert [(c.verb, c.level) for c in gone] == [("pr.list", "breaking")]
    assert "--label" in gone[0].message and drift.exit_status == ExitStatus.DRIFT_BREAKING
    assert drift.summary().startswith(
        "gh 2.46.0 -> 3.0.0: breaking, `gh pr list` no longer takes --label"
    )
    # the flag no verb uses that went with it is not counted twice
    assert not any(c.kind == "unused-flags-gone" for c in drift.changes)


def test_an_unused_flag_gone_is_compatible():
    manifest, snap = _pack(_gh())
    pr_list = _gh().root.find(("pr", "list"))
    newer = _edit(_gh(), ("pr", "list"), flags=tuple(f for f in pr_list.flags if f.long != "--app"))
    drift = classify(manifest, snap, newer, effect_of=_effect)
    assert [(c.kind, c.count) for c in drift.changes] == [("unused-flags-gone", 1)]
    assert drift.level == "compatible"


def test_a_command_a_verb_uses_gone_is_breaking():
    manifest, snap = _pack(_gh())
    newer = _edit(_gh(), ("issue",), subcommands=())
    drift = classify(manifest, snap, newer, effect_of=_effect)
    assert [(c.kind, c.verb) for c in drift.changes if c.level == "breaking"] == [
        ("command-gone", "issue.view")
    ]
    assert "`gh issue view` is gone" in drift.summary()


def test_an_effect_escalated_by_the_help_is_breaking():
    """gh pr list's help now says it deletes: the pack's read verb may no longer be one."""
    manifest, snap = _pack(_gh())
    assert snap["verbs"]["pr.list"]["effect"] == "read"
    newer = _edit(_gh(), ("pr", "list"), summary="Delete pull requests in a GitHub repository.")
    drift = classify(manifest, snap, newer, effect_of=_effect)
    (escalated,) = [c for c in drift.changes if c.kind == "effect-escalated"]
    assert (
        escalated.level == "breaking"
        and "destructive" in escalated.message
        and "read" in escalated.message
    )


def test_a_new_required_operand_is_breaking_and_a_renamed_one_metadata():
    manifest, snap = _pack(_gh())
    view = _gh().root.find(("issue", "view"))
    more = _edit(
        _gh(),
        ("issue", "view"),
        positionals=(*view.positionals, Positional(name="repo", required=True)),
    )
    drift = classify(manifest, snap, more, effect_of=_effect)
    assert [(c.kind, c.level) for c in drift.changes] == [("new-required-operand", "breaking")]
    renamed = _edit(_gh(), ("issue", "view"), positionals=(Positional(name="issue"),))
    drift = classify(manifest, snap, renamed, effect_of=_effect)
    assert [(c.kind, c.level) for c in drift.changes] == [("operands-renamed", "metadata")]
    assert drift.exit_status == ExitStatus.DRIFT_METADATA


def test_help_text_alone_and_version_alone_are_metadata():
    manifest, snap = _pack(_gh())
    reworded = _edit(_gh(), ("pr", "list"), description="Lists pull requests.")
    drift = classify(manifest, snap, reworded, effect_of=_effect)
    assert [c.kind for c in drift.changes] == ["help-text"] and drift.level == "metadata"
    bumped = replace(_gh(), version="gh version 2.46.1 (2024-04-01)")
    drift = classify(manifest, snap, bumped, effect_of=_effect)
    assert (
        [c.kind for c in drift.changes] == ["version"]
        and drift.summary()
        == "gh 2.46.0 -> 2.46.1: metadata, "
        "version line was 'gh version 2.46.0 (2024-03-20)', now 'gh version 2.46.1 (2024-04-01)'"
    )


def test_without_a_snapshot_the_cli_is_still_checked():
    """A pack made before source.json (or by hand): a flag its cli names that the tool lacks is breaking."""
    manifest = {
        "pack_id": "gh",
        "bin": "gh",
        "verbs": {"pr.list": {"cli": ["gh", "pr", "list", "--no-such-flag"]}},
    }
    drift = classify(manifest, None, _gh(), effect_of=_effect)
    assert [(c.kind, c.level) for c in drift.changes if c.level == "breaking"] == [
        ("flag-gone", "breaking")
    ]


def test_a_short_spelling_counts_as_its_flag():
    manifest, snap = _pack(_gh())
    verbs = {"pr.list": {"cli": ["gh", "pr", "list", "-L", "{{limit}}"]}}
    manifest = {**manifest, "verbs": verbs}
    snap = snapshot(_gh(), verbs, effect_of=_effect)
    assert any(
        group.split()[0] == "--limit" and "-L" in group.split()
        for group in snap["commands"]["pr list"]["flags"]
    )
    pr_list = _gh().root.find(("pr", "list"))
    no_short = tuple(replace(f, short=None) if f.long == "--limit" else f for f in pr_list.flags)
    drift = classify(
        manifest, snap, _edit(_gh(), ("pr", "list"), flags=no_short), effect_of=_effect
    )
    assert any(c.kind == "flag-gone" and "-L" in c.message for c in drift.changes)


def test_tool_not_found_is_breaking():
    drift = not_found("gh", "gh", "gh version 2.46.0", "gh: not found on PATH")
    assert drift.level == "breaking" and drift.exit_status == ExitStatus.DRIFT_BREAKING
    assert drift.summary() == "gh: breaking: tool not found"


def test_version_drift_is_the_cheap_serve_check():
    source = {"version": "gh version 2.40.0 (2023-12-07)"}
    assert version_drift("gh", "gh", source, "gh version 2.40.0 (2023-12-07)").level == "none"
    drift = version_drift("gh", "gh", source, "gh version 2.46.0 (2024-03-20)")
    assert drift.level == "metadata" and drift.checked == "version"
    assert drift.summary().startswith("gh 2.40.0 -> 2.46.0: metadata")
    assert (
        version_drift("gh", "gh", None, "anything").level == "none"
    )  # nothing recorded, nothing to say


def test_snapshot_is_deterministic_and_small():
    one = snapshot_text(snapshot(_gh(), MANIFEST_VERBS, effect_of=_effect))
    assert one == snapshot_text(snapshot(_gh(), MANIFEST_VERBS, effect_of=_effect))
    data = json.loads(one)
    assert sorted(data["commands"]) == ["", "issue", "issue view", "pr", "pr list"]
    assert data["verbs"] == {
        "issue.view": {"effect": "read", "path": "issue view"},
        "pr.list": {"effect": "read", "path": "pr list"},
    }
    assert (
        data["help_sha256"] == help_sha256(_gh(), pack_paths(_gh(), MANIFEST_VERBS))
        and len(data["help_sha256"]) == 64
    )


def test_the_fingerprint_covers_only_what_the_pack_uses():
    """A command no verb uses (a probe that timed out there, a plugin on this machine's PATH) does not
    move the fingerprint; a command the pack uses does. Subcommands listed as external are left out."""
    paths = pack_paths(_gh(), MANIFEST_VERBS)
    base = help_sha256(_gh(), paths)
    assert help_sha256(_edit(_gh(), ("pr", "create"), summary="Changed."), paths) == base
    assert help_sha256(_edit(_gh(), ("pr", "list"), summary="Changed."), paths) != base
    plugin = Command(path=("plugin-x",), group="External commands")
    local = replace(
        _gh(), root=_gh().root.with_changes(subcommands=(*_gh().root.subcommands, plugin))
    )
    assert help_sha256(local, paths) == base
    assert (
        "plugin-x"
        not in snapshot(local, MANIFEST_VERBS, effect_of=_effect)["commands"][""]["subcommands"]
    )


@pytest.mark.parametrize(
    "line, short",
    [
        ("git version 2.43.0", "2.43.0"),
        ("ripgrep 13.0.0 (rev 7ec2fd51ba)", "13.0.0"),
        ("jq-1.6", "1.6"),
        ("", ""),
        ("no digits", "no digits"),
    ],
)
def test_short_version(line, short):
    assert short_version(line) == short


def test_drift_to_dict_is_json():
    drift = Drift(
        "gh", "gh", "1.0", "2.0", (Change("compatible", "new-flags", "2 new flags", count=2),)
    )
    data = json.loads(json.dumps(drift.to_dict()))
    assert (
        data["level"] == "compatible"
        and data["summary"] == "gh 1.0 -> 2.0: compatible, 2 new flags"
    )


def test_the_probe_scratch_directory_is_not_fingerprinted():
    """docker shows its config default under the probe's scratch HOME, a new directory each probe."""

    def with_default(where: str) -> Tool:
        flag = Flag(
            long="--config",
            takes_value=True,
            default=f"{where}/home/.docker",
            description=f'Location of client config files (default "{where}/home/.docker")',
        )
        return replace(_gh(), root=_gh().root.with_changes(global_flags=(flag,)))

    one = help_sha256(with_default("/tmp/wrapgen-probe-n1zcb8y8"))
    assert one == help_sha256(with_default("/var/tmp/wrapgen-probe-ejlt96fr"))
    assert one != help_sha256(with_default("/etc"))
