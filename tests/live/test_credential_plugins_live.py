"""The credential guard with real kubectl and docker (wrapgen/runtime/guard.py, issue 12): a kubeconfig
or docker config the working directory supplies cannot make a pack call run a credential program.

Each attack is shown to be real first: the plain tool, in the same directory and environment, runs the
fake plugin (which writes a marker file). Then the pack's call is refused and the marker stays absent,
and a plugin the pack allows still runs (the user's own reviewed config keeps working).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.recorder import Recorder, recorded

REPO_ROOT = Path(__file__).resolve().parents[2]
KUBECTL_PACK = REPO_ROOT / "adapters" / "kubectl"
DOCKER_PACK = REPO_ROOT / "adapters" / "docker"


def _plugin(path: Path, marker: Path, output: str) -> Path:
    """A program that records each run in ``marker`` and prints ``output``. It writes to the marker's
    recorder (``support.recorder``): a plugin kubectl starts runs in the call's sandbox, whose file
    system is read-only."""
    sink = marker.with_name(marker.name + ".fifo")
    path.write_text(f"#!/bin/sh\necho \"ran $*\" >> '{sink}'\nprintf '%s\\n' '{output}'\n")
    path.chmod(0o755)
    return path


def _exec(pack: Path, verb: str, cwd: Path, env: dict, *args: str) -> dict:
    command = [sys.executable, "-m", "wrapgen", "exec", str(pack), verb, "--json", "--", *args]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    time.sleep(0.3)  # (what a plugin wrote reaches the marker through its recorder's thread)
    return json.loads(done.stdout)


_TOKEN = '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}}'


def _kubeconfig(
    path: Path, command: str, args: list[str], env: list | None = None, user: str = "u"
) -> Path:
    exec_entry = {
        "apiVersion": "client.authentication.k8s.io/v1beta1",
        "command": command,
        "args": args,
        "interactiveMode": "Never",
    }
    if env:
        exec_entry["env"] = env
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:1"}}],
        "users": [
            {"name": user, "user": {"exec": exec_entry}},
            {"name": "plain", "user": {"token": "abc"}},
        ],
        "contexts": [
            {"name": "ctx", "context": {"cluster": "c", "user": user}},
            {"name": "other", "context": {"cluster": "c", "user": "plain"}},
        ],
        "current-context": "ctx",
    }
    path.write_text(json.dumps(doc))  # JSON is YAML
    return path


@pytest.fixture
def kube(tmp_path, request):
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl not installed")
    work = tmp_path / "work"
    home = tmp_path / "home"
    bindir = tmp_path / "bin"
    for directory in (work, home, bindir):
        directory.mkdir()
    marker = tmp_path / "marker"
    recorder = Recorder(marker)
    request.addfinalizer(recorder.close)
    env = {
        "PATH": f"{bindir}:{os.environ['PATH']}",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "KUBECONFIG": "kubeconfig",
    }  # relative: the working directory supplies it (a project's .envrc)
    return work, bindir, marker, env


def test_a_working_directory_kubeconfig_exec_plugin_does_not_run_from_a_read_verb(kube):
    work, _, marker, env = kube
    _plugin(work / "plug.sh", marker, _TOKEN)
    _kubeconfig(work / "kubeconfig", "./plug.sh", ["steal"])
    # the attack is real: plain kubectl get runs the plugin
    subprocess.run(
        ["kubectl", "get", "pods", "--request-timeout=2s"],
        cwd=work,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert recorded(marker, "ran steal").startswith("ran steal")
    marker.unlink()
    for verb, args in (
        ("get", ["type=pods"]),
        ("explain", ["type=pods"]),
        ("events", []),
        ("describe", ["type=pods"]),
    ):
        envelope = _exec(KUBECTL_PACK, verb, work, env, *args)
        assert envelope["ok"] is False, (verb, envelope)
        assert envelope["error"].startswith("refused:") and "./plug.sh" in envelope["error"], (
            envelope
        )
        assert "nothing ran" in envelope["error"]
    assert not marker.exists()


def test_a_plugin_named_on_path_but_not_allowed_is_refused_and_an_allowed_one_runs(kube):
    work, bindir, marker, env = kube
    _plugin(bindir / "evil-login", marker, _TOKEN)
    _kubeconfig(work / "kubeconfig", "evil-login", [])
    envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
    assert envelope["ok"] is False and "evil-login" in envelope["error"], envelope
    assert not marker.exists()
    # the user's own EKS-style config: an allowed plugin with the words and variables its setup tool writes
    _plugin(bindir / "aws", marker, _TOKEN)
    _kubeconfig(
        work / "kubeconfig",
        "aws",
        ["--region", "eu-west-1", "eks", "get-token", "--cluster-name", "c"],
        env=[{"name": "AWS_PROFILE", "value": "dev"}],
    )
    envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
    assert envelope["ok"] is False and not envelope["error"].startswith("refused:"), (
        envelope
    )  # the cluster is unreachable
    assert recorded(marker, "ran --region").startswith("ran --region eu-west-1 eks get-token")
    marker.unlink()
    # the same allowed program made to do something else, or given a variable its entry does not name
    for args, extra in (
        (["s3", "rm", "s3://b/k", "eks", "get-token"], None),
        (["eks", "get-token"], [{"name": "AWS_CONFIG_FILE", "value": "./aws-config"}]),
    ):
        _kubeconfig(work / "kubeconfig", "aws", args, env=extra)
        envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
        assert envelope["ok"] is False and envelope["error"].startswith("refused:"), (
            args,
            envelope,
        )
    assert not marker.exists()


def test_the_selected_context_is_what_counts(kube):
    """A kubeconfig whose current context uses a token runs no plugin: the call goes ahead (and fails on the
    unreachable cluster), although another user of the file names one."""
    work, _, marker, env = kube
    _plugin(work / "plug.sh", marker, _TOKEN)
    path = _kubeconfig(work / "kubeconfig", "./plug.sh", [])
    doc = json.loads(path.read_text())
    doc["current-context"] = "other"
    path.write_text(json.dumps(doc))
    envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
    assert envelope["ok"] is False and not envelope["error"].startswith("refused:"), envelope
    assert not marker.exists()


def test_a_kubeconfig_that_cannot_be_read_for_certain_refuses_the_call(kube):
    """Not YAML, or a key twice (YAML readers differ on which one counts): refused, nothing runs."""
    work, _, marker, env = kube
    (work / "kubeconfig").write_text("users: [unclosed\n")
    envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
    assert envelope["ok"] is False and "could not read the kubeconfig" in envelope["error"], (
        envelope
    )
    _plugin(work / "plug.sh", marker, _TOKEN)
    (work / "kubeconfig").write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: ctx\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n"
        "contexts: [{name: ctx, context: {cluster: c, user: u}}]\n"
        "users:\n- name: u\n  user:\n    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws, args: [eks, get-token]}\n"
        "    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ./plug.sh}\n"
    )
    envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
    assert envelope["ok"] is False and "twice" in envelope["error"], envelope
    assert not marker.exists()


def test_the_user_s_own_home_kubeconfig_is_read_when_nothing_names_another(kube):
    """No KUBECONFIG: ~/.kube/config of the tool's HOME, as kubectl reads it."""
    work, _, marker, env = kube
    env = {k: v for k, v in env.items() if k != "KUBECONFIG"}
    (Path(env["HOME"]) / ".kube").mkdir()
    _plugin(work / "plug.sh", marker, _TOKEN)
    _kubeconfig(Path(env["HOME"]) / ".kube" / "config", str(work / "plug.sh"), [])
    envelope = _exec(KUBECTL_PACK, "get", work, env, "type=pods")
    assert (
        envelope["ok"] is False
        and envelope["error"].startswith("refused:")
        and "plug.sh" in envelope["error"]
    )
    assert not marker.exists()


@pytest.fixture
def dock(tmp_path, request):
    if shutil.which("docker") is None:
        pytest.skip("docker client not installed")
    work = tmp_path / "work"
    home = tmp_path / "home"
    bindir = tmp_path / "bin"
    for directory in (work, home, bindir, work / ".docker"):
        directory.mkdir()
    marker = tmp_path / "marker"
    recorder = Recorder(marker)
    request.addfinalizer(recorder.close)
    env = {
        "PATH": f"{bindir}:{os.environ['PATH']}",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "DOCKER_CONFIG": ".docker",
        "DOCKER_HOST": "unix:///nonexistent/docker.sock",
    }
    _plugin(bindir / "docker-credential-evil", marker, '{"ServerURL":"","Username":"","Secret":""}')
    return work, bindir, marker, env


def test_a_working_directory_docker_config_credential_helper_does_not_run(dock):
    work, _, marker, env = dock
    (work / ".docker" / "config.json").write_text(json.dumps({"credsStore": "evil"}))
    # the attack is real: plain docker pull asks the helper before it reaches the (absent) daemon
    subprocess.run(
        ["docker", "pull", "example.com/x"], cwd=work, env=env, capture_output=True, timeout=60
    )
    assert recorded(marker, "ran get").startswith("ran get")
    marker.unlink()
    for verb, args in (
        ("pull", ["name=example.com/x", "confirm=true"]),
        ("ps", []),
        ("images", []),
    ):
        envelope = _exec(DOCKER_PACK, verb, work, env, *args)
        assert envelope["ok"] is False and "docker-credential-evil" in envelope["error"], (
            verb,
            envelope,
        )
    assert not marker.exists()
    (work / ".docker" / "config.json").write_text(
        json.dumps({"credHelpers": {"example.com": "evil"}})
    )
    envelope = _exec(DOCKER_PACK, "pull", work, env, "name=example.com/x", "confirm=true")
    assert envelope["ok"] is False and "docker-credential-evil" in envelope["error"], envelope
    assert not marker.exists()


def test_an_allowed_docker_helper_runs(dock):
    work, bindir, marker, env = dock
    _plugin(bindir / "docker-credential-pass", marker, '{"ServerURL":"","Username":"","Secret":""}')
    (work / ".docker" / "config.json").write_text(json.dumps({"credsStore": "pass"}))
    envelope = _exec(DOCKER_PACK, "pull", work, env, "name=example.com/x", "confirm=true")
    assert envelope["ok"] is False and not envelope["error"].startswith("refused:"), (
        envelope
    )  # no daemon
    assert recorded(marker, "ran get").startswith("ran get")


def test_docker_plugin_hooks_are_off_for_pack_calls(dock):
    """config.json plugins.NAME.hooks runs a plugin after a command when output is a terminal; the pack's
    env.set (DOCKER_CLI_HOOKS/HINTS=false) turns that off. Shown on a pty with `script`, docker context ls."""
    if shutil.which("script") is None:
        pytest.skip("script (util-linux) not installed")
    work, _, marker, env = dock
    plugins = work / ".docker" / "cli-plugins"
    plugins.mkdir()
    hook = plugins / "docker-hooky"
    hook.write_text(
        f'#!/bin/sh\necho "ran $*" >> \'{marker}\'\n[ "$1" = docker-cli-plugin-metadata ] && '
        'echo \'{"SchemaVersion":"0.1.0","Vendor":"x","Version":"1"}\'\nexit 0\n'
    )
    hook.chmod(0o755)
    (work / ".docker" / "config.json").write_text(
        json.dumps({"plugins": {"hooky": {"hooks": "context ls"}}, "features": {"hooks": "true"}})
    )
    tty = ["script", "-qec", "docker context ls", "/dev/null"]
    subprocess.run(tty, cwd=work, env=env, capture_output=True, timeout=60)
    assert "docker-cli-plugin-hooks" in marker.read_text()  # the attack is real
    marker.unlink()
    pack_env = json.loads((DOCKER_PACK / "binding.json").read_text())["env"]["set"]
    subprocess.run(tty, cwd=work, env={**env, **pack_env}, capture_output=True, timeout=60)
    assert not marker.exists() or "docker-cli-plugin-hooks" not in marker.read_text()
