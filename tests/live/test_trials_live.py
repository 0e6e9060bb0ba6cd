"""Try before you ship, for real: bubblewrap and real tools show each class of evidence.

Each pack here is a small hand-written pack whose verbs run real programs (tail -f, sleep, touch,
cp, git, jq, echo) in the sandbox through `wrapgen check --try`; the last tests wrap a fixture tool
end to end and show what `wrapgen wrap` drops, relabels and records in `x-why`.
"""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
import textwrap
from pathlib import Path

import pytest
import yaml
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

from wrapgen.probe.sandbox import reset_sandbox_status


def _pack(
    root: Path, pack_id: str, bin_name: str, verbs: dict, *, json_sel=False, cli, build=True
) -> Path:
    pack = root / pack_id
    pack.mkdir(parents=True)
    data = {
        "pack_id": pack_id,
        "description": f"Trials of {bin_name}.",
        "bin": bin_name,
        "json": json_sel,
        "verbs": verbs,
    }
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    if build:  # (trials need only pack.yaml; a git pack without the hardening env does not build)
        result = cli("build", str(pack))
        assert result.exit_code == 0, result.stdout + result.stderr
    return pack


def _read(cli_, description="A verb.", **extra):
    return {
        "description": description,
        "cli": cli_,
        "policy": {"effect": "read", "confirm": False},
        **extra,
    }


def _tried(cli, *args):
    result = cli("check", "--try", "--format", "json", *args)
    assert "Traceback" not in result.stderr
    return result, json.loads(result.stdout)


def _codes(report) -> dict[str, str]:
    return {f["field"]: f["code"] for f in report["findings"] if f["code"].startswith("W06")}


def test_streaming_and_long_running_reads_are_found(tmp_path, cli):
    """`tail -f` (streaming: printed and kept going) and `sleep` (silent) are still running at the timeout."""
    _pack(tmp_path, "tail", "tail", {"follow": _read(["tail", "-f", "/etc/hostname"])}, cli=cli)
    _pack(tmp_path, "sleep", "sleep", {"wait": _read(["sleep", "30"])}, cli=cli)
    result, report = _tried(cli, str(tmp_path))
    assert result.exit_code == 1
    assert _codes(report) == {"verbs.follow": "W060", "verbs.wait": "W060"}
    assert any(
        "tail" in line and "printed output and kept running" in line for line in report["trials"]
    )
    assert any(
        "sleep" in line and "printed nothing and kept running" in line for line in report["trials"]
    )


def test_a_read_verb_that_writes_is_not_a_read(tmp_path, cli):
    """`touch` creates a file in the scratch cwd; `mkdir /var/...` meets the read-only file system."""
    _pack(tmp_path, "touch", "touch", {"stamp": _read(["touch", "made-by-a-read.txt"])}, cli=cli)
    _pack(
        tmp_path, "mkdir", "mkdir", {"make": _read(["mkdir", "/var/wrapgen-trial-test"])}, cli=cli
    )
    result, report = _tried(cli, str(tmp_path))
    assert _codes(report) == {"verbs.stamp": "W062", "verbs.make": "W062"}
    assert any("created work/made-by-a-read.txt" in line for line in report["trials"])
    assert any("read-only file system" in line for line in report["trials"])
    assert not Path("made-by-a-read.txt").exists() and not Path("/var/wrapgen-trial-test").exists()


def test_a_verb_without_its_operand_exits_with_its_usage(tmp_path, cli):
    """`cp` with no operand: "missing file operand"."""
    _pack(tmp_path, "cp", "cp", {"copy": _read(["cp"])}, cli=cli)
    _, report = _tried(cli, str(tmp_path))
    assert _codes(report) == {"verbs.copy": "W063"}


def test_json_selected_but_not_json(tmp_path, cli):
    """echo with a 'JSON selection' prints text: W064; jq -c prints JSON: fine."""
    _pack(tmp_path, "echo", "echo", {"say": _read(["echo", "hello"])}, json_sel=["-n"], cli=cli)
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    _pack(tmp_path, "jq", "jq", {"obj": _read(["jq", "-n", '{"a": 1}'])}, json_sel=["-c"], cli=cli)
    _, report = _tried(cli, str(tmp_path))
    assert _codes(report) == {"verbs.say": "W064"}
    assert any(
        "obj: tried: it ran and exited 0 (and printed JSON)" in line for line in report["trials"]
    )


def _repo(path: Path) -> Path:
    path.mkdir()
    env = {
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(path),
        "PATH": "/usr/bin:/bin",
    }
    for argv in (
        ["git", "init", "-q"],
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "first",
        ],
    ):
        subprocess.run(argv, cwd=path, env=env, check=True)
    (path / "notes.txt").write_text("hello\n")
    return path


def test_git_not_a_repository_is_context_and_try_in_tries_it_on_a_repository(tmp_path, cli):
    """`git show HEAD` outside a repository is context (no finding); in a --try-in copy it runs; a
    `git commit` mislabelled read waits for an editor: interactive."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    packs = tmp_path / "packs"
    env = {
        "set": {
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        }
    }
    pack = _pack(
        packs,
        "git",
        "git",
        {
            "show": _read(
                ["git", "show", "--no-patch", "{{rev}}"],
                args={
                    "type": "object",
                    "properties": {"rev": {"type": "string", "description": "revision"}},
                    "required": ["rev"],
                },
            ),
            "commit": _read(["git", "commit", "--allow-empty"]),
        },
        cli=cli,
        build=False,
    )
    data = yaml.safe_load((pack / "pack.yaml").read_text())
    data["env"] = env
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    _, bare = _tried(cli, str(pack))
    assert "verbs.show" not in _codes(bare)
    assert any(
        "show: tried: it needs a working directory with content" in line
        and "not a git repository" in line
        for line in bare["trials"]
    )
    repo = _repo(tmp_path / "repo")
    before = sorted(p.name for p in (repo / ".git").iterdir())
    _, inside = _tried(cli, "--try-in", str(repo), str(pack))
    assert any("show: tried: it ran and exited 0" in line for line in inside["trials"]), inside[
        "trials"
    ]
    assert _codes(inside) == {"verbs.commit": "W061"}
    assert sorted(p.name for p in (repo / ".git").iterdir()) == before, (
        "the user's directory is only copied"
    )


def test_gh_without_a_login_could_not_be_tried(tmp_path, cli):
    """A tool that needs a login the sandbox does not give: "could not be tried", no finding."""
    if shutil.which("gh") is None:
        pytest.skip("gh is not installed")
    _pack(tmp_path, "gh", "gh", {"issues": _read(["gh", "issue", "list"])}, cli=cli)
    result, report = _tried(cli, str(tmp_path))
    assert result.exit_code == 0 and not _codes(report)
    assert any("could not be tried" in line for line in report["trials"])


def test_without_a_sandbox_nothing_runs_and_it_is_said_once(tmp_path, cli, monkeypatch):
    """WRAPGEN_SANDBOX=off: one line for all packs, and the writing verb did not run unsandboxed."""
    _pack(
        tmp_path, "touch", "touch", {"stamp": _read(["touch", str(tmp_path / "written")])}, cli=cli
    )
    _pack(tmp_path, "tail", "tail", {"follow": _read(["tail", "-f", "/etc/hostname"])}, cli=cli)
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    result = cli("check", "--try", str(tmp_path))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert result.stdout.count("nothing was tried") == 1
    assert not (tmp_path / "written").exists()


_SVC = textwrap.dedent('''\
    #!/usr/bin/env python3
    """svcctl: look after the services of a small site."""
    import argparse, json, os, sys, time
    p = argparse.ArgumentParser(prog="svcctl", description="Look after the services of a small site.")
    sub = p.add_subparsers(dest="cmd", title="commands")
    s = sub.add_parser("list", help="List the services")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("status", help="Show the status of the site")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("history", help="Show the history of the site")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("cache", help="Show the cached entries")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("describe", help="Describe the site")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("ping", help="Show whether the server answers")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("remove", help="Remove a service")
    s.add_argument("name", help="The service")
    a, rest = p.parse_known_args()
    if a.cmd == "list":
        print(json.dumps([{"name": "web"}]))
    elif a.cmd == "status":
        print("all services up")
    elif a.cmd == "history":
        while True:
            print("event", flush=True)
            time.sleep(0.2)
    elif a.cmd == "cache":
        open("svcctl.lock", "w").write("x")
        print("[]")
    elif a.cmd == "describe":
        sys.exit("usage: svcctl describe NAME\\nsvcctl describe: error: the following arguments are required: NAME")
    elif a.cmd == "ping":
        sys.exit("svcctl: dial tcp 127.0.0.1:9000: connect: connection refused")
''')


def test_wrap_acts_on_what_its_trials_show(tmp_path, cli):
    """wrap drops the streaming and operand-less reads, relabels the writing one, drops a wrong JSON
    selection, keeps the unreachable one, and a second wrap --check finds the same bytes."""
    tool = tmp_path / "bin" / "svcctl"
    tool.parent.mkdir()
    tool.write_text(_SVC)
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    out = tmp_path / "out"
    picks = [
        a
        for cmd in ("list", "status", "history", "cache", "describe", "ping", "remove")
        for a in ("--pick", cmd)
    ]
    result = cli("wrap", str(tool), "-o", str(out), "--no-cache", *picks)
    assert result.exit_code == 0, result.stdout + result.stderr
    data = yaml.safe_load((out / "svcctl" / "pack.yaml").read_text())
    verbs = data["verbs"]
    assert "history" not in verbs and "describe" not in verbs
    assert verbs["cache"]["policy"] == {"effect": "write", "confirm": True}
    assert "created work/svcctl.lock" in verbs["cache"]["x-why"]
    assert verbs["status"]["json"] is False and "not JSON" in verbs["status"]["x-why"]
    assert "could not be tried" in verbs["ping"]["x-why"]
    assert "it ran and exited 0 (and printed JSON)" in verbs["list"]["x-why"]
    assert "rendered with sample args, never run" in verbs["remove"]["x-why"]
    assert (
        "still running at the trial's timeout" in result.stdout
        and "lacks an operand" in result.stdout
    )
    again = cli("wrap", str(tool), "-o", str(out), "--check", *picks)
    assert again.exit_code == 0 and "check: up to date" in again.stdout, again.stdout
    skipped = cli("wrap", str(tool), "-o", str(tmp_path / "plain"), "--no-try", *picks)
    assert "trials:" not in skipped.stdout
    plain = yaml.safe_load((tmp_path / "plain" / "svcctl" / "pack.yaml").read_text())
    assert "history" in plain["verbs"] and plain["verbs"]["cache"]["policy"]["effect"] == "read"


def test_a_sandbox_that_fails_to_start_is_one_message(tmp_path, cli, monkeypatch):
    """A bwrap that passes its start-up check (`bwrap ... true`) but fails every trial: one line, no traceback."""
    fake = tmp_path / "fakebin" / "bwrap"
    fake.parent.mkdir()
    real = shutil.which("bwrap")
    fake.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        for last; do :; done
        case "$last" in */true) exec {real} "$@";; esac
        echo "bwrap: Can't mount proc on /newroot/proc: Operation not permitted" >&2
        exit 1
        """)
    )
    fake.chmod(0o755)
    _pack(
        tmp_path / "packs",
        "tail",
        "tail",
        {"follow": _read(["tail", "-f", "/etc/hostname"])},
        cli=cli,
    )
    _pack(tmp_path / "packs", "cp", "cp", {"copy": _read(["cp"])}, cli=cli)
    monkeypatch.setenv("PATH", f"{fake.parent}:{__import__('os').environ['PATH']}")
    reset_sandbox_status()
    result = cli("check", "--try", str(tmp_path / "packs"))
    assert "Traceback" not in result.stderr and result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.count("trials: the sandbox failed to start (bwrap: Can't mount proc") == 1
    assert "W060" not in result.stdout and "W063" not in result.stdout


def test_an_unchanged_tool_is_not_tried_twice_unless_asked(tmp_path, monkeypatch):
    """wrap's trials are cached like discovery (same binary, argv, env); cache=False and timeouts run again."""
    from wrapgen.probe import trial

    calls = []
    real = trial._one
    monkeypatch.setattr(
        trial, "_one", lambda spec, **kw: calls.append(spec.verb) or real(spec, **kw)
    )
    specs = [
        trial.TrialSpec("show", ("cat", "/etc/hostname")),
        trial.TrialSpec("wait", ("cat", "/dev/zero-nope")),
    ]
    first = trial.run_trials(specs, bin_path=shutil.which("cat"))
    again = trial.run_trials(specs, bin_path=shutil.which("cat"))
    assert sorted(calls) == ["show", "wait"], "the second run spawned nothing"
    assert [(o.exit_code, o.stdout) for o in again.outcomes] == [
        (o.exit_code, o.stdout) for o in first.outcomes
    ]
    trial.run_trials(specs, bin_path=shutil.which("cat"), cache=False)
    assert len(calls) == 4
    sleeper = [trial.TrialSpec("nap", ("sleep", "30"))]
    trial.run_trials(sleeper, bin_path=shutil.which("sleep"), timeout_s=0.5)
    trial.run_trials(sleeper, bin_path=shutil.which("sleep"), timeout_s=0.5)
    assert calls.count("nap") == 2, "a timeout is not cached"


def test_bad_try_in_and_try_timeout_are_usage_errors(tmp_path, cli, monkeypatch):
    """--try-in that is no directory, or too large to copy per trial, and a silly --try-timeout: exit 2, no traceback."""
    from wrapgen.flows import trial_run

    _pack(tmp_path, "cp", "cp", {"copy": _read(["cp"])}, cli=cli)
    missing = cli("check", "--try", "--try-in", str(tmp_path / "nope"), str(tmp_path))
    assert (
        missing.exit_code == 2
        and "not a directory" in missing.stderr
        and "Traceback" not in missing.stderr
    )
    big = tmp_path / "big"
    big.mkdir()
    for n in range(5):
        (big / f"f{n}").write_text("x")
    monkeypatch.setattr(trial_run, "TRY_IN_MAX_FILES", 3)
    large = cli("check", "--try", "--try-in", str(big), str(tmp_path / "cp"))
    assert large.exit_code == 2 and "too large" in large.stderr
    alone = cli("check", "--try-in", str(big), str(tmp_path / "cp"))
    assert alone.exit_code == 2 and "--try-in needs --try" in alone.stderr
    timeout = cli("wrap", "cp", "-o", str(tmp_path / "o"), "--try-timeout", "0")
    assert timeout.exit_code == 2 and "--try-timeout" in timeout.stderr
    zero = cli("check", "--try", "--try-timeout", "0", str(tmp_path / "cp"))
    assert zero.exit_code == 2 and "--try-timeout must be above 0" in zero.stderr
    bare = cli("check", "--try-timeout", "5", str(tmp_path / "cp"))
    assert bare.exit_code == 2 and "--try-timeout needs --try" in bare.stderr


def test_a_streaming_flag_is_dropped_when_the_verb_then_finishes():
    """`tail -f -- FILE` streams; tried again without -f it prints the file and exits: the pack keeps
    `tail -- FILE`. `tail --follow=name --retry` has no exact streaming token to drop: it is left out."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.propose.core import Decision, Proposal

    read = {"effect": "read", "confirm": False}
    manifest = {
        "pack_id": "tail",
        "description": "T.",
        "bin": "tail",
        "json": False,
        "verbs": {
            "follow": {
                "description": "F.",
                "cli": ["tail", "-n", "1", "-f", "--", "/etc/hostname"],
                "policy": read,
            },
            "wait": {
                "description": "W.",
                "cli": ["tail", "--follow=name", "--retry", "--", "missing"],
                "policy": read,
            },
        },
    }
    decisions = (
        Decision("follow", "follow", True, "read", "picked"),
        Decision("wait", "wait", True, "read", "picked"),
    )
    proposal, report = try_proposal(
        Proposal(manifest, decisions), bin_path=shutil.which("tail"), cache=False
    )
    follow = proposal.manifest["verbs"]["follow"]
    assert follow["cli"] == ["tail", "-n", "1", "--", "/etc/hostname"]
    assert "with -f: -f dropped; without it tried: it ran and exited 0" in follow["x-why"]
    assert "wait" not in proposal.manifest["verbs"] and [d.name for d in proposal.chosen] == [
        "follow"
    ]
    left = next(d for d in proposal.decisions if d.path == "wait")
    assert not left.chosen and "still running at the trial's timeout" in left.reason


_CONV = """#!/bin/sh
# a converter whose --to-json reads only stdin; --json works on files; 'broken' always fails
for arg in "$@"; do
  case "$arg" in
    broken) echo "error: the converter is broken" >&2; exit 3 ;;
    --to-json) echo "error: --to-json can only be used with stdin" >&2; exit 2 ;;
    --json) echo '{"rows": 1}'; exit 0 ;;
  esac
done
echo "rows 1"
"""


def test_a_json_selection_that_breaks_a_read_is_dropped(tmp_path):
    """A read that fails with its JSON selection (a switch its command takes only for stdin) and
    answers without it goes on with none, the failure's words in its x-why; a selection that works
    stays, and so does one of a read that fails either way (the selection is not what broke it)."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.propose.core import Decision, Proposal

    tool = tmp_path / "wgconv"
    tool.write_text(_CONV)
    tool.chmod(0o755)
    verbs = {
        "stdin-only": {"cli": ["wgconv", "{{file}}"], "json": ["--to-json"]},
        "works": {"cli": ["wgconv", "{{file}}"], "json": ["--json"]},
        "broken": {"cli": ["wgconv", "broken"], "json": ["--to-json"]},
    }
    read = {"effect": "read", "confirm": False}
    file_arg = {"type": "object", "properties": {"file": {"type": "string"}}, "required": ["file"]}
    manifest = {
        "pack_id": "wgconv",
        "description": "C.",
        "bin": "wgconv",
        "json": False,
        "verbs": {
            name: {
                "description": "A verb.",
                "policy": read,
                **({"args": file_arg} if "{{file}}" in body["cli"] else {}),
                **body,
            }
            for name, body in verbs.items()
        },
    }
    decisions = tuple(Decision(name, name, True, "read", "picked") for name in verbs)
    proposal, _ = try_proposal(Proposal(manifest, decisions), bin_path=str(tool), cache=False)
    out = proposal.manifest["verbs"]
    assert out["stdin-only"]["json"] is False
    assert (
        "with its JSON selection it failed" in out["stdin-only"]["x-why"]
        and "can only be used with stdin" in out["stdin-only"]["x-why"]
    ), out["stdin-only"]["x-why"]
    assert out["works"]["json"] == ["--json"]
    assert out["broken"]["json"] == ["--to-json"]


_FILTER = """#!/bin/sh
# a filter that reads its file operand, or standard input without one (empty in a trial)
if [ $# -eq 0 ]; then echo "error: unexpected EOF on standard input" >&2; exit 3; fi
for arg in "$@"; do
  case "$arg" in
    bad) echo "error: bad input" >&2; exit 4 ;;
  esac
done
cat -- "$@"
"""


def test_a_read_that_failed_on_empty_stdin_gets_its_optional_operand(tmp_path):
    """A filter that reads standard input when called without its file fails in a trial (its stdin
    is empty); tried again with a sample file it answers, so the file becomes required, the trial's
    words in its x-why. A read that fails with the file too keeps its operand optional."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.propose.core import Decision, Proposal

    tool = tmp_path / "wgfilter"
    tool.write_text(_FILTER)
    tool.chmod(0o755)
    read = {"effect": "read", "confirm": False}
    file_arg = {"type": "object", "properties": {"file": {"type": "string"}}}
    manifest = {
        "pack_id": "wgfilter",
        "description": "A filter of text files.",
        "bin": "wgfilter",
        "json": False,
        "verbs": {
            "show": {
                "description": "Show a file.",
                "cli": ["wgfilter", "--", "{{file}}"],
                "args": file_arg,
                "policy": read,
            },
            "broken": {
                "description": "Show a file, badly.",
                "cli": ["wgfilter", "bad", "{{file}}"],
                "args": file_arg,
                "policy": read,
            },
        },
    }
    decisions = tuple(Decision(n, n, True, "read", "picked") for n in manifest["verbs"])
    proposal, _ = try_proposal(Proposal(manifest, decisions), bin_path=str(tool), cache=False)
    verbs = proposal.manifest["verbs"]
    assert verbs["show"]["args"].get("required") == ["file"], verbs["show"]
    assert "without file it failed: file made required" in verbs["show"]["x-why"]
    assert not verbs.get("broken", {}).get("args", {}).get("required")


def test_a_json_twin_whose_selection_breaks_it_is_left_out(tmp_path):
    """``show.json`` beside ``show``: its selection fails and without it it runs what ``show`` runs,
    so it is left out with the failure's words, and ``show`` stays."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.propose.core import Decision, Proposal

    tool = tmp_path / "wgconv"
    tool.write_text(_CONV)
    tool.chmod(0o755)
    read = {"effect": "read", "confirm": False}
    file_arg = {"type": "object", "properties": {"file": {"type": "string"}}, "required": ["file"]}
    body = {"description": "Show.", "cli": ["wgconv", "{{file}}"], "args": file_arg, "policy": read}
    manifest = {
        "pack_id": "wgconv",
        "description": "C.",
        "bin": "wgconv",
        "json": False,
        "verbs": {"show": body, "show.json": {**body, "json": ["--to-json"]}},
    }
    decisions = tuple(Decision(n, n, True, "read", "picked") for n in manifest["verbs"])
    proposal, _ = try_proposal(Proposal(manifest, decisions), bin_path=str(tool), cache=False)
    assert list(proposal.manifest["verbs"]) == ["show"]
    left = next(d for d in proposal.decisions if d.path == "show.json")
    assert not left.chosen and "text twin" in left.reason, left.reason
