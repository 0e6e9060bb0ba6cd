"""PATH-wrap promotion of real tools: kubectl's four read commands, and git with a misspelt entry.

Parsing PATH wraps, splits, warnings and the report on hand-made models are in tests/flows/test_promote.py."""

from __future__ import annotations

import textwrap

import yaml

from conftest import require_tool


def _write(tmp_path, body: str):
    path = tmp_path / "wrap.yaml"
    path.write_text(textwrap.dedent(body))
    return path


def test_promote_kubectl(tmp_path, cli):
    """kubectl get/describe/logs/rollout status become exactly four named commands plus a report."""
    require_tool("kubectl")
    path = _write(
        tmp_path,
        """\
        pack_id: kube
        description: Inspect a Kubernetes cluster.
        wrap:
          bin: kubectl
          allowedSubcommands: [get, describe, logs, "rollout status"]
        """,
    )
    out = tmp_path / "out"
    result = cli("promote", str(path), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    manifest = yaml.safe_load((out / "kube" / "pack.yaml").read_text())
    assert sorted(manifest["verbs"]) == ["describe", "get", "logs", "rollout.status"]
    for _name, verb in manifest["verbs"].items():
        words = [t for t in verb["cli"][1:] if not t.startswith(("-", "{{"))]
        assert tuple(words[:2]) in {
            ("get",),
            ("describe",),
            ("logs",),
            ("rollout", "status"),
        } or tuple(words[:1]) in {("get",), ("describe",), ("logs",)}
    report = (out / "PROMOTION-kube.md").read_text()
    assert "## Narrowed" in report and "`rollout status`" in report
    assert "only 4 commands" in result.stderr
    assert (out / "kube" / "binding.json").exists()
    envelope = cli("exec", str(out / "kube"), "get", "--json", "--", "type=pods")
    assert envelope.stdout.startswith('{"ok": false') and envelope.exit_code == 1  # no cluster here
    again = cli("promote", str(path), "-o", str(out), "--check")
    assert again.exit_code == 0 and "check: up to date" in again.stdout


def test_promote_git_with_a_missing_subcommand(tmp_path, cli):
    """A git PATH wrap with a misspelt entry writes the rest, names the entry with the closest, exits 1."""
    require_tool("git")
    path = _write(
        tmp_path,
        """\
        pack_id: git-read
        wrap:
          bin: git
          allowedSubcommands: [log, status, diff, show, blame, stauts]
        """,
    )
    out = tmp_path / "out"
    result = cli("promote", str(path), "-o", str(out))
    assert result.exit_code == 1
    assert (
        "`stauts` does not exist in git" in result.stderr and "closest: `status`" in result.stderr
    )
    manifest = yaml.safe_load((out / "git-read" / "pack.yaml").read_text())
    assert sorted(manifest["verbs"]) == ["blame", "diff", "log", "show", "status"]
    assert "stauts" in (out / "PROMOTION-git-read.md").read_text()
