"""Discovery does not do what a tool's action does: scratch HOME, sandbox, static launchers, a deadline.

Each test performs the attack with a fake tool (a --help that writes into HOME and outside its
working directory, one that reaches the network, a launcher script with an `rm` line, a tool with
400 hanging subcommands) and shows it fails.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from pathlib import Path

import pytest

from tests.support.bounds import wait_until
from tests.support.tools import python_tool
from wrapgen.probe import sandbox
from wrapgen.probe.discover import discover
from wrapgen.probe.prober import Prober
from wrapgen.probe.sandbox import bwrap_argv, reset_sandbox_status, sandbox_status

USAGE = "Usage: {name} [OPTIONS]\\n\\nOptions:\\n  -v, --verbose  say more\\n  -h, --help     show help\\n"


def _tool(tmp_path: Path, name: str, body: str) -> str:
    """A Python fake tool; ``body`` runs before it prints its usage."""
    path = tmp_path / name
    return python_tool(
        path, f"import os, sys\nargs = sys.argv[1:]\n{body}\nprint('{USAGE.format(name=name)}')\n"
    )


def _try_write(label: str, target: str) -> str:
    """Tool code: try to write ``target`` and print 'label:ok' or 'label:fail'."""
    return (
        f"try:\n    open({target}, 'w').write('planted')\n    print('{label}:ok')\n"
        f"except OSError:\n    print('{label}:fail')\n"
    )


needs_sandbox = pytest.mark.skipif(
    not sandbox_status().available, reason=f"bubblewrap cannot run here: {sandbox_status().reason}"
)


@pytest.fixture
def user_home(tmp_path, monkeypatch):
    home = tmp_path / "user-home"
    home.mkdir()
    (home / "keep.txt").write_text("precious\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    return home


@pytest.mark.parametrize(
    "use_sandbox", [None, False], ids=["sandbox-where-available", "no-sandbox"]
)
def test_a_help_that_deletes_and_writes_in_home_cannot_touch_the_users(
    tmp_path, user_home, use_sandbox
):
    """--help runs `rm $HOME/keep.txt` and plants a file in HOME: the user's HOME is untouched
    (the probe's HOME is a scratch directory, removed afterwards), with or without the sandbox."""
    tool = _tool(
        tmp_path,
        "wg-homewriter",
        "home = os.environ.get('HOME', '')\n"
        "print('home=' + home)\n"
        "try:\n    os.remove(os.path.join(home, 'keep.txt'))\nexcept OSError:\n    pass\n"
        + _try_write("home", "os.path.join(home, 'planted')"),
    )
    found = discover(tool, depth=0, cache=False, sandbox=use_sandbox)
    assert (user_home / "keep.txt").read_text() == "precious\n"
    assert sorted(p.name for p in user_home.iterdir()) == ["keep.txt"]
    assert {s for f in found.root.flags for s in f.spellings} >= {"--verbose", "-v"}
    with Prober(tool, sandbox=use_sandbox) as prober:
        text = prober.run(("--help",)).text
        scratch_home = prober.home
    # it wrote, but only in its scratch HOME (which help reads as "~": the user's would show as itself)
    assert "home=~\n" in text and "home:ok" in text and str(user_home) not in text
    assert not os.path.exists(scratch_home)


@needs_sandbox
def test_in_the_sandbox_only_the_scratch_directories_are_writable(tmp_path, user_home):
    """Sandboxed: HOME, the cwd and TMPDIR take writes; the cwd's parent, the user's files by
    absolute path and /tmp do not."""
    victim = user_home / "keep.txt"
    tool = _tool(
        tmp_path,
        "wg-writer",
        _try_write("home", "os.path.join(os.environ['HOME'], 'x')")
        + _try_write("cwd", "'here'")
        + _try_write("tmpdir", "os.path.join(os.environ['TMPDIR'], 'x')")
        + _try_write("parent", "'../escaped'")
        + _try_write("absolute", repr(str(victim)))
        + _try_write("slashtmp", repr(f"/tmp/wg-escaped-{random.randint(0, 10**9)}")),
    )
    with Prober(tool) as prober:
        assert prober.sandboxed
        text = prober.run(("--help",)).text
        scratch_root = os.path.dirname(prober.workdir)
    for label in ("home", "cwd", "tmpdir"):
        assert f"{label}:ok" in text, text
    for label in ("parent", "absolute", "slashtmp"):
        assert f"{label}:fail" in text, text
    assert victim.read_text() == "precious\n"
    assert not os.path.exists(scratch_root)


def test_without_the_sandbox_the_parent_write_lands_in_scratch_space_that_is_removed(tmp_path):
    """Unsandboxed, `../escaped` from the probe's cwd lands in the scratch root, which is removed."""
    tool = _tool(tmp_path, "wg-parent", _try_write("parent", "'../escaped'"))
    with Prober(tool, sandbox=False) as prober:
        text = prober.run(("--help",)).text
        root = os.path.dirname(prober.workdir)
        assert os.path.exists(os.path.join(root, "escaped"))
    assert "parent:ok" in text
    assert not os.path.exists(root)


@pytest.fixture
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.1)
    hits: list[int] = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            hits.append(1)
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], hits
    stop.set()
    thread.join(2)
    server.close()


def _net_tool(tmp_path: Path, port: int) -> str:
    return _tool(
        tmp_path,
        "wg-phonehome",
        "import socket\n"
        f"try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2).close()\n    print('net:ok')\n"
        "except OSError:\n    print('net:fail')\n",
    )


def test_without_the_sandbox_a_help_reaches_the_network(tmp_path, listener):
    """The attack is real: unsandboxed, the --help connects to the local listener."""
    port, hits = listener
    with Prober(_net_tool(tmp_path, port), sandbox=False) as prober:
        text = prober.run(("--help",)).text
    assert "net:ok" in text
    assert hits


@needs_sandbox
def test_in_the_sandbox_a_help_cannot_reach_the_network(tmp_path, listener):
    """Sandboxed (--unshare-net), the same --help cannot connect: the listener sees nobody."""
    port, hits = listener
    with Prober(_net_tool(tmp_path, port)) as prober:
        text = prober.run(("--help",)).text
    assert "net:fail" in text
    time.sleep(0.2)
    assert hits == []


def test_a_launcher_with_an_rm_line_is_read_not_run(tmp_path, user_home):
    """A script whose last line is `exec prog "$@"` but which first runs `rm` is read statically:
    the file it would delete survives, and nothing runs (not even for the cache key)."""
    victim = user_home / "keep.txt"
    ran = tmp_path / "ran"
    program = _tool(tmp_path, "wg-real", f"open({str(ran)!r}, 'a').write('x')\n")
    script = tmp_path / "wg-launch"
    script.write_text(
        f'#!/bin/sh\n# start the real tool\nrm -f "{victim}" "$HOME/keep.txt"\n'
        f'exec "{program}" "$@"\n'
    )
    script.chmod(0o755)
    for cache in (True, False):
        found = discover(str(script), depth=0, cache=cache, sandbox=False)
        assert found.root.parser == "script"
    assert victim.read_text() == "precious\n"
    assert not ran.exists(), "the launcher's program was run"


def test_a_launcher_with_only_allowlisted_lines_is_still_probed(tmp_path, user_home):
    """export, cd and an `if [ -x ... ]` before the exec keep a script a launcher: it is probed."""
    program = _tool(tmp_path, "wg-real2", "")
    script = tmp_path / "wg-launch2"
    script.write_text(
        f'#!/bin/sh\nset -e\nexport WG_MODE=1\ncd "$(dirname "$0")"\n'
        f'if [ -x "{program}" ]; then\n  exec "{program}" "$@"\nfi\nexec "{program}" "$@"\n'
    )
    script.chmod(0o755)
    found = discover(str(script), depth=0, cache=False)
    assert found.root.parser != "script"
    assert "--verbose" in {s for f in found.root.flags for s in f.spellings}


def _hanging_tool(tmp_path: Path, count: int, marker: str) -> str:
    names = [f"cmd{i:03d}" for i in range(count)]
    listing = "".join(f"  {n:<12}Do thing {n}\\n" for n in names)
    path = tmp_path / "wg-hangs"
    return python_tool(
        path,
        (
            "import sys, time, subprocess\nargs = sys.argv[1:]\n"
            "if args in (['--help'], ['-h']):\n"
            f"    print('Usage:\\n  wg-hangs [command]\\n\\nAvailable Commands:\\n{listing}\\n"
            "Flags:\\n  -h, --help   help for wg-hangs\\n')\n"
            "    sys.exit(0)\n"
            "if args == ['--version']:\n    print('wg-hangs 1.0'); sys.exit(0)\n"
            f"subprocess.Popen(['sleep', '{marker}'])\n"
            "time.sleep(3600)\n"
        ),
    )


def _processes_with(marker: str) -> list[str]:
    """The command lines (read from /proc, so no ps is needed) of live processes that mention marker."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        line = b" ".join(argv).decode("utf-8", "replace")
        if marker in line and state not in (b"Z", b"X"):
            found.append(line)
    return found


def test_four_hundred_hanging_subcommands_end_at_the_deadline_with_what_was_read(
    tmp_path, user_home
):
    """400 subcommands whose --help hangs: discovery ends promptly at its deadline, keeps the root
    and the stubs, says so once, caches nothing, and leaves no process behind."""
    marker = str(random.randint(700000, 799999))
    tool = _hanging_tool(tmp_path, 400, marker)
    # without the deadline: 400 probes x 1 s (and as much again for each one's second run) / 4 at
    # a time = 200 s at least; the stubs and the one warning say the deadline cut it (20 s: time
    # for the root's help on a busy machine)
    found = discover(tool, depth=1, timeout_s=1.0, deadline_s=20.0, jobs=4)
    assert len(found.root.subcommands) == 400
    assert all(sub.stub for sub in found.root.subcommands)
    deadline_warnings = [w for w in found.warnings if "deadline" in w]
    assert len(deadline_warnings) == 1, found.warnings
    assert "20 s deadline" in deadline_warnings[0] and "left unread" in deadline_warnings[0]
    assert not any("could not read `wg-hangs cmd" in w and "deadline" in w for w in found.warnings)
    wait_until(lambda: _processes_with(marker) == [], what="the hanging probes to be gone")
    # a cut-short discovery is not cached: the next one probes again
    again = discover(tool, depth=0, timeout_s=10, deadline_s=30.0)
    assert again.root.subcommands and not any("deadline" in w for w in again.warnings)


def test_the_deadline_must_be_positive():
    """A zero or negative deadline is a usage error naming --deadline."""
    from wrapgen.errors import UsageError

    with pytest.raises(UsageError, match="deadline"):
        discover("true", deadline_s=0)


def test_bwrap_argv_builds_the_sandbox_the_issue_asks_for():
    """Unprivileged (a user namespace, no capability, no nested namespace), the system directories
    alone and read-only with what is hidden masked, each scratch directory bound on its own, no
    network, own PID namespace, dies with its parent, new session, the command after --."""
    argv = bwrap_argv(
        ["/usr/bin/tool", "--help"],
        bwrap="/usr/bin/bwrap",
        workdir="/s/work",
        home="/s/home",
        tmpdir="/s/tmp",
        hidden=("/etc/shadow",),
    )
    assert argv[0] == "/usr/bin/bwrap"
    assert argv[1:5] == ["--unshare-user", "--cap-drop", "ALL", "--disable-userns"]
    binds = {argv[i + 1] for i, word in enumerate(argv) if word in ("--ro-bind", "--symlink")}
    assert "/" not in binds and "/usr" in binds and "/etc" in binds
    assert not binds & {"/root", "/home", "/mnt", "/work", "/opt"}
    assert argv[argv.index("/etc/shadow") - 2 :][:3] == ["--ro-bind", "/dev/null", "/etc/shadow"]
    assert argv[argv.index("--chdir") - 2 : argv.index("--chdir")] == ["--remount-ro", "/"]
    for hidden in ("/tmp", "/run"):  # empty: no other temp files, no docker, D-Bus or X11 sockets
        assert argv[argv.index(hidden) - 1] == "--tmpfs"
    for directory in ("/s/work", "/s/home", "/s/tmp"):
        index = argv.index(directory)
        assert argv[index - 1] == "--bind" and argv[index + 1] == directory
    assert "/s" not in argv  # not the scratch root: the cwd's parent stays read-only
    for flag in ("--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--chdir") + 1] == "/s/work"
    assert argv[argv.index("--") + 1 :] == ["/usr/bin/tool", "--help"]


def test_without_bwrap_discovery_says_so_once_and_still_uses_a_scratch_home(
    tmp_path, user_home, monkeypatch
):
    """Where bwrap cannot run (here: not on PATH), discovery warns once and probes with a scratch HOME."""
    tool = _tool(tmp_path, "wg-nobwrap", "print('home=' + os.environ['HOME'])\n")
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setattr(sandbox, "BWRAP", "wg-no-such-bwrap")
    reset_sandbox_status()
    try:
        monkeypatch.setattr(
            "wrapgen.probe.prober.sandbox_status",
            lambda: sandbox.sandbox_status("wg-no-such-bwrap"),
        )
        found = discover(tool, depth=0, cache=False)
        with Prober(tool) as prober:
            assert not prober.sandboxed and "not installed" in prober.sandbox_note
            text = prober.run(("--help",)).text
            home = prober.home
    finally:
        reset_sandbox_status()
    notes = [w for w in found.warnings if "without a sandbox" in w]
    assert len(notes) == 1 and "not installed" in notes[0]
    assert "home=~\n" in text and str(user_home) not in text and home != str(user_home)


@needs_sandbox
def test_in_the_sandbox_a_help_cannot_reach_a_unix_socket_in_tmp(tmp_path):
    """A socket under /tmp (an X11 display, an agent, a daemon's control socket) is reachable
    unsandboxed; sandboxed, /tmp is empty but for the tool's own directory, so it is not."""
    if not str(tmp_path).startswith("/tmp/"):
        pytest.skip("the test's temporary directory is not under /tmp")
    sock_dir = tmp_path / "sock"
    sock_dir.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    path = str(sock_dir / "control.sock")
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.listen(4)
    server.settimeout(0.1)
    tool = _tool(
        bin_dir,
        "wg-socket",
        "import socket\n"
        f"try:\n    s = socket.socket(socket.AF_UNIX); s.connect({path!r}); s.close(); print('sock:ok')\n"
        "except OSError:\n    print('sock:fail')\n",
    )
    try:
        with Prober(tool, sandbox=False) as prober:
            assert "sock:ok" in prober.run(("--help",)).text
        with Prober(tool) as prober:
            assert "sock:fail" in prober.run(("--help",)).text
    finally:
        server.close()


@needs_sandbox
def test_a_probe_never_sees_itself_as_root(tmp_path):
    """Inside the probe's user namespace a root caller's tool runs as an unprivileged uid: tools
    that refuse root or act otherwise as root (a package manager that aborts before loading its
    plugins) print the help their users see; root's password hashes stay out of reach."""
    tool = _tool(
        tmp_path,
        "wg-whoami",
        "print('uid:%d' % os.getuid())\n"
        "try:\n    print('shadow:' + open('/etc/shadow').read()[:5])\n"
        "except OSError:\n    print('shadow:refused')",
    )
    with Prober(tool) as prober:
        assert prober.sandboxed
        text = prober.run(("--help",)).text
    assert "uid:0" not in text and "uid:" in text, text
    assert "shadow:root:" not in text, text
