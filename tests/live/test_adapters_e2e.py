"""The generated packs under adapters/ run their read commands against the real tools."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from conftest import REPO, require_tool
from tests.support.bounds import wait_until
from tests.support.git import GIT_IDENTITY
from wrapgen.runtime import execute

ADAPTERS = REPO / "adapters"


def _ok(envelope: dict):
    assert envelope["ok"] is True, envelope
    return envelope["result"]


@pytest.fixture
def repo(tmp_path):
    require_tool("git")
    env = {**os.environ, **GIT_IDENTITY}

    def run(*a):
        return subprocess.run(["git", *a], cwd=tmp_path, env=env, check=True, capture_output=True)

    run("init", "-q", "-b", "main")
    (tmp_path / "hello.txt").write_text("hello world\n")
    run("add", "hello.txt")
    run("commit", "-q", "-m", "first commit")
    (tmp_path / "hello.txt").write_text("hello there\n")
    return tmp_path


def test_git_log_status_diff_grep(repo):
    """git: log shows the commit, status the change, diff the new line, grep the match."""
    pack = ADAPTERS / "git"
    assert "first commit" in _ok(execute(pack, "log", {"oneline": True}, cwd=repo))
    assert "hello.txt" in _ok(execute(pack, "status", {"short": True}, cwd=repo))
    assert "+hello there" in _ok(execute(pack, "diff", {}, cwd=repo))
    assert "hello.txt" in _ok(execute(pack, "grep", {"pattern": "hello"}, cwd=repo))


def test_git_tag_list_with_a_pattern_and_no_sort_only_lists(repo):
    """tag.list with patterns and no sort lists matching tags and creates none (--list is never dropped)."""
    subprocess.run(["git", "tag", "v1.0"], cwd=repo, check=True)
    pack = ADAPTERS / "git"
    assert _ok(execute(pack, "tag.list", {"patterns": ["v1*"]}, cwd=repo)) == "v1.0\n"
    assert _ok(execute(pack, "tag.list", {"patterns": ["release"]}, cwd=repo)) == ""
    tags = subprocess.run(
        ["git", "tag"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout
    assert tags == "v1.0\n"


def test_git_option_injection_is_refused(repo):
    """A revision that looks like an option never reaches git."""
    envelope = execute(ADAPTERS / "git", "log", {"revision_range": "--output=/tmp/pwned"}, cwd=repo)
    assert envelope["ok"] is False


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("def main():\n    return 'needle'\n")
    (tmp_path / "src" / "util.py").write_text("X = 1\n")
    (tmp_path / "README.md").write_text("# a needle in a haystack\n")
    return tmp_path


def test_rg_search_files_json(tree):
    """rg: search finds the needle, files lists the tree, search.json returns JSON events."""
    require_tool("rg")
    pack = ADAPTERS / "rg"
    assert "needle" in _ok(
        execute(pack, "search", {"pattern": "needle", "paths": ["src"]}, cwd=tree)
    )
    files = _ok(execute(pack, "files", {}, cwd=tree))
    assert "src/util.py" in files and "README.md" in files
    events = _ok(execute(pack, "search.json", {"pattern": "needle"}, cwd=tree))
    assert any(e["type"] == "match" for e in events)


def test_fd_find_and_list(tree):
    """fd (fdfind): find by extension, then list with details."""
    require_tool("fdfind")
    pack = ADAPTERS / "fd"
    found = _ok(execute(pack, "find", {"extension": "py"}, cwd=tree))
    assert sorted(found.split()) == ["src/main.py", "src/util.py"]
    listed = _ok(execute(pack, "list", {"pattern": "README"}, cwd=tree))
    assert "README.md" in listed


def test_jq_query_and_raw(tmp_path):
    """jq: query returns parsed JSON values; query.raw returns text."""
    require_tool("jq")
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"items": [{"name": "a", "n": 1}, {"name": "b", "n": 2}]}))
    pack = ADAPTERS / "jq"
    assert _ok(execute(pack, "query", {"jq_filter": ".items[].n", "files": [str(data)]})) == [1, 2]
    assert (
        _ok(execute(pack, "query.raw", {"jq_filter": ".items[].name", "files": [str(data)]}))
        == "a\nb\n"
    )
    assert _ok(execute(pack, "eval", {"jq_filter": "[1,2] | add"})) == 3


@pytest.fixture
def http_server(tmp_path):
    (tmp_path / "index.html").write_text("hello from the test server\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def listening() -> bool:
            assert proc.poll() is None, "http.server ended"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
                return True
            except OSError:
                return False

        wait_until(listening, what="http.server to listen")
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=300)


def test_curl_get_and_headers(http_server):
    """curl: get returns the body, headers returns the status line and headers only."""
    require_tool("curl")
    pack = ADAPTERS / "curl"
    assert "hello from the test server" in _ok(execute(pack, "get", {"url": http_server}))
    headers = _ok(execute(pack, "headers", {"url": http_server}))
    assert headers.startswith("HTTP/1.0 200") and "hello" not in headers
    missing = execute(pack, "get", {"url": http_server + "nope", "fail": True})
    assert missing["ok"] is False


def test_fd_files_dirs_recent(tree):
    """fd: files leaves directories out, dirs leaves files out, recent finds only what changed lately."""
    require_tool("fdfind")
    pack = ADAPTERS / "fd"
    (tree / "src" / "old.py").write_text("OLD = 1\n")
    os.utime(tree / "src" / "old.py", (time.time() - 3 * 86400, time.time() - 3 * 86400))
    files = _ok(execute(pack, "files", {}, cwd=tree)).split()
    assert (
        "src/main.py" in files
        and "src/old.py" in files
        and not any(f.rstrip("/") == "src" for f in files)
    )
    assert [d.rstrip("/") for d in _ok(execute(pack, "dirs", {}, cwd=tree)).split()] == ["src"]
    recent = _ok(
        execute(pack, "recent", {"changed_within": "1d", "extension": "py"}, cwd=tree)
    ).split()
    assert sorted(recent) == ["src/main.py", "src/util.py"]
    assert execute(pack, "recent", {}, cwd=tree)["ok"] is False  # the time is required


@pytest.fixture
def post_server():
    """A tiny 127.0.0.1 server that answers a POST with its method, content type and body."""
    import http.server
    import threading

    class Echo(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            reply = json.dumps(
                {"method": "POST", "type": self.headers.get("Content-Type"), "body": body.decode()}
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def test_curl_with_headers_and_download(http_server, tmp_path):
    """curl: get.with-headers returns status line then body; download writes the body to a file, only with confirm."""
    require_tool("curl")
    pack = ADAPTERS / "curl"
    both = _ok(execute(pack, "get.with-headers", {"url": http_server}))
    assert both.startswith("HTTP/1.0 200") and both.rstrip().endswith("hello from the test server")
    target = tmp_path / "saved.html"
    refused = execute(pack, "download", {"url": http_server, "output": "saved.html"}, cwd=tmp_path)
    assert refused["ok"] is False and "confirm" in refused["error"] and not target.exists()
    # it writes only inside the working directory (docs/contract.md §9): an absolute path is refused
    outside = execute(
        pack, "download", {"url": http_server, "output": str(target), "confirm": True}, cwd=tmp_path
    )
    assert outside["ok"] is False and "output" in outside["error"] and not target.exists()
    _ok(
        execute(
            pack,
            "download",
            {"url": http_server, "output": "saved.html", "confirm": True},
            cwd=tmp_path,
        )
    )
    assert target.read_text() == "hello from the test server\n"


def test_curl_post_and_post_json(post_server, http_server, tmp_path):
    """curl: post sends form data as given ('@' reads no file), post.json sends JSON; http.server's 501 is a clean failure."""
    require_tool("curl")
    pack = ADAPTERS / "curl"
    secret = tmp_path / "secret.txt"
    secret.write_text("do not send me")
    sent = json.loads(
        _ok(
            execute(
                pack, "post", {"url": post_server, "data_raw": "@" + str(secret), "confirm": True}
            )
        )
    )
    assert sent["method"] == "POST" and sent["body"] == "@" + str(secret)
    assert sent["type"] == "application/x-www-form-urlencoded"
    sent = json.loads(
        _ok(execute(pack, "post.json", {"url": post_server, "json": '{"a": 1}', "confirm": True}))
    )
    assert sent["type"] == "application/json" and json.loads(sent["body"]) == {"a": 1}
    refused = execute(
        pack, "post", {"url": http_server, "data_raw": "x=1", "fail": True, "confirm": True}
    )
    assert (
        refused["ok"] is False
        and isinstance(refused["error"], str)
        and "Traceback" not in refused["error"]
    )


def test_curl_never_reads_a_local_file_through_a_value(post_server, http_server, tmp_path):
    """curl: a header or JSON value starting with @ (curl reads that file and sends it) is refused before the spawn."""
    require_tool("curl")
    pack = ADAPTERS / "curl"
    secret = tmp_path / "secret.txt"
    secret.write_text("do not send me")
    for verb, args in [
        ("get", {"url": post_server, "header": ["@" + str(secret)]}),
        ("post.json", {"url": post_server, "json": "@" + str(secret), "confirm": True}),
    ]:
        refused = execute(pack, verb, args)
        assert refused["ok"] is False and "pattern" in refused["error"], (verb, refused)
    # an ordinary header still goes out
    body = _ok(execute(pack, "get", {"url": http_server, "header": ["Accept: text/plain"]}))
    assert "hello from the test server" in body


@pytest.mark.parametrize(
    "pack,verb,args",
    [
        ("gh", "pr.list", {"repo": "cli/cli", "limit": 1}),
        ("gh", "issue.list", {"repo": "cli/cli", "limit": 1}),
        ("kubectl", "get", {"type": "pods"}),
        ("kubectl", "events", {}),
        ("docker", "ps", {}),
        ("docker", "images", {}),
    ],
)
def test_no_server_or_login_gives_a_clean_envelope(pack, verb, args, tmp_path):
    """gh/kubectl/docker without a login, cluster or daemon: ok false with the tool's own message."""
    require_tool(pack)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "KUBECONFIG": str(tmp_path / "none"),
        "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock",
        "GH_CONFIG_DIR": str(tmp_path / "gh"),
    }
    envelope = execute(ADAPTERS / pack, verb, args, cwd=tmp_path, env=env)
    if envelope["ok"]:
        return  # a machine that does have access: nothing more to check
    assert set(envelope) >= {"ok", "error"}
    assert isinstance(envelope["error"], str) and envelope["error"].strip()
    assert "Traceback" not in envelope["error"]


def test_git_grep_takes_a_dashed_pattern_safely(repo):
    """git grep's pattern goes in -e form: a pattern starting with '-' is searched, not read as an option."""
    (repo / "notes.txt").write_text("-v is not an option here\n")
    subprocess.run(["git", "add", "notes.txt"], cwd=repo, check=True)
    result = _ok(execute(ADAPTERS / "git", "grep", {"pattern": "-v is"}, cwd=repo))
    assert "notes.txt:-v is not an option here" in result
