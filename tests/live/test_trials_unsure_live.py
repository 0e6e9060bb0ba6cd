"""wrap against a tool whose help has no word for what its commands do (tests/fixtures/tools/wg-mute):
a write that no word decided is tried as a read, and what the trial shows decides.

- `tally FILE` prints its answer and writes nothing: a read after all;
- `zap FILE` deletes its sample file: a write, as proposed, now with the trial's reason;
- `peek [FILE]` prints nothing without FILE (its stdin is empty), its first line with one: a read
  with FILE required;
- `ping` fails and `hush` prints nothing: nothing shown, so each stays a write, untouched but for
  the trial's words in its x-why;
- its help looks like a clap program's (whose parser takes "--"), but its own parser refuses "--":
  a "--" only the family's look stood for is checked by a trial and dropped; check --probe reports it.
"""

from __future__ import annotations

import os
import shutil

import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from conftest import FIXTURES


def _on_path(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shutil.copy2(FIXTURES / "tools" / "wg-mute", bin_dir / "wg-mute")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")


def test_an_unsure_write_is_settled_by_its_trial(tmp_path, cli, monkeypatch):
    """A read the help gave no word for becomes a read; the others stay writes, each saying why."""
    _on_path(tmp_path, monkeypatch)
    picks = [a for name in ("tally", "zap", "ping", "hush", "peek") for a in ("--pick", name)]
    result = cli("wrap", "wg-mute", "-o", str(tmp_path / "out"), "--no-cache", *picks)
    assert result.exit_code == 0, result.stdout + result.stderr
    verbs = yaml.safe_load((tmp_path / "out" / "wg-mute" / "pack.yaml").read_text())["verbs"]
    assert verbs["tally"]["policy"] == {"effect": "read", "confirm": False}
    assert "treated as a write to be safe" not in verbs["tally"]["x-why"]
    assert "tried as a read: it wrote nothing and printed its answer" in verbs["tally"]["x-why"]
    assert verbs["zap"]["policy"] == {"effect": "write", "confirm": True}
    assert "deleted work/sample.txt" in verbs["zap"]["x-why"]
    for name, shown in (("ping", "cannot reach the widget server"), ("hush", "it printed nothing")):
        assert verbs[name]["policy"] == {"effect": "write", "confirm": True}, name
        assert "it stays a write" in verbs[name]["x-why"] and shown in verbs[name]["x-why"]
    assert verbs["peek"]["policy"]["effect"] == "read"
    assert verbs["peek"]["args"]["required"] == ["file"]
    assert "without file it printed nothing: file made required" in verbs["peek"]["x-why"]
    assert "kept-write" in result.stdout
    # the clap look said "--"; the tool's parser refuses it: the trials dropped it everywhere
    assert all("--" not in verb["cli"] for verb in verbs.values()), verbs


def test_check_probe_reports_a_double_dash_only_the_family_look_stood_for(
    tmp_path, cli, monkeypatch
):
    """A hand-written `tally -- {{file}}`: the help's clap look is no grammar, so --probe tries it."""
    _on_path(tmp_path, monkeypatch)
    pack = tmp_path / "packs" / "wg-mute"
    pack.mkdir(parents=True)
    tally = {
        "description": "Count the widgets of a file.",
        "cli": ["wg-mute", "tally", "--", "{{file}}"],
        "args": {
            "type": "object",
            "properties": {"file": {"type": "string", "description": "The widget file"}},
            "required": ["file"],
            "additionalProperties": False,
        },
        "policy": {"effect": "read", "confirm": False},
    }
    data = {
        "pack_id": "wg-mute",
        "description": "Widgets.",
        "bin": "wg-mute",
        "json": False,
        "verbs": {"tally": tally},
    }
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    assert cli("build", str(pack)).exit_code == 0
    probed = cli("check", "--probe", str(pack))
    assert "P004" in probed.stdout and "refuses '--'" in probed.stdout, probed.stdout


def test_an_unsure_write_offering_a_flag_no_read_may_have_stays_a_write(tmp_path, monkeypatch):
    """`tidy` reads when tried (without --fix), but its verb offers --fix, which rewrites the file it
    reads: it stays a write, and its x-why says which flag kept it one."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.model.proposal import Decision, Proposal
    from wrapgen.propose.policy import UNSURE_WRITE

    _on_path(tmp_path, monkeypatch)

    def tidy(cli):
        return {
            "description": "Put the widgets of a file in order.",
            "cli": cli,
            "args": {
                "type": "object",
                "properties": {
                    "file": {"type": "string", "description": "The widget file"},
                    "fix": {"type": "boolean", "description": "Put the widgets in order"},
                },
                "required": ["file"],
                "additionalProperties": False,
            },
            "policy": {"effect": "write", "confirm": True},
            "x-why": UNSURE_WRITE,
        }

    verbs = {
        "tidy": tidy(["wg-mute", "tidy", "--fix", "{{fix}}", "{{file}}"]),
        "order": tidy(["wg-mute", "tidy", "{{file}}"]),
    }
    manifest = {"pack_id": "wg-mute", "description": "Widgets.", "bin": "wg-mute", "json": False}
    manifest["verbs"] = verbs
    decisions = tuple(Decision("tidy", name, True, "write", UNSURE_WRITE) for name in verbs)
    tried, report = try_proposal(
        Proposal(manifest, decisions), bin_path=shutil.which("wg-mute"), cache=False
    )
    after = tried.manifest["verbs"]
    assert after["tidy"]["policy"] == {"effect": "write", "confirm": True}
    assert "it offers --fix rewrites the files it reads" in after["tidy"]["x-why"]
    assert after["order"]["policy"] == {"effect": "read", "confirm": False}  # the control
    assert [d.effect for d in tried.decisions] == ["write", "read"]


_RUNNER = """#!/bin/sh
# a test runner: without a test module in its working directory it says so and exits 5
if ! ls test_*.py >/dev/null 2>&1; then echo "no tests ran in 0.01s"; exit 5; fi
echo "1 passed in 0.01s"
"""


def test_a_test_runner_that_found_no_tests_is_tried_with_a_suite(tmp_path):
    """A runner no word labelled says "no tests ran" in the empty scratch directory: tried again in a
    working directory with a passing test in each common layout, it answers and writes nothing, so
    it is a read; the suite the trial made is named in its x-why."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.model.proposal import Decision, Proposal
    from wrapgen.propose.policy import UNSURE_WRITE

    tool = tmp_path / "wgtest"
    tool.write_text(_RUNNER)
    tool.chmod(0o755)
    manifest = {
        "pack_id": "wgtest",
        "description": "Runs tests.",
        "bin": "wgtest",
        "json": False,
        "verbs": {
            "wgtest": {
                "description": "Run the tests.",
                "cli": ["wgtest"],
                "policy": {"effect": "write", "confirm": True},
                "x-why": UNSURE_WRITE,
            }
        },
    }
    decisions = (Decision("", "wgtest", True, "write", UNSURE_WRITE),)
    tried, _ = try_proposal(Proposal(manifest, decisions), bin_path=str(tool), cache=False)
    verb = tried.manifest["verbs"]["wgtest"]
    assert verb["policy"] == {"effect": "read", "confirm": False}, verb["x-why"]
    assert "sample tests working directory" in verb["x-why"]
