"""Trial inputs made by the tools installed here: a git repository, a certificate and key, a zstd and
an lz4 archive; and an ELF program a binary inspector reads."""

from __future__ import annotations

import subprocess

import pytest

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


@pytest.mark.parametrize(("kind", "tool"), [("zst", "zstd"), ("lz4", "lz4")])
def test_a_compressed_archive(tmp_path, kind, tool):
    """The compressor decompresses the archive made for a trial to the sample text, and only the
    archive is left."""
    require_tool(tool)
    assert make_inputs(str(tmp_path), [kind]) == ""
    out = subprocess.run(
        [tool, "-d", "-c", str(tmp_path / f"sample.txt.{kind}")], capture_output=True, check=True
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
