"""The runtime's credential guard (wrapgen/runtime/guard.py check_credentials, issue 12): which credential
programs a call's config may name, decided before the call. Pure parts and file reads here; the real
kubectl and docker in tests/live/test_credential_plugins_live.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from wrapgen.errors import WrapgenError
from wrapgen.runtime import execute
from wrapgen.runtime.guard import check_credentials, docker_config_refusal, plugin_refusal

AWS = ("aws", ("eks", "get-token"), frozenset({"AWS_PROFILE"}))
GKE = ("gke-gcloud-auth-plugin", (), frozenset())


@pytest.mark.parametrize(
    "command, args, env, allowed",
    [
        ("gke-gcloud-auth-plugin", [], [], True),
        (
            "aws",
            ["--region", "eu-west-1", "eks", "get-token", "--cluster-name", "c"],
            ["AWS_PROFILE"],
            True,
        ),
        ("aws", ["eks", "get-token"], [], True),
        ("aws", ["--region=eu-west-1", "eks", "get-token"], [], True),
        (
            "aws",
            ["s3", "rm", "s3://b/k", "eks", "get-token"],
            [],
            False,
        ),  # the words, but after a command
        ("aws", ["--region", "x", "s3", "eks", "get-token"], [], False),
        (
            "aws",
            ["eks", "get-token"],
            ["AWS_CONFIG_FILE"],
            False,
        ),  # a variable the entry does not name
        ("aws", ["eks", "list-clusters"], [], False),
        ("./gke-gcloud-auth-plugin", [], [], False),  # a path is never the bare name
        ("/usr/bin/gke-gcloud-auth-plugin", [], [], False),
        ("evil", [], [], False),
        ("", [], [], False),
        (None, [], [], False),
    ],
)
def test_plugin_refusal(command, args, env, allowed):
    why = plugin_refusal(command, args, env, [AWS, GKE])
    assert (why is None) == allowed, why


def _binding(form: str, allow: list[dict]) -> dict:
    return {
        "pack_id": "t",
        "bin": "true",
        "credential_guard": {"format": form, "allow": allow},
        "verbs": {
            "run": {
                "argv": ["true"],
                "json": [],
                "args": {"type": "object", "properties": {}},
                "policy": {"effect": "read", "confirm": False},
            }
        },
    }


def test_docker_config_helpers_and_plugin_dirs(tmp_path):
    allow = [("pass", (), frozenset())]
    docker_config_refusal({"credsStore": "pass", "auths": {}}, "c", str(tmp_path), allow)
    docker_config_refusal(
        {"credHelpers": {"gcr.io": "pass"}, "cliPluginsExtraDirs": ["/usr/lib/x"]},
        "c",
        str(tmp_path),
        allow,
    )
    for document, words in (
        ({"credsStore": "evil"}, "docker-credential-evil"),
        ({"credsStore": "../../x"}, "docker-credential-../../x"),
        ({"credHelpers": {"a.io": "pass", "b.io": "evil"}}, "docker-credential-evil"),
        ({"credHelpers": ["evil"]}, "malformed credHelpers"),
        ({"credsStore": 3}, "credential helper"),
        ({"cliPluginsExtraDirs": ["plugins"]}, "not an absolute path"),
        ({"cliPluginsExtraDirs": [str(tmp_path / "plugins")]}, "inside the working directory"),
        ([], "no JSON object"),
    ):
        with pytest.raises(WrapgenError, match="refused") as caught:
            docker_config_refusal(document, "c", str(tmp_path), allow)
        assert words in caught.value.message, (document, caught.value.message)


def test_check_credentials_reads_the_config_the_call_would_use(tmp_path):
    """--config in the argv, else DOCKER_CONFIG (relative to the call's cwd), else HOME/.docker; none: fine."""
    binding = _binding("docker_config", [{"name": "pass"}])
    home, work = tmp_path / "home", tmp_path / "work"
    (home / ".docker").mkdir(parents=True)
    (work / "cfg").mkdir(parents=True)
    env = {"HOME": str(home)}
    check_credentials(binding, ["docker", "ps"], env, cwd=work)  # no config.json at all
    (home / ".docker" / "config.json").write_text(json.dumps({"credsStore": "pass"}))
    check_credentials(binding, ["docker", "ps"], env, cwd=work)
    (work / "cfg" / "config.json").write_text(json.dumps({"credsStore": "evil"}))
    for argv, environ in (
        (["docker", "--config", "cfg", "ps"], env),
        (["docker", "--config=cfg", "ps"], env),
        (["docker", "ps"], {**env, "DOCKER_CONFIG": "cfg"}),
    ):
        with pytest.raises(WrapgenError, match="docker-credential-evil"):
            check_credentials(binding, argv, environ, cwd=work)
    # after '--' a '--config' is an operand, not docker's option
    check_credentials(binding, ["docker", "logs", "--", "--config", "cfg"], env, cwd=work)
    (home / ".docker" / "config.json").write_text("{not json")
    with pytest.raises(WrapgenError, match="not JSON"):
        check_credentials(binding, ["docker", "ps"], env, cwd=work)


def test_execute_refuses_before_spawning_and_says_what_to_do(tmp_path):
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.json").write_text(json.dumps({"credsStore": "evil"}))
    binding = _binding("docker_config", [{"name": "pass"}])
    binding["env"] = {"pass": ["DOCKER_CONFIG"], "set": {}}
    envelope = execute(
        binding,
        "run",
        {},
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "DOCKER_CONFIG": "cfg", "HOME": str(tmp_path)},
    )
    assert envelope["ok"] is False and envelope["error"].startswith("refused:")
    assert "nothing ran" in envelope["error"] and "credential_guard.allow" in envelope["error"]
    assert execute(
        binding, "run", {}, cwd=tmp_path, env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    )["ok"]


def test_a_malformed_guard_in_the_binding_is_an_envelope():
    binding = _binding("ini", [])
    envelope = execute(binding, "run", {})
    assert envelope == {
        "ok": False,
        "error": "the binding's credential_guard is malformed; run wrapgen build on the pack",
    }


def _kube(tmp_path, text: str, *extra: str) -> subprocess.CompletedProcess:
    path = tmp_path / "kubeconfig"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "wrapgen.pack.kubeconfig", *extra, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_kubeconfig_reader_merges_as_kubectl_does_and_drops_secrets(tmp_path):
    first = tmp_path / "a"
    second = tmp_path / "b"
    first.write_text(
        "current-context: one\ncontexts: [{name: one, context: {user: u}}]\n"
        "users: [{name: u, user: {token: secret, exec: {command: gke-gcloud-auth-plugin}}}]\n"
    )
    second.write_text(
        "current-context: two\ncontexts: [{name: one, context: {user: evil}}]\n"
        "users: [{name: u, user: {exec: {command: ./evil}}}, {name: v, user: {auth-provider: "
        "{name: gcp, config: {cmd-path: /x/gcloud, access-token: secret}}}}]\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "wrapgen.pack.kubeconfig",
            str(first),
            str(tmp_path / "missing"),
            str(second),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    view = json.loads(done.stdout)
    assert view["current-context"] == "one"  # the first file that sets it
    assert view["contexts"] == [{"name": "one", "context": {"user": "u"}}]
    users = {u["name"]: u["user"] for u in view["users"]}
    assert users["u"] == {
        "exec": {"command": "gke-gcloud-auth-plugin"}
    }  # the first file's, without its token
    assert users["v"] == {"auth-provider": {"name": "gcp", "config": {"cmd-path": "/x/gcloud"}}}
    assert "secret" not in done.stdout


@pytest.mark.parametrize(
    "text, words",
    [
        ("users: [unclosed\n", "not YAML"),
        ("users:\n- name: u\n  user: {exec: {command: a}, exec: {command: b}}\n", "twice"),
        ("- a\n- b\n", "not a kubeconfig"),
    ],
)
def test_the_kubeconfig_reader_fails_on_what_it_cannot_read_for_certain(tmp_path, text, words):
    done = _kube(tmp_path, text)
    assert done.returncode == 1 and done.stderr.startswith("error: ") and words in done.stderr, (
        done.stderr
    )
    assert "Traceback" not in done.stderr


def test_an_explicit_kubeconfig_must_exist(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "wrapgen.pack.kubeconfig", "--explicit", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "no such file" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "wrapgen.pack.kubeconfig", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["users"] == []


def test_check_credentials_takes_the_user_of_the_call_s_context(tmp_path):
    """--context / --user of the call, else current-context; a changed file is read again (no stale cache)."""
    binding = _binding("kubeconfig", [{"name": "gke-gcloud-auth-plugin"}])
    config = tmp_path / "kc"
    config.write_text(
        json.dumps(
            {
                "current-context": "good",
                "contexts": [
                    {"name": "good", "context": {"user": "g"}},
                    {"name": "bad", "context": {"user": "b"}},
                ],
                "users": [
                    {"name": "g", "user": {"exec": {"command": "gke-gcloud-auth-plugin"}}},
                    {"name": "b", "user": {"exec": {"command": "./steal", "args": ["x"]}}},
                ],
            }
        )
    )
    env = {"HOME": str(tmp_path), "KUBECONFIG": "kc"}
    check_credentials(binding, ["kubectl", "get", "--", "pods"], env, cwd=tmp_path)
    for argv in (
        ["kubectl", "get", "--context=bad", "--", "pods"],
        ["kubectl", "get", "--user", "b"],
        ["kubectl", "--kubeconfig", "kc", "--context", "bad", "get"],
    ):
        with pytest.raises(WrapgenError, match="'./steal x'"):
            check_credentials(binding, argv, env, cwd=tmp_path)
    check_credentials(
        binding, ["kubectl", "get", "--", "--context=bad"], env, cwd=tmp_path
    )  # an operand
    text = config.read_text().replace('"current-context": "good"', '"current-context": "bad"')
    config.write_text(text + "\n")
    with pytest.raises(WrapgenError, match="steal"):
        check_credentials(binding, ["kubectl", "get"], env, cwd=tmp_path)
    with pytest.raises(WrapgenError, match="could not read the kubeconfig"):
        check_credentials(binding, ["kubectl", "--kubeconfig=missing", "get"], env, cwd=tmp_path)


def test_a_tilde_in_a_config_path_is_read_as_the_tool_reads_it(tmp_path):
    """docker and kubectl take DOCKER_CONFIG=~/x, --config ~/x and KUBECONFIG=~/x literally: ./~/x in their cwd
    (checked with docker 28.2 here), so the guard reads that directory, not the user's home."""
    home, work = tmp_path / "home", tmp_path / "work"
    (home / "cfg").mkdir(parents=True)
    (home / "cfg" / "config.json").write_text(json.dumps({"credsStore": "pass"}))
    (work / "~" / "cfg").mkdir(parents=True)
    (work / "~" / "cfg" / "config.json").write_text(json.dumps({"credsStore": "evil"}))
    binding = _binding("docker_config", [{"name": "pass"}])
    for argv, env in (
        (["docker", "ps"], {"HOME": str(home), "DOCKER_CONFIG": "~/cfg"}),
        (["docker", "--config", "~/cfg", "ps"], {"HOME": str(home)}),
    ):
        with pytest.raises(WrapgenError, match="docker-credential-evil"):
            check_credentials(binding, argv, env, cwd=work)
    kube = _binding("kubeconfig", [])
    (work / "~" / "kc").write_text(
        json.dumps(
            {
                "current-context": "c",
                "contexts": [{"name": "c", "context": {"user": "u"}}],
                "users": [{"name": "u", "user": {"exec": {"command": "./evil"}}}],
            }
        )
    )
    with pytest.raises(WrapgenError, match="evil"):
        check_credentials(
            kube, ["kubectl", "get"], {"HOME": str(home), "KUBECONFIG": "~/kc"}, cwd=work
        )


@pytest.mark.parametrize(
    "text",
    [
        '{"CREDSSTORE": "evil"}',
        '{"credsstore": "evil"}',
        '{"credsStore": "pass", "credsStore": "evil"}',
        '{"credsStore": "evil", "credsStore": "pass"}',
        '{"CredHelpers": {"example.com": "evil"}}',
        '{"credHelpers": {"example.com": "pass", "example.com": "evil"}}',
        '{"CLIPLUGINSEXTRADIRS": ["plugins"]}',
    ],
)
def test_every_spelling_and_duplicate_of_a_docker_key_counts(tmp_path, text):
    """docker reads config.json keys case-insensitively and takes the last duplicate (checked with docker 28.2:
    CREDSSTORE, credsstore and CredHelpers all run the helper): the guard checks every one."""
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.json").write_text(text)
    binding = _binding("docker_config", [{"name": "pass"}])
    with pytest.raises(WrapgenError, match="refused"):
        check_credentials(
            binding, ["docker", "ps"], {"HOME": str(tmp_path), "DOCKER_CONFIG": "cfg"}, cwd=tmp_path
        )
