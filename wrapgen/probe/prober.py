"""The probe: the only place discovery runs the tool.

Every call goes through the runtime's spawn discipline (``run_process`` / ``run_in_pty``: no shell,
own process group, the group killed on timeout or output cap), with stdin closed, a fixed locale,
width and pager environment, and fresh scratch directories (working directory, HOME, TMPDIR) that
are removed afterwards, so a tool that "runs its action" when asked for help writes nowhere that
matters. The environment is an allowlist (PATH, TZ, USER, LOGNAME, where a toolchain installed
under HOME lives, and the fixed settings): never the real HOME, never the caller's tokens.

Where bubblewrap runs, every probe runs in the sandbox of ``sandbox.py`` (read-only file system but
for the scratch directories, no network, own PID namespace); where it cannot, ``sandbox_note`` says
why and the probes run with the scratch HOME only. A ``deadline_s`` bounds the whole discovery:
past it no probe starts, and one cut short by it is ``expired``.

A probe that times out is run once more, with a bound scaled by how long the tool's answered
probes took (``Prober.retry_timeout_s``), before it is given up: a busy machine slows every probe of
a tool alike, so what the answered ones took says how long a slow one may need, and discovery reads
the same tree on a busy machine as on a quiet one. A probe that hangs costs its two bounds.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from wrapgen.errors import ToolNotFoundError
from wrapgen.knowledge.phrases import not_a_version
from wrapgen.knowledge.secrets import withhold
from wrapgen.knowledge.tools import probe_settings
from wrapgen.model.toolref import ToolRef
from wrapgen.probe.install import program_paths
from wrapgen.probe.sandbox import (
    HOME_TMPFS_BYTES,
    SYSTEM_DIRS,
    Scratch,
    bwrap_argv,
    sandbox_status,
)
from wrapgen.runtime.contain import caller_state
from wrapgen.runtime.install import TOOLCHAIN_HOMES, TOOLCHAIN_PARTS
from wrapgen.runtime.process import ProcessResult, run_in_pty, run_process

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "DEFAULT_OUTPUT_CAP",
    "PROBE_ENV",
    "PASS_ENV",
    "TOOLCHAIN_HOMES",
    "ProbeResult",
    "Prober",
    "resolve_tool",
    "toolchain_paths",
    "probe_env",
    "clean_text",
]

DEFAULT_TIMEOUT_S = 5.0
# A timed-out probe's second bound: RETRY_FACTOR times the slowest probe of the tool that answered,
# at least the first bound again, at most RETRY_MAX_S (and never past discovery's deadline). Before
# any probe answered (a root help that misses its bound on a busy machine) there is nothing to
# scale: RETRY_UNKNOWN times the first bound.
RETRY_FACTOR = 4.0
RETRY_UNKNOWN = 2.0
RETRY_MAX_S = 120.0
DEFAULT_OUTPUT_CAP = 2 * 1024 * 1024
COLUMNS = 100
# urfave/cli and kingpin print their help a piece at a time (twenty writes in half a millisecond):
# the probe reads such a burst in one wake-up rather than one per write (run_process's gather_s), at
# the cost of up to this much later a return for a tool that writes so.
_GATHER_S = 0.001

# Fixed so that the same tool prints the same help every run, in plain text, without a pager.
PROBE_ENV = {
    "PAGER": "cat",
    "MANPAGER": "cat",
    "TERM": "dumb",
    "NO_COLOR": "1",
    "LC_ALL": "C.UTF-8",
    "LANG": "C.UTF-8",
    "LANGUAGE": "",
    "COLUMNS": str(COLUMNS),
    "LINES": "50",
    "MANWIDTH": str(COLUMNS),
    "MAN_KEEP_FORMATTING": "",
    "CLICOLOR": "0",
    # and what particular tools read to the same end (no pager, prompt, sleep or update check):
    # knowledge/data/tools.json, table probe_env, each with its reason
    **probe_settings(),
}

# What a probe keeps of the caller's environment: the rest (tokens, GIT_* and proxy settings, the
# real HOME) never reaches a tool that is only being read.
PASS_ENV = ("PATH", "TZ", "USER", "LOGNAME")

# Toolchains installed under HOME find themselves through HOME (a rustup proxy, pyenv, nvm): with a
# scratch HOME they are pointed at their real directory, read-only in the sandbox. One table, the
# runtime's (wrapgen.runtime.install, imported above): a call's sandbox binds the same.

_ANSI = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]      # CSI: colours, cursor moves
  | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)  # OSC: titles, hyperlinks
  | \x1b[@-Z\\-_]                # other two-byte escapes
    """,
    re.VERBOSE,
)
_OVERSTRIKE = re.compile(r".\x08")  # nroff bold/underline: "X\bX", "_\bX"
_MAN_SECTIONS = ("1", "8", "6")  # user commands, administration, games


@dataclass(frozen=True)
class ProbeResult:
    """What one probe call gave: the text read (ANSI stripped) or, when unusable, why not."""

    args: tuple[str, ...]  # argv after the bin: ("pr", "list", "--help")
    text: str = ""
    exit_code: int | None = None
    problem: str = ""  # "" when text is usable; else words a person can act on
    via_pty: bool = False
    timed_out: bool = False
    expired: bool = False  # not run, or cut short, because discovery's deadline passed

    @property
    def usable(self) -> bool:
        return not self.problem and bool(self.text.strip())


def toolchain_paths(env: dict) -> tuple[str, ...]:
    """The toolchain homes ``env`` names (``probe_env`` passes them), as the sandbox binds them back."""
    out = []
    for name, _ in TOOLCHAIN_HOMES:
        home = env.get(name)
        if home and os.path.isabs(home) and os.path.isdir(home):
            parts = TOOLCHAIN_PARTS.get(name)
            out += [os.path.join(home, p) for p in parts] if parts else [home]
    return tuple(p for p in out if os.path.exists(p))


def _toolchain_homes(environ) -> dict:
    home = environ.get("HOME", "")
    out = {}
    for name, folder in TOOLCHAIN_HOMES:
        if environ.get(name):
            out[name] = environ[name]
        elif home and os.path.isdir(os.path.join(home, folder)):
            out[name] = os.path.join(home, folder)
    return out


def probe_env(base: dict | None = None) -> dict:
    """The probe's environment with the fixed probe variables set.

    Without ``base``: the allowlist of the caller's environment (``PASS_ENV`` and the toolchain
    homes), no HOME (the Prober sets a scratch one). A ``base`` given by the caller is taken as it
    is (tests pass their own variables); the Prober still replaces its HOME and TMPDIR.
    """
    if base is None:
        # WRAPGEN_PROBE_PASS_ENV: names an operator adds (a tool that needs JAVA_HOME to print help)
        extra = os.environ.get("WRAPGEN_PROBE_PASS_ENV", "").replace(",", " ").split()
        env = {name: os.environ[name] for name in (*PASS_ENV, *extra) if name in os.environ}
        env.update(_toolchain_homes(os.environ))
    else:
        env = dict(base)
    env.update(PROBE_ENV)
    for noisy in ("CLICOLOR_FORCE", "FORCE_COLOR", "LESS", "MANOPT"):
        env.pop(noisy, None)
    return env


def resolve_tool(tool: str, *, search_paths: tuple[str, ...] = ()) -> ToolRef:
    """``tool`` (a name, looked for in ``search_paths`` and then on PATH, or a path) resolved once;
    ToolNotFoundError otherwise. The one place wrapgen looks a tool up on PATH."""
    if not tool or "\0" in tool:
        raise ToolNotFoundError("no tool given", hint="pass a program name, or a path")
    if os.sep in tool or (os.altsep and os.altsep in tool):
        path = Path(tool).expanduser()
        if not path.exists():
            raise ToolNotFoundError(
                f"{tool}: no such file", hint="check the path, or give a name found on PATH"
            )
        if path.is_dir():
            raise ToolNotFoundError(f"{tool} is a directory", hint="give the program inside it")
        if not os.access(path, os.X_OK):
            raise ToolNotFoundError(
                f"{tool} is not executable", hint=f"run `chmod +x {tool}` if it is a program"
            )
        return ToolRef(tool, str(path.resolve()), os.path.abspath(path))
    for directory in search_paths:
        candidate = Path(directory, tool)
        if candidate.is_file() and os.access(candidate, os.X_OK):
            path = os.path.abspath(candidate)
            return ToolRef(tool, path, tool if _on_path(tool) == path else path)
    found = _on_path(tool)
    if found is None:
        raise ToolNotFoundError(
            f"{tool}: not found on PATH",
            hint=f"install {tool}, add its directory to PATH, or give its path (./{tool})",
        )
    return ToolRef(tool, found, tool)


def _on_path(name: str) -> str | None:
    found = shutil.which(name)
    return None if found is None else os.path.abspath(found)


# Control characters other than tab and newline, and the replacement character of undecodable bytes.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\ufffd]")


def clean_text(data: bytes) -> tuple[str, str]:
    """(text, problem): bytes decoded as UTF-8, ANSI and overstrikes removed; binary is a problem."""
    if not data:
        return "", ""
    sample = data[:65536]
    if sample.count(b"\0") > 0:
        return "", "printed binary data, not help text"
    text = data.decode("utf-8", errors="replace")
    # (each pattern needs its character: a text without it is left as it is, unscanned; the
    # overstrike's "." would be tried at every position of a 160 KB JSON listing)
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\x08" in text:
        text = _OVERSTRIKE.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    controls = len(_CONTROLS.findall(text, 0, 65536))
    if controls > max(8, len(text[:65536]) // 50):
        return "", "printed binary data, not help text"
    return text, ""


class Prober:
    """Runs one tool's help probes in scratch directories (and the sandbox); a context manager.

    Thread-safe: the crawl calls ``run`` from many threads. ``calls`` counts every process spawned,
    so tests can assert a cached discovery spawned none. ``sandbox``: None uses bubblewrap where
    it runs (unless ``WRAPGEN_SANDBOX=off``), False never does. ``deadline_s`` (from entering the ``with``,
    or ending at ``deadline_at``, a ``time.monotonic()`` value) bounds all probes together.
    ``writable`` names directories a sandboxed probe may write besides its scratch ones (tests).
    """

    def __init__(
        self,
        path: str,
        *,
        name: str = "",
        timeout_s: float = DEFAULT_TIMEOUT_S,
        output_cap: int = DEFAULT_OUTPUT_CAP,
        env: dict | None = None,
        use_man: bool = True,
        sandbox: bool | None = None,
        deadline_s: float | None = None,
        deadline_at: float | None = None,
        writable: tuple[str, ...] = (),
        readable: tuple[str, ...] = (),
        answered_s: float = 0.0,
    ):
        self.path = os.path.abspath(path)  # probes run in another directory
        self.use_man = use_man
        self.name = name or os.path.basename(path)
        self.timeout_s = float(timeout_s)
        self.output_cap = int(output_cap)
        self.env = probe_env(env)
        self.calls = 0
        # the CPU seconds the probes took (their processes' own, whatever the machine's load)
        self.cpu_s = 0.0
        self.want_sandbox = sandbox
        self.sandboxed = False
        self.sandbox_note = ""  # why probes ran without the sandbox ("" when they ran in it)
        self.withheld = 0  # lines of help left out because they looked like secrets (_help_text)
        self.deadline_s = None if deadline_s is None else float(deadline_s)
        self.writable = tuple(os.path.abspath(w) for w in writable)
        # what the sandbox binds back read-only: the tool's install and its interpreter's, its PATH's,
        # and those of what it starts (a launcher's program and script, which may live under /tmp)
        programs = (self.path, *(os.path.abspath(r) for r in readable))
        self.readable = program_paths(
            programs, search_path=self.env.get("PATH", ""), system=SYSTEM_DIRS
        ) + toolchain_paths(self.env)
        self._deadline: float | None = deadline_at  # time.monotonic() of the end, when given
        self._bwrap = ""
        self._bwrap_prefix: list[str] | None = None  # (see _sandbox_prefix; never changed in place)
        self._disable_userns = False  # (SandboxStatus.disable_userns)
        self._home_tmpfs = (
            False  # each sandboxed probe's HOME a tmpfs of its own (SandboxStatus.tmpfs_home)
        )
        self._lock = threading.Lock()
        self._scratch: Scratch | None = None
        self._caller_state = None
        self._manpath: tuple[str, ...] | None = None
        self._root_man: tuple[str, str] | None = None
        self._in_memory = _output_in_memory(self.path)
        # the longest a probe that finished took (its wall time); ``answered_s``: what a probe of
        # the same tool run before this Prober took (a launcher's --version, read for the cache key)
        self._slowest_answer = float(answered_s)

    def __enter__(self) -> "Prober":
        # the umask and limits every probe takes: this process's when discovery starts (read once)
        self._caller_state = caller_state()
        self._scratch = Scratch().__enter__()
        self._bwrap_prefix = None  # (it names the scratch directories)
        self.env.update(
            HOME=self._scratch.home, TMPDIR=self._scratch.tmpdir, PWD=self._scratch.workdir
        )
        if self.want_sandbox is None and os.environ.get("WRAPGEN_SANDBOX", "").lower() in (
            "off",
            "0",
            "no",
        ):
            self.want_sandbox = False  # the operator's choice: no warning
        if self.want_sandbox is not False:
            status = sandbox_status()
            self.sandboxed, self._bwrap = status.available, status.bwrap
            self._home_tmpfs = status.available and status.tmpfs_home
            self._disable_userns = status.disable_userns
            if not status.available:
                self.sandbox_note = (
                    f"help probes ran without a sandbox ({status.reason}): only a scratch "
                    "HOME and working directory kept them from writing elsewhere"
                )
        if self.deadline_s is not None and self._deadline is None:
            self._deadline = time.monotonic() + self.deadline_s
        return self

    def __exit__(self, *exc) -> None:
        if self._scratch is not None:
            self._scratch.__exit__(*exc)
            self._scratch = None

    @property
    def workdir(self) -> str:
        if self._scratch is None:
            raise RuntimeError("Prober used outside its `with` block")
        return self._scratch.workdir

    @property
    def home(self) -> str:
        """The scratch HOME the tool sees."""
        if self._scratch is None:
            raise RuntimeError("Prober used outside its `with` block")
        return self._scratch.home

    @property
    def expired(self) -> bool:
        """Whether discovery's deadline has passed (no probe starts any more)."""
        return self._deadline is not None and time.monotonic() >= self._deadline

    @property
    def deadline_at(self) -> float | None:
        """The ``time.monotonic()`` at which discovery's deadline passes, or None for none."""
        return self._deadline

    @property
    def retry_timeout_s(self) -> float:
        """The bound of a timed-out probe's second run: ``RETRY_FACTOR`` times the slowest of the
        tool's probes that finished so far, at least the first bound, at most ``RETRY_MAX_S``;
        ``RETRY_UNKNOWN`` times the first bound before any finished."""
        with self._lock:
            slowest = self._slowest_answer
        if not slowest:
            return min(RETRY_MAX_S, RETRY_UNKNOWN * self.timeout_s)
        return min(RETRY_MAX_S, max(self.timeout_s, RETRY_FACTOR * slowest))

    @property
    def slowest_answer_s(self) -> float:
        """The longest any of this Prober's probes that finished took (0 before one did)."""
        with self._lock:
            return self._slowest_answer

    def _probe(self, argv: list[str], *, pty: bool) -> tuple[ProcessResult | None, float | None]:
        """(the finished probe or None past the deadline, the second bound when it was run again):
        one that timed out is run once more with ``retry_timeout_s``; one that finished tells how
        long the tool takes."""
        started = time.monotonic()
        result = self._spawn(argv, pty=pty)
        if result is not None and not result.timed_out:
            took = time.monotonic() - started
            with self._lock:
                self._slowest_answer = max(self._slowest_answer, took)
            return result, None
        if result is None or self.expired:
            return result, None
        bound = self.retry_timeout_s
        started = time.monotonic()
        again = self._spawn(argv, pty=pty, timeout_s=bound)
        if again is None:
            return result, None
        if not again.timed_out:
            with self._lock:
                self._slowest_answer = max(self._slowest_answer, time.monotonic() - started)
        return again, bound

    def _spawn(
        self,
        argv: list[str],
        *,
        pty: bool,
        output_cap: int | None = None,
        timeout_s: float | None = None,
    ) -> ProcessResult | None:
        """The finished process, or None when the deadline passed before it could start."""
        timeout = self.timeout_s if timeout_s is None else timeout_s
        if self._deadline is not None:
            left = self._deadline - time.monotonic()
            if left <= 0:
                return None
            timeout = min(timeout, left)
        with self._lock:
            self.calls += 1
        # a HOME of this probe's own, so that what one probe leaves there (a daemon's sockets under
        # ~/.TOOL, the daemon killed with that probe) never makes a probe beside it wait: in the
        # sandbox a fresh tmpfs at the scratch HOME's path where bubblewrap sizes one (nothing made
        # or removed on disk), else a directory of its own mounted there (see bwrap_argv)
        scratch = self._scratch
        own_home = None if self._home_tmpfs else scratch.probe_home()
        env = self.env
        if self.sandboxed:
            argv = self._sandbox_prefix(scratch, own_home) + argv
        else:
            env = {**self.env, "HOME": own_home}
        cap = self.output_cap if output_cap is None else output_cap
        try:
            options = dict(
                timeout_s=timeout,
                output_cap=cap,
                cwd=scratch.workdir,
                env=env,
                caller_state=self._caller_state,
            )
            # (the two calls spelled out: docs/architecture.md's table of who spawns is checked against them)
            if pty:
                result = run_in_pty(argv, **options, gather_s=_GATHER_S)
            else:
                result = run_process(argv, **options, in_memory=self._in_memory, gather_s=_GATHER_S)
            if result.cpu_s:
                with self._lock:
                    self.cpu_s += result.cpu_s
            return result
        finally:
            if own_home is not None:
                scratch.release_home(own_home)

    def _sandbox_prefix(self, scratch: Scratch, home_source: str | None) -> list[str]:
        """``bwrap_argv``'s command line before the tool's argv (which it only appends after "--"):
        with a tmpfs HOME it is the same for every probe of this Prober, so it is built once."""
        prefix = self._bwrap_prefix if home_source is None else None
        if prefix is None:
            prefix = bwrap_argv(
                [],
                bwrap=self._bwrap,
                workdir=scratch.workdir,
                home=scratch.home,
                tmpdir=scratch.tmpdir,
                writable=self.writable,
                readable=self.readable,
                home_source=home_source,
                home_tmpfs=HOME_TMPFS_BYTES if self._home_tmpfs else None,
                disable_userns=self._disable_userns,
            )
            if home_source is None:
                self._bwrap_prefix = prefix
        return prefix

    def _expired(self, args: tuple[str, ...], *, via_pty: bool = False) -> ProbeResult:
        limit = f"{self.deadline_s:g} s " if self.deadline_s is not None else ""
        return ProbeResult(
            args,
            problem=f"`{self._show(args)}` was not read: discovery's {limit}deadline passed",
            via_pty=via_pty,
            timed_out=True,
            expired=True,
        )

    def run(self, args: tuple[str, ...] | list[str], *, pty_fallback: bool = True) -> ProbeResult:
        """Run ``TOOL ARGS...``; when it prints nothing to a pipe, read it through a terminal."""
        args = tuple(args)
        result, bound = self._probe([self.path, *args], pty=False)
        if result is None or (result.timed_out and self.expired):
            return self._expired(args)
        problem = self._problem(result, args, bound)
        if problem:
            return ProbeResult(
                args, exit_code=result.exit_code, problem=problem, timed_out=result.timed_out
            )
        stdout, out_problem = clean_text(result.stdout)
        stderr, err_problem = clean_text(result.stderr)
        # Help goes to stdout by convention; usage errors and some `-h` go to stderr.
        text = self._help_text(stdout if stdout.strip() else stderr)
        bad = out_problem or (err_problem if not stdout.strip() else "")
        if bad:
            return ProbeResult(
                args, exit_code=result.exit_code, problem=f"`{self._show(args)}` {bad}"
            )
        if text.strip() or not pty_fallback:
            return ProbeResult(
                args,
                text=text,
                exit_code=result.exit_code,
                problem="" if text.strip() else f"`{self._show(args)}` printed nothing",
            )
        tty, bound = self._probe([self.path, *args], pty=True)
        if tty is None or (tty.timed_out and self.expired):
            return self._expired(args, via_pty=True)
        problem = self._problem(tty, args, bound)
        if problem:
            return ProbeResult(
                args,
                exit_code=tty.exit_code,
                problem=problem,
                via_pty=True,
                timed_out=tty.timed_out,
            )
        text, bad = clean_text(tty.stdout)
        text = self._help_text(text)
        if bad:
            return ProbeResult(
                args, exit_code=tty.exit_code, problem=f"`{self._show(args)}` {bad}", via_pty=True
            )
        if not text.strip():
            return ProbeResult(
                args,
                exit_code=tty.exit_code,
                via_pty=True,
                problem=f"`{self._show(args)}` printed nothing, on a pipe or a terminal",
            )
        return ProbeResult(args, text=text, exit_code=tty.exit_code, via_pty=True)

    def _help_text(self, text: str) -> str:
        """What a probe printed, as help text: its scratch directories named as anywhere, and without
        the lines that quote a password or key file or hold a credential (``knowledge/secrets.py``):
        text a probe prints goes into a pack only as help, never what a tool read and echoed."""
        text, dropped = withhold(self._unscratched(text))
        if dropped:
            with self._lock:
                self.withheld += dropped
        return text

    def _unscratched(self, text: str) -> str:
        """``text`` with the probe's scratch directories named as the tool would name them anywhere:
        its HOME as ``~``, its working directory as ``.``, its TMPDIR as ``$TMPDIR`` (a
        "--cache-dir (default /tmp/wrapgen-probe-x1/home/.cache/TOOL)" is "~/.cache/TOOL"), so that
        what discovery reads is the same every run."""
        scratch = self._scratch
        root = scratch.root if scratch is not None else None
        if not root or root not in text:
            return text
        return re.sub(
            re.escape(root) + r"(?:/(home(?:-\w+)?|work|tmp)(?![\w.-]))?",
            lambda m: _SCRATCH_NAMES.get((m.group(1) or "").split("-")[0], "<scratch>"),
            text,
        )

    def version(self) -> str:
        """The first line of ``TOOL --version``, or "" when it gave none or refused the flag
        ("Error: dot: option -- unrecognized": knowledge ``not_a_version``)."""
        result = self.run(("--version",), pty_fallback=False)
        if not result.usable:
            return ""
        for line in result.text.splitlines():
            if line.strip():
                return "" if not_a_version().search(line) else line.strip()[:200]
        return ""

    def man_source(self, path: tuple[str, ...]) -> tuple[str, str]:
        """(roff source, page name) of the man page for ``TOOL PATH...`` (``TOOL-log``), or ("", "").

        The root's is remembered: the crawl reads it for the root's flags and again for the
        commands it lists (``TOOL-upload-pack(1)`` in TOOL(1))."""
        if not self.use_man:
            return "", ""
        if not path:
            with self._lock:
                known = self._root_man
            if known is None:
                known = self._man_source(())
                with self._lock:
                    self._root_man = known
            return known
        return self._man_source(tuple(path))

    def _man_source(self, path: tuple[str, ...]) -> tuple[str, str]:
        page = "-".join((self.name, *path))
        for directory in self._man_dirs():
            for section in _MAN_SECTIONS:
                # (plain strings: a Path per candidate cost more than its stat)
                stem = os.path.join(directory, f"man{section}", f"{page}.{section}")
                for candidate in (stem, stem + ".gz"):
                    if os.path.isfile(candidate):
                        return _read_roff(candidate, self.output_cap), page
        return "", ""

    def _man_dirs(self) -> tuple[str, ...]:
        """The man path, asked of `manpath` once: looking pages up by file name then costs no
        process per command (`man -w` costs more than most tools' `--help`). A later Prober in this
        process whose `manpath` would see the same (``_manpath_key``) takes its answer, unspawned."""
        with self._lock:
            if self._manpath is not None:
                return self._manpath
            self._manpath = ()
            program = shutil.which("manpath")
            if program is None:
                return self._manpath
        key = _manpath_key(program, self.env, (self.sandboxed, self.readable, self.writable))
        dirs = _MANPATHS.get(key) if key is not None else None
        if dirs is None:
            result = self._spawn([program], pty=False, output_cap=65536)
            ok = result is not None and result.exit_code == 0
            said = result.stdout.decode("utf-8", "replace").strip().split(":") if ok else []
            dirs = tuple(d for d in said if d and os.path.isdir(d))
            if ok and key is not None:
                _MANPATHS[key] = dirs
        with self._lock:
            self._manpath = dirs
            return self._manpath

    def _problem(self, result: ProcessResult, args: tuple[str, ...], again: float | None) -> str:
        shown = self._show(args)
        if result.not_found:
            return f"could not run `{shown}`: {result.not_found}"
        if result.timed_out:
            retried = f", nor within {again:g} s when run again," if again is not None else ""
            return (
                f"`{shown}` did not finish within {self.timeout_s:g} s{retried} and was killed "
                "(it may wait for input or run its real action; raise --timeout if it is just slow)"
            )
        if result.output_capped:
            return f"`{shown}` printed more than {self.output_cap // (1024 * 1024) or 1} MiB and was stopped"
        if result.signal is not None:
            return f"`{shown}` was killed by signal {result.signal}"
        return ""

    def _show(self, args: tuple[str, ...]) -> str:
        return " ".join((self.name, *args))


# `manpath`'s answers in this process, by ``_manpath_key``: each discovery's is the same
# process start and its probe machinery again (and, the root's page waiting on it, its wall time).
_MANPATHS: dict = {}
_MANPATH_CONFIGS = (
    "/etc/manpath.config",
    "/etc/man_db.conf",
)  # man-db's, Debian's name and the others'
# The configuration's keywords that name man directories (MANPATH_MAP's second word, the others' first).
_CONFIG_DIRS = {b"MANDATORY_MANPATH": 1, b"MANPATH_MAP": 2, b"MANDB_MAP": 1}
_config_dirs: dict = {}  # (config path, its stat) -> the directories it names


_SCRATCH_NAMES = {"home": "~", "work": ".", "tmp": "$TMPDIR"}


def _output_in_memory(path: str) -> bool:
    """Whether the probes of the program at ``path`` write to in-memory files rather than pipes
    (run_process's ``in_memory``: no wake-up per write). Every program but a shell script: a script
    may write to its output by name (``echo usage > /dev/stderr``), which works on a pipe only; a
    launcher (a shell script that execs the tool) keeps pipes too."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4)
    except OSError:
        return False
    if head == b"\x7fELF":
        return True
    if not head.startswith(b"#!"):
        return False
    from wrapgen.parse.script import (
        is_shell_script,
    )  # (only for a script: discovery has imported it then)

    return not is_shell_script(path)


def _stat_key(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _manpath_key(program: str, env: dict, view: tuple):
    """Everything `manpath`'s answer depends on, or None where that is not known (then it is run).

    `manpath` (man-db) answers from its program, its environment (PATH, and MANPATH where an
    operator passes it), its configuration file and which of its candidate directories exist: for
    each PATH directory D, D/../man, D/man, D/../share/man and D/share/man, and the directories the
    configuration names. The key holds the program's and the configuration's stat, the environment
    but for HOME, TMPDIR and PWD (every probe's are fresh and empty, so ~/.manpath never exists
    there), what the probe's sandbox shows of the file system (``view``), and whether each of those
    candidates, and each MANPATH directory, is a directory now: a man directory made or removed
    since gives another key."""
    path = env.get("PATH", "")
    if not os.path.isabs(program) or any(
        d and not os.path.isabs(d) for d in path.split(os.pathsep)
    ):
        return None  # (relative to the scratch working directory: not worth knowing)
    configs = tuple((name, _stat_key(name)) for name in _MANPATH_CONFIGS)
    candidates: list[str] = []
    for directory in dict.fromkeys(path.split(os.pathsep)):
        directory = directory.rstrip("/")
        if directory:  # (plain strings: os.path.join cost more than the stats)
            up = directory[: directory.rindex("/")]
            candidates += [
                f"{up}/man",
                f"{directory}/man",
                f"{up}/share/man",
                f"{directory}/share/man",
            ]
    for name, signature in configs:
        if signature is not None:
            candidates += _configured_dirs(name, signature)
    candidates += [d for d in env.get("MANPATH", "").split(os.pathsep) if d]
    candidates = list(dict.fromkeys(candidates))
    environment = tuple(
        sorted((k, v) for k, v in env.items() if k not in ("HOME", "TMPDIR", "PWD"))
    )
    # (os.access first: most candidates do not exist, and it says so without an exception)
    present = tuple(os.access(d, os.F_OK) and os.path.isdir(d) for d in candidates)
    return (program, _stat_key(program), configs, environment, view, present, tuple(candidates))


def _configured_dirs(config: str, signature) -> list[str]:
    """The directories ``config`` names (read once per version of the file)."""
    known = _config_dirs.get((config, signature))
    if known is None:
        known = []
        try:
            with open(config, "rb") as handle:
                for line in handle:
                    words = line.split()
                    at = _CONFIG_DIRS.get(words[0]) if words else None
                    if at is not None and len(words) > at:
                        known.append(os.fsdecode(words[at]))
        except OSError:
            pass
        _config_dirs[(config, signature)] = known
    return known


def _read_roff(location: str, cap: int) -> str:
    """The text of a man page file (compressed or plain), capped; "" when it cannot be read."""
    try:
        with open(location, "rb") as handle:
            raw = handle.read(cap)
        if raw[:2] == b"\x1f\x8b":
            with gzip.open(location, "rb") as handle:
                raw = handle.read(cap)
    except OSError:
        return ""
    text = raw.decode("utf-8", errors="replace")
    # A ".so man1/other.1" page only points at another page.
    match = re.match(r"\.so\s+(\S+)", text)
    if match:
        base = Path(location).parent.parent / match.group(1)
        for candidate in (base, base.with_name(base.name + ".gz")):
            if candidate.exists():
                return _read_roff(str(candidate), cap)
    return text
