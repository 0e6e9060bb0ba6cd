"""Finding a pack directory and loading its ``binding.json`` (docs/contract.md §2). Stdlib only.

The binding is trusted only while it is what pack.yaml derives to. Parsing YAML is what the hot
path avoids, so the fact "pack.yaml with sha256 P derives, under this wrapgen version, to the
binding.json with sha256 B" is kept as a stamp in a store of the user's own, outside every pack
directory: ``<cache>/trusted/<P>-<version>`` holding B, where ``<cache>`` is ``$WRAPGEN_CACHE_DIR``,
else ``$XDG_CACHE_HOME/wrapgen``, else ``~/.cache/wrapgen`` (the discovery cache's directory,
resolved here again because the runtime does not import ``probe/``).

- On a hit (the stamp holds the sha256 of binding.json's bytes) the check costs one small file
  read and one sha256 of bytes already read.
- On a miss, and on a stamp that names another binding, nothing is taken on trust: the binding is
  derived once more from pack.yaml in a separate, contained process (``python -m
  wrapgen.pack.derive PACK_DIR``, which may import yaml), whose sha256 is compared with
  binding.json's. Equal: the stamp is written (atomically) and the pack runs. Different: refused
  with "binding.json does not match pack.yaml". So a stamp is only ever a cache of a derivation;
  a stale or corrupt stamp costs one derivation, never a wrong answer, and a refusal always comes
  from a fresh one.
- A cache directory that cannot be written (read-only HOME, a file in its place) costs a
  derivation per call; the pack still runs. A derivation that cannot be made (pack.yaml invalid,
  wrapgen not importable by ``sys.executable``, the time limit) is refused with what went wrong.
- ``wrapgen build`` (``pack/emit.py``) writes the stamp of every binding.json it renders and writes.

The store is trusted as the user's own files are: anyone who can write it can write the user's
shell profile too. The pack directory is what is not trusted (copied in, checked out, edited).
A binding's ``wrapgen_version`` is informational: a binding built by another wrapgen version is
accepted when it is, apart from that field, what this wrapgen derives (the derive process renders
it with the binding's own version string).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from wrapgen.errors import ManifestError, UsageError
from wrapgen.names import is_pack_id

# wrapgen's version, which every module may read (docs/architecture.md): the package is imported
# already (this module lives in it), and the runtime imports only wrapgen.errors and wrapgen.names
__version__ = sys.modules["wrapgen"].__version__

__all__ = [
    "BINDING_VERSION",
    "BindingError",
    "PackNotFoundError",
    "cache_dir",
    "derive_binding_sha256",
    "load_binding",
    "pack_sha256",
    "read_stamp",
    "resolve_pack",
    "stamp_path",
    "write_stamp",
]

BINDING_VERSION = 1


class BindingError(ManifestError):
    """binding.json is missing, stale, or unreadable: the fix is ``wrapgen build DIR``."""


class PackNotFoundError(UsageError):
    """PACK names no pack directory and no pack_id on the search path."""


try:
    # the builtin module: hashlib would load OpenSSL, a visible share of every adapter call's startup
    from _sha256 import sha256 as _sha256
except ImportError:  # other Pythons (3.12 renamed it _sha2)
    from hashlib import sha256 as _sha256


def pack_sha256(data: bytes) -> str:
    """sha256 hex of pack.yaml's bytes, as binding.json records it."""
    return _sha256(data).hexdigest()


def load_binding(pack_dir, *, verify: bool = True) -> dict:
    """The binding of the pack in ``pack_dir``; ``BindingError`` when missing or not from this pack.yaml.

    ``verify`` (the default) also refuses a binding.json that is not what pack.yaml derives to
    (see the module's docstring); ``wrapgen serve`` passes False because it derives the binding
    from pack.yaml itself at start and serves that.
    """
    pack_dir = Path(pack_dir)
    stale = f"binding.json is out of date: run wrapgen build {pack_dir}"
    hint = f"`wrapgen build {pack_dir}` regenerates binding.json and adapter.py from pack.yaml"
    try:
        manifest = _read_regular(pack_dir / "pack.yaml")
    except FileNotFoundError:
        raise BindingError(
            f"no pack.yaml in {pack_dir}",
            hint="a pack directory holds pack.yaml; run `wrapgen wrap TOOL` to make one",
        ) from None
    except OSError as error:
        raise BindingError(
            f"cannot read {pack_dir / 'pack.yaml'}: {error.strerror}",
            hint="pack.yaml must be a readable regular file",
        ) from None
    try:
        raw = _read_regular(pack_dir / "binding.json")
        binding = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        raise BindingError(stale, hint=hint) from None
    manifest_sha = pack_sha256(manifest)
    if not isinstance(binding, dict) or binding.get("pack_sha256") != manifest_sha:
        raise BindingError(stale, hint=hint)
    if binding.get("binding_version") != BINDING_VERSION or not isinstance(
        binding.get("verbs"), dict
    ):
        raise BindingError(
            stale, hint=f"this wrapgen reads binding_version {BINDING_VERSION}; {hint}"
        )
    if not is_pack_id(binding.get("pack_id")):
        raise BindingError(f"binding.json in {pack_dir} names no valid pack_id", hint=hint)
    if verify:
        _verify(pack_dir, manifest_sha, _sha256(raw).hexdigest(), binding.get("wrapgen_version"))
    return binding


# --- the trusted stamps ---------------------------------------------------------------------------

DERIVE_MODULE = "wrapgen.pack.derive"
DERIVE_TIMEOUT_S = 30
DERIVE_MEMORY_MB = 1024
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._+-]")


def cache_dir() -> Path:
    """``$WRAPGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/wrapgen``, else ``~/.cache/wrapgen``.

    The same directory as ``wrapgen.probe.cache.cache_dir`` (a test holds them together).
    """
    explicit = os.environ.get("WRAPGEN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "wrapgen"


def stamp_path(pack_sha: str, version: str = __version__) -> Path:
    """Where the stamp of the pack.yaml with sha256 ``pack_sha`` is kept for wrapgen ``version``."""
    return cache_dir() / "trusted" / f"{pack_sha}-{_UNSAFE_NAME.sub('_', version)}"


def read_stamp(pack_sha: str) -> str | None:
    """The binding sha256 the stamp of ``pack_sha`` records; None when missing, unreadable or corrupt."""
    try:
        text = _read_regular(stamp_path(pack_sha), limit=256).decode("ascii").strip()
    except (OSError, ValueError):
        return None
    return text if _HEX64.match(text) else None


def write_stamp(pack_sha: str, binding_sha: str) -> bool:
    """Record that pack.yaml ``pack_sha`` derives to binding.json ``binding_sha``; False when it cannot.

    Atomic: written to a temporary file beside the stamp and renamed over it, so a reader sees the
    old stamp or the new one, never part of one. Call it only with a sha pair wrapgen derived.
    """
    if not (_HEX64.match(pack_sha or "") and _HEX64.match(binding_sha or "")):
        return False
    target = stamp_path(pack_sha)
    temp = target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    try:
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(
            temp,
            os.O_WRONLY
            | os.O_CREAT
            | os.O_EXCL
            | getattr(os, "O_NOFOLLOW", 0)
            | getattr(os, "O_CLOEXEC", 0),
            0o600,
        )
        try:
            os.write(fd, f"{binding_sha}\n".encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
        return False
    return True


def _verify(pack_dir: Path, manifest_sha: str, binding_sha: str, built_by) -> None:
    if read_stamp(manifest_sha) == binding_sha:
        return
    version = built_by if isinstance(built_by, str) and 0 < len(built_by) <= 64 else None
    derived = derive_binding_sha256(pack_dir, wrapgen_version=version)
    if derived != binding_sha:
        raise BindingError(
            f"binding.json does not match pack.yaml: run wrapgen build {pack_dir}",
            hint="binding.json says something pack.yaml does not (edited after it was built?); "
            "only what pack.yaml says runs: review pack.yaml, then rebuild",
        )
    write_stamp(manifest_sha, binding_sha)


def _derive_argv(pack_dir: Path, wrapgen_version: str | None) -> list[str]:
    # -P (3.11+) and cwd "/": a wrapgen/ planted in the pack directory or the working directory is
    # never imported in place of the installed package
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    argv = [sys.executable, *safe, "-m", DERIVE_MODULE, os.path.abspath(pack_dir)]
    if wrapgen_version is not None and wrapgen_version != __version__:
        argv += ["--wrapgen-version", wrapgen_version]
    return argv


def derive_binding_sha256(pack_dir, *, wrapgen_version: str | None = None) -> str:
    """The sha256 of the binding.json pack.yaml in ``pack_dir`` derives to, from a separate process.

    ``BindingError`` saying why when it cannot be derived. The child imports the same wrapgen
    this process runs (its directory goes first on PYTHONPATH), so the stamp it leads to is true
    of this wrapgen.
    """
    from wrapgen.runtime.process import run_process

    pack_dir = Path(pack_dir)
    root = str(Path(__file__).resolve().parent.parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [root, *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]]
    )
    result = run_process(
        _derive_argv(pack_dir, wrapgen_version),
        timeout_s=DERIVE_TIMEOUT_S,
        output_cap=1 << 20,
        cwd="/",
        env=env,
        memory_mb=DERIVE_MEMORY_MB,
    )
    hint = f"run `wrapgen check {pack_dir}`, fix what it lists, then `wrapgen build {pack_dir}`"
    prefix = f"cannot check binding.json against pack.yaml in {pack_dir}"
    if result.not_found is not None:
        raise BindingError(
            f"{prefix}: {sys.executable} could not start: {result.not_found}", hint=hint
        )
    if result.timed_out:
        raise BindingError(
            f"{prefix}: deriving the binding took longer than {DERIVE_TIMEOUT_S} s", hint=hint
        )
    if result.memory_exceeded:
        raise BindingError(
            f"{prefix}: deriving the binding ran out of memory ({DERIVE_MEMORY_MB} MiB)", hint=hint
        )
    out = result.stdout.decode("ascii", "replace").strip()
    if result.exit_code == 0 and _HEX64.match(out):
        return out
    lines = [
        line.strip()
        for line in result.stderr.decode("utf-8", "replace").splitlines()
        if line.strip()
    ]
    reason = (
        lines[-1]
        if lines
        else f"{DERIVE_MODULE} exited with status {result.exit_code} and said nothing"
    )
    if len(reason) > 300:
        reason = reason[:299] + "…"
    raise BindingError(f"{prefix}: {reason}", hint=hint)


_MAX_FILE = 64 * 1024 * 1024


def _read_regular(path: Path, *, limit: int = _MAX_FILE) -> bytes:
    """A regular file's bytes; never blocks on a FIFO or a device planted in place of the file."""
    import errno
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if info.st_size > limit:
            raise OSError(errno.EFBIG, "file too large")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def _search_path(cwd) -> list[Path]:
    """WRAPGEN_PATH first, then ./adapters (docs/contract.md §14): an untrusted working directory must not
    shadow the packs installed on the search path."""
    base = Path(cwd) if cwd is not None else Path.cwd()
    dirs = [Path(entry) for entry in os.environ.get("WRAPGEN_PATH", "").split(os.pathsep) if entry]
    dirs.append(base / "adapters")
    return dirs


def _is_pack_dir(path: Path) -> bool:
    return (path / "pack.yaml").is_file() or (path / "binding.json").is_file()


def resolve_pack(pack, *, cwd=None) -> Path:
    """A pack directory: ``pack`` itself when it is one, else the pack_id in WRAPGEN_PATH, then ./adapters."""
    text = os.fspath(pack)
    given = Path(text) if cwd is None or os.path.isabs(text) else Path(cwd) / text
    # a bare id names a pack even when a directory of that name (not a pack) sits in cwd
    if given.is_dir() and (not is_pack_id(text) or _is_pack_dir(given)):
        return given
    if is_pack_id(text):
        for directory in _search_path(cwd):
            candidate = directory / text
            if _is_pack_dir(candidate):
                return candidate
    if given.is_dir():
        return given  # load_binding then says what is missing in it
    searched = ", ".join(str(d) for d in _search_path(cwd))
    raise PackNotFoundError(
        f"no pack {text!r}: not a directory, and no pack of that id in {searched}",
        hint="pass a pack directory, or add the directory holding it to WRAPGEN_PATH",
    )
