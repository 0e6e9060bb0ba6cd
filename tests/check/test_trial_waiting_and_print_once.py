"""Two readings of a trial still running at its timeout (check/trial_evidence.py):

- silent and asleep after trying to reach the network, watching no file (npm search
  retrying a registry it cannot resolve in the sandbox): could not be tried, kept; a tool that
  printed, or never tried the network (a plain sleeper), stays long-running;
- a stream with a switch of its own to print once (pm2 logs --nostream): tried again with it, and
  when that finishes the switch is fixed in cli[] and leaves the args."""

from __future__ import annotations

from wrapgen.check.trial_evidence import Evidence, apply_evidence, classify, with_print_once_flags
from wrapgen.model.trial import TrialOutcome


def _timed_out(**kw) -> TrialOutcome:
    return TrialOutcome(verb="search", argv=("npm", "search", "lodash"), timed_out=True, **kw)


def test_silent_and_retrying_the_network_at_the_timeout_could_not_be_tried():
    evidence = classify(_timed_out(retrying_network=True))
    assert evidence.kind == "unreachable" and evidence.action == "keep"
    assert "tried to reach the network" in evidence.words


def test_retrying_but_printing_or_never_trying_the_network_is_still_long_running():
    assert classify(_timed_out(retrying_network=True, stdout="tick\n")).kind == "long-running"
    assert (
        classify(_timed_out(retrying_network=True, stderr="waiting for changes\n")).kind
        == "long-running"
    )
    assert classify(_timed_out()).kind == "long-running"


ARGS = {
    "type": "object",
    "properties": {
        "nostream": {"type": "boolean"},
        "lines": {"type": "integer"},
        "id": {"type": "string"},
    },
    "required": ["id"],
}
CLI = ["pm2", "logs", "--lines", "{{lines}}", "--nostream", "{{nostream}}", "--", "{{id}}"]


def test_a_print_once_switch_is_fixed_and_leaves_the_args():
    cli, args, fixed = with_print_once_flags(CLI, ARGS)
    assert fixed == ("--nostream",)
    assert cli == ["pm2", "logs", "--lines", "{{lines}}", "--nostream", "--", "{{id}}"]
    assert set(args["properties"]) == {"lines", "id"} and args["required"] == ["id"]
    assert "nostream" in ARGS["properties"], "the input is not changed"


def test_only_a_boolean_switch_of_a_known_spelling_is_fixed():
    assert with_print_once_flags(["pm2", "logs", "--lines", "{{lines}}"], ARGS)[2] == ()
    valued = {"type": "object", "properties": {"nostream": {"type": "string"}}}
    assert with_print_once_flags(["t", "--nostream", "{{nostream}}"], valued)[2] == ()
    other = {"type": "object", "properties": {"quiet": {"type": "boolean"}}}
    assert with_print_once_flags(["t", "--quiet", "{{quiet}}"], other)[2] == ()


def test_a_verb_that_finishes_with_its_print_once_switch_keeps_that_form():
    manifest = {
        "pack_id": "t",
        "description": "T.",
        "bin": "pm2",
        "json": False,
        "verbs": {
            "logs": {
                "description": "L.",
                "cli": CLI,
                "args": ARGS,
                "policy": {"effect": "read", "confirm": False},
            }
        },
    }
    out, dropped = apply_evidence(manifest, [Evidence("logs", "ok", fixed_flags=("--nostream",))])
    verb = out["verbs"]["logs"]
    assert not dropped and "--nostream" in verb["cli"] and "{{nostream}}" not in verb["cli"]
    assert "nostream" not in verb["args"]["properties"]
    assert verb["x-why"] == (
        "tried: still running at the trial's timeout (streaming): --nostream fixed in its "
        "cli[]; then it ran and exited 0"
    )


def test_a_required_operand_the_tool_did_without_becomes_optional():
    from wrapgen.check.trial_evidence import required_operands

    verb = {
        "description": "L.",
        "cli": ["npm", "ls", "--all", "{{all}}", "--", "{{package_spec}}"],
        "args": {
            "type": "object",
            "properties": {"all": {"type": "boolean"}, "package_spec": {"type": "string"}},
            "required": ["package_spec"],
        },
        "policy": {"effect": "read", "confirm": False},
    }
    assert required_operands(verb) == ("package_spec",)
    manifest = {
        "pack_id": "npm",
        "description": "N.",
        "bin": "npm",
        "json": False,
        "verbs": {"ls": verb},
    }
    out, _ = apply_evidence(manifest, [Evidence("ls", "ok", optional_args=("package_spec",))])
    assert "required" not in out["verbs"]["ls"]["args"]
    assert out["verbs"]["ls"]["x-why"] == (
        "tried: with a sample package_spec it failed; without it, it ran and "
        "exited 0: package_spec made optional"
    )
    assert verb["args"]["required"] == ["package_spec"], "the input is not changed"


def test_a_tool_making_its_state_root_could_not_be_tried_but_other_writes_are_writes():
    """runc list makes /run/runc, where it keeps its containers' state, even to list them: the
    read-only sandbox refuses it, and that says nothing about the command writing data."""
    runc = TrialOutcome(
        verb="list",
        argv=("runc", "list"),
        exit_code=1,
        stderr='time="2026-12-02T06:20:01Z" level=error msg="mkdir /run/runc: read-only file system"\n',
    )
    evidence = classify(runc)
    assert evidence.kind == "unreachable" and "state under /run" in evidence.detail
    other = TrialOutcome(
        verb="get",
        argv=("t", "get"),
        exit_code=1,
        stderr="mkdir: cannot create directory '/var/lib/x': Read-only file system\n",
    )
    assert classify(other).kind == "writes"
    home = TrialOutcome(
        verb="get",
        argv=("t", "get"),
        exit_code=1,
        stderr="mkdir /run/user/0/t/x.lock: read-only file system\n",
    )
    assert classify(home).kind == "unreachable"
