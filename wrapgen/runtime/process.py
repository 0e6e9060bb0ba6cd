"""Spawning a tool: the one spawn discipline shared by the runtime and the discovery probe.

No shell, the child in its own session (so its own process group), stdin empty unless given,
stdout and stderr read concurrently with ``select.poll`` and never held beyond the cap. Every spawn
is contained (``contain``): a per-call supervisor that is a child subreaper runs the tool, kills
every process the tool left behind once it exits (a child that called ``setsid()`` included), and
sweeps the whole subtree on a timeout, on the cap, on a cancel and when its caller dies (even by
SIGKILL). ``memory_mb`` bounds the tool's heap (RLIMIT_DATA, see ``contain`` for why not RLIMIT_AS).

Standard library only.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import select
import time

try:  # the C module: ``signal`` (and ``selectors``) cost every adapter call's start-up a millisecond each
    import _signal as signal
except ImportError:  # pragma: no cover - another Python
    import signal
from collections import namedtuple

from wrapgen.runtime.contain import spawn_supervised

__all__ = ["ProcessResult", "run_process", "run_in_pty", "DEFAULT_OUTPUT_CAP"]

DEFAULT_OUTPUT_CAP = 16 * 1024 * 1024
_CHUNK = 65536
# After the supervisor is done (so every process of the call is gone), how long the pipes may still
# hold data before reading stops; only something that escaped containment could keep them open.
_LINGER_S = 0.25
# A tool that prints in many small writes (urfave/cli: one per piece of its help template, twenty in
# half a millisecond) wakes the reader once per write. A caller that prefers fewer wake-ups to the
# quickest return (discovery's probes) passes ``gather_s``: once two reads in a row found less than a
# chunk waiting, the loop lets that long pass before it polls again, so one read takes a whole burst.
# Never after a full chunk (the tool writes faster than it is read: it would block on a full pipe);
# the pipes bound what waits meanwhile (64 KiB each), and the deadline and a cancel still bound the wait.
_GATHER_AFTER = 2
# What tools print when an allocation fails (glibc, Go, Python, C++, the JVM, V8, Rust)
_OUT_OF_MEMORY = (
    rb"cannot allocate memory|out of memory|memory allocation (?:of \d+ bytes )?failed|MemoryError"
    rb"|bad_alloc|memory exhausted|failed to reserve|OutOfMemoryError|allocation failed|ENOMEM"
)
_out_of_memory_re = None  # compiled on first use (a failed call), not at every adapter's start-up


_ProcessResultFields = namedtuple(
    "_ProcessResultFields",
    [
        "argv",
        "exit_code",
        "signal",
        "stdout",
        "stderr",
        "timed_out",
        "output_capped",
        "not_found",
        "cancelled",
        "memory_exceeded",
        "cpu_s",
    ],
    defaults=(None, None, b"", b"", False, False, None, False, False, None),
)


# namedtuple rather than a dataclass: ``dataclasses`` imports ``inspect``, which every adapter call
# would pay for at start-up.
class ProcessResult(_ProcessResultFields):
    """What happened when a tool ran; ``not_found`` is set (and nothing ran) when it could not start.

    Fields: ``argv`` (tuple), ``exit_code`` (int | None), ``signal`` (int | None), ``stdout`` and
    ``stderr`` (bytes), ``timed_out``, ``output_capped``, ``not_found`` (the reason it could not
    start, or None), ``cancelled`` (the caller's cancel event was set; the group was killed),
    ``memory_exceeded`` (the tool failed on its memory limit), ``cpu_s`` (the CPU seconds the tool
    and the processes it waited for took, None where not known).
    """

    __slots__ = ()

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not (
            self.timed_out or self.output_capped or self.not_found or self.cancelled
        )


def _spawn_failure(argv: list[str], error: OSError) -> ProcessResult:
    if isinstance(error, FileNotFoundError) or error.errno in (errno.ENOENT, errno.ENOTDIR):
        reason = "not found"
    elif isinstance(error, PermissionError) or error.errno in (errno.EACCES, errno.ENOEXEC):
        reason = "not executable"
    else:
        reason = error.strerror or str(error)
    return ProcessResult(argv=tuple(argv), not_found=reason)


def _has_nul(argv) -> bool:
    """Whether a token of ``argv`` holds a NUL character (as ``"\0" in str(token)`` for each)."""
    try:  # the usual argv, all str: one join and one search instead of a generator over ~45 tokens
        return "\0" in "".join(argv)
    except TypeError:  # (a bytes token: its str() is its repr, which never holds a NUL)
        return any("\0" in str(token) for token in argv)


def _precheck(argv) -> str | None:
    """A reason the spawn cannot happen, found before forking (so the message is exact). A working
    directory that does not exist is found after: the tool's chdir fails, and ``_finish`` says why
    (a stat of it before every call cost more than the rest of the check)."""
    if not argv:
        return "empty command"
    if _has_nul(argv):
        return "argument contains a NUL byte"
    return None


def _pump(
    sup,
    streams: dict,
    *,
    timeout_s: float,
    output_cap: int,
    stdin_fd,
    stdin_data: bytes | None,
    cancel=None,
    gather_s: float = 0.0,
):
    """Read the named fds and the supervisor's status until both end (or the deadline / cap / cancel);
    returns (buffers, timed_out, capped, cancelled). ``gather_s``: see ``_GATHER_AFTER``.

    (Each pass of the loop runs after a wake-up, with the caches cold: it is kept to plain
    comparisons of fds and a few locals.)"""
    buffers = {
        fd: [] for fd in streams
    }  # the chunks read (joined at the end: one copy, none for a single chunk)
    total = 0
    timed_out = capped = cancelled = False
    deadline = time.monotonic() + max(0.0, float(timeout_s))
    poller = select.poll()
    for fd in streams:
        poller.register(fd, select.POLLIN)
    status_fd = sup.status_fd
    poller.register(status_fd, select.POLLIN)
    if stdin_fd is not None:
        os.set_blocking(stdin_fd, False)
        if stdin_data:
            poller.register(stdin_fd, select.POLLOUT)
        else:
            os.close(stdin_fd)
            stdin_fd = None
    open_reads = set(streams)
    pending = memoryview(stdin_data or b"")
    linger_until = None
    end = deadline  # the deadline, or the linger's end once the supervisor has ended (if sooner)
    short_reads = 0  # reads in a row that emptied their pipe (less than a chunk)
    gather = False
    read, poll, monotonic = os.read, poller.poll, time.monotonic
    try:
        while open_reads or not sup.ended:
            now = monotonic()
            if linger_until is None and sup.ended:
                linger_until = now + _LINGER_S
                end = min(deadline, linger_until)
            if now >= end:
                timed_out = linger_until is None or now < linger_until
                break
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            wait = end - now
            if cancel is not None and wait > 0.05:
                wait = 0.05
            for fd, _events in poll(wait * 1000):
                if fd in open_reads:
                    try:
                        data = read(fd, _CHUNK)
                    except OSError:  # EIO: a pty whose other end is gone
                        data = b""
                    if not data:
                        poller.unregister(fd)
                        open_reads.discard(fd)
                        continue
                    room = output_cap - total
                    if len(data) > room:
                        buffers[fd].append(data[: max(room, 0)])
                        capped = True
                        break
                    buffers[fd].append(data)
                    total += len(data)
                    short_reads = short_reads + 1 if len(data) < _CHUNK else 0
                    gather = short_reads >= _GATHER_AFTER and gather_s > 0
                elif fd == status_fd:
                    data = read(fd, 4096)
                    sup.feed(data)
                    if not data:
                        poller.unregister(fd)
                elif fd == stdin_fd:
                    try:
                        written = os.write(fd, pending[:_CHUNK])
                        pending = pending[written:]
                    except BlockingIOError:
                        continue
                    except OSError:  # the tool closed its stdin
                        pending = pending[:0]
                    if not pending:
                        poller.unregister(fd)
                        os.close(stdin_fd)
                        stdin_fd = None
            if capped:
                break
            if gather:
                gather = False
                time.sleep(min(gather_s, wait))
    finally:
        if stdin_fd is not None:
            os.close(stdin_fd)
    return (
        {name: b"".join(buffers[fd]) for fd, name in streams.items()},
        timed_out,
        capped,
        cancelled,
    )


def _memory_exceeded(sup, memory_mb, output: bytes) -> bool:
    """Did a failed tool fail on its memory limit? Its own words for a failed allocation, or a
    crash with a peak resident size of at least half the limit (Linux reports no rlimit hits)."""
    if not memory_mb or (sup.exit_code == 0 and sup.signal is None):
        return False
    global _out_of_memory_re
    if _out_of_memory_re is None:
        _out_of_memory_re = re.compile(_OUT_OF_MEMORY, re.IGNORECASE)
    if _out_of_memory_re.search(output[-8192:]):
        return True
    return sup.signal is not None and sup.max_rss_kb * 1024 >= memory_mb * (1 << 20) // 2


def _finish(
    sup,
    argv,
    buffers,
    *,
    timed_out: bool,
    capped: bool,
    cancelled: bool = False,
    memory_mb=None,
    stdout="stdout",
    stderr="stderr",
    cwd=None,
):
    sup.finish()  # the sweep: nothing of this call is left once it returns
    if sup.exec_errno is not None:
        if cwd is not None and not os.path.isdir(cwd):  # (the chdir before the exec failed)
            return ProcessResult(
                argv=tuple(argv), not_found=f"working directory {cwd} does not exist"
            )
        return _spawn_failure(argv, OSError(sup.exec_errno, os.strerror(sup.exec_errno)))
    exit_code, sig = sup.exit_code, sup.signal
    if exit_code is None and sig is None:  # the supervisor itself was killed
        sig = signal.SIGKILL
    if timed_out or capped or cancelled:
        # The kill was ours; report the reason, not the signal.
        sig = None if sig == signal.SIGKILL else sig
    out, err = bytes(buffers.get(stdout, b"")), bytes(buffers.get(stderr, b""))
    return ProcessResult(
        argv=tuple(argv),
        exit_code=exit_code,
        signal=sig,
        stdout=out,
        stderr=err,
        timed_out=timed_out,
        output_capped=capped,
        cancelled=cancelled,
        memory_exceeded=not (timed_out or capped or cancelled)
        and _memory_exceeded(sup, memory_mb, err or out),
        cpu_s=sup.cpu_s,
    )


def _pump_or_kill(sup, streams: dict, **pump_options) -> tuple:
    """``_pump``'s (buffers, timed_out, capped, cancelled); on any exception (Ctrl-C included) the
    call's processes are swept before it propagates, so no tool outlives its caller."""
    try:
        return _pump(sup, streams, **pump_options)
    except BaseException:
        sup.finish()
        raise


def _memory_bytes(memory_mb) -> int | None:
    return int(memory_mb) << 20 if memory_mb else None


def run_process(
    argv,
    *,
    timeout_s: float,
    output_cap: int = DEFAULT_OUTPUT_CAP,
    cwd=None,
    env=None,
    stdin: bytes | str | None = None,
    cancel=None,
    memory_mb: int | None = None,
    gather_s: float = 0.0,
    in_memory: bool = False,
    caller_state=None,
    on_timeout=None,
    limits=(),
    pass_fds=(),
    processes=None,
) -> ProcessResult:
    """Run ``argv`` with no shell, contained, in its own process group; never raises for a tool's behaviour.

    ``output_cap`` bounds stdout and stderr together; past it, or past ``timeout_s``, every process
    of the call is killed. ``stdin`` (bytes or str) is fed to the tool; by default it reads /dev/null.
    ``cancel`` (anything with ``is_set()``, e.g. a ``threading.Event``) kills the call once set.
    ``memory_mb`` limits the tool's heap (RLIMIT_DATA); None for no limit. ``gather_s`` (0: never) lets
    a tool that prints in many small writes be read in fewer wake-ups (``_GATHER_AFTER``).
    ``in_memory``: the output goes to in-memory files read at the end (``_run_in_memory``), for a
    call without ``stdin`` or ``cancel`` (with either, or where Linux has no memfd, pipes as usual).
    ``caller_state``: the umask and limits the tool takes, read once by a caller that spawns many
    times (``contain.caller_state()``; None: read for this call).
    ``on_timeout(pid)``, where the call reaches ``timeout_s``, is called with the supervisor's pid
    before its processes are killed, so a caller can look at what they hold (``runtime/waiting.py``);
    with pipes only (not ``in_memory``). ``limits``: (resource, soft, hard) the tool runs under
    besides ``memory_mb`` (the sandbox's bounds; pipes only). ``pass_fds``: fds the tool gets as 3, 4,
    ... (pipes only; the caller keeps and closes them). ``processes``: the bound on the call's
    processes, in a cgroup of its own where one can be made (``contain.spawn_supervised``; pipes
    only).
    """
    argv = list(map(os.fspath, argv))  # (a str is its own fspath)
    reason = _precheck(argv)
    if reason is not None:
        return ProcessResult(argv=tuple(argv), not_found=reason)
    if (
        in_memory
        and stdin is None
        and cancel is None
        and _MEMFD
        and not limits
        and not pass_fds
        and processes is None
    ):
        return _run_in_memory(
            argv,
            timeout_s=timeout_s,
            output_cap=output_cap,
            cwd=cwd,
            env=env,
            memory_mb=memory_mb,
            state=caller_state,
        )
    stdin_data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    in_r, in_w = os.pipe() if stdin_data is not None else (None, None)
    try:
        sup = spawn_supervised(
            argv,
            stdio=(in_r, out_w, err_w, *pass_fds),
            cwd=cwd,
            env=env,
            memory_bytes=_memory_bytes(memory_mb),
            state=caller_state,
            limits=limits,
            processes=processes,
        )
    except OSError as error:
        for fd in (out_r, err_r, in_w):
            if fd is not None:
                os.close(fd)
        return _spawn_failure(argv, error)
    finally:
        for fd in (out_w, err_w, in_r):
            if fd is not None:
                os.close(fd)
    try:
        buffers, timed_out, capped, cancelled = _pump_or_kill(
            sup,
            {out_r: "stdout", err_r: "stderr"},
            timeout_s=timeout_s,
            output_cap=output_cap,
            stdin_fd=in_w,
            stdin_data=stdin_data,
            cancel=cancel,
            gather_s=gather_s,
        )
        if timed_out and on_timeout is not None and sup.pid is not None:
            try:
                on_timeout(sup.pid)
            except BaseException:
                sup.finish()  # the observer's failure is its own; the call's processes still go
                raise
    finally:
        os.close(out_r)
        os.close(err_r)
    return _finish(
        sup,
        argv,
        buffers,
        timed_out=timed_out,
        capped=capped,
        cancelled=cancelled,
        memory_mb=memory_mb,
        cwd=cwd,
    )


_MEMFD = hasattr(os, "memfd_create") and hasattr(fcntl, "F_ADD_SEALS")
_SEALS = (
    getattr(fcntl, "F_SEAL_GROW", 0)
    | getattr(fcntl, "F_SEAL_SHRINK", 0)
    | getattr(fcntl, "F_SEAL_SEAL", 0)
)
# How far past the cap an in-memory file reaches. A write that would cross its end fails whole
# (a sealed file takes no partial write), so the room past the cap is what lets a tool's last writes
# land and show that the call went over: a tool printing in pieces of up to this much is reported
# capped; one that writes more in a single call sees that write fail (EPERM), and says so itself.
_CAP_ROOM = 1 << 20


def _capped_file(name: str, size: int) -> int:
    """An in-memory file of ``size`` bytes that can never grow or shrink: a write past its end fails.
    Its pages take memory only once written."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        os.ftruncate(fd, size)
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, _SEALS)
    except OSError:
        os.close(fd)
        raise
    return fd


def _written(fd: int, size: int) -> bytes:
    """What the tool wrote to ``fd``: from its start to where the tool's writes left the offset,
    which the tool's copies of the fd share with ours."""
    end = min(os.lseek(fd, 0, os.SEEK_CUR), size)
    return os.pread(fd, end, 0) if end > 0 else b""


def _run_in_memory(argv, *, timeout_s, output_cap, cwd, env, memory_mb, state) -> ProcessResult:
    """``run_process`` for a caller that needs no output before the call ends (discovery's probes):
    stdout and stderr are in-memory files the kernel writes into, read once the call is over, so
    nothing wakes this process while the tool prints (a pipe wakes its reader once per write: twenty
    times for one help page of urfave/cli). Each file ends ``_CAP_ROOM`` past ``output_cap``, sealed:
    what lies past the cap is dropped and the call reported capped.

    Unlike a pipe, the file cannot be opened again by name with truncation (``echo x > /dev/stdout``
    fails): the prober uses this only for programs that are no shell scripts."""
    cap = max(1, int(output_cap))
    size = cap + _CAP_ROOM
    fds: list[int] = []
    try:
        try:
            fds.append(_capped_file("wrapgen-stdout", size))
            fds.append(_capped_file("wrapgen-stderr", size))
            sup = spawn_supervised(
                argv,
                stdio=(None, *fds),
                cwd=cwd,
                env=env,
                memory_bytes=_memory_bytes(memory_mb),
                state=state,
            )
        except OSError as error:
            return _spawn_failure(argv, error)
        try:
            timed_out = _await_end(sup, timeout_s)
        finally:
            sup.finish()  # (the sweep: no process of the call is left to write to the files)
        out, err = _written(fds[0], size), _written(fds[1], size)
    finally:
        for fd in fds:
            os.close(fd)
    capped = len(out) + len(err) > cap
    if capped:
        out = out[:cap]
        err = err[: cap - len(out)]
    return _finish(
        sup,
        argv,
        {"stdout": out, "stderr": err},
        timed_out=timed_out and not capped,
        capped=capped,
        memory_mb=memory_mb,
        cwd=cwd,
    )


def _await_end(sup, timeout_s: float) -> bool:
    """Wait until the supervisor has closed its status pipe (the call's subtree is empty), then read
    its records; True when ``timeout_s`` passed first (``finish`` then reads what was sent so far).

    The pipe is polled for no event at all: poll still reports the hang-up when its last writer
    closes, but not each record written before it, so a probe wakes this process once, not three
    times (``S``/``P`` when the tool starts, ``X`` when it ends, then the end of file). The records
    wait in the pipe meanwhile; the supervisor's pid among them is needed only to kill a supervisor
    that stopped answering, which ``finish`` reads first."""
    deadline = time.monotonic() + max(0.0, float(timeout_s))
    poller = select.poll()
    poller.register(sup.status_fd, 0)
    while True:
        wait = deadline - time.monotonic()
        if wait <= 0:
            return True
        if poller.poll(wait * 1000):
            break
    sup.read_rest()  # (no writer is left: nothing blocks)
    return False


def _raw_tty(fd: int, *, rows: int, columns: int) -> None:
    """No CR/LF translation on output (so text reads as from a pipe), and a fixed window size."""
    import fcntl
    import struct
    import termios

    attrs = termios.tcgetattr(fd)
    attrs[1] &= ~termios.ONLCR  # oflag
    termios.tcsetattr(fd, termios.TCSANOW, attrs)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def run_in_pty(
    argv,
    *,
    timeout_s: float,
    output_cap: int = DEFAULT_OUTPUT_CAP,
    cwd=None,
    env=None,
    rows: int = 50,
    columns: int = 100,
    cancel=None,
    memory_mb: int | None = None,
    gather_s: float = 0.0,
    in_memory: bool = False,
    caller_state=None,
) -> ProcessResult:
    """Like ``run_process``, but stdin/stdout/stderr are a pseudo-terminal (for tools that print
    help only to a terminal). Everything the tool wrote is in ``stdout``; ``stderr`` is empty."""
    argv = list(map(os.fspath, argv))  # (a str is its own fspath)
    reason = _precheck(argv)
    if reason is not None:
        return ProcessResult(argv=tuple(argv), not_found=reason)
    master, slave = os.openpty()
    try:
        try:
            _raw_tty(slave, rows=rows, columns=columns)
        except OSError:
            pass
        try:
            sup = spawn_supervised(
                argv,
                stdio=(slave, slave, slave),
                cwd=cwd,
                env=env,
                memory_bytes=_memory_bytes(memory_mb),
                state=caller_state,
            )
        except OSError as error:
            return _spawn_failure(argv, error)
        finally:
            os.close(slave)
        buffers, timed_out, capped, cancelled = _pump_or_kill(
            sup,
            {master: "stdout"},
            timeout_s=timeout_s,
            output_cap=output_cap,
            stdin_fd=None,
            stdin_data=None,
            cancel=cancel,
            gather_s=gather_s,
        )
    finally:
        os.close(master)
    return _finish(
        sup,
        argv,
        buffers,
        timed_out=timed_out,
        capped=capped,
        cancelled=cancelled,
        memory_mb=memory_mb,
        cwd=cwd,
    )
