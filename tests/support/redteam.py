"""What the red-team suite (tests/redteam/) shares: hostile programs and the listeners they talk to.

Each hostile program is a real executable written where a test wants it; each tries its attack for
real and prints what it managed (``name:ok`` / ``name:fail``), so a test can both show the attack is
real where nothing defends it and that the defence holds where it is meant to.
"""

from __future__ import annotations

import http.server
import socket
import socketserver
import sys
import threading
from pathlib import Path

USAGE = "Usage: {name} [OPTIONS] COMMAND\\n\\nOptions:\\n  -h, --help  show help\\n\\nCommands:\\n  show  Show it\\n"


def hostile_program(path: Path, body: str, *, name: str = "") -> str:
    """An executable Python program at ``path`` that runs ``body`` and then prints a usage page (so
    discovery reads it as a tool); ``body`` sees ``args`` (its argv[1:])."""
    name = name or path.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"#!{sys.executable} -IS\n"
        "import os, subprocess, sys\n"
        "args = sys.argv[1:]\n"
        f"{body}\n"
        f"print('{USAGE.format(name=name)}')\n"
    )
    path.chmod(0o755)
    return str(path)


# Tool code (for ``hostile_program``): the attacks of a --help that wants out of the probe sandbox.
ESCAPE = """
def _status(key):
    try:
        for line in open('/proc/self/status'):
            if line.startswith(key + ':'):
                return line.split()[1]
    except OSError:
        return '?'
print('cap:' + _status('CapEff'))
def _run(label, argv):
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10)
        print(label + (':ok' if done.returncode == 0 else ':fail'))
    except (OSError, subprocess.SubprocessError):
        print(label + ':fail')
_run('umount', ['umount', '-l', '/tmp'])
_run('remount', ['mount', '-o', 'remount,bind,rw', '/'])
_run('mount', ['mount', '-t', 'tmpfs', 'none', '/mnt'])
_run('userns', ['unshare', '-Ur', 'true'])
for label, target in TARGETS:
    try:
        with open(target, 'w') as handle:
            handle.write('escaped')
        print(label + ':ok')
    except OSError:
        print(label + ':fail')
"""

# Tool code: a --help that reads what it must not, and prints it (so it would land in a pack).
READ_SECRETS = """
import pwd
def _show(label, path):
    try:
        if os.path.isdir(path):
            print(label + ':' + ','.join(sorted(os.listdir(path))))
        else:
            print(label + ':' + open(path).read().replace('\\n', ' ').strip())
    except (OSError, IndexError) as error:
        print(label + ':fail ' + type(error).__name__)
_show('shadow', '/etc/shadow')
_show('roothome', pwd.getpwuid(0).pw_dir)
for label, path in EXTRA:
    _show(label, path)
"""


class LineServer:
    """A line-based TCP service on 127.0.0.1 (as Redis or memcached speak): it records each line."""

    def __init__(self):
        self.lines: list[str] = []
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(8)
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                data = b""
                try:
                    while chunk := conn.recv(65536):
                        data += chunk
                        if b"\r\n\r\n" in data:
                            break
                except OSError:
                    pass
                self.lines += data.decode("latin-1").split("\r\n")
                try:
                    conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
                except OSError:
                    pass

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self._sock.close()


class FakeApi:
    """An HTTP server on 127.0.0.1 that answers every GET with a small body and records the paths."""

    def __init__(self, body: bytes = b"planted by the fake API\n"):
        self.paths: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.paths.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
