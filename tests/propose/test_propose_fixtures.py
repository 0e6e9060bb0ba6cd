"""propose() on captured help of tools that have no recipe: the engine alone must pick sensibly."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.model.tool import Tool
from wrapgen.pack.manifest import dump_manifest
from wrapgen.parse import parse_help
from wrapgen.propose import propose

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def _tool(style: str, name: str, subs: tuple[str, ...] = ()) -> Tool:
    """The root's help, with the captured help of some subcommands put in place of their stubs."""
    root = parse_help((HELP / style / f"{name}.txt").read_text(encoding="utf-8"), prog=(name,))
    children = []
    for sub in root.subcommands:
        if sub.name in subs:
            full = parse_help(
                (HELP / style / f"{name}_{sub.name}.txt").read_text(encoding="utf-8"),
                prog=(name, sub.name),
            )
            sub = full.with_changes(
                path=(sub.name,), summary=sub.summary or full.summary, group=sub.group
            )
        children.append(sub)
    return Tool(name=name, root=root.with_changes(subcommands=tuple(children)))


def _chosen(proposal):
    return {d.name: d for d in proposal.chosen}


def _left(proposal):
    return {d.path: d.reason for d in proposal.decisions if not d.chosen}


def test_pip_reads_first_and_leaves_out_help_completion():
    """pip: list/show/freeze/check are proposed as reads; help and completion are left out with reasons."""
    proposal = propose(_tool("gnu", "pip", ("install",)))
    chosen = _chosen(proposal)
    for name in ("list", "show", "freeze", "check"):
        assert chosen[name].effect == "read"
    assert chosen["install"].effect == "write"
    assert proposal.manifest["verbs"]["install"]["policy"] == {"effect": "write", "confirm": True}
    left = _left(proposal)
    assert "help" in left["help"] and "completion" in left["completion"]
    assert 5 <= len(chosen) <= 12


def test_docker_common_commands_and_no_mega_commands():
    """docker: ps/images/logs/inspect are in; run/exec are mega-commands and login is interactive."""
    proposal = propose(_tool("cobra", "docker", ("ps",)))
    chosen = _chosen(proposal)
    assert {"ps", "images", "logs", "inspect"} <= set(chosen)
    left = _left(proposal)
    assert "mega-command" in left["run"] and "mega-command" in left["exec"]
    assert "login" in left["login"]
    assert proposal.manifest["verbs"]["ps"]["json"] == ["--format", "json"]


def test_kubectl_reads_and_json_via_dash_o():
    """kubectl: get/describe/logs are reads, get selects JSON with -o json, edit and exec stay out."""
    proposal = propose(_tool("cobra", "kubectl", ("get",)))
    chosen = _chosen(proposal)
    assert all(chosen[n].effect == "read" for n in ("get", "describe", "logs"))
    assert proposal.manifest["verbs"]["get"].get("json", proposal.manifest["json"]) == [
        "-o",
        "json",
    ]
    left = _left(proposal)
    assert "editor" in left["edit"] and "mega-command" in left["exec"]


def test_cargo_leaves_out_run_and_keeps_build():
    """cargo: run forwards a program's arguments (left out); build is a confirm-gated write."""
    proposal = propose(_tool("clap", "cargo", ("build",)))
    verbs = proposal.manifest["verbs"]
    assert "run" not in verbs
    assert verbs["build"]["policy"]["confirm"] is True
    assert "--package={{package}}" in verbs["build"]["cli"]


def test_ls_without_subcommands_gets_modes():
    """ls has no subcommands: its main mode is named from its help ('List ...') and its listing modes follow."""
    proposal = propose(_tool("gnu", "ls"))
    verbs = proposal.manifest["verbs"]
    assert next(iter(verbs)) == "list"
    assert verbs["list"]["policy"]["effect"] == "read"
    assert all(v["policy"]["effect"] == "read" for v in verbs.values())


def test_jq_prints_json_with_compact_output():
    """jq: the tool prints JSON, so the pack selects it with -c (JSON lines); -r is a text mode."""
    proposal = propose(_tool("gnu", "jq"))
    manifest = proposal.manifest
    assert manifest["json"] == ["-c"]
    assert manifest["verbs"]["raw-output"]["json"] is False
    cli = manifest["verbs"]["query"]["cli"]
    # the filter is the first operand, before the files
    assert cli[0] == "jq" and cli.index("{{jq_filter}}") < cli.index("{{files}}")


def test_rg_modes_and_json_variant():
    """rg: search, files, list of types and search.json (with --json) from one root help."""
    proposal = propose(_tool("clap", "rg"))
    verbs = proposal.manifest["verbs"]
    assert {"search", "files", "type-list", "search.json"} <= set(verbs)
    assert verbs["search.json"]["json"] == ["--json"]
    assert verbs["files"]["cli"][:2] == ["rg", "--files"]
    assert "pattern" not in verbs["type-list"]["args"]["properties"]


@pytest.mark.parametrize(
    "style,name,subs",
    [
        ("gnu", "pip", ("install",)),
        ("cobra", "docker", ("ps",)),
        ("cobra", "kubectl", ("get",)),
        ("clap", "cargo", ("build",)),
        ("gnu", "ls", ()),
        ("gnu", "tar", ()),
        ("click", "flask", ("run",)),
        ("argparse", "pytest", ()),
        ("docopt", "naval-fate", ()),
        ("cobra", "gh", ()),
    ],
)
def test_every_fixture_proposal_is_a_valid_manifest_with_titles(style, name, subs):
    """Each proposal validates against pack.schema.json and every verb has live and done titles."""
    proposal = propose(_tool(style, name, subs))
    dump_manifest(proposal.manifest)  # raises on a schema violation
    for verb in proposal.manifest["verbs"].values():
        assert verb["title"]["live"] and verb["title"]["done"]
        assert "{{" not in verb["title"]["live"][-1] and "{{" not in verb["title"]["done"][-1]


def test_a_root_option_naming_the_application_leads_every_command_of_a_click_group():
    """A click group's options stand before its command (`flask --app=x routes`): the root's
    `--app`, which names the application every command acts on, is each verb's first optional arg,
    written before the command's words; `run` of its own flags keeps them after."""
    proposal = propose(_tool("click", "flask", ("run",)))
    verbs = proposal.manifest["verbs"]
    assert verbs
    for name, verb in verbs.items():
        cli = verb["cli"]
        assert cli[:2] == ["flask", "--app={{app}}"], (name, cli)
        assert "app" in verb["args"]["properties"] and "app" not in verb["args"].get("required", [])


def test_a_root_option_that_may_follow_the_command_or_that_the_command_has_is_no_lead():
    """Where a style's root options may follow the command (cobra) none leads; a command with an
    option of the same spelling takes its own; an option no table names never leads."""
    from wrapgen.model.tool import Command, Flag
    from wrapgen.propose.args import leading_options

    app = Flag(long="--app", short="-A", takes_value=True)
    root = Command(path=(), flags=(app, Flag(long="--broker", takes_value=True)))
    sub = Command(path=("status",))
    assert leading_options(root, sub, style="click", tool="wg-queue") == (app,)
    assert leading_options(root, sub, style="cobra", tool="wg-queue") == ()
    # a style whose options may not take "=value" in the same token: no lead (cli_words passes
    # over only that form to find the command's words)
    assert leading_options(root, sub, style="kingpin", tool="wg-queue") == ()
    own = Command(path=("logs",), flags=(Flag(long="--app", takes_value=True),))
    assert leading_options(root, own, style="click", tool="wg-queue") == ()
    assert leading_options(root, root, style="click", tool="wg-queue") == ()
