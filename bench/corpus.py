"""The held-out evaluation's fixture: one directory of realistic inputs for the tasks of many tools.

Everything is generated here (nothing is downloaded): text, CSV, JSON, YAML, XML, HTML and Markdown
files, a SQLite database, zip, tar and zst archives, shell scripts and Python, TypeScript, JavaScript
and C sources with known findings, tests that pass and one that fails, a certificate and its key, a
WAV sound, a PNG image, a PDF, a Graphviz graph, a Terraform configuration, Prometheus files; the
directory is a Mercurial working copy. What needs a tool that is absent (openssl, zstd, hg) is left out, and the task
that reads it is then 'task broken' in the report, never a silent pass.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
import struct
import subprocess
import wave
import zipfile
import zlib
from pathlib import Path

import pack_tasks as pt

FILES = {
    "data.yaml": "name: wrapgen\nversion: 1.2.0\nitems:\n  - name: alpha\n    price: 9.5\n"
    "  - name: beta\n    price: 20\n",
    "bad.yaml": "key: value\nkey: duplicate\nlist:\n- a\n-  b\n",
    "doc.xml": '<?xml version="1.0"?>\n<catalog>\n  <book id="1"><title>Dune</title><year>1965</year>'
    '</book>\n  <book id="2"><title>Emma</title><year>1815</year></book>\n</catalog>\n',
    "page.html": "<html><head><title>Bench</title></head><body><h1>Hello</h1><p>text</p></body></html>\n",
    "doc.md": "# Title\n\nSome *emphasis* and a [link](https://example.org).\n\n## Section\n\n"
    "- one\n- two\n",
    "lint.md": "# Title\nText right under the heading.\n\n\n* mixed\n- markers\n",
    "bad.sh": '#!/bin/sh\nfor f in $(ls *.txt); do\n  echo $f\ndone\ncd $1\nrm -rf "$2"/*\n',
    "good.sh": '#!/bin/sh\nset -eu\nfor f in ./*.txt; do\n  printf "%s\\n" "$f"\ndone\n',
    "unformatted.sh": '#!/bin/sh\nif [ -n "$1" ]\nthen\n        echo yes\nfi\n',
    "typed_bad.py": "def add(a: int, b: int) -> int:\n    return a + b\n\n\nadd(1, 'two')\n",
    "typed_ok.py": "def add(a: int, b: int) -> int:\n    return a + b\n\n\nprint(add(1, 2))\n",
    "lintme.py": "import os\nimport subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n\n\n"
    "def unused(x):\n    y = 1\n    return x\n\n\nassert run('true') == 0\n",
    "speling.txt": "This sentance has a mispelled word, and teh other one.\n",
    "tests/test_demo.py": "def add(a, b):\n    return a + b\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\n"
    "def test_add_negative():\n    assert add(-1, -1) == -2\n\n\ndef test_broken():\n    assert add(1, 1) == 3\n",
    "tests_ok/test_ok.py": "def test_one():\n    assert 1 + 1 == 2\n\n\ndef test_two():\n    assert 'a' * 2 == 'aa'\n",
    "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020"}, '
    '"include": ["ts/**/*.ts"]}\n',
    "ts/index.ts": "export function greet(name: string): string {\n  return 'hi ' + name;\n}\n\n"
    "const n: number = greet('x');\n",
    "tsok/ok.ts": "export const answer: number = 42;\n",
    "tsok/tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true}, "files": ["ok.ts"]}\n',
    "ugly.js": "const  a = {b:1,c:2}\nfunction g( x ){return x}\nconsole.log(g(a))\n",
    "app.js": "import { helper } from './lib.js';\nconsole.log(helper(2));\n",
    "lib.js": "export function helper(x) {\n  return x * 2;\n}\n",
    "check.js": "function f(a) {\n  debugger;\n  var unused = 1;\n  return a == null;\n}\nf(1);\n",
    "eslint.config.mjs": 'export default [{ rules: { "no-unused-vars": "error", "no-debugger": "error" } }];\n',
    "sum.test.js": "const sum = (a, b) => a + b;\ntest('adds', () => { expect(sum(1, 2)).toBe(3); });\n"
    "test('fails', () => { expect(sum(1, 1)).toBe(3); });\n",
    "test/spec.js": "const assert = require('assert');\ndescribe('math', () => {\n"
    "  it('adds', () => assert.strictEqual(1 + 1, 2));\n  it('fails', () => assert.strictEqual(1 + 1, 3));\n});\n",
    "main.c": '#include <stdio.h>\nint main(void){int a[3];a[3]=1;\nprintf("%d\\n",a[0]);return 0;}\n',
    "graph.dot": "digraph G {\n  a -> b;\n  b -> c;\n  a -> c;\n}\n",
    "infra/main.tf": 'locals {\n  name = "bench"\n    size  = 3\n}\n\noutput "name" {\n  value = local.name\n}\n',
    "prometheus.yml": "global:\n  scrape_interval: 15s\nscrape_configs:\n  - job_name: self\n"
    "    static_configs:\n      - targets: ['localhost:9090']\nrule_files:\n  - rules.yml\n",
    "rules.yml": "groups:\n  - name: bench\n    rules:\n      - alert: Down\n        expr: up == 0\n"
    "        for: 5m\n",
    "bad_rules.yml": "groups:\n  - name: bench\n    rules:\n      - alert: Broken\n        expr: up ==\n",
    "package.json": json.dumps(
        {
            "name": "bench-app",
            "version": "1.0.0",
            "private": True,
            "scripts": {"build": "echo build", "test": "echo test"},
        },
        indent=2,
    )
    + "\n",
    "tox.ini": "[tox]\nenvlist = py311, lint\n\n[testenv]\ncommands = pytest\n\n[testenv:lint]\n"
    "commands = ruff check .\n",
}


def _sqlite(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER);"
        "INSERT INTO items (name, qty) VALUES ('widget', 12), ('gadget', 3), ('gizmo', 40);"
        "CREATE TABLE cities (name TEXT, country TEXT);"
        "INSERT INTO cities VALUES ('Oslo', 'NO'), ('Lima', 'PE');"
    )
    db.commit()
    db.close()


def _wav(path: Path) -> None:
    rate = 8000
    frames = b"".join(
        struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / rate)))
        for i in range(rate // 2)
    )
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)


def _png(path: Path, width: int = 4, height: int = 3) -> None:
    rows = b"".join(b"\x00" + bytes([200, 30, 30]) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _pdf(path: Path) -> None:
    stream = b"BT /F1 24 Tf 72 700 Td (Bench PDF) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Title (Bench document) /Author (wrapgen bench) >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\n" % (len(objects) + 1)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))


def _zip(path: Path, members: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            archive.writestr(info, text)


def _quiet(argv: list[str], cwd: Path, env: dict | None = None) -> None:
    subprocess.run(
        argv, cwd=cwd, env=env, check=True, capture_output=True, stdin=subprocess.DEVNULL
    )


def fixture_corpus(root: Path, _tool: dict) -> dict:
    pt._write(root, pt.TEXT_FILES)
    pt._write(root, FILES)
    pt._write(root, {"data.json": json.dumps(pt.DATA_JSON, indent=2) + "\n"})
    _sqlite(root / "app.db")
    _wav(root / "sound.wav")
    _png(root / "image.png")
    _pdf(root / "doc.pdf")
    members = {name: pt.TEXT_FILES[name] for name in ("notes.txt", "words.txt", "data.csv")}
    _zip(root / "data.zip", members)
    (root / "data.tar").write_bytes(pt._tar_bytes(members))
    if shutil.which("zstd"):
        _quiet(["zstd", "-q", "-k", "notes.txt"], root)
    if shutil.which("openssl"):
        _quiet(
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "30",
                "-subj", "/CN=bench.example/O=Wrapgen Bench",
            ],
            root,
        )  # fmt: skip
    if shutil.which("hg"):  # the corpus is a Mercurial working copy: a.txt committed, then changed
        env = dict(os.environ, HGUSER="Alice <alice@example.com>", HGRCPATH="", HOME=str(root))
        _quiet(["hg", "init"], root, env)
        pt._write(root, {"a.txt": "one\n"})
        _quiet(["hg", "add", "a.txt"], root, env)
        _quiet(["hg", "commit", "-m", "first", "-d", "2026-01-01 10:00 +0000"], root, env)
        pt._write(root, {"a.txt": "one\ntwo\n"})
    pt._fix_times(root)
    return {"python": pt.sys.executable}


pt.FIXTURES["corpus"] = fixture_corpus
