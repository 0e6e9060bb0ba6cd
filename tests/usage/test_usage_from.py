"""--usage-from and `usage_from:`: local usage reaches the proposal, and no value of it reaches a pack."""

from __future__ import annotations

import stat
import textwrap
from pathlib import Path

import pytest

from wrapgen.flows.wrap import _with_usage_from
from wrapgen.model.recipe import ProposalRequest
from wrapgen.pack.recipe import RecipeError, parse_recipe

_ACMECTL = textwrap.dedent('''\
    #!/usr/bin/env python3
    """acmectl: ship the acme service."""
    import argparse, json
    p = argparse.ArgumentParser(prog="acmectl", description="Ship and watch the acme service.")
    sub = p.add_subparsers(dest="cmd", title="commands")
    s = sub.add_parser("status", help="Show the service status")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s.add_argument("host", nargs="?", help="The host to ask")
    s = sub.add_parser("logs", help="Show the service logs")
    s.add_argument("--since", help="Only logs newer than this")
    s.add_argument("host", nargs="?", help="The host to read")
    s = sub.add_parser("deploy", help="Deploy the service")
    s.add_argument("--token", help="The API token")
    s.add_argument("--password", help="The database password")
    s.add_argument("host", help="The host to deploy to")
    a = p.parse_args()
    if a.cmd in ("status", "logs"):
        print(json.dumps({"ok": True}))
''')

SECRETS = (
    "ghp_Zx9Q8w7E6r5T4y3U2i1O0pAsDfGhJkLz",  # a token
    "hunter2-Correct-Horse",  # a password
    "db01.prod.internal.example.net",  # a host name
)


@pytest.fixture
def acmectl(tmp_path) -> Path:
    tool = tmp_path / "bin" / "acmectl"
    tool.parent.mkdir()
    tool.write_text(_ACMECTL)
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return tool


@pytest.fixture
def scripts(tmp_path) -> Path:
    """A repository whose scripts, Makefile, CI and history call acmectl with secrets in them."""
    token, password, host = SECRETS
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "scripts" / "deploy.sh").write_text(
        f"#!/bin/sh\nexport ACME_TOKEN={token}\n"
        f"acmectl deploy --token {token} --password={password} {host}\n"
        f"acmectl status --json {host} | jq .ok\n"
        f"acmectl logs --since 1h {host}\n"
    )
    (repo / "Makefile").write_text(f"status:\n\t@acmectl status --json {host}\n")
    (repo / ".github" / "workflows" / "ship.yml").write_text(
        "on: push\njobs:\n  ship:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - run: acmectl deploy --token {token} --password {password} {host}\n"
    )
    (repo / ".bash_history").write_text(f"acmectl {password} status\nacmectl logs {host}\n")
    (repo / "package.json").write_text('{"scripts": {"ship": "acmectl deploy ')  # cut short
    return repo


def test_no_value_of_local_usage_reaches_the_pack_or_its_skill(cli, acmectl, scripts, tmp_path):
    """A token, a password and a host name in scripts used via --usage-from are in no file of the pack, nor its SKILL.md."""
    out = tmp_path / "packs"
    result = cli("wrap", str(acmectl), "-o", str(out), "--no-try", "--usage-from", str(scripts))
    assert result.exit_code == 0, result.stderr + result.stdout
    pack = out / "acmectl"
    assert (pack / "pack.yaml").is_file() and (pack / "binding.json").is_file()
    # the evidence did reach the proposal: the verbs stand on the scripts' uses
    assert "repo/scripts/deploy.sh" in (pack / "pack.yaml").read_text()
    assert "skipped repo/package.json: not JSON" in result.stdout
    skills = tmp_path / "skills"
    exported = cli("export", str(pack), "--format", "skill", "-o", str(skills))
    assert exported.exit_code == 0, exported.stderr + exported.stdout
    files = [p for p in (*pack.rglob("*"), *skills.rglob("*")) if p.is_file()]
    assert any(p.name == "SKILL.md" for p in files)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for secret in SECRETS:
            assert secret not in text, f"{secret!r} reached {path.relative_to(tmp_path)}"
    for secret in SECRETS:
        assert secret not in result.stdout + result.stderr


def test_a_missing_usage_from_path_is_a_usage_error(cli, acmectl, tmp_path):
    """--usage-from a path that does not exist stops before discovery, naming it."""
    result = cli("wrap", str(acmectl), "-o", str(tmp_path), "--usage-from", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "--usage-from" in result.stderr and "nope" in result.stderr


def test_a_recipes_usage_from_is_resolved_against_the_recipe(tmp_path):
    """`usage_from:` paths are absolute, relative to the recipe, and reach the proposal request."""
    source = tmp_path / "recipes" / "acmectl.yaml"
    recipe = parse_recipe("tool: acmectl\nusage_from: [../repo, ../Makefile]\n", source=str(source))
    assert recipe.usage_from == (str(tmp_path / "repo"), str(tmp_path / "Makefile"))
    assert ProposalRequest.of(recipe).usage_from == recipe.usage_from
    with pytest.raises(RecipeError, match="usage_from"):
        parse_recipe("tool: acmectl\nusage_from: ../repo\n", source=str(source))


def test_usage_from_is_added_to_a_recipes_own_for_the_proposal(tmp_path):
    """wrap's usage_from= joins a recipe's, or makes a request that carries only it."""
    added = _with_usage_from(None, [tmp_path / "a"])
    assert added == ProposalRequest(usage_from=(str(tmp_path / "a"),))
    recipe = parse_recipe("tool: acmectl\nusage_from: [x]\n", source=str(tmp_path / "r.yaml"))
    both = _with_usage_from(recipe, [tmp_path / "b"])
    assert both.usage_from == (str(tmp_path / "x"), str(tmp_path / "b"))
    assert both.tool == "acmectl"


_FLEETCTL = textwrap.dedent('''\
    #!/usr/bin/env python3
    """fleetctl: two families of read commands, for wrap --split."""
    import argparse
    p = argparse.ArgumentParser(prog="fleetctl", description="Watch a fleet.")
    groups = p.add_subparsers(dest="group", title="commands")
    for group in ("db", "job"):
        g = groups.add_parser(group, help=f"Inspect the {group}s")
        sub = g.add_subparsers(dest="cmd", title="commands")
        for verb in ("list", "show", "status", "logs", "info", "usage"):
            s = sub.add_parser(verb, help=f"{verb.capitalize()} the {group}s")
            s.add_argument("--json", action="store_true", help="Print JSON")
            s.add_argument("--since", help="Only what is newer than this")
    p.parse_args()
''')


def test_wrap_split_reads_usage_from_for_every_family(cli, tmp_path):
    """`wrap --split --usage-from DIR`: each family's pack stands on the scripts' uses (x-why)."""
    tool = tmp_path / "bin" / "fleetctl"
    tool.parent.mkdir()
    tool.write_text(_FLEETCTL)
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    ops = tmp_path / "ops"
    ops.mkdir()
    (ops / "watch.sh").write_text(
        "#!/bin/sh\nfleetctl db usage --since 1h\nfleetctl db usage --since 2h\nfleetctl job info\n"
    )
    out = tmp_path / "packs"
    args = ("wrap", str(tool), "--split", "-o", str(out), "--usage-from", str(ops))
    result = cli(*args)
    assert result.exit_code == 0, result.stderr + result.stdout
    db = (out / "fleetctl-db" / "pack.yaml").read_text()
    job = (out / "fleetctl-job" / "pack.yaml").read_text()
    assert "watch.sh" in db and "watch.sh" in job
