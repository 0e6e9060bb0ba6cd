"""The probe and trial sandbox sees the tool (issue 28 item 11): a tool, or its interpreter, kept in a
virtual environment under the temp directory or in HOME runs inside it, read-only, and what lies
beside it in HOME stays hidden."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sandbox import sandbox_required as _sandbox  # noqa: F401
from wrapgen.probe.isolated import run_isolated
from wrapgen.probe.prober import Prober
from wrapgen.probe.trial import TrialSpec, run_trials

HELP = "Usage: tool [OPTIONS]\\n\\nOptions:\\n  -h, --help  show help\\n"


@pytest.fixture
def venv(tmp_path) -> Path:
    """A real virtual environment under the temp directory, with a module only it holds."""
    root = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = next((root / "lib").glob("python3*")) / "site-packages"
    (site / "venv_only.py").write_text("WHERE = 'inside the venv'\n")
    return root


def _script(path: Path, first_line: str, body: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{first_line}\n{body}")
    path.chmod(0o755)
    return str(path)


_BODY = (
    "import sys, venv_only\n"
    "if '--help' in sys.argv or '-h' in sys.argv:\n"
    f"    print('{HELP}')\n"
    "else:\n"
    "    print(venv_only.WHERE)\n"
)


def _env_with(venv: Path) -> dict:
    return {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.parametrize("how", ["venv-shebang", "env-on-path"])
def test_a_tool_run_by_a_venv_python_under_tmp_is_probed_in_the_sandbox(tmp_path, venv, how):
    """Its --help runs: the venv's interpreter and its site-packages are bound back read-only."""
    if how == "venv-shebang":
        tool = _script(venv / "bin" / "tool", f"#!{venv / 'bin' / 'python3'}", _BODY)
        env = None
    else:  # a tool elsewhere under /tmp, finding python3 on PATH as a shell would
        tool = _script(tmp_path / "tools" / "tool", "#!/usr/bin/env python3", _BODY)
        env = _env_with(venv)
    with Prober(tool, env=env, timeout_s=20) as prober:
        assert prober.sandboxed
        result = prober.run(("--help",))
    assert "Usage: tool" in result.text, result.problem


def test_a_trial_and_an_isolated_run_see_the_venv_too(tmp_path, venv, monkeypatch):
    """The trial sandbox and run_isolated bind the same: the tool prints what its venv module says."""
    monkeypatch.setenv("PATH", _env_with(venv)["PATH"])
    tool = _script(tmp_path / "tools" / "tool", "#!/usr/bin/env python3", _BODY)
    run = run_trials([TrialSpec("show", ("tool",))], bin_path=tool, cache=False, timeout_s=20)
    outcome = run.outcomes[0]
    assert outcome.exit_code == 0 and "inside the venv" in outcome.stdout, outcome
    isolated = run_isolated([tool], timeout_s=20, output_cap=65536, sandbox_required=True)
    assert isolated.exit_code == 0 and b"inside the venv" in isolated.stdout, isolated.stderr


def test_a_tool_in_home_runs_but_the_rest_of_home_stays_hidden(tmp_path, monkeypatch):
    """~/.local/bin/tool with its module in ~/.local/lib runs; ~/secret and ~/.local/share do not show."""
    home = tmp_path / "home"
    lib = home / ".local" / "lib" / "toolpkg"
    lib.mkdir(parents=True)
    (lib / "helper.py").write_text("WHERE = 'from ~/.local/lib'\n")
    (home / "secret.txt").write_text("hunter2\n")
    (home / ".local" / "share").mkdir()
    (home / ".local" / "share" / "token").write_text("hunter2\n")
    monkeypatch.setenv("HOME", str(home))
    body = (
        "import os, sys\n"
        f"sys.path.insert(0, {str(lib)!r})\n"
        "import helper\n"
        "print(helper.WHERE)\n"
        f"for p in ({str(home / 'secret.txt')!r}, {str(home / '.local' / 'share' / 'token')!r}):\n"
        "    print(p.rsplit('/', 1)[1], os.path.exists(p))\n"
    )
    tool = _script(home / ".local" / "bin" / "tool", f"#!{sys.executable} -IS", body)
    isolated = run_isolated([tool], timeout_s=20, output_cap=65536, sandbox_required=True)
    out = isolated.stdout.decode()
    assert isolated.exit_code == 0, isolated.stderr
    assert "from ~/.local/lib" in out
    assert "secret.txt False" in out and "token False" in out
