"""The hardened curl pack fetches http(s) only: file://, gopher:// and redirects to them are refused.

A local http server on 127.0.0.1 gives the positive case; a raw TCP listener stands for the local
service that a gopher:// URL would deliver bytes to, and counts the connections it gets.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PACK = REPO_ROOT / "adapters" / "curl"


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path.startswith("/to-file"):
            self._redirect("file:///etc/passwd")
        elif self.path.startswith("/to-gopher"):
            self._redirect(f"gopher://127.0.0.1:{self.server.gopher_port}/_SET%20owned%201")
        else:
            body = b"hello from the local server\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def _redirect(self, where: str):
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def servers():
    if shutil.which("curl") is None:
        pytest.skip("curl not installed")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    connections: list[bytes] = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            conn.settimeout(1)
            try:
                connections.append(conn.recv(4096))
            except OSError:
                connections.append(b"")
            conn.close()

    taker = threading.Thread(target=accept, daemon=True)
    taker.start()
    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    web.gopher_port = listener.getsockname()[1]
    serving = threading.Thread(target=web.serve_forever, daemon=True)
    serving.start()
    try:
        yield web.server_address[1], listener.getsockname()[1], connections
    finally:
        web.shutdown()
        web.server_close()
        stop.set()
        taker.join(2)
        listener.close()


def _exec(verb: str, *pairs: str, cwd: Path) -> dict:
    env = {"PATH": os.environ["PATH"], "HOME": str(cwd), "LANG": "C.UTF-8"}
    for proxy in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "all_proxy",
    ):
        env.pop(proxy, None)
    done = subprocess.run(
        [sys.executable, "-m", "wrapgen", "exec", str(PACK), verb, "--json", "--", *pairs],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout)


def test_a_local_http_url_is_fetched(servers, tmp_path):
    """The positive case: http://127.0.0.1 answers through the hardened pack."""
    port, _, _ = servers
    envelope = _exec("get", f"url=http://127.0.0.1:{port}/", cwd=tmp_path)
    assert envelope == {"ok": True, "result": "hello from the local server\n"}


def test_plain_curl_reads_a_local_file_so_the_attack_is_real(tmp_path):
    """Without the hardening curl returns a local file for a file:// URL."""
    secret = tmp_path / "secret.txt"
    secret.write_text("token=abc\n")
    done = subprocess.run(
        ["curl", "-sS", f"file://{secret}"], capture_output=True, text=True, timeout=30
    )
    assert done.stdout == "token=abc\n"


@pytest.mark.parametrize("verb", ["get", "get.with-headers", "headers"])
def test_file_urls_are_refused(verb, tmp_path):
    """`url=file:///etc/passwd` (and a file of the caller's) gives an error, never the file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("token=abc\n")
    for url in ("file:///etc/passwd", f"file://{secret}"):
        envelope = _exec(verb, f"url={url}", cwd=tmp_path)
        assert envelope["ok"] is False, envelope
        assert "root:" not in json.dumps(envelope) and "token=abc" not in json.dumps(envelope)
        assert "protocol" in envelope["error"].lower()


def test_gopher_urls_never_reach_the_local_service(servers, tmp_path):
    """A gopher:// URL at a local service is refused before any connection is made."""
    _, gopher_port, connections = servers
    envelope = _exec("get", f"url=gopher://127.0.0.1:{gopher_port}/_SET%20owned%201", cwd=tmp_path)
    assert envelope["ok"] is False and "protocol" in envelope["error"].lower()
    envelope = _exec(
        "post",
        f"url=gopher://127.0.0.1:{gopher_port}/_x",
        "data_raw=a=1",
        "confirm=true",
        cwd=tmp_path,
    )
    assert envelope["ok"] is False
    assert connections == []


def test_redirects_to_file_or_gopher_are_refused(servers, tmp_path):
    """location=true follows http redirects, but not one that leads to file:// or gopher://."""
    port, _, connections = servers
    for path in ("/to-file", "/to-gopher"):
        envelope = _exec("get", f"url=http://127.0.0.1:{port}{path}", "location=true", cwd=tmp_path)
        assert envelope["ok"] is False, envelope
        assert "root:" not in json.dumps(envelope)
    assert connections == []


def test_plain_curl_delivers_gopher_bytes_to_a_local_service_so_the_attack_is_real(servers):
    """Without the hardening a gopher:// URL sends its payload to the local listener."""
    _, gopher_port, connections = servers
    subprocess.run(
        ["curl", "-sS", "--max-time", "3", f"gopher://127.0.0.1:{gopher_port}/_SET%20owned%201"],
        capture_output=True,
        timeout=300,
    )
    for _ in range(20):
        if connections:
            break
        threading.Event().wait(0.1)
    assert connections and b"SET owned 1" in connections[0]
