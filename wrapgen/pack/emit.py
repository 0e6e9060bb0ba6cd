"""The one writer of pack directories and reports: ``{relative_path: text}`` into a directory, or ``--check``.

The discovery cache, the batch memo, the probe's scratch directory and the wizard's temporary
directory are written elsewhere (docs/architecture.md lists them).

Each file is written to a temporary file beside its target and renamed over it, so an
interrupted write (Ctrl-C, a full disk) leaves either the old file or the new one, never half
of one. Files whose bytes and mode already match are not touched, so mtimes stay put.

A ``binding.json`` that this process rendered from pack.yaml is also recorded in the runtime's
trusted stamps (``runtime/binding.py``), written or already up to date; never with ``check=True``.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
import tempfile
from pathlib import Path, PurePosixPath
from typing import Mapping

from wrapgen.errors import WrapgenError
from wrapgen.runtime.binding import write_stamp

__all__ = ["EXECUTABLE_FILES", "RenderedBinding", "write_files", "file_mode"]

# Relative paths written with the executable bit; everything else is 0644.
EXECUTABLE_FILES = frozenset({"adapter.py"})


def file_mode(relpath: str) -> int:
    return 0o755 if PurePosixPath(relpath).name in EXECUTABLE_FILES else 0o644


def _target(directory: Path, relpath: str) -> Path:
    parts = PurePosixPath(relpath)
    if parts.is_absolute() or ".." in parts.parts or not parts.parts:
        # A renderer bug, not user input: refuse rather than write outside the directory.
        raise WrapgenError(
            f"refusing to write {relpath!r} outside {directory}", hint="this is a bug in wrapgen"
        )
    return directory.joinpath(*parts.parts)


def _diff(relpath: str, old: bytes | None, new: str) -> str:
    old_text = "" if old is None else old.decode("utf-8", errors="replace")
    lines = difflib.unified_diff(
        old_text.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile="/dev/null" if old is None else f"a/{relpath}",
        tofile=f"b/{relpath}",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _atomic_write(target: Path, data: bytes, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        # KeyboardInterrupt included: the half-written temp file goes, the target is untouched.
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise


class RenderedBinding(str):
    """The text of a binding.json that wrapgen rendered from pack.yaml (``build.render_binding``), with
    that pack.yaml's sha256. ``write_files`` records it in the runtime's trusted stamps (best effort:
    without the stamp the runtime derives the binding again on its first call); a text read from a
    pack directory is a plain ``str`` and is never vouched for."""

    pack_sha256: str

    def __new__(cls, text: str, pack_sha256: str) -> "RenderedBinding":
        rendered = super().__new__(cls, text)
        rendered.pack_sha256 = pack_sha256
        return rendered

    def __reduce__(self):  # (a batch conversion's files come back from a worker process)
        return RenderedBinding, (str(self), self.pack_sha256)


def _stamp(text: RenderedBinding) -> None:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    write_stamp(text.pack_sha256, digest)


def write_files(directory, files: Mapping[str, str], *, check: bool = False) -> list[str]:
    """Bring ``directory`` in line with ``files``; return a unified diff per file that differed.

    With ``check=True`` nothing is written: the diffs say what a write would change. A file
    whose content matches but whose mode is wrong (adapter.py not executable) yields a
    one-line ``mode`` note instead of a diff.
    """
    directory = Path(directory)
    changes: list[str] = []
    for relpath in sorted(files):
        text = files[relpath]
        target = _target(directory, relpath)
        data = text.encode("utf-8")
        mode = file_mode(relpath)
        try:
            old: bytes | None = target.read_bytes()
            old_mode: int | None = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            old, old_mode = None, None
        except IsADirectoryError:
            raise WrapgenError(
                f"{target} is a directory", hint="remove or rename it, then run again"
            ) from None
        if not check and PurePosixPath(relpath).name == "binding.json":
            if isinstance(text, RenderedBinding):
                _stamp(text)
        if old == data and old_mode == mode:
            continue
        if old == data:
            changes.append(f"mode {relpath}: {old_mode:04o} -> {mode:04o}\n")
        else:
            changes.append(_diff(relpath, old, text))
        if not check:
            try:
                _atomic_write(target, data, mode)
            except OSError as error:
                raise WrapgenError(
                    f"cannot write {target}: {error.strerror}",
                    hint="check the directory's permissions",
                ) from None
    return changes
