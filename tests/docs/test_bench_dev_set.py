"""bench/dev_set.py draws its tools by rule: on PATH, with a page of enough examples, in neither
half of the benchmark, and by the first hex digit of their name's SHA-256."""

from __future__ import annotations

import hashlib
import json
import os

from support.bench import bench_module

from conftest import REPO


def _dev_set(monkeypatch):
    return bench_module("dev_set", monkeypatch)


def _page(root, name: str, examples: int) -> None:
    folder = root / "pages" / "common"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"# {name}", ""] + [f"- use {i}:\n\n`{name} --flag-{i}`\n" for i in range(examples)]
    (folder / f"{name}.md").write_text("\n".join(lines))


def test_the_set_is_drawn_by_rule(tmp_path, monkeypatch):
    module = _dev_set(monkeypatch)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    names = [f"wgdev{i}" for i in range(40)]
    for name in names:
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
        _page(tmp_path, name, 6)
    _page(tmp_path, "wgdevshort", 2)  # on PATH, but too few examples
    (bin_dir / "wgdevshort").write_text("#!/bin/sh\n")
    (bin_dir / "wgdevshort").chmod(0o755)
    _page(tmp_path, "wgdevabsent", 8)  # not on PATH
    benchmarked = json.loads((REPO / "bench" / "data" / "tools.json").read_text())["tools"][0]
    _page(tmp_path, benchmarked["tool"], 8)  # in the benchmark: never in the dev set
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    drawn = module.candidates(tmp_path, "01234567", 6)
    expected = [n for n in sorted(names) if hashlib.sha256(n.encode()).hexdigest()[0] in "01234567"]
    assert drawn == expected and 0 < len(drawn) < len(names)
    other = module.candidates(tmp_path, "89abcdef", 6)
    assert not set(drawn) & set(other) and sorted(drawn + other) == sorted(names)
