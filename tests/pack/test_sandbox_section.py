"""pack.yaml's ``sandbox:`` section (docs/contract.md §8): its schema, its binding, what `wrap` proposes
(pack/sandbox.py from knowledge/data/sandbox.json and the trials' evidence) and what `check` says."""

from __future__ import annotations

import json
import textwrap
from types import SimpleNamespace

from tests.check.test_check import BASE
from tests.support.packs import findings, write_pack
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.manifest import parse_manifest
from wrapgen.pack.sandbox import describe, with_sandbox

SECTION = textwrap.dedent(
    """\
    sandbox:
      network: [find]
      home: [.mail/config]
      sockets: [/run/mail.sock]
      root: [.maildir]
      write: [outbox]
      verbs:
        send: {network: true}
    """
)


def _with(section: str) -> str:
    return BASE.replace("verbs:\n", section + "verbs:\n", 1)


def _errors(text: str) -> list[str]:
    _, diagnostics = parse_manifest(text.encode(), path="pack.yaml")
    return [d.message for d in diagnostics if d.level == "error"]


def test_the_section_reaches_the_binding_normalised():
    """Every key is in binding.json, lists sorted, a verb's entry only where it says something."""
    binding = json.loads(render_pack_files(_with(SECTION).encode())["binding.json"])
    assert binding["sandbox"] == {
        "fallback": False,
        "home": [".mail/config"],
        "host_processes": False,
        "network": ["find"],
        "root": [".maildir"],
        "sockets": ["/run/mail.sock"],
        "tree": "",
        "verbs": {"send": {"network": True}},
        "write": ["outbox"],
    }


def test_a_pack_without_the_section_has_no_sandbox_key():
    """The binding of a pack without a section is byte-identical to before (the runtime's defaults)."""
    assert "sandbox" not in json.loads(render_pack_files(BASE.encode())["binding.json"])


def test_the_schema_refuses_paths_that_leave_their_place():
    """HOME entries stay under HOME, no entry holds '..', and / or ~ itself is never writable."""
    for bad in (
        "sandbox:\n  home: [../etc]\n",
        "sandbox:\n  home: [/etc/passwd]\n",
        "sandbox:\n  write: [/]\n",
        "sandbox:\n  write: [~]\n",
        "sandbox:\n  write: [a/../../b]\n",
        "sandbox:\n  root: [a/b]\n",
        "sandbox:\n  network: yes-please\n",
        "sandbox:\n  shell: true\n",
    ):
        assert _errors(_with(bad)), bad
    assert _errors(_with(SECTION)) == []


def test_check_refuses_a_verb_the_pack_lacks_and_flags_a_read_given_write(tmp_path):
    """W090: sandbox.network names no verb; W091: a read verb asks for write access."""
    pack = write_pack(
        tmp_path,
        _with("sandbox:\n  network: [fnd]\n  verbs:\n    list: {write: [cache]}\n"),
    )
    assert [d.field for d in findings(pack, "W090")] == ["sandbox.network"]
    assert [d.field for d in findings(pack, "W091")] == ["sandbox.verbs.list.write"]
    clean = write_pack(tmp_path / "clean", _with(SECTION))
    assert findings(clean, "W090") == [] and findings(clean, "W091") == []


def test_check_shows_the_section(tmp_path, cli):
    """`wrapgen check` says what a pack's calls may have, for a pack that declares a section."""
    pack = write_pack(tmp_path, _with(SECTION))
    shown = cli("check", str(pack)).stdout
    assert f"{pack}: sandbox: network: find; working directory writable for: delete, send" in shown
    assert "from HOME (read-only): .mail/config" in shown and "send: network on" in shown


def _manifest(verbs: dict) -> dict:
    return {"pack_id": "t", "description": "t", "bin": "t", "verbs": verbs}


def test_wrap_proposes_the_network_for_a_network_client():
    """A tool the knowledge data calls a network client gets the network for every verb, and its
    configuration under HOME."""
    out = with_sandbox(_manifest({"pr.list": {"cli": ["gh", "pr", "list"]}}), tool="/usr/bin/gh")
    assert out["sandbox"] == {"network": True, "home": [".config/gh"]}


def test_wrap_proposes_the_network_only_for_commands_that_reach_a_remote():
    """git: fetch gets the network, status does not; the repository's root mark is proposed."""
    verbs = {
        "fetch": {"cli": ["git", "fetch", "--prune", "{{remote}}"]},
        "status": {"cli": ["git", "status", "--short"]},
    }
    out = with_sandbox(_manifest(verbs), tool="git")
    assert out["sandbox"]["network"] == ["fetch"] and out["sandbox"]["root"] == [".git"]


def test_wrap_proposes_the_network_for_a_read_whose_trial_wanted_it():
    """A trial that could not resolve a host: its verb is allowed the network."""
    evidence = [
        SimpleNamespace(verb="show", kind="unreachable", detail="could not resolve host"),
        SimpleNamespace(verb="list", kind="ok", detail=""),
    ]
    out = with_sandbox(_manifest({"show": {}, "list": {}}), tool="mytool", evidence=evidence)
    assert out["sandbox"] == {"network": ["show"]}


def test_wrap_proposes_nothing_for_a_tool_that_needs_nothing():
    """jq needs nothing beyond the defaults: no section; a section already there is kept."""
    assert "sandbox" not in with_sandbox(_manifest({"query": {}}), tool="jq")
    kept = {**_manifest({"q": {}}), "sandbox": {"network": False}}
    assert with_sandbox(kept, tool="gh")["sandbox"] == {"network": False}


def test_describe_names_every_grant():
    """The words check prints: network, writable verbs, HOME files, fallback."""
    lines = describe(
        {"network": True, "home": [".kube/config"], "fallback": True},
        {"get": {"policy": {"effect": "read"}}, "apply": {"policy": {"effect": "write"}}},
    )
    assert lines[0] == "network: every verb" and lines[1] == "working directory writable for: apply"
    assert "from HOME (read-only): .kube/config" in lines and lines[-1].endswith("(fallback: true)")
