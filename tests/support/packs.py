"""A pack directory written from a pack.yaml text, as the check tests need one: the derived files
(binding.json, adapter.py) are rendered straight from the text, with no lint, so a test can hand
check a pack that `wrapgen build` would refuse."""

from __future__ import annotations

from pathlib import Path

from wrapgen.check.rules import check_pack
from wrapgen.pack.build import render_pack_files
from wrapgen.pack.emit import write_files


def write_pack(root: Path, text: str, *, name: str = "mail", build: bool = True) -> Path:
    """``root/name`` holding ``text`` as pack.yaml, plus its derived files unless ``build`` is false."""
    pack = root / name
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "pack.yaml").write_text(text)
    if build:
        write_files(pack, render_pack_files(text.encode()))
    return pack


def findings(pack: Path, code: str) -> list:
    """check's findings on ``pack`` with this code."""
    return [d for d in check_pack(pack) if d.code == code]
