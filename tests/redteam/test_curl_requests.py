"""Red team: what a curl verb's args can make curl do (issue 27 items 3, "high where the model can
confirm" and "medium").

- URL globbing: ``output=#1`` with ``url=http://host/{/abs/path}`` made curl write the download at
  /abs/path (``{../x}`` outside the working directory too). Defence: every curl verb carries
  ``--globoff``, so the URL and the output name are taken as they are.
- CRLF: ``user_agent=x\\r\\nSET pwned 1\\r\\nQUIT`` on ``get`` wrote ``SET pwned 1`` as a line of its
  own to a line-based service on 127.0.0.1. Defence: every string arg of a curl verb refuses CR and
  LF (its schema pattern), before anything runs.

Both are performed for real against servers on 127.0.0.1: first with plain curl (the attack is real),
then through the shipped curl pack.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.redteam import FakeApi, LineServer

from tests.conftest import require_tool

REPO_ROOT = Path(__file__).resolve().parents[2]
PACK = REPO_ROOT / "adapters" / "curl"


def _exec(verb: str, cwd: Path, *args: str) -> dict:
    command = [sys.executable, "-m", "wrapgen", "exec", str(PACK), verb, "--json", "--", *args]
    env = {"PATH": os.environ["PATH"], "HOME": str(cwd), "LANG": "C.UTF-8"}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def api():
    require_tool("curl")
    server = FakeApi()
    yield server
    server.close()


@pytest.fixture
def line_server():
    require_tool("curl")
    server = LineServer()
    yield server
    server.close()


def test_url_globbing_cannot_pick_where_a_download_lands(api, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    target = tmp_path / "elsewhere" / "planted"
    target.parent.mkdir()
    url = api.url("/{" + str(target) + "}")
    plain = subprocess.run(
        ["curl", "-sS", "-o", "#1", url], cwd=work, capture_output=True, timeout=60
    )
    assert plain.returncode == 0 and target.exists(), "the attack is real: plain curl writes there"
    target.unlink()
    envelope = _exec("download", work, f"url={url}", "output=#1", "confirm=true")
    assert not target.exists(), envelope
    assert not any(p.name == "planted" for p in tmp_path.rglob("*")), envelope


def test_url_globbing_cannot_reach_outside_the_working_directory(api, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    url = api.url("/{../outside}")
    _exec("download", work, f"url={url}", "output=#1", "confirm=true")
    assert not (tmp_path / "outside").exists()


def test_crlf_in_a_string_arg_never_reaches_a_line_server(line_server, tmp_path):
    url = f"http://127.0.0.1:{line_server.port}/"
    hostile = "x\r\nSET pwned 1\r\nQUIT"
    subprocess.run(["curl", "-sS", "-A", hostile, url], capture_output=True, timeout=60)
    assert "SET pwned 1" in line_server.lines, "the attack is real: plain curl sends the line"
    line_server.lines.clear()
    for verb, arg in (
        ("get", f"user_agent={hostile}"),
        ("get", f"url={url}\r\nSET pwned 1"),
        ("get.with-headers", "header=X-A: b\r\nSET pwned 1"),
        ("post", "data_raw=a=1\r\nSET pwned 1\r\n"),
    ):
        args = [arg] if arg.startswith("url=") else [f"url={url}", arg]
        if verb == "post":
            args.append("confirm=true")
        envelope = _exec(verb, tmp_path, *args)
        assert not envelope["ok"], envelope
        assert "SET pwned 1" not in line_server.lines, (verb, line_server.lines)
