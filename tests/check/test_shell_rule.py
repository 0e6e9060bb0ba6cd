"""check's shell rule (W007) against the bypasses of issue 12, and what it must leave alone.

The first version looked only at the token right after a shell and knew no versions, so
``bash --norc -c``, ``bash -l -c`` and ``python3.11 -c`` passed, as did ``env -S``, awk programs
and xargs. Each test here writes the bypass into a pack and shows check now errors.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from wrapgen.check.rules import lint_manifest
from wrapgen.pack.manifest import parse_manifest


def _w007(cli: list[str], *, bin: str = "") -> list:
    tokens = ", ".join(json.dumps(t) for t in cli)  # a JSON string is a YAML flow scalar
    text = textwrap.dedent(f"""\
        pack_id: box
        description: A box.
        bin: '{bin or cli[0]}'
        verbs:
          go:
            description: Do it.
            cli: [{tokens}]
            args:
              type: object
              properties:
                script: {{type: string}}
                items: {{type: array, items: {{type: string}}}}
              additionalProperties: false
            policy: {{effect: read}}
        """)
    manifest, diagnostics = parse_manifest(text.encode(), path="pack.yaml")
    assert not [d for d in diagnostics if d.level == "error"], [d.format() for d in diagnostics]
    return [d for d in lint_manifest(manifest, diagnostics, derived=False) if d.code == "W007"]


@pytest.mark.parametrize(
    "cli, says",
    [
        (["bash", "--norc", "-c", "{{script}}"], "bash -c runs its argument as code"),
        (["bash", "-l", "-c", "{{script}}"], "bash -c runs its argument as code"),
        (["bash", "-lc", "{{script}}"], "bash -lc runs its argument as code"),
        (["bash", "--noprofile", "--norc", "-e", "-c", "{{script}}"], "runs its argument as code"),
        (["/bin/zsh", "-f", "-c", "{{script}}"], "-c runs its argument as code"),
        (["python3.11", "-c", "{{script}}"], "python3.11 -c runs its argument as code"),
        (["/usr/bin/python3.12", "-I", "-c", "{{script}}"], "-c runs its argument as code"),
        (["python3", "-cimport os; os.system('id')"], "runs its argument as code"),
        (["pypy3", "-c", "{{script}}"], "-c runs its argument as code"),
        (["perl5.36", "-E", "{{script}}"], "perl5.36 -E runs its argument as code"),
        (["perl", "-ne", "{{script}}"], "perl -ne runs its argument as code"),
        (["ruby3.2", "-e", "{{script}}"], "-e runs its argument as code"),
        (["node18", "--eval={{script}}"], "runs its argument as code"),
        (["php8.2", "-r", "{{script}}"], "-r runs its argument as code"),
        (["lua5.4", "-e", "{{script}}"], "-e runs its argument as code"),
        (["fish", "--command", "{{script}}"], "--command runs its argument as code"),
        (["pwsh", "-NoProfile", "-Command", "{{script}}"], "-Command runs its argument as code"),
    ],
)
def test_shells_and_interpreters_with_options_or_versions_are_w007(cli, says):
    """A code option anywhere after the program, bundled or spelled long, with or without a version."""
    findings = _w007(cli)
    assert findings, f"{cli} passed check"
    assert says in findings[0].message
    assert findings[0].field == "verbs.go.cli[0]"


def test_a_shell_behind_another_command_is_w007():
    """The interpreter need not be the bin: `kubectl exec pod -- bash -l -c ...` is a shell in between."""
    findings = _w007(["kubectl", "exec", "pod", "--", "bash", "-l", "-c", "{{script}}"])
    assert [d.field for d in findings] == ["verbs.go.cli[4]"]


@pytest.mark.parametrize(
    "cli",
    [
        ["bash", "--norc", "{{script}}"],
        ["python3", "{{script}}"],
        ["kubectl", "exec", "pod", "--", "python3", "{{script}}"],
        ["sudo", "perl", "{{script}}"],
        ["env", "A=1", "node", "{{script}}"],
    ],
)
def test_a_script_or_option_chosen_by_the_caller_is_w007(cli):
    """`bash {{script}}`: the caller names the script, or slips in -c; either way it runs their code."""
    [finding] = _w007(cli)
    assert "{{script}} the caller chooses" in finding.message


@pytest.mark.parametrize(
    "cli, says",
    [
        (["env", "-S", "{{script}}"], "env -S splits its argument into a command line"),
        (["env", "-i", "--split-string={{script}}"], "splits its argument into a command line"),
        (["env", "-vS", "sh -c id"], "env -vS splits"),
        (["env", "FOO=1", "bash", "-c", "{{script}}"], "bash -c runs its argument as code"),
    ],
)
def test_env_split_string_is_w007(cli, says):
    """env -S (--split-string) turns one argument into a whole command line."""
    messages = [d.message for d in _w007(cli)]
    assert any(says in m for m in messages), messages


@pytest.mark.parametrize(
    "cli",
    [
        ["awk", "{{script}}"],
        ["awk", 'BEGIN { system("id") }'],
        ["gawk", "-F", ":", "{print $1}", "/etc/passwd"],
        ["/usr/bin/mawk", "-f", "prog.awk"],
        ["find", ".", "-name", "x", "--", "awk", "{{script}}"],
    ],
)
def test_awk_programs_are_w007(cli):
    """awk runs its program operand, and awk programs run commands (system(), pipes)."""
    findings = _w007(cli)
    assert findings and "runs its program operand as code" in findings[0].message


@pytest.mark.parametrize(
    "cli", [["xargs", "{{items}}"], ["xargs", "-0", "rm"], ["fd", "-e", "txt", "xargs"]]
)
def test_xargs_is_w007(cli):
    """xargs runs a command line built from its operands and its input."""
    findings = _w007(cli)
    assert findings and "xargs runs a command line it builds" in findings[0].message


@pytest.mark.parametrize(
    "cli",
    [
        ["python3", "-m", "pytest", "--", "{{items}}"],
        ["bash", "./deploy.sh", "--", "{{items}}"],
        ["kubectl", "set", "env", "deployment/web", "--list"],
        ["env", "FOO=1", "mail", "list"],
        ["git", "log", "--grep={{script}}"],
        ["rg", "-e", "{{script}}", "--", "{{items}}"],
        ["kubectl", "get", "node", "-o", "json"],
        ["kubectl", "describe", "node", "--", "{{script}}"],
        ["kubectl", "describe", "node", "{{script}}"],
    ],
)
def test_what_runs_no_caller_code_stays_clean(cli):
    """A module or script the pack names, env setting a variable, and ordinary tools are no W007."""
    assert _w007(cli) == []


def test_the_first_versions_cases_still_error():
    """`sh -c` and `bash -c` right after the program stay W007, as before."""
    assert _w007(["mail", "sh", "-c", "mail list"], bin="mail")
    assert _w007(["mail", "list", "bash", "-c", "x"], bin="mail")
    assert _w007(["python", "-e", "x"])
