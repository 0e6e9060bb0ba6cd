"""The credential guard in the catalogue, the proposal and check (W040): kubectl's exec plugins and
docker's credential helpers (issue 12). The runtime's side: tests/runtime/test_credential_guard.py;
the attacks with the real tools: tests/live/test_credential_plugins_live.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from wrapgen.check.rules import check_pack
from wrapgen.knowledge.harden import harden_manifest
from wrapgen.knowledge.hardening import (
    HardeningDataError,
    hardening_for,
    pack_credential_guard,
    parse_catalogue,
)
from wrapgen.pack.build import render_pack_files

REPO = Path(__file__).resolve().parents[2]


def test_the_catalogue_allows_plugins_by_bare_name_with_reasons():
    for tool, form in (("kubectl", "kubeconfig"), ("docker", "docker_config")):
        guard = hardening_for(tool).credential_guard
        assert guard.format == form and guard.reason.strip() and guard.allow
        for item in guard.allow:
            assert item.reason.strip() and "/" not in item.name
    aws = [a for a in hardening_for("kubectl").credential_guard.allow if a.name == "aws"]
    assert aws and aws[0].args == ("eks", "get-token") and "AWS_CONFIG_FILE" not in aws[0].env
    assert {s.name: s.value for s in hardening_for("docker").env} == {
        "DOCKER_CLI_HOOKS": "false",
        "DOCKER_CLI_HINTS": "false",
    }


@pytest.mark.parametrize(
    "guard, words",
    [
        ({"format": "kubeconfig", "allow": []}, "reason"),
        ({"format": "ini", "reason": "r", "allow": []}, "format"),
        (
            {"format": "kubeconfig", "reason": "r", "allow": [{"name": "./plug", "reason": "x"}]},
            "plain program",
        ),
        (
            {
                "format": "kubeconfig",
                "reason": "r",
                "allow": [{"name": "a", "reason": "x"}, {"name": "a", "reason": "y"}],
            },
            "twice",
        ),
        ({"format": "docker_config", "reason": "r", "allow": [{"name": "pass"}]}, "reason"),
    ],
)
def test_a_malformed_credential_guard_is_refused(guard, words):
    with pytest.raises(HardeningDataError, match=words):
        parse_catalogue(
            {
                "version": 1,
                "reason": "r",
                "tools": {"kubectl": {"reason": "x", "credential_guard": guard}},
            }
        )


def test_harden_manifest_gives_kubectl_and_docker_their_guard():
    for tool in ("kubectl", "docker"):
        out = harden_manifest(
            {
                "pack_id": tool,
                "description": "d",
                "bin": tool,
                "verbs": {"get": {"description": "d", "cli": [tool, "get"]}},
            },
            tool=tool,
        )
        assert out["credential_guard"] == pack_credential_guard(hardening_for(tool))
        assert harden_manifest(out, tool=tool) == out
    docker = harden_manifest(
        {"pack_id": "docker", "description": "d", "bin": "docker", "verbs": {}}, tool="docker"
    )
    assert docker["env"]["set"] == {"DOCKER_CLI_HOOKS": "false", "DOCKER_CLI_HINTS": "false"}


def test_the_shipped_packs_carry_it_into_their_binding():
    for tool in ("kubectl", "docker"):
        assert [d for d in check_pack(REPO / "adapters" / tool) if d.code == "W040"] == []
        binding = (REPO / "adapters" / tool / "binding.json").read_text()
        assert '"credential_guard"' in binding


def _pack(tmp_path, tool: str, edit) -> Path:
    pack = tmp_path / tool
    shutil.copytree(REPO / "adapters" / tool, pack)
    data = yaml.safe_load((pack / "pack.yaml").read_text())
    edit(data)
    text = yaml.safe_dump(data, sort_keys=False)
    (pack / "pack.yaml").write_text(text)
    for name, body in render_pack_files(text.encode()).items():
        (pack / name).write_text(body)
    return pack


@pytest.mark.parametrize("tool", ["kubectl", "docker"])
def test_a_pack_without_its_credential_guard_still_runs_with_it(tmp_path, tool):
    """Left out of pack.yaml, the guard is in the binding all the same; check says so as information."""
    from wrapgen.pack.derive import derived_binding

    whole = derived_binding(REPO / "adapters" / tool)["credential_guard"]
    pack = _pack(tmp_path, tool, lambda data: data.pop("credential_guard"))
    findings = [d for d in check_pack(pack) if d.code == "W040"]
    assert [d.level for d in findings] == ["info"]
    assert "credential_guard" in findings[0].message
    assert derived_binding(pack)["credential_guard"]["format"] == whole["format"]


def test_a_guard_of_the_wrong_format_is_replaced_and_a_longer_allow_list_kept(tmp_path):
    from wrapgen.pack.derive import derived_binding

    def wrong(data):
        data["credential_guard"]["format"] = "docker_config"

    pack = _pack(tmp_path / "a", "kubectl", wrong)
    findings = [d for d in check_pack(pack) if d.code == "W040"]
    assert [d.level for d in findings] == ["info"]
    assert derived_binding(pack)["credential_guard"]["format"] != "docker_config"

    def longer(data):
        data["credential_guard"]["allow"].append({"name": "my-login", "args": ["token"]})

    pack = _pack(tmp_path / "b", "kubectl", longer)
    assert [d for d in check_pack(pack) if d.code == "W040"] == []
    allowed = [a["name"] for a in derived_binding(pack)["credential_guard"]["allow"]]
    assert "my-login" in allowed


def test_the_schema_refuses_a_path_as_an_allowed_plugin(tmp_path):
    def path(data):
        data["credential_guard"]["allow"].append({"name": "./plug.sh"})

    pack = tmp_path / "kubectl"
    shutil.copytree(REPO / "adapters" / "kubectl", pack)
    data = yaml.safe_load((pack / "pack.yaml").read_text())
    path(data)
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    errors = [d for d in check_pack(pack) if d.code == "W001"]
    assert errors and "bare name" in errors[0].message
