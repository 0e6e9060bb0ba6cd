"""Trial evidence (wrapgen/check/trial_evidence.py): pure classification of recorded trial outputs,
sample args, what wrap does with the evidence, and the W060-W064 rules of `check --try`."""

from __future__ import annotations

import textwrap

import pytest

from wrapgen.check.trial_evidence import (
    KINDS,
    TRIAL_CODES,
    Evidence,
    apply_evidence,
    classify,
    sample_args,
)
from wrapgen.model.trial import TrialOutcome

# What real tools printed in the sandbox (recorded on this machine; scratch paths already scrubbed).
GH_NO_LOGIN = (
    "To get started with GitHub CLI, please run:  gh auth login\n"
    "Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.\n"
)
KUBECTL_NO_CLUSTER = (
    'E1201 10:24:28.599778       2 memcache.go:265] "Unhandled Error" err="couldn\'t get current '
    'server API group list: Get \\"http://localhost:8080/api?timeout=32s\\": dial tcp '
    '127.0.0.1:8080: connect: connection refused"\n'
)
KUBECTL_GET_BARE = (
    'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of '
    "supported resources.\n\nerror: Required resource not specified.\n"
)
KUBECTL_LOGS_BARE = (
    "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a "
    "required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n"
)
KUBECTL_TOP_BARE = (
    "Display resource (CPU/memory) usage.\n\nAvailable Commands:\n  node          Display resource "
    "(CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods\n\n"
    "Usage:\n  kubectl top [flags] [options]\n"
)
GIT_NO_REPO = (
    "fatal: not a git repository (or any parent up to mount point <scratch>)\n"
    "Stopping at filesystem boundary (GIT_DISCOVERY_ACROSS_FILESYSTEM not set).\n"
)
CLOUD_NO_AUTH = "Missing value auth-url required for auth plugin password\n"
CLOUD_NO_CREDENTIALS = (
    'Unable to locate credentials. You can configure credentials by running "tool configure".\n'
)
DOCKER_NO_DAEMON = "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n"
CURL_NO_NET = "curl: (6) Could not resolve host: example.com\n"
GIT_COMMIT_NO_EDITOR = (
    "error: Terminal is dumb, but EDITOR unset\nPlease supply the message using either -m or -F "
    "option.\n"
)
DOCKER_NO_TTY = "the input device is not a TTY\n"
# a Node CLI's key-by-key prompt without a terminal on its standard input (heroku search)
NODE_RAW_MODE = (
    "TypeError: process.stdin.setRawMode is not a function\n"
    "    at Prompt.onKeypress (node_modules/prompt/index.js:12:5)\n"
)
MKDIR_EROFS = "mkdir: cannot create directory '/var/lib/x': Read-only file system\n"
ARGPARSE_MISSING = (
    "usage: tool show [-h] name\ntool show: error: the following arguments are required: name\n"
)

PS_NO_USER = "error: user name does not exist\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n"
CARGO_NO_MANIFEST = (
    "error: could not find `Cargo.toml` in `<scratch>/work` or any parent directory\n"
)
COMPOSE_NO_CONFIG = (
    "Can't find a suitable configuration file in this directory or any\n"
    "parent. Are you in the right directory?\n"
)
CDK_NO_APP = "--app is required either in command-line, in cdk.json or in ~/.cdk.json\n"
PASS_EMPTY = 'Error: password store is empty. Try "pass init".\n'
ETCD_TIMEOUT = (
    '{"level":"warn","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary '
    'invoker failed","error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}\n'
)
DIG_NO_NET = (
    ";; UDP setup with 10.255.255.53#53(10.255.255.53) for localhost failed: network unreachable.\n"
)
WRANGLER_NO_TOKEN = (
    "✘ [ERROR] In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN "
    "environment variable for wrangler to work.\n"
)


def _outcome(**kw) -> TrialOutcome:
    kw.setdefault("verb", "v")
    kw.setdefault("argv", ("tool", "v"))
    kw.setdefault("exit_code", 1)
    return TrialOutcome(**kw)


@pytest.mark.parametrize(
    "outcome, kind",
    [
        (_outcome(exit_code=None, timed_out=True, stdout="Dec 01 line\n"), "long-running"),
        (_outcome(exit_code=None, timed_out=True), "long-running"),
        (_outcome(exit_code=0, new_paths=("work/go.mod", "work/vendor")), "writes"),
        (_outcome(exit_code=0, new_paths=("home/.config/tool/state.json",)), "writes"),
        (_outcome(stderr=MKDIR_EROFS), "writes"),
        (_outcome(stderr=GIT_COMMIT_NO_EDITOR), "interactive"),
        (_outcome(stderr=DOCKER_NO_TTY), "interactive"),
        (_outcome(stderr=NODE_RAW_MODE), "interactive"),
        (_outcome(exit_code=4, stderr=GH_NO_LOGIN), "unreachable"),
        (_outcome(stderr=KUBECTL_NO_CLUSTER), "unreachable"),
        (_outcome(stderr=DOCKER_NO_DAEMON), "unreachable"),
        # a missing value the auth library names is no operand the verb lacks
        (_outcome(stderr=CLOUD_NO_AUTH), "unreachable"),
        (_outcome(exit_code=253, stderr=CLOUD_NO_CREDENTIALS), "unreachable"),
        (_outcome(exit_code=6, stderr=CURL_NO_NET), "unreachable"),
        (_outcome(exit_code=128, stderr=GIT_NO_REPO), "context"),
        (_outcome(stderr=KUBECTL_GET_BARE), "lacks-operand"),
        (_outcome(stderr=KUBECTL_LOGS_BARE), "lacks-operand"),
        (_outcome(stderr=KUBECTL_TOP_BARE), "lacks-operand"),
        (_outcome(exit_code=2, stderr=ARGPARSE_MISSING), "lacks-operand"),
        (_outcome(exit_code=0, stdout="Filesystem usage 24M\n", json_selected=True), "json-wrong"),
        (_outcome(exit_code=0, stdout='[{"a": 1}]\n', json_selected=True), "ok"),
        (_outcome(exit_code=0, stdout='{"a": 1}\n{"a": 2}\n', json_selected=True), "ok"),
        (_outcome(exit_code=0, stdout="plain text\n"), "ok"),
        # a failed trial that printed text under its JSON selection (a global -o json its
        # subcommand ignores): the selection goes, or the call that succeeds says "not JSON"
        (
            _outcome(exit_code=1, stdout="Checking 'a.yml'  FAILED\n", json_selected=True),
            "json-wrong",
        ),
        (_outcome(exit_code=1, stdout='{"error": "bad"}\n', json_selected=True), "failed"),
        (_outcome(exit_code=1, stderr="bad input\n", json_selected=True), "failed"),
        (_outcome(exit_code=0, new_paths=("home/.cache/tool/index",)), "ok"),
        (
            _outcome(exit_code=128, stderr="fatal: No names found, cannot describe anything.\n"),
            "failed",
        ),
        # what more tools printed in the trial's sandbox (the tuning half of the evaluation): a
        # project tool's configuration looked for up the tree, a setting kept in a project file,
        # data or a store the user makes first; a daemon's socket, a timed-out or failed
        # connection, a login in the tool's words; a made-up package or user
        (_outcome(exit_code=101, stderr=CARGO_NO_MANIFEST), "context"),
        (_outcome(stderr=COMPOSE_NO_CONFIG), "context"),
        (_outcome(stderr=CDK_NO_APP), "context"),
        (_outcome(stderr="No data to report.\n"), "context"),
        (_outcome(stderr=PASS_EMPTY), "context"),
        (
            _outcome(exit_code=7, stderr="unix:///var/run/supervisor.sock no such file\n"),
            "unreachable",
        ),
        (_outcome(stderr=ETCD_TIMEOUT), "unreachable"),
        (_outcome(exit_code=9, stderr=DIG_NO_NET), "unreachable"),
        (_outcome(stdout='{"loggedIn":false}\n'), "unreachable"),
        (_outcome(stderr="npm error code ENEEDAUTH\n"), "unreachable"),
        (_outcome(stderr=WRANGLER_NO_TOKEN), "unreachable"),
        (_outcome(exit_code=100, stderr="E: No packages found\n"), "sample-refused"),
        (_outcome(exit_code=2, stderr="pgrep: invalid user name: .\n"), "sample-refused"),
        # a refusal of the value first, then the usage: the operand was there, its value refused
        (_outcome(stderr=PS_NO_USER), "sample-refused"),
        (
            _outcome(stderr='error: unknown user-defined format specifier "sample"\n'),
            "sample-refused",
        ),
        (_outcome(not_run="write"), "rendered"),
        (_outcome(not_run="no sandbox here"), "not-tried"),
        (_outcome(sandbox_failed="bwrap: Creating new namespace failed"), "not-tried"),
    ],
)
def test_each_class_of_evidence(outcome, kind):
    """Every class the issue lists, from what a real tool printed."""
    assert classify(outcome).kind == kind


def test_not_a_repository_with_try_in_is_a_failure_not_context():
    """Given a --try-in directory, "not a repository" is no longer the empty cwd's fault."""
    evidence = classify(_outcome(exit_code=128, stderr=GIT_NO_REPO, tried_in=True))
    assert evidence.kind == "failed" and "--try-in" in evidence.detail


def test_a_timeout_beats_everything_else():
    """A verb still running at the timeout is long-running even if it also printed a usage-like line."""
    assert (
        classify(_outcome(exit_code=None, timed_out=True, stderr="usage: x")).kind == "long-running"
    )


def test_writing_beats_a_clean_exit_and_names_what_appeared():
    evidence = classify(_outcome(exit_code=0, new_paths=("work/a", "work/b", "work/c", "work/d")))
    assert evidence.kind == "writes" and evidence.action == "relabel"
    assert evidence.detail == "created work/a, work/b, work/c and 1 more"


def test_a_capped_json_output_is_not_judged():
    """Output cut at the cap cannot parse; that says nothing about the selection."""
    outcome = _outcome(exit_code=0, stdout='[{"a": 1},', json_selected=True, output_capped=True)
    assert classify(outcome).kind == "ok"


def test_evidence_words_hold_no_timings_pids_or_paths():
    """The words that go into x-why are the same every run: no timestamps, PIDs or scratch paths."""
    for outcome in (
        _outcome(stderr=KUBECTL_NO_CLUSTER),
        _outcome(exit_code=128, stderr=GIT_NO_REPO),
        _outcome(exit_code=None, timed_out=True, stdout="12:00:01 tick\n"),
    ):
        words = classify(outcome).words
        assert (
            "10:24" not in words
            and "/tmp" not in words
            and "scratch" not in words
            and "memcache" not in words
        )


def test_every_kind_has_an_action_and_words():
    assert {action for action, _, _ in KINDS.values()} == {"keep", "drop", "relabel", "drop-json"}
    # every kind wrap acts on is a finding of check --try, and so is a failure of the pack's own
    assert set(TRIAL_CODES) == {
        kind for kind, (action, _, _) in KINDS.items() if action != "keep"
    } | {"failed", "double-dash-refused"}
    assert all(bool(done) == (action != "keep") for action, _, done in KINDS.values())


def test_sample_args_fill_required_args_from_the_schema():
    """A revision slot gets HEAD, a path '.', a pattern '.', an integer its minimum; optional ones nothing."""
    schema = {
        "type": "object",
        "properties": {
            "revision_range": {"type": "string", "description": "revision-range"},
            "objects": {"type": "array", "items": {"type": "string"}, "description": "object"},
            "paths": {"type": "array", "items": {"type": "string"}},
            "pattern": {"type": "string"},
            "number": {"type": "string", "description": "issue number"},
            "lines": {"type": "integer", "minimum": 3},
            "format": {"type": "string", "enum": ["short", "long"]},
            "mode": {"type": "string", "default": "fast"},
            "weird": {"type": "string"},
            "follow": {"type": "boolean"},
        },
        "required": [
            "revision_range",
            "objects",
            "paths",
            "pattern",
            "number",
            "lines",
            "format",
            "mode",
            "weird",
        ],
    }
    assert sample_args(schema) == {
        "revision_range": "HEAD",
        "objects": ["HEAD"],
        "paths": ["."],
        "pattern": ".",
        "number": "1",
        "lines": 3,
        "format": "short",
        "mode": "fast",
        "weird": "sample",
    }
    assert sample_args({"type": "object", "properties": {"follow": {"type": "boolean"}}}) == {}


def _manifest():
    return {
        "pack_id": "t",
        "description": "T.",
        "bin": "t",
        "json": ["--json"],
        "verbs": {
            "follow": {
                "description": "F.",
                "cli": ["t", "follow"],
                "policy": {"effect": "read", "confirm": False},
                "x-why": "read: name 'follow'",
            },
            "get": {
                "description": "G.",
                "cli": ["t", "get"],
                "policy": {"effect": "read", "confirm": False},
                "x-why": "read: name 'get'",
            },
            "usage": {
                "description": "U.",
                "cli": ["t", "usage"],
                "policy": {"effect": "read", "confirm": False},
            },
            "list": {
                "description": "L.",
                "cli": ["t", "list"],
                "policy": {"effect": "read", "confirm": False},
            },
        },
    }


def test_apply_evidence_drops_relabels_and_records_why():
    manifest = _manifest()
    evidence = [
        Evidence("follow", "long-running"),
        Evidence("get", "writes", "created work/x"),
        Evidence("usage", "json-wrong"),
        Evidence("list", "unreachable", "'auth login'"),
        Evidence("gone", "ok"),
    ]
    out, dropped = apply_evidence(manifest, evidence)
    assert list(out["verbs"]) == ["get", "usage", "list"] and set(dropped) == {"follow"}
    assert out["verbs"]["get"]["policy"] == {"effect": "write", "confirm": True}
    assert out["verbs"]["get"]["x-why"] == (
        "read: name 'get'; tried: it writes: not a read (created work/x): "
        "relabelled write (confirm-gated)"
    )
    assert out["verbs"]["usage"]["json"] is False
    assert out["verbs"]["list"]["x-why"].startswith("could not be tried")
    assert manifest["verbs"]["get"]["policy"]["effect"] == "read", "the input is not changed"


def _pack(tmp_path):
    pack = tmp_path / "t"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        textwrap.dedent("""\
        pack_id: t
        description: A test pack.
        bin: t
        json: false
        verbs:
          follow:
            description: Follow.
            cli: [t, follow]
            policy: {effect: read, confirm: false}
          get:
            description: Get.
            cli: [t, get]
            policy: {effect: read, confirm: false}
        """)
    )
    return pack


def test_check_try_rules_report_the_evidence_passed_in(tmp_path):
    """W060-W064 report only with evidence (`check --try`); plain check has none to report."""
    from wrapgen.check.rules import check_pack

    pack = _pack(tmp_path)
    plain = {d.code for d in check_pack(pack)}
    assert not plain & set(TRIAL_CODES.values())
    tried = check_pack(
        pack,
        trials={
            "follow": Evidence("follow", "long-running"),
            "get": Evidence("get", "lacks-operand", "'usage:'"),
        },
    )
    codes = {(d.code, d.field, d.level) for d in tried}
    assert ("W060", "verbs.follow", "error") in codes and ("W063", "verbs.get", "error") in codes
    line = next(d for d in tried if d.code == "W060")
    assert "left out" not in line.message, (
        "check reports what the trial showed; it leaves nothing out"
    )
    assert line.line == 6, "the finding points at the verb's line in pack.yaml"


def test_a_time_slot_gets_a_duration_not_a_path():
    """fd's --changed-within: its description says "file" and "Filter", but the name says a time."""
    schema = {
        "type": "object",
        "properties": {
            "changed_within": {
                "type": "string",
                "description": "Filter results based on the file modification time",
            }
        },
        "required": ["changed_within"],
    }
    assert sample_args(schema) == {"changed_within": "1d"}


def test_json_is_judged_on_the_whole_output_when_the_runner_did():
    """The runner keeps only the start of stdout; its verdict on all of it wins over the cut text."""
    cut = _outcome(exit_code=0, stdout='[{"a": 1},', json_selected=True, stdout_json=True)
    assert classify(cut).kind == "ok"
    assert (
        classify(_outcome(exit_code=0, stdout="{}", json_selected=True, stdout_json=False)).kind
        == "json-wrong"
    )


def test_streaming_flags_come_out_unless_a_literal_value_follows():
    from wrapgen.check.trial_evidence import without_streaming_flags

    assert without_streaming_flags(["kubectl", "logs", "--follow", "--", "{{pod}}"]) == (
        ["kubectl", "logs", "--", "{{pod}}"],
        ("--follow",),
    )
    assert without_streaming_flags(["tail", "-f", "{{file}}"]) == (["tail", "{{file}}"], ("-f",))
    assert without_streaming_flags(["kubectl", "apply", "-f", "pod.yaml"]) == (
        ["kubectl", "apply", "-f", "pod.yaml"],
        (),
    )
    assert without_streaming_flags(["-f"]) == (["-f"], ()), "the bin itself is never a flag"


def test_a_verb_that_finishes_without_its_streaming_flag_keeps_that_form():
    manifest = {
        "pack_id": "t",
        "description": "T.",
        "bin": "tail",
        "json": False,
        "verbs": {
            "follow": {
                "description": "F.",
                "cli": ["tail", "-f", "--", "{{file}}"],
                "policy": {"effect": "read", "confirm": False},
            }
        },
    }
    item = Evidence("follow", "ok", dropped_flags=("-f",))
    out, dropped = apply_evidence(manifest, [item])
    assert not dropped and out["verbs"]["follow"]["cli"] == ["tail", "--", "{{file}}"]
    assert out["verbs"]["follow"]["x-why"] == (
        "tried: still running at the trial's timeout with -f: -f dropped; "
        "without it tried: it ran and exited 0"
    )
