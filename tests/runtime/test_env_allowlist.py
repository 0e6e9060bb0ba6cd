"""The tool's environment is an allowlist (docs/contract.md §8, changed 2026-12-01), from pack.yaml through binding.json to the process.

The attack: a secret in the caller's environment (a cloud key, a GitHub token the pack does not
pass) read by the tool (`env`, or a Python child that prints its whole environment).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from packs_runtime.packtools import binding_dict, verb

from wrapgen.pack.build import binding_data, render_pack_files
from wrapgen.pack.emit import write_files
from wrapgen.pack.manifest import parse_manifest
from wrapgen.runtime import ENV_ALLOWLIST, TOOL_ENV, execute, tool_env

PY = sys.executable
DUMP = "import os, json; print(json.dumps(dict(os.environ)))"
SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "aws-secret",
    "GH_TOKEN": "gh-secret",
    "GIT_CONFIG_COUNT": "1",
    "GIT_CONFIG_KEY_0": "core.fsmonitor",
    "GIT_CONFIG_VALUE_0": "touch /tmp/pwned",
    "LD_PRELOAD": "/x.so",
    "PYTHONSTARTUP": "/x.py",
    "KUBECONFIG": "/kube",
}
CALLER = {
    "PATH": os.environ["PATH"],
    "HOME": "/home/caller",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "LC_TIME": "C",
    "TZ": "UTC",
    "TMPDIR": "/tmp",
    "USER": "caller",
    "TERM": "xterm-256color",
    "PAGER": "less",
    **SECRETS,
}


def _dump_binding(env_spec=None) -> dict:
    binding = binding_dict("envp", PY, {"show": verb([PY, "-c", DUMP], json_sel=[])})
    if env_spec is not None:
        binding["env"] = env_spec
    return binding


def _tool_saw(binding, environ=CALLER) -> dict:
    envelope = execute(binding, "show", {}, env=environ)
    assert envelope["ok"], envelope
    seen = json.loads(envelope["result"])
    seen.pop("LC_CTYPE", None)  # Python's own locale coercion may add it in the child
    assert seen.pop("PWD", os.getcwd()) == os.getcwd()  # (the sandbox's bubblewrap sets it)
    return seen


def test_secrets_of_the_caller_never_reach_the_tool():
    """Without a pack env: only PATH, HOME, LANG, LC_*, TZ, TMPDIR, USER, plus wrapgen's fixed settings."""
    seen = _tool_saw(_dump_binding())
    for name in SECRETS:
        assert name not in seen, f"{name} leaked to the tool"
    expected = {
        key: CALLER[key] for key in ("PATH", "HOME", "LANG", "LC_ALL", "LC_TIME", "TZ", "USER")
    }
    expected["TMPDIR"] = "/var/tmp"  # the sandbox's scratch, whatever the caller's is
    assert seen == {**expected, **TOOL_ENV}


def test_real_env_tool_sees_no_secret(monkeypatch):
    """The real `env` program, with secrets in this process's own environment (the default caller env)."""
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    binding = binding_dict("envp", "env", {"show": verb(["env"], json_sel=[])})
    envelope = execute(binding, "show", {})
    assert envelope["ok"]
    names = {line.split("=", 1)[0] for line in envelope["result"].splitlines()}
    assert not names & set(SECRETS)
    sandbox_sets = {"PWD"}  # bubblewrap sets the working directory's
    assert names <= set(ENV_ALLOWLIST) | set(TOOL_ENV) | sandbox_sets | {
        n for n in names if n.startswith("LC_")
    }


def test_a_passed_name_reaches_the_tool_and_only_it():
    """env.pass [GH_TOKEN]: GH_TOKEN arrives; AWS_SECRET_ACCESS_KEY still does not."""
    seen = _tool_saw(_dump_binding({"pass": ["GH_TOKEN"], "set": {}}))
    assert seen["GH_TOKEN"] == "gh-secret"
    assert "AWS_SECRET_ACCESS_KEY" not in seen and "KUBECONFIG" not in seen


def test_a_passed_name_absent_from_the_caller_is_absent():
    """A passed name the caller does not have is simply not set (never an empty value)."""
    seen = _tool_saw(_dump_binding({"pass": ["WG_NOT_THERE"], "set": {}}))
    assert "WG_NOT_THERE" not in seen


def test_set_values_are_fixed_and_win_over_the_caller():
    """env.set gives fixed values (the hardening), over what the caller passes; wrapgen's own settings win over both."""
    spec = {
        "pass": ["GIT_CONFIG_COUNT"],
        "set": {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "core.fsmonitor",
            "GIT_CONFIG_VALUE_0": "",
            "PAGER": "more",
        },
    }
    seen = _tool_saw(_dump_binding(spec))
    assert (seen["GIT_CONFIG_COUNT"], seen["GIT_CONFIG_KEY_0"], seen["GIT_CONFIG_VALUE_0"]) == (
        "1",
        "core.fsmonitor",
        "",
    )
    assert seen["PAGER"] == "cat" and seen["TERM"] == "dumb"


def test_malformed_env_in_a_binding_is_an_envelope():
    """A hand-edited binding with a broken env is refused before anything runs."""
    for bad in ({"pass": "GH_TOKEN"}, {"set": {"X": 1}}, ["GH_TOKEN"]):
        envelope = execute(_dump_binding(bad), "show", {}, env=CALLER)
        assert envelope == {
            "ok": False,
            "error": "the binding's env is malformed; run wrapgen build on the pack",
        }


def test_tool_env_is_the_one_function_hosts_use():
    """tool_env(binding, environ) is what execute applies: hosts and probes can build the same env."""
    env = tool_env({"env": {"pass": ["GH_TOKEN"], "set": {"A_B": "1"}}}, CALLER)
    assert (
        env["GH_TOKEN"] == "gh-secret" and env["A_B"] == "1" and "AWS_SECRET_ACCESS_KEY" not in env
    )


PACK_YAML = """\
pack_id: envp
description: Prints its environment.
bin: {py}
env:
  pass: [GH_TOKEN]
  set: {{GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: core.fsmonitor, GIT_CONFIG_VALUE_0: ""}}
verbs:
  show:
    description: Print the environment as JSON.
    cli: [{py}, -c, "{dump}"]
    json: false
    policy: {{effect: read}}
"""


def _pack_yaml() -> str:
    return PACK_YAML.format(py=PY, dump=DUMP.replace('"', '\\"'))


def test_pack_yaml_env_is_carried_into_the_binding():
    """build records env (pass sorted, set as given) in binding.json."""
    manifest, diagnostics = parse_manifest(_pack_yaml().encode())
    assert not [d for d in diagnostics if d.level == "error"], diagnostics
    binding = binding_data(manifest)
    assert binding["env"] == {
        "pass": ["GH_TOKEN"],
        "set": {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "core.fsmonitor",
            "GIT_CONFIG_VALUE_0": "",
        },
    }


def test_built_adapter_process_applies_the_allowlist(tmp_path):
    """End to end: pack.yaml -> wrapgen build's files -> adapter.py as a real process with secrets in its environment."""
    pack = tmp_path / "envp"
    pack.mkdir()
    (pack / "pack.yaml").write_text(_pack_yaml())
    write_files(pack, render_pack_files(_pack_yaml().encode()))
    environ = {**os.environ, **SECRETS}
    done = subprocess.run(
        [PY, str(pack / "adapter.py"), "show", "--json"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )
    envelope = json.loads(done.stdout)
    seen = json.loads(envelope["result"])
    assert seen["GH_TOKEN"] == "gh-secret" and seen["GIT_CONFIG_KEY_0"] == "core.fsmonitor"
    assert (
        "AWS_SECRET_ACCESS_KEY" not in seen
        and "LD_PRELOAD" not in seen
        and "PYTHONSTARTUP" not in seen
    )


@pytest.mark.parametrize(
    ("block", "where"),
    [
        ("env: {pass: [gh_token]}", "env.pass[0]"),
        ("env: {pass: [GH-TOKEN]}", "env.pass[0]"),
        ("env: {pass: GH_TOKEN}", "env.pass"),
        ("env: {set: {GIT_CONFIG_COUNT: 1}}", "env.set.GIT_CONFIG_COUNT"),
        ("env: {set: {9LIVES: x}}", "env.set.9LIVES"),
        ("env: {pas: [GH_TOKEN]}", "env.pas"),
        ("env: [GH_TOKEN]", "env"),
        ("limits: {memory_mb: 8}", "limits.memory_mb"),
        ("limits: {memory_mb: 1.5}", "limits.memory_mb"),
        ("limits: {memory: 100}", "limits.memory"),
        ("response_files: yes please", "response_files"),
    ],
)
def test_check_w001_catches_a_bad_env_or_limits_block(tmp_path, block, where):
    """A malformed env/limits block is a W001 error of `wrapgen check` (and build refuses it)."""
    text = (
        _pack_yaml()
        .replace("env:\n  pass: [GH_TOKEN]\n", "")
        .replace(
            '  set: {GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: core.fsmonitor, GIT_CONFIG_VALUE_0: ""}\n',
            "",
        )
    )
    text = text.replace("verbs:\n", block + "\nverbs:\n", 1)
    _manifest, diagnostics = parse_manifest(text.encode())
    found = [d for d in diagnostics if d.code == "W001" and d.level == "error"]
    assert any(d.field == where for d in found), diagnostics


def test_check_prints_nothing_new_for_a_good_env_block(tmp_path, cli):
    """A valid env block adds no finding: check's output is what it is without it. (Its env.set is a
    plain setting: a GIT_CONFIG_* block on a pack that is not git's is check's W031.)"""
    with_env = tmp_path / "a" / "envp"
    without = tmp_path / "b" / "envp"
    plain = _pack_yaml().replace(
        '  set: {GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: core.fsmonitor, GIT_CONFIG_VALUE_0: ""}\n',
        "  set: {APP_MODE: quiet}\n",
    )
    assert plain != _pack_yaml()
    for directory, text in (
        (with_env, plain),
        (
            without,
            _pack_yaml()
            .replace("env:\n  pass: [GH_TOKEN]\n", "")
            .replace(
                '  set: {GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: core.fsmonitor, GIT_CONFIG_VALUE_0: ""}\n',
                "",
            ),
        ),
    ):
        directory.mkdir(parents=True)
        (directory / "pack.yaml").write_text(text)
        write_files(directory, render_pack_files(text.encode()))
    first, second = cli("check", str(with_env)), cli("check", str(without))
    import re

    def strip(out):
        return re.sub(
            r"pack\.yaml:\d+:",
            "pack.yaml:N:",
            out.replace(str(with_env), "P").replace(str(without), "P"),
        )

    assert strip(first.stdout) == strip(second.stdout) and first.exit_code == second.exit_code
    assert "W001" not in first.stdout


def test_recipe_env_reaches_the_generated_packs():
    """A recipe's env is copied into its pack: gh gets its token by name, kubectl its kubeconfig."""
    repo = Path(__file__).resolve().parents[2]
    gh = json.loads((repo / "adapters" / "gh" / "binding.json").read_text())
    kubectl = json.loads((repo / "adapters" / "kubectl" / "binding.json").read_text())
    assert "GH_TOKEN" in gh["env"]["pass"] and "AWS_SECRET_ACCESS_KEY" not in gh["env"]["pass"]
    assert kubectl["env"]["pass"] == ["KUBECONFIG"]
    jq = json.loads((repo / "adapters" / "jq" / "binding.json").read_text())
    assert jq["env"] == {"pass": [], "set": {}} and jq["limits"] == {"memory_mb": 2048}


def test_recipe_with_a_bad_env_name_is_refused():
    """A recipe's env names follow the same rule as pack.yaml's."""
    from wrapgen.errors import WrapgenError
    from wrapgen.pack.recipe import parse_recipe

    assert parse_recipe("tool: gh\nenv: {pass: [GH_TOKEN]}\n").env == {"pass": ["GH_TOKEN"]}
    with pytest.raises(WrapgenError):
        parse_recipe("tool: gh\nenv: {pass: [gh-token]}\n")
