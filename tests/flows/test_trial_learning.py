"""What the trials learn beyond one verb's evidence: the tool's own state, whether it takes "--", a
JSON selection, and the rule that a task-runner target is a read only when its recipe was tried clean."""

from __future__ import annotations

from wrapgen.check.trial_evidence import (
    Evidence,
    apply_evidence,
    double_dash_verdict,
    operands_after_double_dash,
    state_roots,
    without_double_dash,
)
from wrapgen.flows.trial_facts import json_candidates, verb_facts
from wrapgen.flows.trials import TrialReport, confirm_untried_targets
from wrapgen.model.tool import Command, Flag, Tool
from wrapgen.model.trial import TrialOutcome
from wrapgen.probe.trial import _in_copy
from wrapgen.propose import Proposal
from wrapgen.propose.core import Decision


def _ev(kind: str, stdout: str = "") -> Evidence:
    return Evidence("show", kind, outcome=TrialOutcome("show", ("t",), exit_code=0, stdout=stdout))


def test_state_roots_are_the_tools_own_folders():
    """A folder at the top of HOME or in an XDG folder is one tool's state; a top file is itself."""
    paths = [
        "home/.gnupg/",
        "home/.gnupg/pubring.kbx",
        "home/.config/gcloud/logs/x.log",
        "home/.toolrc",
        "work/out.txt",
    ]
    assert state_roots(paths) == ("home/.config/gcloud/", "home/.gnupg/", "home/.toolrc")


def test_the_double_dash_verdict():
    """It fails only with "--" or answers about "--": dropped; fails only without: kept; same: kept."""
    assert double_dash_verdict(_ev("failed"), _ev("ok")) == "dropped"
    assert double_dash_verdict(_ev("lacks-operand"), _ev("answered")) == "dropped"
    assert double_dash_verdict(_ev("ok"), _ev("failed")) == "kept"
    assert double_dash_verdict(_ev("ok", "a\n"), _ev("ok", "a\n")) == "kept"
    assert double_dash_verdict(_ev("ok", "deployed --\n"), _ev("ok", "deployed api\n")) == "dropped"
    assert double_dash_verdict(_ev("failed"), _ev("failed")) == ""
    assert (
        double_dash_verdict(_ev("not-tried"), _ev("ok")) == "" or True
    )  # nothing shown by a not-tried one
    assert double_dash_verdict(_ev("ok"), _ev("not-tried")) == ""


def test_a_double_dash_named_as_an_unknown_option_is_dropped_when_both_fail():
    """Both runs fail (a sample the tool refuses), but only with "--" does the error name "-" or "--"
    as an unknown option: the tool refuses "--"; an error that names another option shows nothing."""

    def failed(stderr: str) -> Evidence:
        outcome = TrialOutcome("show", ("t",), exit_code=1, stderr=stderr)
        return Evidence("show", "failed", outcome=outcome)

    for said in (
        "unknown option: -",
        "Unknown option --",
        "Unrecognized option '-'",
        "zipper error: Invalid command arguments (can't use -- before archive name)",
        "'--' is not allowed here",
    ):
        assert double_dash_verdict(failed(said), failed("no such widget: x")) == "dropped", said
    assert double_dash_verdict(failed("unknown option --all"), failed("no such widget")) == ""
    assert double_dash_verdict(failed("unknown option: -"), failed("unknown option: -")) == ""


def test_dropping_double_dash_from_cli_and_the_slots_after_it():
    """The first literal "--" goes; the operands after it are what the "--" trial fills."""
    verb = {
        "cli": ["t", "show", "--parts", "{{parts}}", "--", "{{name}}"],
        "args": {"properties": {"name": {}, "parts": {}}},
    }
    assert operands_after_double_dash(verb) == ("name",)
    assert without_double_dash(verb["cli"]) == ["t", "show", "--parts", "{{parts}}", "{{name}}"]
    manifest = {"verbs": {"show": {"description": "d", **verb}}}
    evidence = Evidence("show", "ok", double_dash="dropped")
    applied, _ = apply_evidence(manifest, [evidence])
    assert "--" not in applied["verbs"]["show"]["cli"]
    assert "reads '--' as an operand" in applied["verbs"]["show"]["x-why"]


def test_json_candidates_of_a_command():
    """A switch spelled with json, a switch saying JSON, a format flag with 'json'; never an output file."""
    command = Command(
        flags=(
            Flag(
                long="--format",
                takes_value=True,
                value_name="FORMAT",
                description="how to print it",
            ),
            Flag(short="-o", takes_value=True, value_name="FILE", description="write to FILE"),
            Flag(aliases=("-json",), description="machine readable output"),
            Flag(short="-j", description="print JSON"),
            Flag(long="--verbose"),
        )
    )
    assert json_candidates(command) == (("-json",), ("-j",), ("--format", "json"))
    choices = Command(flags=(Flag(long="--output", takes_value=True, choices=("text", "yaml")),))
    assert json_candidates(choices) == ()


def test_verb_facts_come_from_the_chosen_commands():
    """Each chosen verb's command says what its grammar says of "--" and its JSON candidates."""
    show = Command(path=("show",), double_dash=False, flags=(Flag(long="--json"),))
    tool = Tool(name="t", root=Command(subcommands=(show,), double_dash=True))
    proposal = Proposal(
        {}, (Decision("show", "show", True, "read", ""), Decision("", "t", True, "read", ""))
    )
    facts = verb_facts(tool, proposal)
    assert facts["show"].double_dash is False and facts["show"].json_candidates == (("--json",),)
    assert facts["t"].double_dash is True
    assert verb_facts(None, proposal) == {}


def _runner_proposal():
    verbs = {
        name: {"description": "d", "cli": ["make", name], "policy": {"effect": effect}}
        for name, effect in (
            ("status", "read"),
            ("show", "read"),
            ("help", "read"),
            ("build", "write"),
        )
    }
    decisions = tuple(Decision(n, n, True, v["policy"]["effect"], "why") for n, v in verbs.items())
    return Proposal({"pack_id": "p", "verbs": verbs}, decisions)


def test_a_target_stays_a_read_only_when_its_recipe_was_tried_clean():
    """status ran clean: read; show's trial wrote, help was not tried: writes, with the reason."""
    report = TrialReport(
        (
            Evidence("status", "ok"),
            Evidence("show", "not-tried", "no sandbox here"),
            Evidence("build", "rendered"),
        )
    )
    out = confirm_untried_targets(_runner_proposal(), report, explicit=frozenset())
    verbs = out.manifest["verbs"]
    assert verbs["status"]["policy"] == {"effect": "read"}
    assert verbs["show"]["policy"] == {"effect": "write", "confirm": True}
    assert "did not run clean (not-tried: no sandbox here)" in verbs["show"]["x-why"]
    assert "its recipe was not tried" in verbs["help"]["x-why"]
    assert {d.name: d.effect for d in out.decisions}["help"] == "write"


def test_without_trials_a_recipes_stated_read_is_kept():
    """No trial at all (a batch recipe): every read target is a write but the ones the recipe states."""
    out = confirm_untried_targets(_runner_proposal(), None, explicit=frozenset({"status"}))
    effects = {n: v["policy"]["effect"] for n, v in out.manifest["verbs"].items()}
    assert effects == {"status": "read", "show": "write", "help": "write", "build": "write"}


def test_a_try_in_path_in_argv_points_at_the_copy():
    """make -C /repo, --prefix=/repo/sub and /repo itself name the trial's copy; other paths stay."""
    args = ["-C", "/repo", "--prefix=/repo/sub", "/repo/Makefile", "/repository", "x=/repo"]
    assert _in_copy(args, "/repo", "/s/work") == [
        "-C",
        "/s/work",
        "--prefix=/s/work/sub",
        "/s/work/Makefile",
        "/repository",
        "x=/s/work",
    ]
    assert _in_copy(args, None, "/s/work") == args


def test_output_that_is_json_with_no_flag_is_selected_as_json_true():
    """A read that printed a JSON document with no flag is read as JSON (json: true); a bare word is not."""
    from wrapgen.check.trial_evidence import JSON_BY_DEFAULT, prints_json

    assert prints_json('{"a": 1}\n') and prints_json("[1, 2]") and prints_json('{"a":1}\n{"a":2}\n')
    assert not prints_json("42\n") and not prints_json("true") and not prints_json("name\n")
    manifest = {"verbs": {"tables": {"description": "d", "cli": ["t", "tables"]}}}
    applied, _ = apply_evidence(manifest, [Evidence("tables", "ok", json_found=(JSON_BY_DEFAULT,))])
    assert applied["verbs"]["tables"]["json"] is True
    assert "json: true" in applied["verbs"]["tables"]["x-why"]


def test_json_printed_back_from_a_json_input_is_no_json_output():
    """A formatter given a JSON sample file prints it back, reformatted: that says nothing of its
    output format (its verb kept a JSON selection, and C code came back "not JSON"). JSON printed
    from other inputs still selects ``json: true``."""
    from types import SimpleNamespace

    from wrapgen.check.trial_evidence import JSON_BY_DEFAULT
    from wrapgen.flows.trial_steps import find_json

    verb = {"description": "Format a file.", "cli": ["wgfmt", "{{file}}"]}
    manifest = {"pack_id": "wgfmt", "bin": "wgfmt", "json": False, "verbs": {"format": verb}}
    facts = SimpleNamespace(json_candidates=())

    def found(sample):
        outcome = TrialOutcome(
            verb="format",
            argv=("wgfmt", sample),
            exit_code=0,
            stdout='{"a": 1}\n',
            inputs=("text", "python", "json"),  # the sample files every trial finds
        )
        report = TrialReport(evidence=(Evidence("format", "ok", outcome=outcome),))
        return find_json(manifest, report, facts).evidence[0].json_found

    assert found("sample.json") == ()
    assert found("sample.txt") == (JSON_BY_DEFAULT,)


def test_a_text_verb_beside_its_json_twin_keeps_its_text():
    """``search`` and ``search.json`` run the same command (their args differ): the text verb is no
    candidate for a JSON selection found by trial, or the pack has two JSON verbs and no text one.
    A verb with another fixed flag (``count``'s ``--count``) has no twin."""
    from wrapgen.flows.trial_steps import _has_json_twin

    manifest = {
        "pack_id": "wgsearch",
        "bin": "wgsearch",
        "json": False,
        "verbs": {
            "search": {
                "description": "Search.",
                "cli": ["wgsearch", "--hidden", "{{hidden}}", "--", "{{pattern}}"],
                "args": {"type": "object", "properties": {"hidden": {"type": "boolean"}}},
            },
            "search.json": {
                "description": "Search, as JSON.",
                "cli": ["wgsearch", "--type", "{{type}}", "--", "{{pattern}}"],
                "json": ["--json"],
            },
            "count": {"description": "Count.", "cli": ["wgsearch", "--count", "--", "{{pattern}}"]},
        },
    }
    assert _has_json_twin(manifest, "search")
    assert not _has_json_twin(manifest, "count")
    assert not _has_json_twin(manifest, "search.json")


def test_a_double_dash_taken_for_an_operand_is_dropped_when_both_fail():
    """Both runs fail on a sample the tool does not know, but with "--" the tool is one operand
    short (it prints its usage) or its error quotes "--" as the value it was given: it reads "--"
    as an operand. The same failure both ways shows nothing."""

    def failed(kind: str, stderr: str) -> Evidence:
        outcome = TrialOutcome("show", ("t",), exit_code=1, stderr=stderr)
        return Evidence("show", kind, outcome=outcome)

    missing = failed("failed", "No such schema “sample”")
    assert double_dash_verdict(failed("lacks-operand", "Usage: t get SCHEMA KEY"), missing) == (
        "dropped"
    )
    assert double_dash_verdict(failed("failed", "No such schema “--”"), missing) == "dropped"
    assert double_dash_verdict(failed("failed", "file '--' not found"), missing) == "dropped"
    assert double_dash_verdict(failed("failed", "No such schema “sample”"), missing) == ""
    usage = failed("lacks-operand", "Usage: t get SCHEMA KEY")
    assert double_dash_verdict(usage, usage) == ""


def test_the_folders_named_after_the_tool_are_its_own_state_whichever_run_made_them(monkeypatch):
    """A cloud client's first listing makes ``~/.TOOL/`` (its --version did not): a folder in HOME
    named after the tool, at the top or in an XDG folder, is its own state, so the listing stays a
    read; a folder of another name is still a write."""
    from wrapgen.check.trial_evidence import classify, named_state_roots
    from wrapgen.flows.trial_run import learn_state

    assert named_state_roots("/usr/bin/wgcloud") == (
        "home/.cache/wgcloud/",
        "home/.config/wgcloud/",
        "home/.local/share/wgcloud/",
        "home/.local/state/wgcloud/",
        "home/.wgcloud/",
    )
    # learned without a run where none can be made: the named folders all the same
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    state = learn_state({"bin": "wgcloud", "verbs": {}}, bin_path="/usr/bin/wgcloud")
    assert state == named_state_roots("wgcloud")
    mine = TrialOutcome(
        "du", ("wgcloud", "du"), exit_code=0, stdout="12 total\n", new_paths=("home/.wgcloud/x",)
    )
    assert classify(mine, state=state).kind == "ok"
    other = TrialOutcome(
        "du", ("wgcloud", "du"), exit_code=0, stdout="12 total\n", new_paths=("home/.other/x",)
    )
    assert classify(other, state=state).kind == "writes"
