"""Whose CPU a discovery spends: wrapgen's process, the containment around each probe, the tools.

``bench/discover_accuracy.py`` and ``bench/discover_speed.py`` account a crawl in three parts:

- **own**: wrapgen's own process (every thread): ``getrusage(RUSAGE_SELF)`` around ``discover()``.
- **containment**: what wrapgen starts to run a probe safely and is not the tool: the spawn helper
  (a small interpreter of its own), the supervisor forked per call, bubblewrap's set-up of the
  namespaces and mounts, and ``manpath``. ``discover()`` starts the helper itself before its first
  probe (``contain.prestart``: no probe then forks wrapgen's large process), and ``metered`` stops it
  after each crawl, so every row pays a whole helper boot (its interpreter's start and imports, in
  the containment; the ``posix_spawn`` and the socket, on wrapgen's side, in **own**), as a
  ``wrapgen discover`` process does once.
- **tools**: the tool's own processes, measured inside the sandbox by a *meter*: each probe's argv
  is prefixed with a tiny ``python3 -I -S`` program, a subreaper, that spawns the tool, waits for
  it, reaps what the tool left that has ended (an update check it started) and writes their CPU
  and its own to a file in the probe's scratch TMPDIR (a probe killed at its timeout writes
  nothing: its CPU lands in the containment, and the row says how many); the meter's own CPU is then taken out of the containment,
  with its residue (its exec and exit, which its getrusage cannot see: calibrated at start on
  meters around /bin/true).

The meter's bookkeeping in wrapgen's process (the argv it prefixes, the file it reads back and
removes, the realpath of the program) is the bench's, not wrapgen's: it is timed on the probe's
thread (``time.thread_time``, CPU of that thread alone) and taken out of **own** (``CrawlCpu.bench``
says how much; about 0.4 ms a probe).

Why a meter: since the spawn helper (``wrapgen/runtime/contain.py``), a tool is a grandchild of
the helper, not a child of wrapgen's process, so ``RUSAGE_CHILDREN`` of the caller counts nothing
until the helper exits; and a tool run by bubblewrap with its own PID namespace is reaped by
bubblewrap's init, whose CPU reaches the caller only through the supervisor (a subreaper). Before
the helper, ``RUSAGE_CHILDREN`` counted the supervisors (forks of wrapgen) and bubblewrap with the
tools, which made "the tools' CPU" larger than the tools' and the share smaller than it was.

Everything below this process is collected: it makes itself a child subreaper, and after each
crawl stops the spawn helper (``contain.stop_all``) and reaps every child left, so
``RUSAGE_CHILDREN`` then holds the helper, every supervisor, bwrap and the tools; containment is
that less the tools and the meters. Only benches do this; wrapgen itself is unchanged.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import resource
import sys
import threading
import time
from dataclasses import dataclass

__all__ = ["CrawlCpu", "metered", "warm_up", "residue"]


def residue() -> float:
    """The calibrated meter residue per probe, CPU seconds."""
    return _residue[0]


_PR_SET_CHILD_SUBREAPER = 36
# the interpreter the meter runs in: the real file, since a virtual environment's python (a link
# under a folder the probe sandbox does not show) cannot be started inside the sandbox
_INTERPRETER = os.path.realpath(sys.executable)

METER = r"""
import ctypes, os, resource, sys
out, argv = sys.argv[1], sys.argv[2:]
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # a subreaper: what the tool leaves behind comes back here
try:
    pid = os.posix_spawn(argv[0], argv, os.environ)
except OSError as error:
    sys.stderr.write(f"{argv[0]}: {error.strerror}\n")
    os._exit(127)
while True:
    try:
        _, status, _usage = os.wait4(pid, 0)
        break
    except InterruptedError:
        continue
while True:  # the tool's orphans that have ended (an update check, a pager): the tool's CPU too
    try:
        if os.waitpid(-1, os.WNOHANG)[0] == 0:
            break
    except ChildProcessError:
        break
tool = resource.getrusage(resource.RUSAGE_CHILDREN)
me = resource.getrusage(resource.RUSAGE_SELF)
with open(out, "w") as handle:
    handle.write(f"{tool.ru_utime + tool.ru_stime!r} {me.ru_utime + me.ru_stime!r}\n")
code = os.waitstatus_to_exitcode(status)
if code < 0:
    import signal
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code)
"""


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@dataclass
class CrawlCpu:
    """CPU seconds of one crawl, by whose it is."""

    own: float = 0.0
    containment: float = 0.0
    tools: float = 0.0
    meters: float = 0.0
    probes: int = 0
    other: int = 0  # processes spawned that are not the tool (manpath)
    unmetered: int = (
        0  # probes killed before their meter wrote (timeouts): their CPU is in the containment
    )
    bench: float = 0.0  # the meter's bookkeeping in wrapgen's process, taken out of ``own``

    @property
    def share(self) -> float | None:
        """own / tools: the issue's "discovery's own CPU against the tools'"."""
        return self.own / self.tools if self.tools else None

    @property
    def share_with_containment(self) -> float | None:
        return (self.own + self.containment) / self.tools if self.tools else None


class _Meter:
    """Wraps the probe's spawn functions so that every probe runs under the meter."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counter = itertools.count()
        self.tools = 0.0
        self.meters = 0.0
        self.probes = 0
        self.other = 0
        self.unmetered = 0
        self.tool_path = ""
        self.bench = 0.0  # CPU seconds of metered_spawn's own work (on the probes' threads)

    def wrap(self, spawn):
        def metered_spawn(argv, **options):
            started = time.thread_time()
            argv = list(argv)
            env = options.get("env") or {}
            scratch = env.get("TMPDIR") or options.get("cwd")
            if not scratch:
                return spawn(argv, **options)
            at = (
                argv.index("--") + 1 if "--" in argv and os.path.basename(argv[0]) == "bwrap" else 0
            )
            program = argv[at]
            out = os.path.join(scratch, f"wrapgen-meter-{next(self.counter)}")
            argv[at:at] = [_INTERPRETER, "-I", "-S", "-c", METER, out]
            before = time.thread_time() - started
            result = spawn(argv, **options)
            started = time.thread_time()
            try:
                with open(out, encoding="utf-8") as handle:
                    tool, meter = (float(word) for word in handle.read().split())
                os.unlink(out)
            except (OSError, ValueError):
                with (
                    self.lock
                ):  # killed before the meter wrote (a timeout): its CPU lands in the containment
                    self.unmetered += 1
                    self.bench += before + time.thread_time() - started
                return result
            mine = os.path.realpath(program) == self.tool_path
            with self.lock:
                self.meters += meter
                if mine:
                    self.tools += tool
                    self.probes += 1
                else:
                    self.other += 1  # manpath: its CPU stays in the containment, it is not the tool
                self.bench += before + time.thread_time() - started
            return result

        return metered_spawn


_residue = [0.0]  # CPU seconds of a meter that its own getrusage cannot see (its exec, its exit)


def _calibrate(rounds: int = 20) -> float:
    """The meter's CPU its own getrusage misses, per run: meters around /bin/true, spawned and reaped
    here, against what they report (tool + meter)."""
    import subprocess

    true = "/bin/true" if os.path.exists("/bin/true") else "/usr/bin/true"
    reported = 0.0
    before = _cpu(resource.RUSAGE_CHILDREN)
    with __import__("tempfile").TemporaryDirectory() as scratch:
        for i in range(rounds):
            out = os.path.join(scratch, f"m{i}")
            subprocess.run([_INTERPRETER, "-I", "-S", "-c", METER, out, true], check=True)
            with open(out, encoding="utf-8") as handle:
                reported += sum(float(word) for word in handle.read().split())
    return max(0.0, (_cpu(resource.RUSAGE_CHILDREN) - before - reported) / rounds)


def warm_up() -> float:
    """Import what a crawl imports lazily and ask for the sandbox once: the CPU seconds that costs,
    paid once per process (reported apart, like the parsers' import). Also measures the meter's
    residue (taken out of the containment with the meters' own CPU)."""
    _residue[0] = _calibrate()
    before = _cpu(resource.RUSAGE_SELF)
    import socket  # noqa: F401  (the spawn helper's, contain.py: imported when it first starts, 15-20 ms)

    import wrapgen.parse  # noqa: F401
    import wrapgen.parse.script  # noqa: F401
    import wrapgen.probe.cache  # noqa: F401
    import wrapgen.probe.crawl  # noqa: F401
    import wrapgen.probe.prober  # noqa: F401
    from wrapgen.probe.sandbox import sandbox_status

    sandbox_status()
    _parse_captured_pages()
    _reap_all()
    return _cpu(resource.RUSAGE_SELF) - before


_CAPTURED = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "help"
)


def _parse_captured_pages() -> None:
    """Parse the first captured page of each help style (tests/fixtures/help), as a tool named
    "warm-up", then empty the parsers' memos. What the parsers do once per process on first use
    (patterns compiled when first matched, knowledge tables read when first asked) is then paid here,
    like their imports, instead of by whichever row comes first (it made a row's own CPU depend on
    its place: mender-artifact 35 ms first, 30 ms after composer). The memos are emptied, so no row
    is parsed from lines a warm-up page held; and no pattern built from a tool's name is warmed."""
    from wrapgen.parse import parse_help

    if not os.path.isdir(_CAPTURED):
        return
    for style in sorted(os.listdir(_CAPTURED)):
        folder = os.path.join(_CAPTURED, style)
        pages = (
            sorted(name for name in os.listdir(folder) if name.endswith(".txt"))
            if os.path.isdir(folder)
            else []
        )
        if pages:
            with open(os.path.join(folder, pages[0]), encoding="utf-8", errors="replace") as handle:
                parse_help(handle.read(), prog=("warm-up",))
    _clear_parse_memos()


def _clear_parse_memos() -> None:
    """Empty every memo of the parsers and the crawl (``functools`` caches in wrapgen.parse and
    wrapgen.probe); knowledge tables (wrapgen.knowledge) stay loaded, as a process keeps them."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(("wrapgen.parse", "wrapgen.probe")) or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


def _subreaper(on: bool) -> None:
    """This process a child subreaper (during a crawl only: what the bench runs between crawls, such
    as npm's reference outside the sandbox, leaves processes that must not count as a crawl's)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1 if on else 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _reap_all(timeout_s: float = 10.0) -> None:
    """Reap every child (the helper, supervisors that came back to this subreaper), waiting at most
    ``timeout_s`` for the last ones to end."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if pid == 0:
            if time.monotonic() >= deadline:
                if timeout_s:
                    print(
                        "probe_cpu: a child outlived the crawl; its CPU is not counted",
                        file=sys.stderr,
                    )
                return
            time.sleep(0.005)


def metered(run, tool_path: str, *, trials: bool = False) -> tuple[object, CrawlCpu]:
    """``run()`` (a discovery) with its CPU accounted: (its result, CrawlCpu). With ``trials`` the
    trials' spawns (``wrapgen.probe.trial``) are metered too: ``run()`` is then a whole ``wrap``."""
    from wrapgen.probe import prober, trial
    from wrapgen.runtime import contain

    contain.stop_all()  # a spawn helper started before (an earlier, unmetered wrap's): its CPU is not this run's
    _reap_all(
        timeout_s=0 if not trials else 2.0
    )  # (what ended before the crawl is not the crawl's)
    _subreaper(True)
    meter = _Meter()
    meter.tool_path = os.path.realpath(tool_path)
    sites = [(prober, "run_process"), (prober, "run_in_pty")] + (
        [(trial, "run_process")] if trials else []
    )
    originals = [getattr(module, name) for module, name in sites]
    for (module, name), original in zip(sites, originals):
        setattr(module, name, meter.wrap(original))
    own, children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    try:
        result = run()
    finally:
        for (module, name), original in zip(sites, originals):
            setattr(module, name, original)
        own = _cpu(resource.RUSAGE_SELF) - own
        contain.stop_all()  # the spawn helper exits; its children come back to this subreaper
        _reap_all()
        _subreaper(False)
    spawned = _cpu(resource.RUSAGE_CHILDREN) - children
    meters = meter.meters + _residue[0] * (meter.probes + meter.other)
    cpu = CrawlCpu(
        own=own - meter.bench,
        bench=meter.bench,
        tools=meter.tools,
        meters=meters,
        probes=meter.probes,
        other=meter.other,
        unmetered=meter.unmetered,
        containment=max(0.0, spawned - meter.tools - meters),
    )
    return result, cpu
