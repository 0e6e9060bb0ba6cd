"""wrap against a tool without subcommands whose help has no word for what it does
(tests/fixtures/tools/wg-form), with a script that uses three forms of it: its main mode's trial
shows a read, so do its forms' where they answer, and a form whose own trial gives no clean answer
(its switch refused the made-up sample) does what the main mode does: a read too, saying why."""

from __future__ import annotations

import os
import shutil

import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES


def test_forms_of_a_main_mode_its_trial_found_a_read_are_reads(tmp_path, cli, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-form", bin_dir / "wg-form")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "report.sh").write_text(
        "#!/bin/sh\nwg-form data.txt\nwg-form --upper data.txt\nwg-form --pick gear data.txt\n"
    )
    result = cli(
        "wrap",
        "wg-form",
        "-o",
        str(tmp_path / "out"),
        "--no-cache",
        "--usage-from",
        str(scripts),
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "wg-form" / "pack.yaml").read_text())["verbs"]
    pick = next(
        v
        for v in verbs.values()
        if "--pick" in v["cli"] and "pick" in v["args"].get("required", [])
    )
    upper = next(v for v in verbs.values() if "--upper" in v["cli"])
    main = next(v for v in verbs.values() if "the tool's main mode" in v["x-why"])
    assert main["policy"]["effect"] == "read" and upper["policy"]["effect"] == "read"
    assert pick["policy"] == {"effect": "read", "confirm": False}, pick["x-why"]
    assert "a form does what it does" in pick["x-why"] and "no widget" in pick["x-why"]
    # the script's value is counted, never copied
    assert "gear" not in (tmp_path / "out" / "wg-form" / "pack.yaml").read_text()
