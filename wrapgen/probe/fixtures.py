"""Trial inputs: sample files of a kind, made in a trial's scratch working directory.

A trial gives a verb's file operands real files (``knowledge/data/trials.json``: which kind an
operand takes, from its name, description and the pack's words; ``fixture_files``: the name each
kind's file has). ``make_inputs(workdir, kinds)`` makes them before the trial runs: text, JSON, CSV,
YAML, TOML, XML, HTML, Markdown, a Graphviz graph, Python, JavaScript, C and shell sources, a SQLite database, tar,
zip, gzip, xz and zstd archives, a git repository (as an operand, or as the working directory
itself), a self-signed certificate and its key, a PNG image, a WAV sound and a PDF. Most are
written with the standard library; the git repository, the certificate, the zstd archive and the DuckDB database are
made by the tools installed here (``git``, ``openssl``, ``zstd``, ``duckdb``), each run with no shell through the
runtime's spawn discipline, outside the sandbox, on files of our own only. A kind that cannot be made
here (its tool is missing or failed) is returned by name, so the trial is not run and says why.

The sources hold what linters and formatters report (an unused import, a line past its limit,
an unquoted variable): a linter tried on them shows whether its exit status is an answer.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import math
import os
import shutil
import sqlite3
import struct
import tarfile
import wave
import zipfile
import zlib
from typing import Callable, Iterable

from wrapgen.knowledge.trials import fixture_file, fixture_kinds
from wrapgen.runtime.process import run_process

__all__ = ["make_inputs", "MAKERS", "CWD_PREFIX"]

# A kind that makes the working directory itself (``cwd:git``: the trial runs inside a repository).
CWD_PREFIX = "cwd:"
_TOOL_TIMEOUT_S = 20.0

_TEXT = "alpha beta\nsample line two\ngamma delta\n"
_ROWS = [("alpha", 1, "first"), ("beta", 2, "second"), ("gamma", 3, "third")]
# Lint triggers on purpose: an unused import, a long line, odd spacing (formatters' and linters' findings).
_PYTHON = (
    "import os\n"
    "import sys\n\n\n"
    "def greet( name ):\n"
    "    message = 'hello ' + name + '!'"
    "  # a comment long enough to pass the usual line limit of seventy-nine or one hundred\n"
    "    message = message.strip()\n"
    "    return message\n\n\n"
    'if __name__ == "__main__":\n'
    "    greet(sys.argv[0])\n"
)
_JAVASCRIPT = (
    "var unused = 1\nfunction greet(name) {\n  console.log('hello ' + name)\n}\ngreet('x')\n"
)
_SHELL = "#!/bin/sh\nname=$1\necho hello $name\nls $HOME/*.txt\n"
_C = '#include <stdio.h>\nint main(void){int a[2];a[2]=1;printf("%d\\n",a[0]);return 0;}\n'


def _write(path: str, text: str | bytes) -> None:
    mode = "wb" if isinstance(text, bytes) else "w"
    with open(path, mode) as out:
        out.write(text)


def _sqlite(path: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, count INTEGER)")
        db.executemany(
            "INSERT INTO items (name, count) VALUES (?, ?)", [(n, c) for n, c, _ in _ROWS]
        )
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.execute("INSERT INTO notes (body) VALUES ('a note')")
    db.close()


def _tar(path: str) -> None:
    with tarfile.open(path, "w") as archive:
        _add_member(archive, "sample.txt", _TEXT.encode())
        _add_member(archive, "data/sample.json", _json_text().encode())


def _add_member(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), 1_700_000_000, 0o644
    archive.addfile(info, io.BytesIO(data))


def _zip(path: str) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("sample.txt", _TEXT)
        archive.writestr("data/sample.json", _json_text())


def _json_text() -> str:
    items = [{"name": n, "count": c, "note": t} for n, c, t in _ROWS]
    return json.dumps({"name": "sample", "items": items}, indent=2) + "\n"


def _png(path: str) -> None:
    """An 8x8 RGB PNG, by the format's own rules (signature, IHDR, IDAT, IEND)."""
    width = height = 8
    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 32, y * 32, 128)) for x in range(width))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    _write(
        path,
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b""),
    )


def _wav(path: str) -> None:
    """A tenth of a second of a 440 Hz tone, 8 kHz mono 16-bit."""
    rate = 8000
    frames = b"".join(
        struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / rate))) for i in range(800)
    )
    with wave.open(path, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(rate)
        sound.writeframes(frames)


def _pdf(path: str) -> None:
    """A one-page PDF with one line of text and a correct cross-reference table."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        None,  # the content stream, below
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    stream = b"BT /F1 12 Tf 20 50 Td (sample text) Tj ET"
    objects[3] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    _write(path, bytes(out))


def _tool(name: str) -> str:
    path = shutil.which(name)
    if not path:
        raise _CannotMake(f"{name} is not installed here")
    return path


class _CannotMake(Exception):
    pass


def _run(argv: list[str], cwd: str) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": cwd,
        "LC_ALL": "C",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "Sample",
        "GIT_AUTHOR_EMAIL": "sample@example.com",
        "GIT_COMMITTER_NAME": "Sample",
        "GIT_COMMITTER_EMAIL": "sample@example.com",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
    }
    result = run_process(argv, timeout_s=_TOOL_TIMEOUT_S, cwd=cwd, env=env, output_cap=1 << 20)
    if result.not_found or result.exit_code != 0:
        said = (result.stderr or result.stdout).decode("utf-8", "replace").strip().splitlines()
        raise _CannotMake(f"{os.path.basename(argv[0])} failed: {said[-1] if said else 'exit'}")


def _git_repo(path: str) -> None:
    os.makedirs(path, exist_ok=True)
    git = _tool("git")
    _write(os.path.join(path, "sample.txt"), _TEXT)
    _write(os.path.join(path, "README.md"), "# sample\n\nA sample repository.\n")
    _run([git, "init", "-q", "-b", "main", "."], path)
    _run([git, "add", "."], path)
    _run([git, "commit", "-q", "-m", "A first commit"], path)
    _write(os.path.join(path, "sample.txt"), _TEXT + "a change not committed yet\n")


def _compressed(path: str, tool: str, options: tuple[str, ...], *, output: str = "") -> None:
    """``path`` (``sample.txt.EXT``) made by ``tool`` installed here from the sample text, which is
    written for it and removed after, unless it was there already. ``output``: the option that
    names the archive (``-o``), "" where the tool takes it as the operand after its input."""
    source = path.rsplit(".", 1)[0]
    plain = not os.path.exists(source)
    if plain:
        _write(source, _TEXT)
    target = (output, path) if output else (path,)
    _run([_tool(tool), *options, source, *target], os.path.dirname(path))
    if plain:
        os.remove(source)


# Small programs one of which every system has: an ELF sample is a copy of the first found
_ELF_PROGRAMS = ("true", "false", "sleep")


def _elf(path: str) -> None:
    """A copy of a small installed program: an ELF executable a binary inspector can read."""
    found = next((shutil.which(name) for name in _ELF_PROGRAMS if shutil.which(name)), None)
    if found is None:
        raise _CannotMake("no small program to copy is installed here")
    with open(os.path.realpath(found), "rb") as source:
        head = source.read(4)
        if head != b"\x7fELF":
            raise _CannotMake(f"{found} is no ELF file")
    shutil.copyfile(os.path.realpath(found), path)


# One passing test in each common layout, for a test runner's trial in a working directory with a
# suite: a Python test module (collected by name), a JavaScript test file under test/ (its runners'
# default folder and file pattern), a Perl test under t/ (its harness's default folder)
_TEST_SUITE = {
    "test_sample.py": "def test_sample():\n    assert 1 + 1 == 2\n",
    "test/sample.test.js": "it('adds', () => {\n  if (1 + 1 !== 2) throw new Error('sum');\n});\n",
    "t/sample.t": "use strict;\nuse warnings;\nuse Test::More tests => 1;\nok(1 + 1 == 2, 'adds');\n",
}


def _test_suite(path: str) -> None:
    for name, text in _TEST_SUITE.items():
        os.makedirs(os.path.join(path, os.path.dirname(name)), exist_ok=True)
        _write(os.path.join(path, name), text)


def _duckdb(path: str) -> None:
    """A DuckDB database with the sample rows, made by the duckdb installed here."""
    rows = ", ".join(f"({i}, '{n}', {c})" for i, (n, c, _) in enumerate(_ROWS, start=1))
    statement = f"CREATE TABLE items AS SELECT * FROM (VALUES {rows}) AS t(id, name, count)"
    _run([_tool("duckdb"), path, "-c", statement], os.path.dirname(path))


def _certificate(path: str) -> None:
    """A self-signed EC certificate (``sample.crt``) and its key (``sample.key``), beside each other."""
    directory = os.path.dirname(path)
    crt, key = fixture_file("cert"), fixture_file("key")
    if os.path.exists(os.path.join(directory, crt)) and os.path.exists(
        os.path.join(directory, key)
    ):
        return
    _run(
        [
            _tool("openssl"),
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            key,
            "-out",
            crt,
            "-subj",
            "/CN=example.com",
            "-days",
            "30",
        ],
        directory,
    )


MAKERS: dict[str, Callable[[str], None]] = {
    "text": lambda p: _write(p, _TEXT),
    "json": lambda p: _write(p, _json_text()),
    "csv": lambda p: _write(
        p, "name,count,note\n" + "".join(f"{n},{c},{t}\n" for n, c, t in _ROWS)
    ),
    "tsv": lambda p: _write(
        p, "name\tcount\tnote\n" + "".join(f"{n}\t{c}\t{t}\n" for n, c, t in _ROWS)
    ),
    "yaml": lambda p: _write(
        p,
        "name: sample\nitems:\n" + "".join(f"  - name: {n}\n    count: {c}\n" for n, c, _ in _ROWS),
    ),
    "toml": lambda p: _write(
        p,
        'name = "sample"\n'
        + "".join(f'\n[[items]]\nname = "{n}"\ncount = {c}\n' for n, c, _ in _ROWS),
    ),
    "xml": lambda p: _write(
        p,
        '<?xml version="1.0"?>\n<items>\n'
        + "".join(f'  <item name="{n}" count="{c}">{t}</item>\n' for n, c, t in _ROWS)
        + "</items>\n",
    ),
    "html": lambda p: _write(
        p,
        "<!DOCTYPE html>\n<html><head><title>Sample</title></head>\n<body><p>sample text</p></body></html>\n",
    ),
    "markdown": lambda p: _write(p, "# Sample\n\nSome *sample* text.\n\n- alpha\n- beta\n"),
    "python": lambda p: _write(p, _PYTHON),
    "javascript": lambda p: _write(p, _JAVASCRIPT),
    "shell": lambda p: _write(p, _SHELL),
    "c": lambda p: _write(p, _C),
    "graphviz": lambda p: _write(p, "digraph sample {\n  alpha -> beta;\n  beta -> gamma;\n}\n"),
    "sqlite": _sqlite,
    "duckdb": _duckdb,
    "tar": _tar,
    "zip": _zip,
    "gz": lambda p: _write(p, gzip.compress(_TEXT.encode(), mtime=0)),
    "xz": lambda p: _write(p, lzma.compress(_TEXT.encode())),
    "zst": lambda p: _compressed(p, "zstd", ("-q", "-f", "-k"), output="-o"),
    "bz2": lambda p: _write(p, bz2.compress(_TEXT.encode())),
    "lz4": lambda p: _compressed(p, "lz4", ("-q", "-f")),
    "elf": _elf,
    "tests": _test_suite,  # (a working directory's kind only: cwd:tests)
    "git": _git_repo,
    "cert": _certificate,
    "key": _certificate,
    "png": _png,
    "wav": _wav,
    "pdf": _pdf,
}


def make_inputs(workdir: str, kinds: Iterable[str]) -> str:
    """Make each kind's file in ``workdir`` (``cwd:git``: ``workdir`` itself becomes a repository);
    "" when all were made, else why one could not be ("zstd is not installed here")."""
    for kind in dict.fromkeys(kinds):
        try:
            if kind.startswith(CWD_PREFIX):
                inner = kind[len(CWD_PREFIX) :]
                if inner not in MAKERS:
                    return f"no sample {inner} can be made"
                MAKERS[inner](workdir)
                continue
            if kind not in MAKERS or kind not in fixture_kinds():
                return f"no sample {kind} can be made"
            MAKERS[kind](os.path.join(workdir, fixture_file(kind)))
        except _CannotMake as error:
            return f"no sample {kind} could be made ({error})"
        except (OSError, sqlite3.Error, tarfile.TarError, zipfile.BadZipFile) as error:
            return f"no sample {kind} could be made ({type(error).__name__}: {error})"
    return ""
