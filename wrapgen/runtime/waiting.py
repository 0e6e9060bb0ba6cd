"""What a call's processes hold when its time is up, read from /proc.

A read verb still running at its trial's timeout is long-running (a server, a watcher, a stream)
or it is waiting on something the sandbox does not give: npm's ``search`` retries a registry it
cannot resolve for seventy seconds, printing nothing, holding no socket between its tries. What
the processes hold tells the two apart: a server holds a listening socket, a watcher an inotify
descriptor, a client of a daemon its connection, a tool at work the CPU (or its place in the run
queue, on a machine busy with others). A tree that holds none of these and mostly slept is waiting
on a timer; whether it waits to try the network again, its
network namespace's counters say (a sandbox's namespace starts at zero: packets sent with no route,
connections opened, datagrams sent). A client that tried the network and mostly slept waits on it
even while it holds the socket it tries with (a CLI's resolver between its retries): a trial's
namespace has no network to serve or stream from, and a tool that printed nothing was answering
nobody. Linux only; where /proc cannot be read the answer is None (nothing known), never a guess.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["TreeState", "tree_state", "children_by_parent"]

_WATCHES = ("anon_inode:inotify", "anon_inode:[fanotify]", "anon_inode:fanotify")


@dataclass(frozen=True)
class TreeState:
    """The descendants of a process: how many, the sockets and file watches they hold, the CPU they used."""

    processes: int
    sockets: int
    watches: int
    cpu_s: float
    # tries to reach the network counted in a namespace of their own (None: they share the caller's)
    net_attempts: int | None = None
    # the time they were ready to run but waited for a CPU (a busy machine's run queue): work, not sleep
    queued_s: float = 0.0

    def _waiting(self, wall_s: float) -> bool:
        """Alive, watching no file, and asleep for more than half of ``wall_s``: neither running
        nor waiting in the run queue for a CPU (a tool at work on a machine busy with others gets a
        fraction of a CPU, which alone would read as sleep)."""
        return self.processes > 0 and not self.watches and self.cpu_s + self.queued_s < wall_s / 2

    def sleeping(self, wall_s: float) -> bool:
        """Alive, holding no socket or watch, and asleep for more than half of ``wall_s``."""
        return self._waiting(wall_s) and not self.sockets

    def retrying_network(self, wall_s: float) -> bool:
        """Waiting (alive, watching no file, mostly asleep) after trying, in a network namespace of
        its own, to reach the network. Sockets may be held: a client waiting to try again holds the
        one it tries with (a resolver's UDP socket between its retries)."""
        return self._waiting(wall_s) and bool(self.net_attempts)


# (table, field) of /proc/PID/net/snmp that count a try to reach the network
_ATTEMPTS = (("Ip", "OutNoRoutes"), ("Tcp", "ActiveOpens"), ("Udp", "OutDatagrams"))


def _net_attempts(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/net/snmp") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    tables = {}
    for names, values in zip(lines[::2], lines[1::2]):
        table = names.split(":", 1)[0]
        tables[table] = dict(zip(names.split()[1:], values.split()[1:]))
    try:
        return sum(int(tables[table][name]) for table, name in _ATTEMPTS)
    except (KeyError, ValueError):
        return None


def _namespace(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/net")
    except OSError:
        return None


def children_by_parent() -> dict[int, list[int]]:
    """Every live process under its parent's pid, from one scan of /proc (OSError where there is none)."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue  # it ended while we looked
        fields = stat[
            stat.rfind(b")") + 2 :
        ].split()  # after "pid (comm) ": the comm may hold spaces
        if len(fields) > 1:
            tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def _cpu_s(pid: int, tick: float) -> float:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(b")") + 2 :].split()
    # utime, stime, and the same of its reaped children (fields 14-17 of proc(5))
    return sum(int(value) for value in fields[11:15]) * tick


def _queued_s(pid: int) -> float:
    """The seconds the threads of ``pid`` have waited in a run queue (the second field of each
    thread's /proc schedstat, in nanoseconds; 0.0 where the kernel keeps none)."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as handle:
                fields = handle.read().split()
            total += int(fields[1])
        except (OSError, IndexError, ValueError):
            continue  # it ended while we looked, or no schedstat here
    return total / 1e9


def _held(pid: int) -> tuple[int, int]:
    sockets = watches = 0
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0, 0
    for name in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if target.startswith("socket:"):
            sockets += 1
        elif target.startswith(_WATCHES):
            watches += 1
    return sockets, watches


def tree_state(root_pid: int) -> TreeState | None:
    """The state of ``root_pid``'s descendants (not of ``root_pid`` itself), or None where /proc cannot say."""
    try:
        tree = children_by_parent()
    except OSError:
        return None
    tick = 1.0 / os.sysconf("SC_CLK_TCK")
    found, todo = [], list(tree.get(root_pid, ()))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, ()))
    sockets = watches = 0
    cpu = queued = 0.0
    ours = _namespace(os.getpid())
    counted: dict[
        str, int
    ] = {}  # each namespace not ours -> its tries (the sandbox's processes share one: read once)
    for pid in found:
        held = _held(pid)
        sockets += held[0]
        watches += held[1]
        cpu += _cpu_s(pid, tick)
        queued += _queued_s(pid)
        space = _namespace(pid) if ours is not None else None
        if space is not None and space != ours and space not in counted:
            count = _net_attempts(pid)
            if count is not None:
                counted[space] = count
    return TreeState(
        processes=len(found),
        sockets=sockets,
        watches=watches,
        cpu_s=cpu,
        net_attempts=sum(counted.values()) if counted else None,
        queued_s=queued,
    )
