"""Trial inputs made by the tools installed here: a git repository, a certificate and key, a zstd and
an lz4 archive; and an ELF program a binary inspector reads."""

from __future__ import annotations

import subprocess

from conftest import require_tool
from wrapgen.probe.fixtures import make_inputs


def test_a_git_repository_with_a_commit_and_a_change(tmp_path):
    """The repository operand and the repository working directory both have a commit and a change."""
    require_tool("git")
    assert make_inputs(str(tmp_path), ["git", "cwd:git"]) == ""
    for where in (tmp_path / "sample-repo", tmp_path):
        log = subprocess.run(
            ["git", "-C", str(where), "log", "--oneline"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert "A first commit" in log.stdout
        status = subprocess.run(
            ["git", "-C", str(where), "status", "--porcelain"], capture_output=True, text=True
        )
        assert " M sample.txt" in status.stdout


def test_a_certificate_and_its_key(tmp_path):
    """openssl reads the certificate made for a trial, and its key beside it."""
    require_tool("openssl")
    assert make_inputs(str(tmp_path), ["cert"]) == ""
    shown = subprocess.run(
        ["openssl", "x509", "-in", str(tmp_path / "sample.crt"), "-noout", "-subject"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "example.com" in shown.stdout
    assert (tmp_path / "sample.key").read_text().startswith("-----BEGIN")


def test_a_zstd_archive(tmp_path):
    """zstd decompresses the archive made for a trial to the sample text."""
    require_tool("zstd")
    assert make_inputs(str(tmp_path), ["zst"]) == ""
    out = subprocess.run(
        ["zstd", "-d", "-c", str(tmp_path / "sample.txt.zst")], capture_output=True, check=True
    )
    assert out.stdout.startswith(b"alpha beta")
    assert not (tmp_path / "sample.txt").exists()  # only the archive is left


def test_an_lz4_archive(tmp_path):
    """lz4 decompresses the archive made for a trial to the sample text."""
    require_tool("lz4")
    assert make_inputs(str(tmp_path), ["lz4"]) == ""
    out = subprocess.run(
        ["lz4", "-d", "-c", str(tmp_path / "sample.txt.lz4")], capture_output=True, check=True
    )
    assert out.stdout.startswith(b"alpha beta")
    assert not (tmp_path / "sample.txt").exists()


def test_an_elf_program_a_binary_inspector_reads(tmp_path):
    """readelf reads the ELF sample's header."""
    require_tool("readelf")
    assert make_inputs(str(tmp_path), ["elf"]) == ""
    out = subprocess.run(
        ["readelf", "-h", str(tmp_path / "sample.elf")], capture_output=True, text=True, check=True
    )
    assert "ELF Header" in out.stdout
