"""wrapgen check --probe: every rendered flag must be listed by the real tool's help."""

from __future__ import annotations

import shutil

from conftest import REPO, require_tool
from wrapgen.check.probe import probe_pack, rendered_flags, sample_args


def test_sample_args_cover_every_property():
    """Sample args give each property a value of its type, so every flag renders."""
    schema = {"properties": {
        "q": {"type": "string"}, "n": {"type": "integer", "minimum": 3}, "f": {"type": "boolean"},
        "s": {"type": "string", "enum": ["open", "closed"]}, "l": {"type": "array", "items": {"type": "string"}},
        "d": {"type": "integer", "default": 30},
    }}
    assert sample_args(schema) == {"q": "sample", "n": 3, "f": True, "s": "open", "l": ["sample"], "d": 30}


def test_rendered_flags_stop_at_double_dash():
    """Flags are read up to '--'; inline values are cut off."""
    assert rendered_flags(["git", "log", "--author=a", "-n", "5", "--", "-weird-path"]) == ["--author", "-n"]


def test_real_pack_passes_probe():
    """The generated rg pack renders only flags that `rg --help` lists."""
    require_tool("rg")
    assert probe_pack(REPO / "adapters" / "rg") == []


def test_misspelled_flag_is_reported(tmp_path):
    """A flag the tool does not know gives P001 naming the verb and the flag."""
    require_tool("rg")
    pack = tmp_path / "rg"
    shutil.copytree(REPO / "adapters" / "rg", pack)
    text = (pack / "pack.yaml").read_text().replace("cli: [rg, --type-list]", "cli: [rg, --type-lizt]")
    (pack / "pack.yaml").write_text(text)
    findings = probe_pack(pack)
    assert [(d.code, d.field) for d in findings] == [("P001", "verbs.list-types")]
    assert "--type-lizt" in findings[0].message


def test_probe_reads_man_page_and_global_options(cli):
    """git log's man page and `kubectl options` count as help: those packs probe clean."""
    require_tool("git")
    require_tool("kubectl")
    result = cli("check", "--probe", str(REPO / "adapters" / "git"), str(REPO / "adapters" / "kubectl"))
    assert result.exit_code == 0, result.stdout
    assert "P001" not in result.stdout
