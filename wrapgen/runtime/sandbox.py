"""The sandbox of one call: bubblewrap, from the verb's policy and the pack's ``sandbox:`` section
(docs/contract.md §8). Standard library only.

Every call runs in bubblewrap, unprivileged even when wrapgen runs as root:

- a new user namespace with every capability dropped (``--unshare-user --cap-drop ALL``) and none to
  win back (``--disable-userns``); bubblewrap sets no-new-privileges; new PID, IPC, UTS and cgroup
  namespaces, a session of its own, killed with its supervisor (``--die-with-parent``). The PID
  namespace is what makes "nothing a call starts survives" hold even against a tool that kills its
  supervisor: the tool's parent is the namespace's init, which no process inside can kill, and when
  the tool ends (or the supervisor dies) init ends and the kernel kills everything left inside;
- the whole file system read-only (``--ro-bind / /``), but where people's files and daemons' sockets
  lie: HOME, ``/home``, ``/root`` and ``/run`` (a daemon's control channel, the system bus) are empty
  (``MASKED``); of ``/tmp``, which stays readable (a file a caller left there is an argument like any
  other), the sockets and socket directories at its top (``TMP_SOCKETS``: X11's, an ssh-agent's, a
  tmux server's) are hidden; on a root caller what only root may read is hidden too: found at the
  top of the system's places (``ROOT_PLACES``: /etc, /var/lib, /opt, ...) and of every directory
  above the working directory (``_root_only``), and named where it lies deeper (``ROOT_SECRETS``);
- HOME and TMPDIR are fresh, bounded tmpfs (``SCRATCH_BYTES``; TMPDIR is ``/var/tmp``, whose other
  programs' files it hides): a tool writes its caches there and they end with the call. Of the real
  HOME only what the pack declares (``sandbox.home``) is bound back, read-only; the sockets it
  declares (``sandbox.sockets``) too;
- the working directory visible (bound back when it lies inside a masked directory), widened to the
  nearest directory above it holding one of the pack's ``sandbox.root`` marks (a repository's root,
  where its metadata lies); read-only for a read, writable for a write or destructive verb, plus the
  paths the pack lists in ``sandbox.write``. A pack whose calls work in one directory wherever they
  are made from (a task runner's repository, ``sandbox.tree``) has that directory instead: read-only
  for a read, writable for a write, and the caller's working directory read-only. A declared write
  path that does not exist yet can be created by a write and nothing beside it (``settle``);
- no Unix socket at all for a pack that declares none (``sandbox.sockets``): a seccomp filter
  refuses ``socket(AF_UNIX)`` (``unix_socket_filter``), so a daemon's socket lying anywhere the call
  can see (``/var/lib/...``, deep in /tmp) or in the abstract namespace is out of reach, where the
  masks above hide only the usual places; ``socketpair`` (a tool's own IPC) still works. A pack that
  declares a socket can create Unix sockets, and reach any it can see;
- the network only for the verbs the pack allows it (``sandbox.network``: true, or a list of verbs);
  every other call gets a loopback of its own (``--unshare-net``);
- the tool's own install, where it lies in a masked directory (a virtual environment in HOME,
  ``~/.local``), bound back read-only (``install.program_paths``), and the toolchain homes a program
  in one of them needs (a pyenv shim, a rustup proxy: ``install.toolchain_paths``);
- a pack whose tool lists the host's processes (``sandbox.host_processes``: ps, top) sees the host's
  /proc (read-only) instead of its namespace's, and still runs in a PID namespace of its own: it
  lists every process and reads what any user may (``stat``, ``status``, ``cmdline``), but cannot
  signal one (a host PID names nothing in its namespace), nor read a process's ``environ``, ``maps``
  or memory (the host's processes lie outside its user namespace, and it has no capability), and
  what it starts ends with it like any call's. ``getpid()`` then differs from ``/proc/self``
  (the host's PID);
- bounds on file size (``RLIMIT_FSIZE``) and processes beside memory, and on scratch space (the
  tmpfs sizes). Processes are bounded per call by a cgroup of its own (``pids.max``, made by
  ``contain``) where the caller can make one (root; a delegated cgroup v2 that hands on ``pids``),
  which binds root too; and by ``RLIMIT_NPROC``, which counts all the uid's processes and which
  Linux does not apply to root (a root caller without a writable cgroup has no bound on processes:
  running its calls as another uid would refuse them its own working directory's files).

Where bubblewrap cannot run (not installed, no user namespaces, a container without them), the
setting decides (``setting``): ``require`` (the default) refuses the call with one message;
``fallback`` (``WRAPGEN_SANDBOX=fallback``, or ``sandbox: {fallback: true}`` in pack.yaml) runs it
with the supervisor's containment alone and says so once per process (``take_notice``).
"""

from __future__ import annotations

import errno
import os
import resource
from collections import namedtuple
from stat import S_ISDIR as _S_ISDIR
from stat import S_ISLNK as _S_ISLNK
from stat import S_ISSOCK as _S_ISSOCK

__all__ = [
    "BWRAP",
    "MASKED",
    "SCRATCH_TMP",
    "TMP_SOCKETS",
    "ROOT_SECRETS",
    "SCRATCH_BYTES",
    "FILE_SIZE_BYTES",
    "PROCESSES",
    "SETTING_ENV",
    "BWRAP_ENV",
    "Plan",
    "find_bwrap",
    "plan",
    "settle",
    "unix_socket_filter",
    "SECCOMP_FD",
    "setting",
    "started",
    "exec_failure",
    "from_exit",
    "take_notice",
    "note_fallback",
    "withheld",
    "vanished",
]

BWRAP = "bwrap"
SETTING_ENV = "WRAPGEN_SANDBOX"
BWRAP_ENV = "WRAPGEN_BWRAP"  # which bubblewrap (an absolute path); empty: none
_SYSTEM_BIN = ("/usr/bin", "/bin", "/usr/local/bin")
# What every call needs of the system: never hidden by a staging directory
_SYSTEM_DIRS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/lib32",
    "/etc",
    "/dev",
    "/proc",
    "/sys",
)
SETTINGS = ("require", "fallback")
# Where other people's and programs' files lie: each is an empty scratch directory in the sandbox
# (the working directory, the declared HOME files and sockets bound back into them). /run holds
# daemons' sockets (the system bus, a container engine's), through which a caller's uid can ask
# them to run anything.
MASKED = ("/home", "/root", "/run")
# The scratch TMPDIR, mounted over other programs' temp files
SCRATCH_TMP = "/var/tmp"
# What of /tmp's top is hidden: every socket, and the directories where sessions keep theirs (an
# X server's and its input methods', an ssh-agent's, tmux's and screen's), which a read could use
# to type into a desktop or sign with the user's keys
TMP = "/tmp"
TMP_SOCKETS = (
    ".X11-unix",
    ".ICE-unix",
    ".XIM-unix",
    ".font-unix",
    "ssh-",
    "tmux-",
    "screen",
    ".s.",
)
# Files of the system only root may read: hidden on a root caller, who owns them even without
# capabilities (a user without privilege is refused them by their modes already); the host's private
# SSH keys (``HOST_KEYS``, /etc/ssh/ssh_host_*_key) too, beside ssh's own configuration, left visible.
ROOT_SECRETS = (
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssl/private",
    "/var/lib/sudo",
    "/var/backups",
    "/var/spool/cron",
)
# The scratch HOME's and TMPDIR's size each, and /dev/shm's (shared memory that escapes RLIMIT_DATA)
SCRATCH_BYTES = 256 * 1024 * 1024
# The largest file a call may write (RLIMIT_FSIZE), and how many processes its uid may have
# (RLIMIT_NPROC: Linux counts every process of the uid, and applies none of it to root)
FILE_SIZE_BYTES = 4 * 1024 * 1024 * 1024
PROCESSES = 4096
HOST_KEYS = "/etc/ssh"
# Where a system keeps files of its own and people leave theirs: on a root caller, what of their top
# only root may read is hidden (``_root_only``), as it is at the top of every directory above the
# working directory but /tmp (whose top other programs' temporary files come and go in all the time:
# one gone between the look and the start is a sandbox that cannot start); ``ROOT_SECRETS`` names
# what lies deeper
ROOT_PLACES = (
    "/etc",
    "/boot",
    "/var/lib",
    "/var/log",
    "/var/backups",
    "/var/spool",
    "/var/mail",
    "/var/cache",
    "/srv",
    "/opt",
    "/mnt",
    "/media",
)
# The fd on which bubblewrap reads the call's seccomp program (the first past stdio)
SECCOMP_FD = 3
_OPTIONS_08 = ("--disable-userns", "--size", "--perms")  # bubblewrap 0.8 (2023)
# What a tool prints when a call fails on something the sandbox withheld (strerror texts and the
# words of common resolvers and HTTP clients): best effort, for the envelope's hint only
_NETWORK_ERRORS = (
    "could not resolve",
    "temporary failure in name resolution",
    "name or service not known",
    "no such host",
    "network is unreachable",
    "network unreachable",
    "failed to connect",
    "connection refused",
    "dial tcp",
    "dial unix",
    "unable to connect",
    "couldn't connect",
    "getaddrinfo",
)
_WRITE_ERRORS = ("read-only file system", "read only file system", "erofs")
_MISSING_ERRORS = ("no such file", "not found", "does not exist", "cannot find", "could not find")


# How one call runs: ``argv`` (bwrap's, or the tool's own when ``sandboxed`` is False), the
# environment, what the verb was allowed (``network``, ``writable``), ``limits`` (resource, soft, hard)
# for the tool, the tool's path, the scratch HOME's ("" when there is none), and the staging
# directories of declared write paths that did not exist (``settle`` ends them), and the seccomp
# program bubblewrap reads on fd ``SECCOMP_FD`` (b"": none)
Plan = namedtuple(
    "Plan",
    "argv env sandboxed network writable limits tool home staged seccomp",
    defaults=((), "", "", (), b""),
)


_notice: list = []  # [text] once a fallback happened and was not yet taken; [None] once taken


def note_fallback(reason: str) -> None:
    """Record that a call ran without the sandbox (said once per process: ``take_notice``)."""
    if not _notice:
        _notice.append(
            f"wrapgen: running without the per-call sandbox ({reason}); "
            f"{SETTING_ENV}=fallback allowed it. Install bubblewrap 0.8+ where user namespaces are "
            "enabled to sandbox every call"
        )


def take_notice() -> str | None:
    """The once-per-process notice that calls ran without the sandbox, or None (said already, or none)."""
    if _notice and _notice[0] is not None:
        text = _notice[0]
        _notice[0] = None
        return text
    return None


def setting(sandbox: dict, environ=None) -> str:
    """``require`` or ``fallback``: the user's ``WRAPGEN_SANDBOX`` when set, else the pack's
    ``sandbox.fallback``; ``ValueError`` for a value that is neither."""
    value = (os.environ if environ is None else environ).get(SETTING_ENV, "").strip().lower()
    if value:
        if value not in SETTINGS:
            raise ValueError(
                f"{SETTING_ENV}={value!r} is not a setting: use one of {', '.join(SETTINGS)}"
            )
        return value
    return "fallback" if sandbox.get("fallback") is True else "require"


def find_bwrap(environ=None) -> str | None:
    """The bubblewrap to run: ``WRAPGEN_BWRAP`` when set (its absolute path; empty: none, as where
    none is installed), else the first on the caller's PATH or in the system's program directories
    (an adapter an agent starts may have a PATH of its own), else None."""
    environ = os.environ if environ is None else environ
    chosen = environ.get(BWRAP_ENV)
    if chosen is not None:
        ok = os.path.isabs(chosen) and os.access(chosen, os.X_OK) and not os.path.isdir(chosen)
        return chosen if ok else None
    path = environ.get("PATH") or os.defpath
    for directory in (*path.split(os.pathsep), *_SYSTEM_BIN):
        if directory and os.path.isabs(directory):
            candidate = os.path.join(directory, BWRAP)
            if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
                return candidate
    return None


def _resolve_tool(name: str, cwd: str, environ) -> str | None:
    """The file ``name`` runs, looked up as execvpe would in the tool's PATH; None when there is none."""
    if "/" in name:
        path = name if os.path.isabs(name) else os.path.join(cwd, name)
        return path if os.path.exists(path) else None
    for directory in os.get_exec_path(environ):
        candidate = os.path.join(directory or ".", name)
        if not os.path.isabs(candidate):
            candidate = os.path.join(cwd, candidate)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _inside_any(path: str, roots) -> bool:
    return any(_inside(path, root) for root in roots)


def _strings(value) -> list[str]:
    return [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []


def _verb_network(sandbox: dict, verb_key: str) -> bool:
    network = sandbox.get("network")
    if isinstance(network, list):
        return verb_key in network
    return network is True


def _work_root(cwd: str, marks: list[str], masks: list[str]) -> str:
    """``cwd``, widened to the nearest directory above it that holds one of ``marks`` (a repository's
    root), never to a masked directory itself, HOME or /: a dotfiles repository in HOME widens nothing."""
    if not marks:
        return cwd
    current = cwd
    while current != "/":
        if any(os.path.lexists(os.path.join(current, mark)) for mark in marks):
            return current
        parent = os.path.dirname(current)
        if parent == "/" or parent in masks:
            break
        current = parent
    return cwd


def _expand(path: str, home: str, base: str, env=None) -> str:
    """A declared path: ``~/x`` under HOME, ``$NAME/x`` under the absolute path the tool's variable
    NAME holds (a state directory the pack passes: "" when it is unset), an absolute one as is, else
    relative to ``base``."""
    if path.startswith("$"):
        name, _, rest = path[1:].partition("/")
        value = (env or {}).get(name, "")
        if not os.path.isabs(value):
            return ""
        path = os.path.join(value, rest) if rest else value
    if path == "~" or path.startswith("~/"):
        return os.path.normpath(home + path[1:]) if home else ""
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(base, path))


def plan(
    argv: list[str],
    *,
    sandbox: dict,
    verb_key: str,
    effect: str,
    cwd: str,
    env: dict,
    bwrap: str,
    fixed: tuple = (),
) -> Plan:
    """The bubblewrap command line for one call (pure but for looking at the file system: which
    paths exist, the tool's place, the marks above ``cwd``; and for the staging directory of a
    declared write path that does not exist yet, which ``settle`` ends after the call). ``env`` is
    the tool's environment; the plan's is the same with TMPDIR on the scratch. ``FileNotFoundError``
    when the tool is not found (nothing can be bound for it). ``fixed``: the absolute paths the
    verb's own command line names (a script its interpreter runs), never hidden as root-only."""
    tool = _resolve_tool(argv[0], cwd, env)
    if tool is None:
        raise FileNotFoundError(argv[0])
    home = env.get("HOME") or ""
    home = os.path.normpath(home) if os.path.isabs(home) and os.path.normpath(home) != "/" else ""
    masks = [m for m in MASKED if os.path.isdir(m) and not os.path.islink(m)]
    network = _verb_network(sandbox, verb_key)
    writable = effect != "read"
    extra = (sandbox.get("verbs") or {}).get(verb_key) or {}
    if isinstance(extra, dict) and isinstance(extra.get("network"), bool):
        network = extra["network"]
    tree = sandbox.get("tree") if isinstance(sandbox.get("tree"), str) else ""
    tree = os.path.normpath(tree) if os.path.isabs(tree) and os.path.normpath(tree) != "/" else ""
    root = _work_root(cwd, _strings(sandbox.get("root")), [*masks, *([home] if home else [])])
    out = [bwrap, "--unshare-user", "--cap-drop", "ALL", "--disable-userns", "--ro-bind", "/", "/"]
    host_processes = sandbox.get("host_processes") is True
    # a PID namespace of its own always; its /proc is the namespace's, or the host's (bound read-only
    # with /: ps lists the host's processes) for a pack that lists them
    out += ["--dev", "/dev"] + ([] if host_processes else ["--proc", "/proc"])
    out += ["--size", str(SCRATCH_BYTES), "--tmpfs", "/dev/shm"]
    read_only = []
    for mask in masks:
        if mask != home:  # (HOME=/root: the scratch HOME below is that mask, and stays writable)
            out += ["--tmpfs", mask]
            read_only.append(mask)
    for path, is_dir in _tmp_sockets():
        out += ["--tmpfs", path] if is_dir else ["--ro-bind", "/dev/null", path]
        read_only += [path] if is_dir else []
    if os.path.isdir(SCRATCH_TMP) and not os.path.islink(SCRATCH_TMP):
        out += ["--size", str(SCRATCH_BYTES), "--tmpfs", SCRATCH_TMP]
        scratch_tmp = SCRATCH_TMP
    else:  # (no /var/tmp: /dev/shm, a tmpfs of the sandbox's own too)
        scratch_tmp = "/dev/shm"
    if os.geteuid() == 0:  # (a user without privilege is refused them by their modes already)
        declared = _strings(sandbox.get("sockets")) + _strings(sandbox.get("write"))
        declared += _strings(extra.get("write")) if isinstance(extra, dict) else []
        keep = [cwd, root, tree, tool, os.path.realpath(tool), *env.get("PATH", "").split(":")]
        keep += [_expand(entry, home, root, env) for entry in declared] + list(fixed)
        found = _root_only([k for k in keep if os.path.isabs(k)], [cwd, root, tree], masks)
        for secret, is_dir in sorted({*found, *_known_secrets()}):
            out += ["--tmpfs", secret] if is_dir else ["--ro-bind", "/dev/null", secret]
            read_only += [secret] if is_dir else []
    # the working tree: bound before the scratch HOME, which then hides a HOME inside it, or after
    # it where the tree lies in HOME (~/project)
    work = ["--bind" if writable and not tree else "--ro-bind", root, root] if root != "/" else []
    if tree:  # the pack's own working tree (a runner's repository): the call's writes go there
        work += ["--bind" if writable else "--ro-bind", tree, tree]
    rw_areas = [tree or root] if writable and (tree or root) != "/" else []
    in_home = bool(home) and (_inside(root, home) or bool(tree) and _inside(tree, home))
    if not in_home:
        out += work
    if home:
        out += ["--perms", "0700", "--size", str(SCRATCH_BYTES), "--tmpfs", home]
    # bound back into the masks: the tool's install, the declared HOME files and sockets
    binds = []
    hidden = [*masks, scratch_tmp, *([home] if home else [])]
    places = (os.path.realpath(tool), *env.get("PATH", "").split(":"))
    if _is_script(tool) or any(_inside(p, m) for p in places for m in hidden):
        from wrapgen.runtime.install import program_paths, toolchain_paths  # (only then)

        found = program_paths([tool], search_path=env.get("PATH", ""))
        found += toolchain_paths([tool], home=home, environ=env)
        for path in found:
            if any(_inside(path, m) for m in hidden):
                binds += ["--ro-bind-try", path, path]
    for entry in _strings(sandbox.get("home")):
        relative = entry[2:] if entry.startswith("~/") else entry
        path = os.path.normpath(os.path.join(home, relative)) if home else ""
        if path and path != home and _inside(path, home):
            binds += ["--ro-bind-try", path, path]
    for entry in _strings(sandbox.get("sockets")):
        path = _expand(entry, home, root, env)
        if path:  # (where it really is: /var/run is a link into the masked /run)
            path = os.path.realpath(path)
            binds += ["--bind-try", path, path]
    if network:
        resolv = os.path.realpath("/etc/resolv.conf")
        if any(_inside(resolv, m) for m in masks):
            binds += ["--ro-bind-try", resolv, resolv]
    if in_home:
        binds += work
    # the declared write paths (a read's own, sandbox.verbs.VERB.write, is one check flags)
    paths = _strings(sandbox.get("write")) if writable else []
    paths += _strings(extra.get("write")) if isinstance(extra, dict) else []
    targets = [p for p in (_expand(e, home, root, env) for e in paths) if p and p != "/"]
    binds += [a for path in targets if os.path.lexists(path) for a in ("--bind-try", path, path)]
    missing = [path for path in targets if not os.path.lexists(path)]
    keep = [cwd, root, tree, tool, os.path.realpath(tool), *env.get("PATH", "").split(":")]
    staged, staging = _stage(missing, keep=keep, home=home, writable=rw_areas, masked=hidden)
    out += staging  # (before what is bound back into the masks: those go on top of it)
    out += binds
    for directory in read_only:
        out += ["--remount-ro", directory]
    if not network:
        out.append("--unshare-net")
    # no Unix socket for a pack that declares none: no daemon's socket, wherever it lies, is reached
    seccomp = None if _strings(sandbox.get("sockets")) else unix_socket_filter()
    if seccomp:
        out += ["--seccomp", str(SECCOMP_FD)]
    out += [
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--chdir",
        cwd,
        "--",
        tool,
        *argv[1:],
    ]
    environ = dict(env)
    environ["TMPDIR"] = scratch_tmp
    return Plan(
        out,
        environ,
        sandboxed=True,
        network=network,
        writable=writable,
        limits=_limits(),
        tool=tool,
        home=home,
        staged=staged,
        seccomp=seccomp or b"",
    )


def _stage(missing: list[str], *, keep: list[str], home: str, writable: list[str], masked):
    """How a call may create declared write paths that do not exist yet, there and nowhere else:
    ``(staged, bwrap arguments)``. Each path's nearest existing directory gets an empty staging
    directory made in it (``.wrapgen-write-*``) and bound over it for the call, so the tool sees that
    directory empty and writable; ``settle`` then moves the declared path alone out of the staging
    (anything else the call made there is dropped) and removes it. ``staged``: (staging, [(path
    inside it, the declared path)]). A directory that holds what the call needs (the system's, the
    working directory, the tool, its PATH, HOME) is never hidden so: a path under one is left
    unbound, and the call's write there fails as a read-only file system. What lies in a ``masked``
    directory (HOME, /home) is there only as it is bound back, on top of a staging directory."""
    places: dict[str, list[str]] = {}
    for path in missing:
        above = os.path.dirname(path)
        while not os.path.lexists(above):
            above = os.path.dirname(above)
        if not os.path.isdir(above) or os.path.islink(above):
            continue
        if any(_inside(above, area) for area in writable):
            continue  # (the tool may create it there already)
        needed = [*_SYSTEM_DIRS, *(k for k in keep if k and not _inside_any(k, masked))]
        needed += [home] if home and above != home else []
        if any(_inside(k, above) for k in needed):
            continue
        places.setdefault(above, []).append(path)
    staged, out = [], []
    for above in sorted(places, key=lambda p: (p.count("/"), p)):
        staging = os.path.join(above, f".wrapgen-write-{os.getpid()}-{os.urandom(6).hex()}")
        try:
            os.mkdir(staging, 0o700)
        except OSError:
            continue  # (the caller may not write there: the call's write fails there too)
        staged.append((staging, [(os.path.relpath(p, above), p) for p in places[above]]))
        out += ["--bind", staging, above]
    return tuple(staged), out


def settle(plan: Plan) -> None:
    """After the call: move each declared write path the call created out of its staging directory
    (never a symbolic link: a later call binds the path, and would bind where a link leads), and
    remove the staging directories. Does nothing for a plan that staged nothing."""
    if not plan.staged:
        return
    import shutil  # (only for a call that created a declared path)

    for staging, entries in plan.staged:
        for inside, target in entries:
            made = os.path.join(staging, inside)
            if os.path.islink(made) or not os.path.lexists(made) or os.path.lexists(target):
                continue
            try:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                os.rename(made, target)
            except OSError:
                continue
        shutil.rmtree(staging, ignore_errors=True)


# The seccomp program's instructions (classic BPF) and the syscalls it looks at
_LD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_AND = 0x54  # BPF_ALU | BPF_AND | BPF_K
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (the first argument's low half)
_AF_UNIX = 1
_SYS_SOCKET = 1
_X32 = 0x40000000
# (both little-endian: "aarch64_be" is none of them)
# machine: (its audit arch, socket, io_uring_setup; the compat arch, its socket, its socketcall)
_SYSCALLS = {
    "x86_64": (0xC000003E, 41, 425, 0x40000003, 359, 102),
    "aarch64": (0xC00000B7, 198, 425, 0x40000028, 281, None),
}


def unix_socket_filter(machine: str | None = None) -> bytes | None:
    """The seccomp program (classic BPF, as bubblewrap's ``--seccomp`` reads it) that refuses to
    create a Unix socket (``socket(AF_UNIX)``: EACCES) and io_uring (ENOSYS: its requests make
    sockets past the filter), and allows everything else, ``socketpair`` among it (a pair connects
    to nothing of the host); None on a machine it does not know (``_SYSCALLS``). A Unix socket's
    address is a path or an abstract name that no filter can read, so none is created at all: the
    only way to reach a daemon (a container engine, a desktop's bus, an agent holding keys) whose
    socket lies anywhere the call can see, or in the abstract namespace of a call with the network."""
    known = _SYSCALLS.get(machine or os.uname().machine)
    if known is None:
        return None
    arch, socket_nr, uring, compat, compat_socket, socketcall = known
    deny, enosys = _ERRNO | errno.EACCES, _ERRNO | errno.ENOSYS
    prog: list = []  # [code, label jumped to when true, when false (None: the next), k]

    def ins(code, k=0, jt=None, jf=None):
        prog.append([code, jt, jf, k])

    ins(_LD, _ARCH)  # the calling convention: the machine's own, or its 32-bit one; else allowed
    ins(_JEQ, arch, None, "compat")
    ins(_LD, _NR)
    ins(_AND, ~_X32 & 0xFFFFFFFF)  # (x86_64's x32 calls are its own numbers with this bit set)
    ins(_JEQ, uring, "enosys", None)
    ins(_JEQ, socket_nr, None, "allow")
    ins(_LD, _ARG0)
    ins(_JEQ, _AF_UNIX, "deny", "allow")
    labels = {"compat": len(prog)}
    ins(_JEQ, compat, None, "allow")
    ins(_LD, _NR)
    if (
        socketcall is not None
    ):  # (the 32-bit multiplexer: its SYS_SOCKET is refused whatever the domain)
        ins(_JEQ, socketcall, None, "direct")
        ins(_LD, _ARG0)
        ins(_JEQ, _SYS_SOCKET, "deny", "allow")
        labels["direct"] = len(prog)
    ins(_JEQ, compat_socket, None, "allow")
    ins(_LD, _ARG0)
    ins(_JEQ, _AF_UNIX, "deny", "allow")
    labels["allow"] = len(prog)
    ins(_RET, _ALLOW)
    labels["deny"] = len(prog)
    ins(_RET, deny)
    labels["enosys"] = len(prog)
    ins(_RET, enosys)
    out = b""  # struct sock_filter: u16 code, u8 jt, u8 jf, u32 k; jumps count from the next
    for at, (code, jt, jf, k) in enumerate(prog):
        jt = 0 if jt is None else labels[jt] - at - 1
        jf = 0 if jf is None else labels[jf] - at - 1
        out += code.to_bytes(2, "little") + bytes((jt, jf)) + k.to_bytes(4, "little")
    return out


def _is_script(path: str) -> bool:
    """Whether ``path`` starts with ``#!`` (its interpreter may lie in a masked place)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return False


def _tmp_sockets() -> list[tuple[str, bool]]:
    """(path, is a directory) of what of /tmp's top is hidden: its sockets and ``TMP_SOCKETS``."""
    out = []
    try:
        with os.scandir(TMP) as entries:
            for entry in entries:
                try:
                    if entry.name.startswith(TMP_SOCKETS):
                        if entry.is_dir(follow_symlinks=False):
                            out.append((entry.path, True))
                        elif not entry.is_symlink():
                            out.append((entry.path, False))
                    elif not (
                        entry.is_dir(follow_symlinks=False)
                        or entry.is_file(follow_symlinks=False)
                        or entry.is_symlink()
                    ) and _S_ISSOCK(entry.stat(follow_symlinks=False).st_mode):
                        out.append((entry.path, False))  # (d_type said neither: a stat says which)
                except OSError:
                    continue
    except OSError:
        pass
    return sorted(out)


def _known_secrets() -> list[tuple[str, bool]]:
    """(path, is a directory) of ``ROOT_SECRETS`` and the host's SSH keys that exist."""
    out = []
    for secret in (*ROOT_SECRETS, *_host_keys()):
        if os.path.lexists(secret) and not os.path.islink(secret):
            out.append((secret, os.path.isdir(secret)))
    return out


def _root_only(keep: list[str], work: list[str], masks: list[str]) -> list[tuple[str, bool]]:
    """(path, is a directory) of what only root may read, for a root caller's call to be refused:
    each file owned by root that others may not read, each directory owned by root that others may
    not list or enter (hidden whole), found at the top of ``ROOT_PLACES`` and of every directory
    above the working directory (``work``). A directory on the way to a path in ``keep`` (the working
    directory, the tool, its PATH, the declared paths) is looked into instead of hidden; the working
    directory itself is the call's, and what lies deeper than one level in a directory others may
    enter is not looked at (a walk of the whole file system per call would cost seconds: /etc alone
    took 104 ms, /var 215 ms, /tmp 2.5 s on this project's loaded 2-core machine, against about
    1 ms for the tops looked at here)."""
    todo = list(ROOT_PLACES)
    for path in work:
        above = os.path.dirname(path) if path else "/"
        while above != "/":
            todo += [above] if above != TMP else []
            above = os.path.dirname(above)
    keep = [os.path.normpath(k) for k in keep]
    on_the_way = set()  # each kept path and every directory above it: what is looked into
    for path in keep:
        while path not in on_the_way and path != "/":
            on_the_way.add(path)
            path = os.path.dirname(path)
    seen, out = set(), []
    while todo:
        top = todo.pop()
        if top in seen or _inside_any(top, masks) or top in keep:
            continue
        seen.add(top)
        try:
            with os.scandir(top) as entries:
                found = [(entry.path, entry.stat(follow_symlinks=False)) for entry in entries]
        except OSError:
            continue
        for path, info in found:
            if _S_ISLNK(info.st_mode) or _inside_any(path, masks):
                continue
            is_dir = _S_ISDIR(info.st_mode)
            if path in on_the_way:
                todo += [path] if is_dir else []
            else:
                others = 0o005 if is_dir else 0o004  # (list and enter; read)
                if info.st_uid == 0 and info.st_mode & others != others:
                    out.append((path, is_dir))
    return out


def _host_keys() -> list[str]:
    try:
        names = os.listdir(HOST_KEYS)
    except OSError:
        return []
    return [
        os.path.join(HOST_KEYS, name)
        for name in sorted(names)
        if name.startswith("ssh_host_") and name.endswith("_key")
    ]


def _limits() -> tuple:
    """(resource, soft, hard) for the call: file size and processes, never above the caller's."""
    out = []
    for which, wanted in (
        (resource.RLIMIT_FSIZE, FILE_SIZE_BYTES),
        (resource.RLIMIT_NPROC, PROCESSES),
    ):
        soft, hard = resource.getrlimit(which)
        limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY:
            limit = min(limit, soft)
        out.append((which, limit, limit))
    return tuple(out)


_EXEC_FAILED = b"bwrap: execvp "


def exec_failure(exit_code, stdout: bytes, stderr: bytes) -> str | None:
    """Why the tool could not be executed inside the sandbox ("not found", "not executable"), or None."""
    if exit_code != 1 or stdout or not stderr.startswith(_EXEC_FAILED):
        return None
    said = stderr.decode("utf-8", "replace").lower()
    return "not found" if "no such file" in said or "not a directory" in said else "not executable"


def from_exit(exit_code):
    """(exit code, signal) of the tool from bubblewrap's exit status, which is 128 + N for a tool a
    signal N ended (as a shell says it)."""
    if exit_code is not None and 128 < exit_code <= 128 + 64:
        return None, exit_code - 128
    return exit_code, None


def started(exit_code, stdout: bytes, stderr: bytes) -> str | None:
    """None when the sandbox started (whatever the tool then did), else bubblewrap's own message:
    bubblewrap says why on stderr, ``bwrap: ...``, and exits 1 before the tool runs."""
    if exit_code != 1 or stdout or not stderr.startswith(b"bwrap: "):
        return None
    if stderr.startswith(_EXEC_FAILED):  # the sandbox started; the tool could not be executed
        return None
    text = stderr.decode("utf-8", "replace").strip().splitlines()[0]
    if any(option in text for option in _OPTIONS_08):
        text += " (the per-call sandbox needs bubblewrap 0.8 or later)"
    return text


# bubblewrap's words when a mount point it was to hide went away (it creates none on the read-only
# /, or finds none to remount): "Can't mkdir PATH: ...", "Can't create file at PATH: ...", "Can't
# mount tmpfs on /newroot/PATH: ...", "Can't remount readonly on /newroot/PATH: ..."
_VANISHED = ("Can't mkdir ", "Can't create file at ", "Can't mount tmpfs on ", "Can't remount ")
_NEWROOT = "/newroot"  # (where bubblewrap builds the sandbox's tree)


def vanished(reason: str) -> bool:
    """Whether bubblewrap could not start because a path the plan hides (a root-only temporary
    directory, a socket) went away meanwhile: planned again, the call runs."""
    text = reason.removeprefix("bwrap: ")
    if not text.startswith(_VANISHED):
        return False
    words = [w for w in text.split(":", 1)[0].split(" ") if w.startswith("/")]
    if not words:
        return False
    path = words[-1]
    if path.startswith(_NEWROOT + "/"):
        path = path[len(_NEWROOT) :]
    return not os.path.lexists(path)


def withheld(result, plan: Plan) -> tuple[str, str] | None:
    """What the sandbox withheld that a failed call seems to have needed, as (what, the pack.yaml
    key that allows it); None when its error output names nothing of the kind. Best effort."""
    text = (result.stderr[-8192:] + result.stdout[-2048:]).decode("utf-8", "replace").lower()
    if not plan.network and any(word in text for word in _NETWORK_ERRORS):
        return (
            "the network (this verb runs with none)",
            "sandbox.network (true, or a list of the verbs that need it)",
        )
    if plan.home and any(word in text for word in _MISSING_ERRORS):
        home = plan.home.lower().rstrip("/")
        if home + "/" in text or "~/" in text or "$home/" in text:
            return (
                "a file under HOME (the call's HOME holds only what the pack declares)",
                "sandbox.home (the files under HOME the tool reads)",
            )
    if any(word in text for word in _WRITE_ERRORS):
        if plan.writable:
            return (
                "write access outside the working directory",
                "sandbox.write (the paths a write verb may change)",
            )
        return (
            "write access (a read sees the file system read-only)",
            "the verb's policy.effect (write), or sandbox.verbs.VERB.write",
        )
    return None
