"""`wrapgen check --probe` reads a pack's tool as discovery does: in the probe sandbox, with the
probes' environment and a scratch HOME. A pack's bin may be any program, and this one writes into
HOME and next to itself when asked for help, and prints a token it finds in its environment."""

from __future__ import annotations

import sys
import textwrap

from tests.support.packs import write_pack
from tests.support.sandbox import sandbox_required as _sandbox  # noqa: F401  (autouse)


def _tool(tmp_path, marker):
    script = tmp_path / "bin" / "helpy"
    script.parent.mkdir()
    script.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import os
        for target in ({str(marker)!r}, os.path.join(os.environ.get("HOME", "/nonexistent"), "touched")):
            try:
                open(target, "w").write("ran")
            except OSError:
                pass
        print("usage: helpy list [--limit N]")
        print("  --limit N   at most N lines")
        if os.environ.get("GH_TOKEN"):
            print("  --token-was-" + os.environ["GH_TOKEN"])
        """)
    )
    script.chmod(0o755)
    return script


def test_check_probe_reads_help_in_the_sandbox(cli, tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GH_TOKEN", "secret123")
    script = _tool(tmp_path, marker)
    pack = write_pack(
        tmp_path / "packs",
        textwrap.dedent(f"""\
        pack_id: helpy
        description: Lists things.
        bin: {script}
        json: false
        verbs:
          list:
            description: List things.
            cli: [{script}, list, '--limit={{{{limit}}}}', '--token-was-secret123={{{{x}}}}']
            args:
              type: object
              properties:
                limit: {{type: integer, description: At most this many.}}
                x: {{type: string, maxLength: 10, pattern: '^[a-z]+$', description: A word.}}
              additionalProperties: false
            policy: {{effect: read, confirm: false}}
        """),
        name="helpy",
    )
    result = cli("check", "--probe", str(pack))
    # --limit is in the help; the token flag would be only if the caller's GH_TOKEN had reached the tool
    assert "P001" in result.stdout and "--token-was-secret123" in result.stdout, result.stdout
    assert "'--limit'" not in result.stdout
    assert not marker.exists() and not (home / "touched").exists()
