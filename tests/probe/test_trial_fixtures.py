"""Trial inputs made in a scratch directory (wrapgen/probe/fixtures.py): each kind a real file of its format."""

from __future__ import annotations

import json
import sqlite3
import tarfile
import wave
import zipfile

import pytest

from wrapgen.knowledge.trials import fixture_file, fixture_kinds
from wrapgen.probe.fixtures import MAKERS, make_inputs

# kinds made with the standard library alone (git, openssl, zstd and lz4 ones: tests/live)
_PURE = sorted(k for k in fixture_kinds() if k not in ("git", "cert", "key", "zst", "lz4"))


def test_every_kind_the_knowledge_names_has_a_maker():
    """A kind trials.json names but no maker makes would leave a verb untried for nothing."""
    assert fixture_kinds() <= set(MAKERS)
    assert {
        "text",
        "json",
        "csv",
        "yaml",
        "sqlite",
        "tar",
        "zip",
        "zst",
        "git",
        "cert",
        "png",
        "wav",
    } <= fixture_kinds()


@pytest.mark.parametrize("kind", _PURE)
def test_each_pure_kind_is_made(tmp_path, kind):
    """make_inputs writes the kind's file under its name and says nothing went wrong."""
    assert make_inputs(str(tmp_path), [kind]) == ""
    assert (tmp_path / fixture_file(kind)).stat().st_size > 0


def test_the_files_are_what_their_names_say(tmp_path):
    """A JSON file parses, the database has tables and rows, the archives list members, the PNG,
    WAV and PDF open as such."""
    assert (
        make_inputs(str(tmp_path), ["json", "sqlite", "tar", "zip", "png", "wav", "pdf", "csv"])
        == ""
    )
    assert json.loads((tmp_path / "sample.json").read_text())["items"]
    with sqlite3.connect(tmp_path / "sample.db") as db:
        assert db.execute("select count(*) from items").fetchone()[0] == 3
    with tarfile.open(tmp_path / "sample.tar") as archive:
        assert "sample.txt" in archive.getnames()
    with zipfile.ZipFile(tmp_path / "sample.zip") as archive:
        assert archive.testzip() is None and "sample.txt" in archive.namelist()
    assert (tmp_path / "sample.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with wave.open(str(tmp_path / "sample.wav")) as sound:
        assert sound.getnframes() == 800
    pdf = (tmp_path / "sample.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert (tmp_path / "sample.csv").read_text().splitlines()[0] == "name,count,note"


def test_a_bzip2_file_and_an_elf_program(tmp_path):
    """The bzip2 sample decompresses to the sample text; the ELF sample is a program's copy."""
    import bz2

    assert make_inputs(str(tmp_path), ["bz2", "elf"]) == ""
    assert bz2.decompress((tmp_path / "sample.txt.bz2").read_bytes()).startswith(b"alpha beta")
    assert (tmp_path / "sample.elf").read_bytes()[:4] == b"\x7fELF"


def test_a_kind_that_cannot_be_made_says_why(tmp_path, monkeypatch):
    """An unknown kind, or a tool to make one that is missing, is a reason, not an exception."""
    assert "no sample movie can be made" in make_inputs(str(tmp_path), ["movie"])
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    said = make_inputs(str(tmp_path), ["zst"])
    assert "zstd is not installed here" in said
