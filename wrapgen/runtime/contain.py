"""Containment of one spawn: a supervisor per call, so nothing a tool starts outlives the call (docs/contract.md §8).

Why a supervisor, and why this one:

- ``PR_SET_CHILD_SUBREAPER`` makes orphaned descendants reparent to the nearest subreaper instead of
  init, so a child that double-forks and calls ``setsid()`` (leaving the tool's process group) is still
  found. Setting it on the caller itself (``wrapgen serve``) would collect the orphans of *every*
  concurrent call in one process, with no way to tell whose they are. So each spawn forks a
  **supervisor**: a copy of this process that sets the subreaper flag, forks the tool, waits for it,
  and then kills every process left in its subtree. While the supervisor has a child, a descendant
  exists; when it has none, none does (every orphan came back to it). That makes the final sweep
  exact: kill the children we have, reap one, repeat until ``waitpid`` says there are no children.
- The supervisor learns that its caller is gone from a control pipe (it holds the read end, only the
  caller the write end): end of file means the caller exited, crashed or was SIGKILLed, or asks for a
  kill (timeout, output cap, cancel). ``PR_SET_PDEATHSIG`` is not used for the supervisor on purpose:
  it fires when the *thread* that forked exits (wrong for a server's worker threads) and a SIGKILL
  would leave no time for the sweep. The tool itself gets ``PR_SET_PDEATHSIG(SIGKILL)`` relative to
  the single-threaded supervisor, so even a SIGKILLed supervisor takes the tool with it.
- The supervisor is forked, not exec'd: a fresh interpreter would cost a Python start-up (tens of ms)
  per call; a fork costs about a millisecond of CPU. It runs only ``os``/``select`` calls on objects
  made before the fork, imports nothing, closes every descriptor it does not need at once (so it never
  holds another concurrent call's pipes), leaves the caller's process group, and always ends with
  ``os._exit``. The tool is forked from it too (not posix_spawn'd, which would save about a
  millisecond more) because only code in the child can set PR_SET_PDEATHSIG: a host that SIGKILLs
  its children at shutdown (or the OOM killer) would otherwise leave the tool running. Hosts should
  call ``stop_all()`` (or simply exit) instead: then escaped grandchildren are swept as well.
- What it costs: two forks of the caller per call (CPU for page-table copies and the pages that
  get copied on write), measured by bench/exec_overhead.py. A process that spawns more than once
  hands its later calls to a **spawn helper** (below): a small interpreter of its own that forks the
  supervisors and their tools' processes ahead of the calls, so the caller itself forks no more and
  no fork lies on a call's path. The supervisor closes its status pipe once the
  sweep is done, so the caller need not wait for its exit.
- The tool's memory is bounded with ``RLIMIT_DATA`` set in the tool's child before ``exec``:
  ``RLIMIT_AS`` also counts reserved address space, which Go runtimes (gh, kubectl: "failed to reserve
  page summary memory" under 512 MiB, failed thread creation under 1 GiB) and the JVM (its 1 GiB
  compressed class space) reserve without using, so 2 GiB of RLIMIT_AS breaks picocli tools; RLIMIT_DATA
  counts writable private mappings, i.e. the heap that grows. A cgroup v2 ``memory.max`` would be exact
  but needs a writable, delegated cgroup (rare for an unprivileged caller, absent on cgroup v1 hosts).

The supervisor reports on a status pipe, one line per record: ``S <supervisor pid>`` first when the
spawn helper forked it, ``G <cgroup directory>`` where the call has one, ``P <tool pid>`` once the
tool runs, ``E <errno>`` when it could not be executed, ``X <exit code> <signal> <peak RSS KiB>
<CPU microseconds of the processes reaped so far>`` when it ended.
End of file on that pipe means the supervisor has exited and the subtree is empty.

Linux only (``prctl``); elsewhere the spawn still works and the process group is all that is killed.
Standard library only.
"""

from __future__ import annotations

import _thread
import errno
import fcntl
import gc
import marshal
import os
import resource
import select
import time

try:  # the C module: ``signal`` builds enums of every signal, a millisecond of each adapter call's start-up
    import _signal as signal
except ImportError:  # pragma: no cover - another Python
    import signal

from wrapgen.errors import ExitStatus

__all__ = [
    "Supervised",
    "spawn_supervised",
    "caller_state",
    "containment_available",
    "kill_subtree",
    "stop_all",
    "one_shot",
    "prestart",
]

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
# After the tool exits, how long a process it left behind may go on before it is killed.
LINGER_S = 0.25
# How long the caller waits for the supervisor to finish its sweep after asking for a kill.
_STOP_WAIT_S = 5.0
_CAUGHT = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
    signal.SIGPIPE,
    signal.SIGXFSZ,
)


def _ignore(_signum, _frame) -> None:
    """The supervisor's handler: a signal that would end it (or stop it) does nothing."""


_prctl_fn = None


def _prctl():
    """libc's prctl (found once, before any fork), or None where there is none.

    Called through ``_ctypes`` (the C module) where it offers ``call_function``: ``import ctypes``
    builds its whole type system, several milliseconds of every one-shot call's start-up, for the
    one function this needs. Every argument is a small int (passed as a C int, widened to a register,
    as prctl's variadic arguments are read)."""
    global _prctl_fn
    if _prctl_fn is None:
        _prctl_fn = _load_prctl() or False
    return _prctl_fn or None


def _load_prctl():
    try:
        import _ctypes

        address = _ctypes.dlsym(_ctypes.dlopen(None), "prctl")
        call = _ctypes.call_function
        return lambda *args: call(address, args)
    except (ImportError, OSError, AttributeError):
        pass
    try:
        import ctypes

        fn = ctypes.CDLL(None, use_errno=True).prctl
        fn.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        fn.restype = ctypes.c_int
        return fn
    except (ImportError, OSError, AttributeError):
        return None


def containment_available() -> bool:
    """True where spawns are contained by a subreaper supervisor (Linux with prctl)."""
    return _prctl() is not None


def _children(pid: int) -> list[int]:
    """The live children of ``pid`` (itself single-threaded): /proc/PID/task/PID/children, else a /proc scan."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
            return [int(word) for word in handle.read().split()]
    except OSError:
        pass
    out = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat.rsplit(b")", 1)[-1].split()
        if len(fields) > 1 and fields[1] == str(pid).encode():
            out.append(int(name))
    return out


def kill_subtree() -> None:
    """Kill and reap every descendant of this (subreaper) process: kill the children, reap one, repeat.

    A killed child's own children are reparented here before it can be reaped, so the next round
    sees them; the loop ends when ``waitpid`` reports no children at all.
    """
    me = os.getpid()
    try:  # the common case: the tool left nothing behind, so there is nothing to list
        os.waitpid(-1, os.WNOHANG)  # (reaps one that already ended, if any)
    except ChildProcessError:
        return
    while True:
        pids = _children(me)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)  # an unreaped child: its pid cannot have been reused
            except OSError:
                pass
        try:
            if pids:
                os.waitpid(-1, 0)
            else:  # none listed (a race with a reparenting, or no /proc): never block on an unkilled one
                pid, _ = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    time.sleep(0.002)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def _close_all_but(keep) -> None:
    low = 3
    for fd in sorted({fd for fd in keep if fd >= 3}):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 20)


def _exec_tool(
    argv, environ, places, stdio, err_w, memory_limit, supervisor, *, pdeathsig: bool = True
) -> None:
    """In the tool's child: die with the supervisor, own session, stdio, limit, exec. Never returns.

    As little Python as possible runs here (each object it touches is a page copied): the
    supervisor prepared everything; its fds are all close-on-exec, and its signal handlers are
    Python's own (caught signals are reset to their defaults by exec), so nothing else is needed.
    """
    try:
        prctl = _prctl() if pdeathsig else None  # (a pre-forked child set it when it was forked)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != supervisor:  # the supervisor died before the line above
                os._exit(ExitStatus.CANNOT_RUN)
        os.setsid()
        os.dup2(stdio[0], 0)
        os.dup2(stdio[1], 1)
        os.dup2(stdio[2], 2)
        if len(stdio) > 3:  # fds the tool reads by number from 3 on (the sandbox's filter)
            top = len(stdio)  # (first moved above every target, this pipe too)
            err_w = fcntl.fcntl(err_w, fcntl.F_DUPFD_CLOEXEC, top)
            moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, top) for fd in stdio[3:]]
            for number, fd in enumerate(moved, 3):
                os.dup2(fd, number)
        if memory_limit is not None:
            resource.setrlimit(resource.RLIMIT_DATA, memory_limit)
        saved = None
        for place in places:  # execvpe's rule: go on past ENOENT/EACCES, report EACCES if seen
            try:
                os.execve(place, argv, environ)
            except OSError as error:
                if error.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                    raise
                if saved is None or error.errno == errno.EACCES:
                    saved = error
        raise saved if saved is not None else FileNotFoundError(errno.ENOENT, "not found")
    except OSError as error:
        code = error.errno or 0
    except BaseException:
        code = 0
    try:
        os.write(err_w, b"%d" % code)
    finally:
        os._exit(ExitStatus.CANNOT_RUN)


def _wait_tool(tool: int, ctl_r: int) -> tuple[bool, tuple | None]:
    """Wait until the tool exits or the control pipe closes: (kill requested, (pid, status, rusage) or None)."""
    try:
        pidfd = os.pidfd_open(tool)
    except (AttributeError, OSError):
        pidfd = None
    try:
        while True:
            fds = [ctl_r] if pidfd is None else [ctl_r, pidfd]
            ready, _, _ = select.select(fds, [], [], None if pidfd is not None else 0.005)
            if ctl_r in ready:
                return True, None
            pid, status, usage = os.wait4(tool, os.WNOHANG)
            if pid:
                return False, (pid, status, usage)
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _linger(ctl_r: int) -> None:
    """Give processes the tool left behind LINGER_S to end by themselves (reaping those that do)."""
    me = os.getpid()
    deadline = time.monotonic() + LINGER_S
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            children = _children(me)
            if not children:
                return
            # woken when one of them ends (a pidfd reads ready then), not at the next 10 ms tick: a
            # sandboxed call's bubblewrap leaves its namespace's init ending as it exits
            pidfds = _pidfds(children)
            try:
                wait = max(0.0, deadline - time.monotonic()) if pidfds else 0.01
                ready, _, _ = select.select([ctl_r, *pidfds], [], [], wait)
            finally:
                for fd in pidfds:
                    os.close(fd)
            if ctl_r in ready:
                return


def _pidfds(pids) -> list[int]:
    """A pidfd for each of ``pids`` that still exists (none where Linux or Python has no pidfd_open)."""
    out = []
    for pid in pids:
        try:
            out.append(os.pidfd_open(pid))
        except (AttributeError, OSError):
            continue
    return out


def _candidates(name: str, environ) -> list[str]:
    """Where execvpe would look for ``name``, in the PATH of the tool's environment; only the
    files that exist (each failed execve costs), or the first place when none does."""
    if "/" in name:
        return [name]
    places = [os.path.join(d, name) for d in os.get_exec_path(environ)]
    return [place for place in places if os.path.isfile(place)] or places[:1] or [name]


def _data_limit(memory_bytes):
    """(soft, hard) RLIMIT_DATA for the tool: ``memory_bytes`` (never above the hard limit now), or None."""
    if not memory_bytes:
        return None
    hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
    limit = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
    return (limit, limit)  # the hard limit too: the tool cannot raise it back


def _read_failure(err_r: int) -> bytes:
    """What a tool's child wrote on its error pipe before exec (nothing when the exec succeeded)."""
    failed = b""
    while True:
        chunk = os.read(err_r, 64)
        if not chunk:
            break
        failed += chunk
    os.close(err_r)
    return failed


def _prefork_reader(sock_fd: int, group=None):
    """Fork, ahead of the call, the child that will read it and become its tool (in a spare, before it
    takes one): ``(pid, channel)``, or None when that fails. The call then goes straight from the caller
    to the process that execs it (one wake-up, no fork on the call's path: a freshly forked process waits
    for a CPU behind every runnable one, several ms on a loaded host). The child dies with this process
    (PDEATHSIG) and holds only the helper's socket and its channel to this process
    (``_reader_main``); it moves into ``group`` (the next call's cgroup, made ahead) while it waits
    for the call."""
    import socket

    try:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    except OSError:
        return None
    me = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        mine.close()
        theirs.close()
        return None
    if pid == 0:
        _reader_main(sock_fd, theirs, me, group)
    theirs.close()
    return pid, mine


def _reader_main(sock_fd: int, channel, supervisor: int, group=None) -> None:
    """A spare's pre-forked child: read the next call from the helper's socket, pass the supervisor what
    it needs (``C`` with the control and status pipes and an error pipe, or ``Q`` when the socket closed),
    then exec the call like ``_exec_tool`` (own session, stdio, the caller's umask and limits, the memory
    limit). Never returns. ``group``: the cgroup made ahead for the call, joined while the call is
    awaited; a call that asks for a bound on processes sets it there (or, without one, in a cgroup
    made now). ``C`` is followed by ``G`` (the call asked for a bound) or ``T``, then the directory
    of the call's cgroup (if any), which the supervisor removes after the call."""
    import socket

    err_w = None
    code = 0
    try:
        prctl = _prctl()
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != supervisor:
                os._exit(ExitStatus.CANNOT_RUN)
        _close_all_but([sock_fd, channel.fileno()])
        _join_group(group)
        sock = socket.socket(fileno=sock_fd)
        data, fds, _flags, _addr = socket.recv_fds(sock, _PACKET, 8)
        call = _recv_call(sock, data, fds) if data else None
        sock.close()
        if call is None:
            channel.send(b"Q")
            os._exit(ExitStatus.OK)
        argv, environ, cwd, index, memory_bytes, state = call
        processes = _processes(state)
        if processes is not None and not (group and _bound_group(group, processes)):
            group = _make_group(processes)
            _join_group(group)
        err_r, err_w = os.pipe()
        told = b"C" + (b"T" if processes is None else b"G") + os.fsencode(group or "")
        socket.send_fds(channel, [told], [fds[-2], fds[-1], err_r])
        channel.close()
        stdio = [None if i < 0 else fds[i] for i in index]
        for fd in {fds[-2], fds[-1], err_r} | set(fds) - set(stdio):
            os.close(fd)  # the tool holds none of the call's other pipes
        for fd in set(stdio) - {None}:
            os.set_inheritable(fd, False)  # (dup2 gives the tool its own 0-2)
        if stdio[0] is None:
            stdio[0] = os.open(os.devnull, os.O_RDONLY)
        _take_caller_state(state)
        if cwd is not None:
            os.chdir(cwd)
        _exec_tool(
            argv,
            environ,
            _candidates(argv[0], environ),
            stdio,
            err_w,
            _data_limit(memory_bytes),
            supervisor,
            pdeathsig=False,
        )
    except OSError as error:
        code = error.errno or 0
    except BaseException:
        code = 0
    try:
        if err_w is not None:
            os.write(err_w, b"%d" % code)
    finally:
        os._exit(ExitStatus.CANNOT_RUN)


# --- a cgroup per call: the sandbox's bound on processes ----------------------------------------
#
# RLIMIT_NPROC counts a uid's processes and does not bind root at all; a cgroup's ``pids.max``
# bounds one call's, whoever runs it. Where the caller may make one (root, or a delegated cgroup v2
# that hands ``pids`` on), a call that asks for a bound (``processes``) gets a cgroup of its own,
# named after the process that made the call (``wrapgen-<caller pid>-<random>``), which its
# supervisor removes once the call's processes are gone. Moving a process into a cgroup waits for an
# RCU grace period (10-15 ms here, most of a sandboxed call's cost): so once a call of the spawn
# helper's asked for a bound, each later spare makes the next call's cgroup ahead of it, unbounded,
# and its pre-forked child moves in while it waits for the call; the call then only writes its bound
# (or none), which costs nothing.

_CGROUP_V1 = "/sys/fs/cgroup/pids"  # the cgroup v1 "pids" hierarchy
_CGROUP_V2 = "/sys/fs/cgroup"
_owner = None  # the spawn helper's caller (a helper's calls are its caller's); None elsewhere


def _group_bases() -> list[str]:
    """The caller's own cgroup directories under which a call's may be made: v1's ``pids`` one, and
    v2's where its ``cgroup.subtree_control`` hands ``pids`` on (an empty list where neither)."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        _id, controllers, place = line.split(":", 2)
        if "pids" in controllers.split(",") and os.path.isdir(_CGROUP_V1):
            out.append(os.path.normpath(_CGROUP_V1 + place))
        elif not controllers and os.path.exists(os.path.join(_CGROUP_V2, "cgroup.controllers")):
            base = os.path.normpath(_CGROUP_V2 + place)
            try:
                with open(os.path.join(base, "cgroup.subtree_control"), encoding="utf-8") as handle:
                    if "pids" in handle.read().split():
                        out.append(base)
            except OSError:
                continue
    return out


def _make_group(processes) -> str | None:
    """A new cgroup for one call, its ``pids.max`` ``processes`` (None: no bound yet): its
    directory, or None where none can be made (no cgroup file system this process may write)."""
    owner = _owner or os.getppid()  # (a supervisor's parent: the caller, or the helper's)
    for base in _group_bases():
        path = os.path.join(base, f"wrapgen-{owner}-{os.urandom(4).hex()}")
        try:
            os.mkdir(path)
        except OSError:
            continue
        if _bound_group(path, processes):
            return path
        _end_group(path)
    return None


_swept = False  # this process removed the cgroups whose owners are gone (``_end_orphan_groups``)


def _end_orphan_groups(bases) -> None:
    """Remove the empty cgroups (``wrapgen-OWNER-XXXXXXXX``) whose owner no longer runs (the
    spawn layer does once a process, when a call first asks for a bound on processes): the one a
    spare made ahead for the next call is left behind where someone SIGKILLed the spawn helper
    while the spare waited. A cgroup that still holds a process, or whose owner's pid runs (maybe
    another process by now), is left as it is."""
    global _swept
    _swept = True
    for base in bases:
        try:
            names = os.listdir(base)
        except OSError:
            continue
        for name in names:
            owner = _group_owner(name)
            if owner is None or _runs(owner):
                continue
            try:
                os.rmdir(os.path.join(base, name))
            except OSError:
                pass  # (not empty, or not ours to remove)


def _group_owner(name: str) -> int | None:
    """The owner's pid of a cgroup named as ``_make_group`` names one, else None."""
    parts = name.split("-")
    if len(parts) != 3 or parts[0] != "wrapgen" or not parts[1].isdigit() or len(parts[2]) != 8:
        return None
    return int(parts[1]) if all(c in "0123456789abcdef" for c in parts[2]) else None


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (a process of another user's)
    return True


def _bound_group(path: str, processes) -> bool:
    """Set the cgroup's ``pids.max`` (``max`` for None); False where it cannot be set."""
    try:
        fd = os.open(path + "/pids.max", os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, b"max" if processes is None else b"%d" % processes)
        finally:
            os.close(fd)
        return True
    except OSError:
        return False


def _join_group(path) -> None:
    """Move this process into the cgroup ``path`` (None: stay), so that all it starts is counted
    there. Best effort: a cgroup that cannot be joined leaves the call to RLIMIT_NPROC."""
    if not path:
        return
    try:
        fd = os.open(path + "/cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, b"0")  # (0: the writer itself)
        finally:
            os.close(fd)
    except OSError:
        pass


def _end_group(path, *, tries: int = 50) -> bool:
    """Remove a call's cgroup once its processes are gone (swept and reaped; a removal the kernel
    refuses while the last exit completes is tried again, briefly): False where it still holds
    one."""
    if not path:
        return True
    for _ in range(tries):
        try:
            os.rmdir(path)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            time.sleep(0.002)
    return False


def _end_groups_left() -> None:
    """Try once more to remove the cgroups of calls whose supervisor was killed while a process of
    theirs lived on (one that left the tool's session: a killed supervisor cannot sweep it)."""
    with _lock:
        left = list(_groups_left)
    gone = [path for path in left if _end_group(path, tries=1)]
    with _lock:
        _groups_left[:] = [path for path in _groups_left if path not in gone]


def _processes(state):
    """The bound on processes a call's ``state`` asks for (its third item), or None."""
    return state[2] if state is not None and len(state) > 2 else None


def _start_tool(argv, env, cwd, stdio, memory_bytes, group=None) -> tuple[int | None, int]:
    """Fork and exec the tool: (its pid, 0), or (None, errno) when it could not be executed; the
    tool joins the cgroup ``group`` first (None: none).

    A fork rather than posix_spawn (which costs less) because only code running in the child
    before exec can set PR_SET_PDEATHSIG and a hard RLIMIT_DATA: with it the tool dies even when
    the supervisor itself is SIGKILLed (a host's blunt shutdown, the OOM killer).
    """
    if cwd is not None:
        try:
            os.chdir(cwd)  # the supervisor is the tool's alone: its cwd becomes the tool's
        except OSError as error:
            return None, error.errno or errno.ENOENT
    environ = os.environ if env is None else env
    places = _candidates(argv[0], environ)
    memory_limit = _data_limit(memory_bytes)
    if stdio[0] is None:
        stdio = (os.open(os.devnull, os.O_RDONLY),) + tuple(
            stdio[1:]
        )  # close-on-exec, as os.open makes them
    err_r, err_w = os.pipe()
    me = os.getpid()
    tool = os.fork()
    if tool == 0:
        _join_group(group)
        _exec_tool(argv, environ, places, stdio, err_w, memory_limit, me)
    os.close(err_w)
    failed = _read_failure(err_r)
    if failed:
        os.waitpid(tool, 0)
        return None, int(failed)
    return tool, 0


def _become_supervisor(fds, *, again: bool = False):
    """The start of a supervisor's life (in the forked child): no signal ends it, no collection copies
    the heap, and it holds only ``fds`` (moved above 2, close-on-exec; returned in order), 0-2 on /dev/null.
    ``again``: a spare that did all this when it was forked, taking its call: only the fds move."""
    if again:
        fds = [None if fd is None else fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3) for fd in fds]
        _close_all_but([fd for fd in fds if fd is not None])
        return fds
    gc.disable()  # a collection would touch (and so copy) every page of the parent's heap
    # A terminal's ^C (or a hang-up) ends the caller, and through the control pipe us: here they
    # do nothing. Python-level handlers, not SIG_IGN: exec resets caught signals to their
    # defaults, so the tool starts with none of this (and a write to a gone caller is EPIPE,
    # an exception we sweep on, never a silent death by SIGPIPE).
    for sig in _CAUGHT:
        signal.signal(sig, _ignore)
    # every fd we keep moves above 2, then 0-2 become /dev/null: the supervisor holds none of the
    # caller's descriptors (a server's stdio, other calls' pipes), only its own
    fds = [None if fd is None else fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3) for fd in fds]
    null = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target, inheritable=False)
    _close_all_but([fd for fd in fds if fd is not None])
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    os.setpgid(0, 0)  # out of the caller's group: a kill of that group leaves us to sweep
    return fds


def _supervise(argv, env, cwd, stdio, ctl_r, st_w, memory_bytes, state=None) -> None:
    """The whole life of a supervisor forked for one call (in the child). Never returns.
    ``state``: the umask and limits the tool takes (None: this process's own, as forked)."""
    try:
        *stdio, ctl_r, st_w = _become_supervisor(list(stdio) + [ctl_r, st_w])
    except BaseException:
        os._exit(ExitStatus.OK)
    _run_call(argv, env, cwd, tuple(stdio), ctl_r, st_w, memory_bytes, state=state)


def _run_call(
    argv,
    env,
    cwd,
    stdio,
    ctl_r,
    st_w,
    memory_bytes,
    notice_w=None,
    handed=None,
    state=None,
    first=b"",
    group=None,
) -> None:
    """Run the tool, wait for it or for a kill, sweep the subtree, report. Never returns.

    The status pipe is closed as soon as the sweep is done (before the exit, whose teardown of
    this copy of the caller's memory the caller need not wait for). ``notice_w`` (a spare's pipe to
    the spawn helper) is closed once the tool runs: the helper forks the next spare only then, so
    that fork does not compete with this call's own. ``handed``: the call was already handed to a
    pre-forked child (a spare's, ``_reader_main``), which read it and runs it; otherwise this process forks
    the tool, with ``state`` (the caller's umask and limits) taken first. ``first`` goes before the
    tool's record (a spare's ``S <pid>``: one write, one wake-up of the caller). A handed call is
    not waited on until it execs: the child's error pipe is read once it has ended (an exec that
    failed gives ``E``, after a ``P`` with its pid), so this process wakes once for the call and
    once when the tool ends. ``group``: the handed call's cgroup; a call this process forks gets one
    of its own where ``state`` asks for a bound on processes. Either is removed once the subtree is
    swept."""
    try:
        err_r = None
        if handed is not None:
            (tool, err_r), failure = handed, 0
        else:
            if state is not None:
                _take_caller_state(state)
            processes = _processes(state)
            group = None if processes is None else _make_group(processes)
            tool, failure = _start_tool(argv, env, cwd, stdio, memory_bytes, group)
        if notice_w is not None:
            os.close(notice_w)
        if group:  # (the caller removes it too, should this process be killed before it does)
            first += b"G %s\n" % os.fsencode(group)
        for fd in {fd for fd in stdio if fd is not None}:
            os.close(
                fd
            )  # only the tool holds the pipes now: end of file comes when its subtree is gone
        if tool is None:
            kill_subtree()
            _end_group(group)
            os.write(st_w, first + b"E %d\n" % failure)
            return
        os.write(st_w, first + b"P %d\n" % tool)
        killed, ended = _wait_tool(tool, ctl_r)
        if killed:
            for target in (
                lambda: os.killpg(tool, signal.SIGKILL),
                lambda: os.kill(tool, signal.SIGKILL),
            ):
                try:
                    target()
                except OSError:
                    pass
            ended = os.wait4(tool, 0)
        else:
            _linger(ctl_r)
        _pid, status, usage = ended
        code = os.waitstatus_to_exitcode(status)
        exit_code, sig = (code, 0) if code >= 0 else (-1, -code)
        kill_subtree()  # (no killpg now: the reaped tool's group id could name someone else's group)
        _end_group(group)
        failed = b"" if err_r is None else _read_failure(err_r)
        if failed:
            os.write(st_w, b"E %d\n" % int(failed))
        else:
            # every process of the call that was reaped, by its parent or here (a sandbox's init
            # is orphaned to this subreaper): the tool's own wait4 misses those
            reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_us = int((reaped.ru_utime + reaped.ru_stime) * 1e6)
            os.write(st_w, b"X %d %d %d %d\n" % (exit_code, sig, usage.ru_maxrss, cpu_us))
    except BaseException:
        try:
            kill_subtree()
            _end_group(group)
        except BaseException:
            pass
    finally:
        try:
            os.close(st_w)  # end of file for the caller: the subtree is empty
        finally:
            os._exit(ExitStatus.OK)


# --- the spawn helper ---------------------------------------------------------------------------
#
# A process that runs tools one after another (serve, discovery, a library caller) gets, from its
# second spawn on, a spawn helper: a fresh, small interpreter (``python -I -S``, only this module's
# imports) started once with ``posix_spawn``, that forks the supervisor of every later call. The
# caller then never forks: no copy of its page tables per call, and none of its pages shared with a
# child, so its own work between calls takes no copy-on-write faults (a supervisor forked from the
# caller and kept waiting made every page the caller wrote afterwards a fault that copies). A call
# reaches the helper on a Unix SOCK_SEQPACKET socket: one packet with the size and the descriptors
# (the tool's stdio, the supervisor's ends of the control and status pipes, via SCM_RIGHTS), then the
# call itself (argv, environment, cwd, umask, limits; marshal) in packets of at most 64 KiB. The
# helper forks each supervisor ahead of its call, as a *spare*, and the spare forks, ahead of the
# call too, the child that will become its tool (PDEATHSIG set then): that child reads the next call
# from the socket itself, hands the supervisor the control and status pipes and an error pipe, and
# execs the tool. So no fork lies on the call's path, and one wake-up (the child's) lies between the
# caller's send and the exec: a freshly forked process waits for a CPU behind every runnable one
# (several ms on a loaded host), a sleeping one woken by a message does not. From the call on the
# spare is the supervisor of a cold spawn (same code from ``_run_call`` on), reports its pid first
# (``S <pid>``), since the caller is not its parent, and wakes next when the tool ends. The helper exits when a spare finds the socket closed (the caller
# exited or was killed); a supervisor it forked sees its own control pipe close then and sweeps, as
# every supervisor does. A one-shot `wrapgen exec` or adapter.py never starts one (its
# Python start-up would cost more than the fork it saves). A child forked from the caller forgets the
# helper and the caller's calls (and closes their descriptors), so it never holds a kill back.

_HELPER_AFTER = 1  # spawns done before a process starts its spawn helper
# How long, from its start, the calls of a helper started by ``prestart`` wait for it to be ready
# rather than fork the caller (a helper that is slower than this is waited for no more).
_READY_WAIT_S = 0.5
_PACKET = 65536
# How long handing one call to the helper may block (a helper that stopped reading: SIGSTOPped, or
# stuck): then the helper is dropped and the call runs under a supervisor the caller forks.
_SEND_TIMEOUT_S = 5.0
_spawns = 0
_helper = None  # [pid, socket, ready, owner pid, wait-until] once started; False when it cannot be
_lock = _thread.allocate_lock()  # the helper's socket: one call's packets at a time
_TAKEN = (b"T", b"G")  # a spare's notice that it took a call (G: one with a bound on processes)
_unreaped: list = []  # supervisors that closed their status pipe but had not exited when finished
_groups_left: list = []  # cgroups of calls that still held a process when finished (``_end_group``)

# The helper imports this module alone: a stand-in for the ``wrapgen.runtime`` package keeps its
# ``__init__`` (binding, execute, render, schema, ...: two thirds of the helper's start-up) unrun.
_HELPER_BOOT = (
    "import sys, types; sys.path.append(sys.argv[1]); import wrapgen; "
    "package = types.ModuleType('wrapgen.runtime'); package.__path__ = [sys.argv[1] + '/wrapgen/runtime']; "
    "sys.modules['wrapgen.runtime'] = package; "
    "from wrapgen.runtime.contain import _helper_main; _helper_main(3)"
)


def _recv_call(sock, first: bytes, fds):
    """The call whose first packet was ``first``: (argv, env, cwd, index, memory_bytes, caller state), or None at end of file."""
    size = int.from_bytes(first[:8], "little")
    body = bytearray(first[8:])
    while len(body) < size:
        chunk = sock.recv(_PACKET)
        if not chunk:
            return None
        body += chunk
    return marshal.loads(bytes(body))


def _helper_main(fd: int) -> None:
    """The spawn helper's life (``python -I -S -c _HELPER_BOOT ROOT``, its socket on ``fd``). Never returns.

    The helper keeps one **spare** supervisor forked ahead of the next call (``_spare_main``): the
    spare reads that call from the socket itself and runs it, so no fork of the helper lies on a
    call's path. While a spare waits, the helper never reads the socket (one reader at a time: a call
    that spans several packets reaches one process whole); it forks the next spare once the taken
    call's tool runs. The helper exits when a spare finds the socket closed (the caller exited or was
    killed), or when spares keep dying before they take a call.
    """
    import socket  # (here, not in each spare: an import there would copy pages on every call)

    global _owner
    try:
        _owner = os.getppid()  # (the calls are its caller's: their cgroups are named after it)
        (fd,) = _become_supervisor([fd])
        _prctl()
        os.write(fd, b"R")  # ready
        children = set()
        spare = None  # (pid, read end of its notice pipe)
        early_deaths = 0
        grouped = False  # a call asked for a bound on processes: the next ones may too
        while True:
            if spare is None:
                notice_r, notice_w = os.pipe()
                pid = os.fork()
                if pid == 0:
                    _spare_main(fd, notice_w, os.getppid(), grouped)
                os.close(notice_w)
                children.add(pid)
                spare = (pid, notice_r)
            for pid in list(children):
                if _reap(pid, block=False):
                    children.discard(pid)
            if not select.select([spare[1]], [], [], 1.0 if len(children) > 1 else None)[0]:
                continue
            notice = os.read(spare[1], 1)
            if notice in _TAKEN:  # wait (bounded) until its tool runs, then fork the next spare
                select.select([spare[1]], [], [], 0.5)
                early_deaths = 0
                grouped = grouped or notice == b"G"  # (from then on: calls come mixed)
            os.close(spare[1])
            spare = None
            if notice == b"Q":  # the caller is gone
                break
            if notice not in _TAKEN:  # the spare died before it took a call
                early_deaths += 1
                if early_deaths > 3:
                    break
        del socket
    except BaseException:
        pass
    os._exit(ExitStatus.OK)


def _spare_main(fd: int, notice_w: int, helper: int, grouped: bool = False) -> None:
    """A spare supervisor (in the helper's child): its pre-forked child reads the next call from the
    socket and becomes the call's tool (``_reader_main``); this process supervises it. Never returns.

    It tells the helper on ``notice_w``: ``T`` once the whole call is read (the socket is free for
    another reader; ``G`` for a call that asked for a bound on processes) or ``Q`` when the socket
    closed (the caller is gone); the pipe's end of file, once its tool runs (or it died), lets the
    helper fork the next spare. ``grouped`` (one of the helper's calls asked for a bound): the
    call's cgroup is made now, unbounded, and joined by the child while it waits (``_reader_main``).
    Until it has taken a call the spare dies with the helper (PDEATHSIG): a spare left behind would
    hold the caller's socket open.
    From the call on it must not: a supervisor outlives its helper long enough to sweep its subtree.
    Where the child cannot be forked, the spare reads the call itself and forks the tool on it."""
    import socket

    try:
        fd, notice_w = _become_supervisor([fd, notice_w])
        prctl = _prctl()
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != helper:
                os._exit(ExitStatus.OK)
        group = _make_group(None) if grouped else None
        child = _prefork_reader(fd, group)
        if child is not None:
            pid, channel = child
            data, got, _flags, _addr = socket.recv_fds(channel, 4096, 3)
            channel.close()
            if (
                data[:1] != b"C" or len(got) != 3
            ):  # Q: the caller is gone; nothing: the child died first
                os.waitpid(pid, 0)  # (it is leaving: its cgroup empties; the helper, told Q,
                _end_group(group)  # exits, and this process with it)
                if data == b"Q":
                    os.write(notice_w, b"Q")
                os._exit(ExitStatus.OK)
            if prctl is not None:
                prctl(_PR_SET_PDEATHSIG, 0, 0, 0, 0)
            made = os.fsdecode(data[2:]) or None
            if made != group:  # (made by the child for the call: the one made ahead held nobody
                _end_group(group)  # but the child, which left it)
                group = made
            os.write(notice_w, data[1:2])
            ctl_r, st_w, err_r, notice_w = _become_supervisor(got + [notice_w], again=True)
            handed, call = (pid, err_r), ((), None, None, (), None, None)
            stdio = ()
        else:
            _end_group(group)
            group = None
            sock = socket.socket(fileno=fd)
            data, fds, _flags, _addr = socket.recv_fds(sock, _PACKET, 8)
            call = _recv_call(sock, data, fds) if data else None
            if prctl is not None:
                prctl(_PR_SET_PDEATHSIG, 0, 0, 0, 0)
            if call is None:
                os.write(notice_w, b"Q")
            else:
                os.write(notice_w, b"T" if _processes(call[5]) is None else b"G")
            sock.close()
            if call is None:
                os._exit(ExitStatus.OK)
            handed = None
            stdio = [None if i < 0 else fds[i] for i in call[3]]
            *stdio, ctl_r, st_w, notice_w = _become_supervisor(
                stdio + [fds[-2], fds[-1], notice_w], again=True
            )
        argv, env, cwd, _index, memory_bytes, state = call
    except BaseException:
        os._exit(ExitStatus.OK)
    _run_call(
        argv,
        env,
        cwd,
        tuple(stdio),
        ctl_r,
        st_w,
        memory_bytes,
        notice_w,
        handed=handed,
        state=state,
        first=b"S %d\n" % os.getpid(),
        group=group,
    )


def one_shot() -> None:
    """This process makes one call and exits (``adapter.py``): it never starts a spawn helper, whose
    start-up (a Python interpreter) would cost more than the forks it could save, even for a call that
    spawns twice (a pack's config guard, then its tool)."""
    global _helper
    if _helper is None:
        _helper = False


def prestart() -> None:
    """Start this process's spawn helper now, for a caller that is about to spawn several times (a
    discovery's probes): it boots while the caller goes on (imports, its own set-up), and the calls
    go through it from the first one. A call that comes before the helper is ready waits for it, at
    most until ``_READY_WAIT_S`` after its start, instead of forking this process (a fork of a large
    process costs its caller more CPU than the wait, which costs none); past that it forks as
    before. Does nothing where a helper runs or starts already, where one cannot, or in a one-shot
    process (``one_shot``)."""
    if _helper is None:
        _start_helper(ready_wait_s=_READY_WAIT_S)


def _start_helper(*, ready_wait_s: float = 0.0) -> None:
    """Start this process's spawn helper (without waiting for it); on any failure, never try again.
    ``ready_wait_s``: how long from now a call waits for it to be ready (0: none; a cold spawn then)."""
    global _helper
    import socket
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not sys.executable:
        _helper = False
        return
    try:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    except OSError:
        _helper = False
        return
    try:
        child_end = theirs.fileno()
        if child_end == 3:  # dup2(3, 3) would leave it close-on-exec
            child_end = fcntl.fcntl(3, fcntl.F_DUPFD_CLOEXEC, 4)
        pid = os.posix_spawn(
            sys.executable,
            [sys.executable, "-I", "-S", "-c", _HELPER_BOOT, root],
            os.environ,
            file_actions=[(os.POSIX_SPAWN_DUP2, child_end, 3)],
        )
        if child_end != theirs.fileno():
            os.close(child_end)
    except OSError:
        mine.close()
        _helper = False
        return
    finally:
        theirs.close()
    mine.settimeout(_SEND_TIMEOUT_S)
    _helper = [
        pid,
        mine,
        False,
        os.getpid(),
        time.monotonic() + ready_wait_s if ready_wait_s > 0 else 0.0,
    ]


def _usable_helper():
    """This process's spawn helper when it is ready; None while it starts, when it failed, or in a fork."""
    global _helper
    helper = _helper
    if not helper or helper[3] != os.getpid():
        return None
    if _reap(
        helper[0], block=False
    ):  # it died (someone killed it): the call must not be sent to nobody
        _drop_helper()
        return None
    if not helper[2]:
        wait = helper[4] - time.monotonic() if helper[4] else 0.0
        if (
            wait > 0
        ):  # started by prestart(): wait for its "ready" (no lock held: a wait, not a read)
            try:
                select.select([helper[1]], [], [], wait)
            except (OSError, ValueError):  # dropped meanwhile by another thread
                return None
        # One thread at a time reads the helper's "ready": a second reader that also saw the socket
        # readable would block on it, and could take a later call's answer.
        with _lock:
            if not helper[2]:
                if not select.select([helper[1]], [], [], 0)[0]:
                    return None
                try:
                    helper[2] = helper[1].recv(16) == b"R"
                except OSError:
                    helper[2] = False
        if not helper[2]:
            _drop_helper()
            return None
    return helper


def _drop_helper(*, again: bool = False) -> None:
    """Close the helper's socket (it exits); ``again``: a later spawn may start a new one."""
    global _helper
    helper, _helper = _helper, (None if again else False)
    if helper:
        helper[1].close()
        if not _reap(helper[0], block=False):
            with _lock:
                _unreaped.append(helper[0])


# What a child inherits from its parent at fork, besides cwd and environment (sent with every call):
# the helper started long before the call, so its own would be stale if the caller changed them since.
_INHERITED_LIMITS = tuple(
    getattr(resource, name)
    for name in (
        "RLIMIT_CORE",
        "RLIMIT_CPU",
        "RLIMIT_DATA",
        "RLIMIT_FSIZE",
        "RLIMIT_NOFILE",
        "RLIMIT_NPROC",
        "RLIMIT_STACK",
        "RLIMIT_AS",
        "RLIMIT_MEMLOCK",
    )
    if hasattr(resource, name)
)


def caller_state():
    """(umask or None, ((resource, soft, hard), ...)) of the caller now: what a fork of it would pass on.
    A caller that spawns many times in one job (discovery's probes) may read it once and pass it to
    each ``spawn_supervised``: a read of /proc costs more than the rest of handing a call over.

    The umask comes from /proc (reading it with ``os.umask`` means setting it for a moment, a race with
    every other thread of the caller that creates a file)."""
    umask = None
    try:  # (raw reads of its head, no file object: this runs once per call; Umask is its second line)
        fd = os.open("/proc/self/status", os.O_RDONLY | os.O_CLOEXEC)
        try:
            head = os.read(fd, 512)
        finally:
            os.close(fd)
        at = head.find(b"\nUmask:")
        if at >= 0:
            umask = int(head[at + 7 : head.index(b"\n", at + 7)], 8)
    except (OSError, ValueError):
        pass
    return umask, tuple((which, *resource.getrlimit(which)) for which in _INHERITED_LIMITS)


def _take_caller_state(state) -> None:
    """In a helper-forked supervisor: take the caller's umask and limits, so the tool gets what a cold
    spawn gives it. A limit this process may not set (a hard limit the caller raised with a privilege
    the helper lacks) stays as it is."""
    umask, limits = state[:2]
    if umask is not None:
        os.umask(umask)
    for which, soft, hard in limits:
        try:
            if resource.getrlimit(which) != (soft, hard):
                resource.setrlimit(which, (soft, hard))
        except (OSError, ValueError):
            pass


def _via_helper(helper, argv, stdio, cwd, env, memory_bytes, state):
    """Hand one call to the spawn helper: its ``Supervised``, or None when the helper is gone (then a cold one runs)."""
    import socket

    fds, index = [], []
    for fd in stdio:
        if fd is None:
            index.append(-1)
        else:
            if fd not in fds:
                fds.append(fd)
            index.append(fds.index(fd))
    if cwd is None:
        try:
            cwd = os.getcwd()  # the caller's cwd (the helper's is not)
        except OSError:
            cwd = None
    body = marshal.dumps(
        (
            argv,
            dict(os.environ) if env is None else env,
            cwd,
            tuple(index),
            memory_bytes,
            caller_state() if state is None else state,
        )
    )
    message = len(body).to_bytes(8, "little") + body
    ctl_r, ctl_w = os.pipe()
    st_r, st_w = os.pipe()
    try:
        with _lock:
            socket.send_fds(helper[1], [message[:_PACKET]], fds + [ctl_r, st_w])
            for at in range(_PACKET, len(message), _PACKET):
                helper[1].sendall(message[at : at + _PACKET])
    except OSError:
        os.close(ctl_w)
        os.close(st_r)
        _drop_helper()
        return None
    finally:
        os.close(ctl_r)
        os.close(st_w)
    return Supervised(None, ctl_w, st_r)


def _reap(pid, *, block: bool) -> bool:
    """Reap ``pid``; True once done (or it is no child of ours)."""
    if pid is None:
        return True
    while True:
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            return done != 0
        except InterruptedError:
            continue
        except ChildProcessError:
            return True


def _reap_finished() -> None:
    with _lock:
        pids = list(_unreaped)
    left = [pid for pid in pids if not _reap(pid, block=False)]
    with _lock:
        _unreaped[:] = [pid for pid in _unreaped if pid in left or pid not in pids]


def _forget_in_child() -> None:
    """In a child forked from the caller: close the caller's ends of the helper's socket and of its
    calls' channels, so the child never keeps the helper alive (or a kill from arriving), and forget them."""
    global _lock, _spawns, _helper
    if _helper:
        try:
            _helper[1].close()
        except OSError:
            pass
    _helper = None
    for call in list(_live):
        for fd in (call.ctl_w, call.status_fd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        call.ctl_w = call.status_fd = None
    _live.clear()
    _unreaped.clear()
    _groups_left.clear()
    _lock = (
        _thread.allocate_lock()
    )  # (a lock another thread held at the fork stays held in the child)
    _spawns = 0


os.register_at_fork(after_in_child=_forget_in_child)


_live: set = set()  # the Supervised of every call in flight in this process (for stop_all)


def stop_all(*, timeout_s: float = _STOP_WAIT_S) -> int:
    """Ask every supervisor of this process to kill its call's processes, and wait (bounded) until
    each has swept its subtree; for a host's shutdown. Returns how many calls were in flight.

    A host that simply exits gets the same sweep (each supervisor sees its control pipe close);
    what it must not do is SIGKILL the supervisors: the tools die with them (PDEATHSIG), but a
    process that left the tool's session would then be nobody's to kill.
    """
    if _helper and _helper[3] == os.getpid():
        _drop_helper(again=True)  # the spawn helper runs no tool itself: it just exits
    calls = list(_live)
    for call in calls:
        try:
            call.stop()
        except OSError:
            pass
    deadline = time.monotonic() + timeout_s
    for call in calls:
        while call.pid is not None and time.monotonic() < deadline:
            try:
                if not os.path.exists(f"/proc/{call.pid}") or _zombie(call.pid):
                    break
            except OSError:
                break
            time.sleep(0.01)
    return len(calls)


def _zombie(pid: int) -> bool:
    with open(f"/proc/{pid}/stat", "rb") as handle:
        return handle.read().rsplit(b")", 1)[-1].split()[0] in (b"Z", b"X")


_STATUS_READ = 65536  # (a pipe holds 64 KiB: one read takes whatever a hung-up pipe still holds)


class Supervised:
    """A spawned, contained tool as its caller sees it: the supervisor's pid and the two pipes.

    ``status_fd`` is read by the caller's event loop (``feed``); ``stop()`` asks for the kill;
    ``finish()`` waits for the sweep and reaps the supervisor. Fields once known: ``tool_pid``,
    ``exec_errno``, ``exit_code``, ``signal``, ``max_rss_kb``, ``cpu_s`` (the CPU time the tool
    and the processes it waited for took), ``ended`` (the status pipe closed).
    """

    def __init__(self, pid: int, ctl_w: int, status_fd: int):
        self.pid = pid
        self.ctl_w = ctl_w
        self.status_fd = status_fd
        self._stop_lock = _thread.allocate_lock()  # stop() from a watchdog thread and from finish()
        self.tool_pid = None
        self.exec_errno = None
        self.exit_code = None
        self.signal = None
        self.max_rss_kb = 0
        self.cpu_s = None
        self.group = None
        self.ended = False
        self._pending = b""
        self._finished = False
        _live.add(self)

    def feed(self, data: bytes) -> None:
        """Take bytes read from ``status_fd`` (b"" at end of file)."""
        if not data:
            self.ended = True
            return
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            kind, *values = line.split()
            if kind == b"G":  # the call's cgroup
                self.group = os.fsdecode(values[0])
                continue
            numbers = list(map(int, values))
            if kind == b"S":  # a supervisor the spawn helper forked: its pid
                self.pid = numbers[0]
            elif kind == b"P":
                self.tool_pid = numbers[0]
            elif kind == b"E":
                self.exec_errno = numbers[0]
            elif kind == b"X":
                code, sig, self.max_rss_kb, cpu_us = numbers
                self.cpu_s = cpu_us / 1e6
                self.exit_code, self.signal = (code, None) if sig == 0 else (None, sig)

    def read_status(self) -> None:
        """Read the status pipe until the next record or its end (blocking)."""
        self.feed(os.read(self.status_fd, 4096))

    def read_rest(self) -> None:
        """Read every record left on a status pipe that has hung up (its last writer closed it): a
        read that leaves it empty has reached its end, so none is made just to see end of file."""
        while not self.ended:
            data = os.read(self.status_fd, _STATUS_READ)
            self.feed(data)
            if len(data) < _STATUS_READ:
                self.feed(b"")

    def stop(self) -> None:
        """Ask the supervisor to kill the tool and everything it started (idempotent, and safe from
        two threads at once: a wrap's watchdog stops every call while the call's own thread may be
        finishing it; the descriptor is closed once, never a number another open has reused)."""
        with self._stop_lock:
            fd, self.ctl_w = self.ctl_w, None
        if fd is not None:
            os.close(fd)

    def finish(self) -> None:
        """Stop, wait for the sweep to end (bounded), close the pipes and reap the supervisor. Once
        that has all been done, a second call does nothing (one interrupted midway does it again)."""
        if self._finished:
            return
        self.stop()
        deadline = time.monotonic() + _STOP_WAIT_S
        while not self.ended:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.status_fd], [], [], max(left, 0))
            if (
                not ready
            ):  # a supervisor stuck in its sweep: kill it (the tool dies with it, PDEATHSIG)
                try:
                    if self.pid is not None:
                        os.kill(self.pid, signal.SIGKILL)
                except OSError:
                    pass
                break
            self.read_status()
        if self.status_fd is not None:
            os.close(self.status_fd)
            self.status_fd = None
        _live.discard(self)
        # (gone already, but where the supervisor was killed first)
        if not _end_group(self.group):
            with _lock:
                _groups_left.append(self.group)
        # The supervisor closed its status pipe once the subtree was empty; its own exit (tearing
        # down its copy of our memory) need not delay the call: reap it now if it is done, else later.
        if not _reap(self.pid, block=not self.ended):
            with _lock:
                _unreaped.append(self.pid)
        self._finished = True


def spawn_supervised(
    argv,
    *,
    stdio,
    cwd=None,
    env=None,
    memory_bytes: int | None = None,
    state=None,
    limits=(),
    processes=None,
) -> Supervised:
    """Fork a supervisor that runs ``argv`` with ``stdio`` (three fds; the first may be None for
    /dev/null) as stdin/stdout/stderr, in a session of its own, under ``memory_bytes`` of RLIMIT_DATA.
    ``state``: the umask and limits the tool takes, as ``caller_state()`` read them (None: read now);
    a supervisor forked from this process takes this process's own, as a fork does.

    ``limits``: (resource, soft, hard) the tool runs under besides those (the sandbox's file size
    and process bounds); the supervisor sets them before it forks the tool. ``stdio`` may hold more
    than three fds: the tool gets the fourth as fd 3 and so on (the sandbox's seccomp filter).
    ``processes``: the bound on the call's processes (the sandbox's), set in a cgroup of the call's
    own where one can be made, which binds a root caller too (Linux's RLIMIT_NPROC does not).

    The caller closes its copies of the stdio fds it gave the child. Raises ``OSError`` only when
    the fork itself fails; an exec failure arrives as ``exec_errno`` on the status pipe.
    """
    global _spawns
    _prctl()  # load libc before forking, so the child never imports
    if _unreaped:
        _reap_finished()
    if _groups_left:
        _end_groups_left()
    if processes is not None and not _swept:
        _end_orphan_groups(_group_bases())  # (once a process; its forks inherit that it was done)
    if limits or processes is not None:
        umask, inherited = (caller_state() if state is None else state)[:2]
        chosen = {which: (which, soft, hard) for which, soft, hard in limits}
        state = (
            umask,
            tuple(chosen.pop(entry[0], entry) for entry in inherited) + tuple(chosen.values()),
            *(() if processes is None else (processes,)),
        )
    argv = list(argv)
    cwd = None if cwd is None else os.fspath(cwd)
    stdio = tuple(stdio)
    _spawns += 1
    helper = _usable_helper()
    if helper is not None:
        sup = _via_helper(helper, argv, stdio, cwd, env, memory_bytes, state)
        if sup is not None:
            return sup
    elif _helper is None and _spawns > _HELPER_AFTER:
        _start_helper()  # used from the next call on, once it says it is ready
    return _spawn_cold(
        argv, stdio, cwd, env, memory_bytes, state if limits or processes is not None else None
    )


def _spawn_cold(argv, stdio, cwd, env, memory_bytes, state=None) -> Supervised:
    ctl_r, ctl_w = os.pipe()
    st_r, st_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (ctl_r, ctl_w, st_r, st_w):
            os.close(fd)
        raise
    if pid == 0:
        _supervise(argv, env, cwd, stdio, ctl_r, st_w, memory_bytes, state)
    os.close(ctl_r)
    os.close(st_w)
    return Supervised(pid, ctl_w, st_r)
