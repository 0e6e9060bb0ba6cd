"""What of the file system a program needs to run: its own install, its interpreter's, its PATH's.

The probe sandbox (``probe/sandbox.py``) and the per-call one (``runtime/sandbox.py``) show a tool only what they bind. A tool or an interpreter kept
outside the system directories (under the temp directory, in a virtual environment, under /opt, in
HOME) is bound back read-only from what ``program_paths`` names:

- every hop of the program's symbolic links (``/usr/local/bin/poetry`` -> ``/opt/poetry/bin/poetry``)
  and, for each, its *install*: a file in a ``bin`` directory belongs to the prefix above it, bound
  whole where that prefix is an install (it holds ``lib/``, ``share/`` or ``pyvenv.cfg``: a virtual
  environment, an SDK with its ``platform/``), else only its program parts; a file elsewhere is its
  directory's;
- the interpreter its ``#!`` line names, directly or through ``env NAME`` (looked up on the probe's
  PATH), and that interpreter's install in turn (a venv's ``python3`` -> the base Python's prefix);
- the install of every directory on the probe's PATH (``env python3`` inside the tool finds the same
  interpreter as outside).

Never a whole HOME, ``/root``, ``/home``, the temp directory or ``/``: a prefix that is one of them, or a
dot directory right in a home (``~/.local``, ``~/.cargo``, whose ``credentials.toml`` holds a token),
gives only its program directories (``bin``, ``lib``, ``libexec``, ``pyvenv.cfg``); a program lying
directly in one is bound as a file. Paths inside the directories the sandbox binds anyway
(``SYSTEM_DIRS``) are left out. Reading symbolic links and ``#!`` lines is the only I/O here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

__all__ = [
    "program_paths",
    "toolchain_paths",
    "BIN_DIRS",
    "INSTALL_MARKS",
    "PROGRAM_PARTS",
    "TOOLCHAIN_HOMES",
    "TOOLCHAIN_PARTS",
]

# directories that hold a prefix's programs: what lies in one belongs to the prefix above it
BIN_DIRS = ("bin", "sbin", "Scripts")
# what of a prefix is bound when the prefix itself may hold a person's files (HOME, ~/.local)
PROGRAM_PARTS = ("bin", "sbin", "lib", "lib64", "lib32", "libexec", "pyvenv.cfg")
# what makes the directory above a ``bin`` an install (bound whole) rather than a folder that happens
# to hold one (a project, a test's temporary directory: only its program parts are bound)
INSTALL_MARKS = ("lib", "lib64", "libexec", "share", "pyvenv.cfg")
# ``env`` options that take a value as the next word (``env -u NAME python3``)
_ENV_VALUE_OPTIONS = ("-u", "--unset", "-C", "--chdir")
# Toolchains installed under HOME that find themselves through it (a rustup proxy, a pyenv shim, nvm):
# (the variable naming the directory, its place in HOME by default). A program in one needs the
# whole of every one that exists (a cargo proxy reads ~/.rustup; a pyenv shim ~/.pyenv/version).
TOOLCHAIN_HOMES = (
    ("RUSTUP_HOME", ".rustup"),
    ("CARGO_HOME", ".cargo"),
    ("PYENV_ROOT", ".pyenv"),
    ("NVM_DIR", ".nvm"),
    ("VOLTA_HOME", ".volta"),
    ("ASDF_DATA_DIR", ".asdf"),
    ("SDKMAN_DIR", ".sdkman"),
)
# What of a toolchain home is bound: all of it, but of CARGO_HOME only bin/, since beside the
# installed programs it holds credentials.toml (a registry token)
TOOLCHAIN_PARTS = {"CARGO_HOME": ("bin",)}
_MAX_HOPS = 40  # the kernel's own bound on symbolic links in one lookup
_MAX_INTERPRETERS = 4  # a script run by a script run by ...: deeper is not followed


def program_paths(
    programs: Sequence[str],
    *,
    search_path: str = "",
    system: Sequence[str] = (),
) -> tuple[str, ...]:
    """The paths (directories, or files) to bind read-only so that ``programs`` run in a sandbox that
    shows only ``system``: their installs, their interpreters', the installs of ``search_path``'s
    directories; outermost first, none inside another or inside ``system``."""
    found: list[str] = []
    for program in programs:
        found += _program_and_interpreters(os.path.abspath(program), search_path)
    for directory in search_path.split(os.pathsep):
        if os.path.isabs(directory) and os.path.isdir(directory):
            found += _install_of_dir(os.path.normpath(directory))
    return _outermost(found, system)


def toolchain_paths(programs: Sequence[str], *, home: str, environ) -> tuple[str, ...]:
    """The toolchain homes to bind read-only when one of ``programs`` (or where its links lead)
    lies in one (``TOOLCHAIN_HOMES``, at ``environ``'s variable or in ``home``); none otherwise."""
    homes = []
    for name, folder in TOOLCHAIN_HOMES:
        where = environ.get(name) or (os.path.join(home, folder) if home else "")
        if where and os.path.isabs(where) and os.path.isdir(where):
            homes.append((name, os.path.normpath(where)))
    places = [p for program in programs for p in (program, os.path.realpath(program))]
    if not any(_inside(p, where) for p in places for _, where in homes):
        return ()
    out = []
    for name, where in homes:
        parts = TOOLCHAIN_PARTS.get(name)
        out += [os.path.join(where, p) for p in parts] if parts else [where]
    return tuple(p for p in out if os.path.exists(p))


def _program_and_interpreters(program: str, search_path: str) -> list[str]:
    found: list[str] = []
    current, depth = program, 0
    while current and depth <= _MAX_INTERPRETERS:
        for hop in _hops(current):
            found += _install_of_file(hop)
        current, depth = _interpreter(os.path.realpath(current), search_path), depth + 1
    return found


def _hops(path: str) -> Iterator[str]:
    """``path``, each symbolic link it leads through, and where it ends (with no link left in it)."""
    current = path
    yield current
    for _ in range(_MAX_HOPS):
        if not os.path.islink(current):
            break
        try:
            target = os.readlink(current)
        except OSError:
            break
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
        yield current
    real = os.path.realpath(path)
    if real != current:
        yield real


def _install_of_file(path: str) -> list[str]:
    directory = os.path.dirname(path)
    if os.path.basename(directory) in BIN_DIRS:
        return _install_of_dir(directory)
    if _is_broad(directory):
        return [path] if os.path.exists(path) else []
    return [directory] if os.path.isdir(directory) else []


def _install_of_dir(directory: str) -> list[str]:
    """A directory of programs: the prefix above a ``bin``, or the directory itself."""
    if os.path.basename(directory) not in BIN_DIRS:
        return [] if _is_broad(directory) else [directory]
    prefix = os.path.dirname(directory)
    if _is_broad(prefix) or _is_dot_in_home(prefix) or not _is_install(prefix):
        parts = (os.path.join(prefix, part) for part in PROGRAM_PARTS)
        return [directory, *(p for p in parts if os.path.exists(p))]
    return [prefix]


def _is_install(prefix: str) -> bool:
    return any(os.path.exists(os.path.join(prefix, mark)) for mark in INSTALL_MARKS)


def _interpreter(path: str, search_path: str) -> str:
    """The program a ``#!`` line at the start of ``path`` runs ("" when none is found)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except OSError:
        return ""
    if not head.startswith(b"#!"):
        return ""
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if not words:
        return ""
    if os.path.basename(words[0]) != "env":
        return words[0]
    name = _env_program(words[1:])
    if not name:
        return ""
    if os.sep in name:
        return name
    import shutil  # (only for an `env NAME` line: the runtime's calls need not pay for the import)

    return shutil.which(name, path=search_path or None) or ""


def _env_program(words: Sequence[str]) -> str:
    """The program ``env WORDS`` runs: past its options (``-S`` splits the rest) and assignments."""
    flat: list[str] = []
    for word in words:
        flat += word[2:].split() if word.startswith("-S") else [word]
    skip = False
    for word in flat:
        if skip:
            skip = False
        elif word in _ENV_VALUE_OPTIONS:
            skip = True
        elif not word.startswith("-") and "=" not in word:
            return word
    return ""


def _is_broad(directory: str) -> bool:
    """Whether ``directory`` may hold a person's or other programs' files beside a tool (never bound
    whole): ``/``, the temp directory, ``/home``, a home, ``/root``."""
    directory = os.path.normpath(directory)
    return directory in _broad_dirs() or os.path.dirname(directory) == "/home"


def _is_dot_in_home(directory: str) -> bool:
    """``~/.local``, ``~/.cargo``: a dot directory right in a home holds settings and secrets too."""
    return os.path.basename(directory).startswith(".") and _is_broad(os.path.dirname(directory))


def _broad_dirs() -> frozenset[str]:
    home = os.path.expanduser("~")
    temp = _temp_dir()
    return frozenset(
        os.path.normpath(d) for d in ("/", "/tmp", "/var/tmp", "/home", "/root", home, temp) if d
    )


def _temp_dir() -> str:
    """The temporary directory as ``tempfile.gettempdir`` finds it (the first of TMPDIR, TEMP, TMP
    that is a directory, else /tmp), without importing ``tempfile`` (random, hashlib, ...: several
    milliseconds of every sandboxed adapter call's start-up)."""
    for name in ("TMPDIR", "TEMP", "TMP"):
        value = os.environ.get(name)
        if value and os.path.isdir(value):
            return os.path.abspath(value)
    return "/tmp"


def _outermost(paths: Iterable[str], system: Sequence[str]) -> tuple[str, ...]:
    """``paths`` without repeats, those inside another or inside ``system``; outermost first."""
    out: list[str] = []
    roots = [os.path.normpath(s) for s in system]
    for path in sorted(set(paths), key=lambda p: (p.count(os.sep), p)):
        if any(_inside(path, root) for root in (*roots, *out)):
            continue
        out.append(path)
    return tuple(out)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
