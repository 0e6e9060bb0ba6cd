"""Spawning a tool: the one spawn discipline shared by the runtime and the discovery probe.

No shell, the child in its own session (so its own process group), stdin empty unless given,
stdout and stderr read concurrently with ``selectors`` and never held beyond the cap, and the
whole process group killed with SIGKILL on a timeout, on the cap, and once the tool has exited
(so a background child it left behind dies too). The leader is reaped only after the group was
killed, so its pid (which is the group id) cannot be reused while we still signal it.

Standard library only.
"""

from __future__ import annotations

import errno
import os
import selectors
import signal
import subprocess
import time
from collections import namedtuple

__all__ = ["ProcessResult", "run_process", "run_in_pty", "DEFAULT_OUTPUT_CAP"]

DEFAULT_OUTPUT_CAP = 16 * 1024 * 1024
_CHUNK = 65536
# After the tool exits, how long a child it left behind may keep the pipes open before it is killed.
_LINGER_S = 0.25


_ProcessResultFields = namedtuple(
    "_ProcessResultFields",
    ["argv", "exit_code", "signal", "stdout", "stderr", "timed_out", "output_capped", "not_found", "cancelled"],
    defaults=(None, None, b"", b"", False, False, None, False),
)


# namedtuple rather than a dataclass: ``dataclasses`` imports ``inspect``, which every adapter call
# would pay for at start-up.
class ProcessResult(_ProcessResultFields):
    """What happened when a tool ran; ``not_found`` is set (and nothing ran) when it could not start.

    Fields: ``argv`` (tuple), ``exit_code`` (int | None), ``signal`` (int | None), ``stdout`` and
    ``stderr`` (bytes), ``timed_out``, ``output_capped``, ``not_found`` (the reason it could not
    start, or None), ``cancelled`` (the caller's cancel event was set; the group was killed).
    """

    __slots__ = ()

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not (self.timed_out or self.output_capped or self.not_found or self.cancelled)


def _spawn_failure(argv: list[str], error: OSError) -> ProcessResult:
    if isinstance(error, FileNotFoundError) or error.errno == errno.ENOENT:
        reason = "not found"
    elif isinstance(error, PermissionError) or error.errno in (errno.EACCES, errno.ENOEXEC):
        reason = "not executable"
    else:
        reason = error.strerror or str(error)
    return ProcessResult(argv=tuple(argv), not_found=reason)


def _precheck(argv, cwd) -> str | None:
    """A reason the spawn cannot happen, found before forking (so the message is exact)."""
    if not argv:
        return "empty command"
    if any("\0" in str(token) for token in argv):
        return "argument contains a NUL byte"
    if cwd is not None and not os.path.isdir(cwd):
        return f"working directory {cwd} does not exist"
    return None


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _ExitWatch:
    """Tells when the leader has exited without reaping it (pidfd on Linux, else waitid polling)."""

    def __init__(self, pid: int, selector: selectors.BaseSelector):
        self.pid = pid
        self.exited = False
        self.fd = None
        try:
            self.fd = os.pidfd_open(pid)
            selector.register(self.fd, selectors.EVENT_READ, "exit")
        except (AttributeError, OSError):
            self.fd = None

    def poll(self) -> bool:
        if not self.exited:
            try:
                info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                info = True
            self.exited = info is not None
        return self.exited

    def close(self, selector: selectors.BaseSelector) -> None:
        if self.fd is not None:
            try:
                selector.unregister(self.fd)
            except (KeyError, ValueError):
                pass
            os.close(self.fd)
            self.fd = None


def _pump(proc: subprocess.Popen, streams: dict, *, timeout_s: float, output_cap: int, stdin_data: bytes | None, cancel=None):
    """Read the named fds until EOF (or the deadline / cap / cancel); returns (buffers, timed_out, capped, cancelled)."""
    buffers = {name: bytearray() for name in streams.values()}
    total = 0
    timed_out = capped = cancelled = False
    deadline = time.monotonic() + max(0.0, float(timeout_s))
    selector = selectors.DefaultSelector()
    for fd, name in streams.items():
        selector.register(fd, selectors.EVENT_READ, name)
    stdin_fd = None
    if stdin_data is not None and proc.stdin is not None:
        stdin_fd = proc.stdin.fileno()
        os.set_blocking(stdin_fd, False)
        if stdin_data:
            selector.register(stdin_fd, selectors.EVENT_WRITE, "stdin")
        else:
            proc.stdin.close()
            stdin_fd = None
    watch = _ExitWatch(proc.pid, selector)
    open_reads = set(streams)
    pending = memoryview(stdin_data or b"")
    linger_until = None
    try:
        while open_reads or not watch.exited:
            now = time.monotonic()
            if watch.fd is None:
                watch.poll()
            if watch.exited and linger_until is None:
                linger_until = now + _LINGER_S
            if linger_until is not None and now >= linger_until:
                break  # whatever still holds the pipes is left over: _finish kills the group
            if now >= deadline:
                timed_out = True
                break
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            limit = min(deadline, linger_until or deadline) - now
            # without a pidfd (or with a cancel event to watch) the loop has to poll
            if watch.fd is not None and cancel is None:
                wait = limit
            else:
                # polling: soon when only the exit is awaited, otherwise now and then
                wait = min(limit, 0.005 if not open_reads else 0.05)
            for key, _ in selector.select(wait):
                tag = key.data
                if tag == "exit":
                    watch.exited = True
                    selector.unregister(key.fd)
                elif tag == "stdin":
                    try:
                        written = os.write(key.fd, pending[:_CHUNK])
                        pending = pending[written:]
                    except BlockingIOError:
                        continue
                    except (BrokenPipeError, OSError):
                        pending = pending[:0]
                    if not pending:
                        selector.unregister(key.fd)
                        proc.stdin.close()
                        stdin_fd = None
                else:
                    try:
                        data = os.read(key.fd, _CHUNK)
                    except OSError:  # EIO: a pty whose other end is gone
                        data = b""
                    if not data:
                        selector.unregister(key.fd)
                        open_reads.discard(key.fd)
                        continue
                    room = output_cap - total
                    if len(data) > room:
                        buffers[tag] += data[: max(room, 0)]
                        capped = True
                        break
                    buffers[tag] += data
                    total += len(data)
            if capped:
                break
    finally:
        watch.close(selector)
        selector.close()
        if stdin_fd is not None and proc.stdin is not None and not proc.stdin.closed:
            try:
                proc.stdin.close()
            except OSError:
                pass
    return buffers, timed_out, capped, cancelled


def _finish(proc: subprocess.Popen, argv, buffers, *, timed_out: bool, capped: bool, cancelled: bool = False, stdout="stdout", stderr="stderr"):
    # The leader is still unreaped here, so its pid (the group id) cannot have been reused.
    _kill_group(proc.pid)
    returncode = proc.wait()
    exit_code = returncode if returncode >= 0 else None
    sig = -returncode if returncode < 0 else None
    if timed_out or capped or cancelled:
        # The kill was ours; report the reason, not the signal.
        sig = None if sig == signal.SIGKILL else sig
    return ProcessResult(
        argv=tuple(argv),
        exit_code=exit_code,
        signal=sig,
        stdout=bytes(buffers.get(stdout, b"")),
        stderr=bytes(buffers.get(stderr, b"")),
        timed_out=timed_out,
        output_capped=capped,
        cancelled=cancelled,
    )


def _popen(argv, *, stdin, stdout, stderr, cwd, env) -> subprocess.Popen:
    """The one spawn: no shell, no inherited descriptors, a process group of its own to kill."""
    return subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env,
                            close_fds=True, start_new_session=True)


def _pump_or_kill(proc: subprocess.Popen, streams: dict, **pump_options) -> tuple:
    """``_pump``'s (buffers, timed_out, capped, cancelled); on any exception (Ctrl-C included) the
    group is killed and reaped before it propagates, so no tool outlives its caller."""
    try:
        return _pump(proc, streams, **pump_options)
    except BaseException:
        _kill_group(proc.pid)
        proc.wait()
        raise


def run_process(
    argv,
    *,
    timeout_s: float,
    output_cap: int = DEFAULT_OUTPUT_CAP,
    cwd=None,
    env=None,
    stdin: bytes | str | None = None,
    cancel=None,
) -> ProcessResult:
    """Run ``argv`` with no shell, in its own process group; never raises for a tool's behaviour.

    ``output_cap`` bounds stdout and stderr together; past it, or past ``timeout_s``, the whole
    process group is killed. ``stdin`` (bytes or str) is fed to the tool; by default it reads /dev/null.
    ``cancel`` (anything with ``is_set()``, e.g. a ``threading.Event``) kills the group once set.
    """
    argv = [os.fspath(token) if not isinstance(token, str) else token for token in argv]
    reason = _precheck(argv, cwd)
    if reason is not None:
        return ProcessResult(argv=tuple(argv), not_found=reason)
    stdin_data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    try:
        proc = _popen(argv, stdin=subprocess.DEVNULL if stdin_data is None else subprocess.PIPE,
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)
    except OSError as error:
        return _spawn_failure(argv, error)
    try:
        streams = {proc.stdout.fileno(): "stdout", proc.stderr.fileno(): "stderr"}
        buffers, timed_out, capped, cancelled = _pump_or_kill(
            proc, streams, timeout_s=timeout_s, output_cap=output_cap, stdin_data=stdin_data, cancel=cancel)
    finally:
        proc.stdout.close()
        proc.stderr.close()
    return _finish(proc, argv, buffers, timed_out=timed_out, capped=capped, cancelled=cancelled)


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
) -> ProcessResult:
    """Like ``run_process``, but stdin/stdout/stderr are a pseudo-terminal (for tools that print
    help only to a terminal). Everything the tool wrote is in ``stdout``; ``stderr`` is empty."""
    argv = [os.fspath(token) if not isinstance(token, str) else token for token in argv]
    reason = _precheck(argv, cwd)
    if reason is not None:
        return ProcessResult(argv=tuple(argv), not_found=reason)
    master, slave = os.openpty()
    try:
        try:
            _raw_tty(slave, rows=rows, columns=columns)
        except OSError:
            pass
        try:
            proc = _popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env)
        except OSError as error:
            return _spawn_failure(argv, error)
        finally:
            os.close(slave)
        buffers, timed_out, capped, cancelled = _pump_or_kill(
            proc, {master: "stdout"}, timeout_s=timeout_s, output_cap=output_cap, stdin_data=None, cancel=cancel)
    finally:
        os.close(master)
    return _finish(proc, argv, buffers, timed_out=timed_out, capped=capped, cancelled=cancelled)
