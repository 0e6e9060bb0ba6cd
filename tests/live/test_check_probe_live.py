"""wrapgen check --probe against the real tools: every rendered flag must be listed by the tool's help."""

from __future__ import annotations

import shutil

from conftest import REPO, require_tool
from wrapgen.check.probe import probe_pack


def test_real_pack_passes_probe():
    """The generated rg pack renders only flags that `rg --help` lists."""
    require_tool("rg")
    assert probe_pack(REPO / "adapters" / "rg") == []


def test_misspelled_flag_is_reported(tmp_path):
    """A flag the tool does not know gives P001 naming the verb and the flag."""
    require_tool("rg")
    pack = tmp_path / "rg"
    shutil.copytree(REPO / "adapters" / "rg", pack)
    text = (
        (pack / "pack.yaml").read_text().replace("cli: [rg, --type-list]", "cli: [rg, --type-lizt]")
    )
    (pack / "pack.yaml").write_text(text)
    findings = probe_pack(pack)
    assert [(d.code, d.field) for d in findings] == [("P001", "verbs.list-types")]
    assert "--type-lizt" in findings[0].message


def test_probe_reads_man_page_and_global_options(cli):
    """git log's man page and `kubectl options` count as help: those packs probe clean."""
    require_tool("git")
    require_tool("kubectl")
    result = cli(
        "check", "--probe", str(REPO / "adapters" / "git"), str(REPO / "adapters" / "kubectl")
    )
    assert result.exit_code == 0, result.stdout
    assert "P001" not in result.stdout
