"""Programs on reads, as a class (issue 28 item 7), on real tools: a flag whose value is a program
(pandoc's --filter=PROGRAM, --lua-filter), a self-update flag (yt-dlp's -U/--update) or one that runs
a command (yt-dlp's --exec) is never on a read verb of a fresh pack, and check's W030 finds each on a
hand-edited one. (Before the class, pandoc's fresh pack had --filter on 4 reads and yt-dlp's --update
on every verb.) ruff's --add-noqa ("additions of `noqa` directives to failing lines") rewrites what
it reads, by its help's words, and stays off its reads too."""

from __future__ import annotations

import pytest
import yaml

from tests.conftest import require_tool
from wrapgen.check.rules import check_pack

FORBIDDEN = {
    "pandoc": ("--filter", "-F", "--lua-filter", "-L"),
    "yt-dlp": ("--update", "-U", "--update-to", "--exec", "--netrc-cmd"),
    # adds noqa / ignore comments into the files it checks: a rewrite in place (its help's words)
    "ruff": ("--fix", "--add-noqa", "--add-ignore"),
}


@pytest.mark.parametrize("tool", sorted(FORBIDDEN))
def test_a_fresh_pack_offers_no_program_flag_on_a_read(tool, tmp_path, cli, monkeypatch):
    require_tool(tool)
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "packs"
    result = cli("wrap", tool, "-o", str(out), "--no-try")
    assert result.exit_code == 0, result.stdout + result.stderr
    pack = out / tool
    data = yaml.safe_load((pack / "pack.yaml").read_text())
    for name, verb in data["verbs"].items():
        if verb["policy"]["effect"] != "read":
            continue
        tokens = [str(t).split("=")[0] for t in verb.get("cli", [])]
        assert not set(tokens) & set(FORBIDDEN[tool]), (name, verb["cli"])
    assert not [d for d in check_pack(pack) if d.code == "W030"]
    # the same pack with one of them put back by hand is refused
    name, verb = next((n, v) for n, v in data["verbs"].items() if v["policy"]["effect"] == "read")
    verb["cli"] = [verb["cli"][0], f"{FORBIDDEN[tool][0]}=./evil", *verb["cli"][1:]]
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    assert any(d.code == "W030" for d in check_pack(pack))
