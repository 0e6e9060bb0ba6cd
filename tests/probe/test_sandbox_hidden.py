"""sandbox.find_hidden: what the probe sandbox masks inside the system directories it shows."""

from __future__ import annotations

import os
import socket

from wrapgen.probe.sandbox import find_hidden


def test_what_others_cannot_read_and_sockets_are_hidden_but_empty_ones_left(tmp_path):
    """A 0600 file with content, a 0700 directory holding something, a socket: hidden. A readable
    file, an empty 0600 lock file, an empty 0700 directory: left (nothing to read, a mount saved)."""
    root = tmp_path / "etc"
    (root / "ok").mkdir(parents=True)
    (root / "ok" / "readable.conf").write_text("x\n")
    secret = root / "shadow"
    secret.write_text("root:$6$x$y:1:::\n")
    secret.chmod(0o600)
    lock = root / ".pwd.lock"
    lock.write_text("")
    lock.chmod(0o600)
    private = root / "private"
    private.mkdir(mode=0o700)
    (private / "key").write_text("k\n")
    empty = root / "empty-private"
    empty.mkdir(mode=0o700)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "ok" / "daemon.sock"))
    try:
        hidden = find_hidden([str(root)])
    finally:
        sock.close()
    assert set(hidden) - {"/var/tmp"} == {
        str(secret),
        str(private),
        str(root / "ok" / "daemon.sock"),
    }


def test_a_walk_past_its_limit_hides_its_whole_root(tmp_path):
    root = tmp_path / "var"
    root.mkdir()
    for i in range(5):
        (root / f"f{i}").write_text("x")
    assert str(root) in find_hidden([str(root)], limit=3)
    assert str(root) not in find_hidden([str(root)], limit=100)


def test_links_are_not_followed(tmp_path):
    root = tmp_path / "etc"
    root.mkdir()
    target = tmp_path / "outside"
    target.write_text("secret\n")
    target.chmod(0o600)
    os.symlink(target, root / "link")
    assert str(root / "link") not in find_hidden([str(root)])
