"""Red team, medium: a probe that reads HOME or /etc/shadow, and what it prints lands in pack.yaml and
SKILL.md (issue 27 items 2 and 3).

The hostile --help prints the first line of /etc/shadow, a listing of root's home and of the caller's
HOME, and a secret of the caller's HOME. The defence: the probe sandbox binds the system directories,
never HOME or /root, and hides what an unprivileged user could not read there (/etc/shadow); and text
a probe prints goes into a pack only as help text: a line that quotes a password file or looks like
a secret is refused (it never reaches pack.yaml or SKILL.md).
"""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import pytest
import yaml
from support.redteam import READ_SECRETS, hostile_program
from support.sandbox import sandbox_required  # noqa: F401 (autouse: bwrap must run here)

from wrapgen.probe.prober import Prober

SECRET = "ghp_" + "Zq9" * 12  # shaped like a GitHub token


@pytest.fixture
def user_home(tmp_path, monkeypatch):
    """The caller's HOME, holding a token file: what a probe must never see."""
    home = tmp_path / "user-home"
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".config" / "gh" / "hosts.yml").write_text(f"github.com:\n  oauth_token: {SECRET}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    return home


def _reader(tmp_path: Path, home: Path) -> str:
    extra = [("userhome", str(home)), ("token", str(home / ".config" / "gh" / "hosts.yml"))]
    return hostile_program(tmp_path / "bin" / "reader", f"EXTRA = {extra!r}\n{READ_SECRETS}")


def _said(text: str) -> dict[str, str]:
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


def test_the_attack_is_real_without_the_sandbox(tmp_path, user_home):
    """Run directly (a scratch HOME alone), the program reads /etc/shadow and the caller's token by path."""
    tool = _reader(tmp_path, user_home)
    scratch = tmp_path / "scratch-home"
    scratch.mkdir()
    done = subprocess.run(
        [tool],
        capture_output=True,
        text=True,
        timeout=60,
        env={"HOME": str(scratch), "PATH": os.environ["PATH"]},
    )
    said = _said(done.stdout)
    assert SECRET in said["token"]
    if os.geteuid() == 0 and Path("/etc/shadow").exists():
        assert said["shadow"].startswith("root:")


def test_a_probe_sees_neither_home_nor_root_nor_shadow(tmp_path, user_home):
    """In the probe sandbox: /etc/shadow reads empty, root's home and the caller's HOME are absent."""
    tool = _reader(tmp_path, user_home)
    with Prober(tool, timeout_s=30) as prober:
        assert prober.sandboxed
        said = _said(prober.run(("--help",)).text)
    assert said["shadow"].startswith("fail"), said
    # root's home: absent, or holding only the way to programs on PATH that live there (~/.cargo/bin)
    root_home = pwd.getpwuid(0).pw_dir
    on_path = os.environ["PATH"].split(os.pathsep)
    shown = [] if said["roothome"].startswith("fail") else said["roothome"].split(",")
    for entry in shown:
        assert any(d.startswith(f"{root_home}/{entry}/") for d in on_path), (entry, said)
    assert said["userhome"].startswith("fail") and said["token"].startswith("fail"), said


def test_what_a_help_prints_that_looks_like_a_secret_never_reaches_the_pack(
    tmp_path, user_home, cli
):
    """A help whose own text quotes a shadow line, a private key and a token: wrap writes none of them,
    nor does the Skill exported from the pack."""
    shadow_line = "root:$6$rounds=5000$saltsalt$" + "x" * 86 + ":19000:0:99999:7:::"
    body = (
        "if True:  # the same page whatever it is asked\n"
        "    print('Usage: leaky [OPTIONS] COMMAND')\n"
        "    print()\n"
        "    print('Commands:')\n"
        f"    print('  show    Show {shadow_line}')\n"
        f"    print('  list    List {SECRET}')\n"
        "    print('  status  -----BEGIN OPENSSH PRIVATE KEY-----')\n"
        "    print('  check   Check the thing')\n"
        "    print('  info    Info about the thing')\n"
        "    sys.exit(0)\n"
    )
    tool = hostile_program(tmp_path / "bin" / "leaky", body)
    out = tmp_path / "packs"
    result = cli("wrap", tool, "-o", str(out), "--no-try", "--no-cache")
    assert result.exit_code == 0, result.stdout + result.stderr
    pack = out / "leaky"
    assert {"show", "list", "status"} <= set(
        yaml.safe_load((pack / "pack.yaml").read_text())["verbs"]
    )
    skills = tmp_path / "skills"
    exported = cli("export", "--format", "skill", "-o", str(skills), str(pack))
    assert exported.exit_code == 0, exported.stderr
    files = [p for root in (out, skills) for p in root.rglob("*") if p.is_file()]
    assert any(p.name == "SKILL.md" for p in files)
    written = "\n".join(p.read_text() for p in files)
    for leaked in (SECRET, "$6$rounds", "PRIVATE KEY"):
        assert leaked not in written
