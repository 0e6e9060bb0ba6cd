"""The probe sandbox: where a tool runs when wrapgen only wants to read it (help, trials).

A tool's ``--help`` may do what its action does (start a daemon, write a cache, delete a file in
HOME, reach the network), or be hostile (remount the file system, read /etc/shadow into the help it
prints). Where bubblewrap runs, a probe runs inside it, unprivileged even when wrapgen runs as root:

- a new user namespace with every capability dropped (``--unshare-user --cap-drop ALL``: CapEff 0,
  so no ``mount``, ``umount`` or ``chroot``), and no nested user namespace to win them back
  (``--disable-userns``, bubblewrap 0.8);
- only the system directories (``SYSTEM_DIRS``, read-only; ``/sys`` read-only too), a fresh ``/dev``
  and ``/proc``, empty ``/tmp`` and ``/run``, and the root itself read-only: never HOME, ``/root``,
  ``/home``, ``/mnt`` or a project tree. In ``/etc`` and ``/var`` what a user without privilege could
  not read is hidden (``hidden_paths``: /etc/shadow, /etc/ssl/private, /var/backups ...), since a
  capability-less root still owns those files, and so are sockets (a daemon's control channel) and
  ``/var/tmp`` (other programs' temp files);
- the tool's own install, its interpreter's and its PATH's bound back read-only
  (``install.program_paths``, passed as ``readable``), so a tool kept in a virtual environment under
  /tmp, under /opt or in HOME still runs;
- writable only a fresh scratch working directory, a scratch HOME and a scratch TMPDIR, each bound
  on its own (so not even the directory holding them is writable: ``../x`` from the cwd fails);
- no network (``--unshare-net``: only a loopback of its own), its own PID, IPC and UTS namespaces,
  killed when wrapgen dies (``--die-with-parent``), in a new session (no ``TIOCSTI`` into our tty).

``bwrap_argv`` is pure but for ``hidden_paths`` (so "try before you ship" and tests can build the
same sandbox); ``sandbox_status`` tries ``bwrap ... true`` once per process and caches the answer,
with the reason when it cannot run (not installed, user namespaces disabled, inside a container
without them). Where no user namespace can be made, there is no sandbox: a probe never runs with
root's capabilities in one. ``Scratch`` makes and removes the scratch directories.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading
from dataclasses import dataclass
from typing import Sequence

__all__ = [
    "SandboxStatus",
    "Scratch",
    "bwrap_argv",
    "sandbox_status",
    "reset_sandbox_status",
    "BWRAP",
    "HOME_TMPFS_BYTES",
    "SYSTEM_DIRS",
    "find_hidden",
    "hidden_paths",
]

BWRAP = "bwrap"

# The system's own directories: every probe sees those that exist (read-only; a symbolic link such
# as merged /usr's /bin -> usr/bin stays a link); what else a tool needs is bound from
# ``install.program_paths`` (its install, its interpreter's, its PATH's). /var holds the package
# databases and caches tools read (the package manager's, man-db's); /nix/store and /gnu/store are the system of
# Nix and Guix; /snap holds snaps' programs.
SYSTEM_DIRS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/var",
    "/nix/store",
    "/gnu/store",
    "/snap",
)
# Of them, where files a person or a daemon keeps from others may lie (walked by ``hidden_paths``);
# /usr and the library directories hold only what every user may read
SECRET_ROOTS = ("/etc", "/var")
# Always hidden when present: other programs' temp files, however their modes are set
HIDDEN_ALWAYS = ("/var/tmp",)
# A walk longer than this hides its whole root instead (a host whose /var holds millions of files)
HIDDEN_WALK_LIMIT = 200_000
_CHECK_TIMEOUT_S = 10.0


# The user a root caller's probe runs as inside its namespace: nobody (still mapped to the caller
# outside, with no capability there; only the tool's view of itself changes).
SANDBOX_UID = 65534


def bwrap_argv(
    argv: Sequence[str],
    *,
    bwrap: str,
    workdir: str,
    home: str,
    tmpdir: str | None = None,
    writable: Sequence[str] = (),
    readable: Sequence[str] = (),
    home_source: str | None = None,
    home_tmpfs: int | None = None,
    disable_userns: bool = True,
    hidden: Sequence[str] | None = None,
) -> list[str]:
    """The bubblewrap command line that runs ``argv`` unprivileged, read-only but for the scratch
    directories, seeing the system directories and what ``readable`` binds.

    ``workdir`` is the cwd; ``home`` and ``tmpdir`` the scratch HOME and TMPDIR (the caller sets
    the variables); ``readable`` are directories bound back read-only over the empty /tmp and /run
    (the tool's own); ``writable`` adds directories bound read-write (tests use it for a log).
    ``home_source``, when given, is the directory mounted at ``home`` instead of ``home`` itself: each
    probe gets a HOME of its own at the same path, so state one probe leaves (a daemon's sockets under
    ``~/.TOOL``, the daemon dead with that probe's PID namespace) never reaches a probe beside it.
    ``home_tmpfs`` (bytes; where ``SandboxStatus.tmpfs_home``) gives each probe the same without a
    directory made and removed on disk for it: HOME is a fresh tmpfs of that size (mode 0700) that
    ends with the probe's mount namespace (``home_source`` is then not used).
    ``disable_userns`` (where ``SandboxStatus.disable_userns``) keeps the tool from making a user
    namespace of its own; ``hidden`` are paths masked inside the system directories (default: this
    machine's ``hidden_paths``).
    """
    out = [bwrap, "--unshare-user", "--cap-drop", "ALL"]
    if disable_userns:
        out.append("--disable-userns")
    if os.getuid() == 0:
        # root's uid inside the namespace is still uid 0 to the tool: tools that refuse root
        # (a package manager that aborts before loading plugins) or act otherwise as root would
        # print help their users never see.
        out += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    for directory in SYSTEM_DIRS:
        if os.path.islink(directory):
            out += ["--symlink", os.readlink(directory), directory]
        elif os.path.isdir(directory):
            out += ["--ro-bind", directory, directory]
    if os.path.isdir("/sys"):
        out += ["--ro-bind", "/sys", "/sys"]
    out += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run"]
    masked_dirs = []
    for path in hidden_paths() if hidden is None else hidden:
        if os.path.isdir(path) and not os.path.islink(path):
            out += ["--tmpfs", path]
            masked_dirs.append(path)
        else:
            out += ["--ro-bind", "/dev/null", path]
    for directory in readable:
        if directory:
            out += ["--ro-bind", directory, directory]
    for directory in (workdir, home, tmpdir, *writable):
        if directory and directory == home and home_tmpfs:
            out += ["--perms", "0700", "--size", str(int(home_tmpfs)), "--tmpfs", directory]
        elif directory:
            source = home_source if directory == home and home_source else directory
            out += ["--bind", source, directory]
    # the tmpfs read-only too, once the mount points inside them exist (the binds stay writable),
    # and the root last: nothing a probe makes outside its scratch directories, not even in memory
    for directory in ("/tmp", "/run", *masked_dirs, "/"):
        out += ["--remount-ro", directory]
    out += [
        "--chdir",
        workdir,
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        "--",
        *argv,
    ]
    return out


@dataclass(frozen=True)
class SandboxStatus:
    """Whether probes can run in bubblewrap here; ``reason`` says why not."""

    available: bool
    bwrap: str = ""
    reason: str = ""
    tmpfs_home: bool = False  # this bwrap mounts a sized tmpfs (``--perms``/``--size``, bubblewrap 0.8): ``bwrap_argv(home_tmpfs=)``
    disable_userns: bool = (
        False  # this bwrap has ``--disable-userns`` (0.8): ``bwrap_argv(disable_userns=)``
    )


# The size of a probe's tmpfs HOME: help needs none of it; a tool that writes a cache there while
# printing help gets room for it, and one that writes without end is stopped (ENOSPC) well below
# what would press on the machine's memory.
HOME_TMPFS_BYTES = 256 * 1024 * 1024


_status: dict[str, SandboxStatus] = {}
_lock = threading.Lock()


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text.splitlines()[0][:200] if text else ""


def sandbox_status(bwrap: str = BWRAP) -> SandboxStatus:
    """Try ``bwrap ... true`` once (per process and bwrap name) and remember the answer."""
    with _lock:
        known = _status.get(bwrap)
        if known is not None:
            return known
        _status[bwrap] = status = _try(bwrap)
        return status


def reset_sandbox_status() -> None:
    """Forget the cached answers (tests that change PATH)."""
    with _lock:
        _status.clear()
    with _hidden_lock:
        _hidden.clear()


_hidden: list[tuple[str, ...]] = []
_hidden_lock = (
    threading.Lock()
)  # (not _lock: the status check builds an argv, which asks for these)


def hidden_paths() -> tuple[str, ...]:
    """What the sandbox hides inside the system directories, learned once per process as whether
    bubblewrap runs is (``find_hidden`` walks /etc and /var: a few milliseconds, not per probe)."""
    with _hidden_lock:
        if not _hidden:
            _hidden.append(find_hidden(SECRET_ROOTS))
        return _hidden[0]


def _holds_something(path: str) -> bool:
    """Whether a file or directory has content (an empty lock file or directory has none to read:
    each mask costs the sandbox a mount, about a millisecond a probe)."""
    try:
        if os.path.isdir(path):
            with os.scandir(path) as entries:
                return next(entries, None) is not None
        return os.path.getsize(path) > 0
    except OSError:
        return True  # (unreadable even to us: hide it)


def find_hidden(roots: Sequence[str], *, limit: int = HIDDEN_WALK_LIMIT) -> tuple[str, ...]:
    """The paths under ``roots`` that a user without privilege could not read (a file without read
    permission for others, a directory without read and search permission for others: not walked
    further; an empty one, a lock file, holds nothing to read and is left), every socket, and ``HIDDEN_ALWAYS``; a root whose walk passes ``limit`` entries is
    hidden whole. Symbolic links are not followed (each is a path in a root walked anyway, or
    outside every root the sandbox shows)."""
    out: list[str] = [path for path in HIDDEN_ALWAYS if os.path.lexists(path)]
    for root in roots:
        if not os.path.isdir(root) or os.path.islink(root):
            continue
        found, seen, todo = [], 0, [root]
        while todo and seen <= limit:
            try:
                entries = list(os.scandir(todo.pop()))
            except OSError:
                continue
            seen += len(entries)
            for entry in entries:
                if entry.path in out:
                    continue
                try:
                    mode = entry.stat(follow_symlinks=False).st_mode
                except OSError:
                    continue
                if stat.S_ISLNK(mode):
                    continue
                if stat.S_ISDIR(mode):
                    if mode & 0o005 == 0o005:
                        todo.append(entry.path)
                    elif _holds_something(entry.path):
                        found.append(entry.path)
                elif stat.S_ISSOCK(mode) or (not mode & 0o004 and _holds_something(entry.path)):
                    found.append(entry.path)
        out += [root] if seen > limit else sorted(found)
    return tuple(out)


def _try(bwrap: str) -> SandboxStatus:
    from wrapgen.runtime.process import run_process

    found = shutil.which(bwrap)
    if found is None:
        return SandboxStatus(
            False, reason=f"{bwrap} is not installed (Debian: apt-get install bubblewrap)"
        )
    true = shutil.which("true") or "/bin/true"
    with Scratch() as scratch:
        # the form a probe uses (a tmpfs HOME, no nested user namespace: bubblewrap 0.8) first; an
        # older bubblewrap, without --size and --disable-userns, the plain one
        for modern in (True, False):
            tmpfs = HOME_TMPFS_BYTES if modern else None
            argv = bwrap_argv(
                [true],
                bwrap=found,
                workdir=scratch.workdir,
                home=scratch.home,
                tmpdir=scratch.tmpdir,
                home_tmpfs=tmpfs,
                disable_userns=modern,
            )
            result = run_process(
                argv,
                timeout_s=_CHECK_TIMEOUT_S,
                output_cap=65536,
                cwd=scratch.workdir,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
            )
            if result.exit_code == 0:
                return SandboxStatus(True, bwrap=found, tmpfs_home=modern, disable_userns=modern)
            if result.timed_out:
                break
    said = (
        _first_line(result.stderr)
        or result.not_found
        or ("timed out" if result.timed_out else f"exit {result.exit_code}")
    )
    return SandboxStatus(False, bwrap=found, reason=f"{found} cannot run here: {said}")


class Scratch:
    """Fresh scratch directories for one tool's probes (``work``, ``home``, ``tmp``), removed on exit."""

    def __init__(self, prefix: str = "wrapgen-probe-"):
        self.prefix = prefix
        self.root: str | None = None

    def __enter__(self) -> "Scratch":
        self.root = tempfile.mkdtemp(prefix=self.prefix)
        self._paths = {name: os.path.join(self.root, name) for name in ("work", "home", "tmp")}
        for path in self._paths.values():
            os.mkdir(path, 0o700)
        return self

    def __exit__(self, *exc) -> None:
        if self.root is not None:
            if not _remove_empty(self.root, ("work", "home", "tmp")):
                _remove(self.root)
            self.root = None

    def _path(self, name: str) -> str:
        if self.root is None:
            raise RuntimeError("Scratch used outside its `with` block")
        return self._paths[name]  # (joined once: every probe asks for them)

    def probe_home(self) -> str:
        """A fresh HOME for one probe (mounted at ``home``'s path by ``bwrap_argv``'s ``home_source``)."""
        if self.root is None:
            raise RuntimeError("Scratch used outside its `with` block")
        return tempfile.mkdtemp(prefix="home-", dir=self.root)

    def release_home(self, path: str) -> None:
        """Remove a HOME ``probe_home`` made (the scratch root's removal would take it too)."""
        _remove(path)

    @property
    def workdir(self) -> str:
        return self._path("work")

    def fill_from(self, source: str) -> None:
        """Copy the contents of ``source`` into the scratch working directory (a trial's ``--try-in DIR``);
        symbolic links are copied as links, never followed."""
        target = self.workdir
        for entry in sorted(os.listdir(source)):
            src, dst = os.path.join(source, entry), os.path.join(target, entry)
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst, follow_symlinks=False)

    @property
    def home(self) -> str:
        return self._path("home")

    @property
    def tmpdir(self) -> str:
        return self._path("tmp")


def _remove_empty(root: str, names) -> bool:
    """Remove ``root`` and its ``names`` if they are all empty directories (what a probe usually
    leaves: a sandboxed one writes its HOME to a tmpfs): four rmdir calls instead of rmtree's walk.
    False, with what could not be removed left, when any is not (a symbolic link is not removed)."""
    try:
        for name in names:
            os.rmdir(os.path.join(root, name))
        os.rmdir(root)
    except OSError:
        return False
    return True


def _remove(root: str) -> None:
    """rmtree that also removes what a tool left read-only (chmod 0 directories included)."""

    def _writable(function, path, _exc):
        try:
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            function(path)
        except OSError:
            pass

    shutil.rmtree(root, onerror=_writable)
