"""What a trial of a verb shows, as evidence; what ``wrap`` does with it; the W060-W064 rules of ``check --try``.

A trial (``wrapgen/probe/trial.py``) ran a read verb for real, with sample args, in the probe sandbox.
Everything here is pure: ``sample_args`` gives a verb's required args plausible values from the arg
schema (``wrapgen/knowledge/data/trials.json``'s ``samples``), ``classify`` turns a
``TrialOutcome`` into an ``Evidence`` (docs/packs-and-check.md, "Trials"), ``apply_evidence`` acts on a
proposed manifest (drops, relabels, drops a JSON selection, and records the evidence in each verb's
``x-why``), and the rules below report the same evidence as check findings when ``check --try`` passes
it in (``PackContext.trials``). Evidence words hold no timings, PIDs or temporary paths, so a
generated pack stays byte-for-byte the same run after run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from wrapgen.check.registry import rule
from wrapgen.check.samples import sample_value
from wrapgen.knowledge.trials import ignored_path, phrase
from wrapgen.model.trial import TrialOutcome, is_json_text

__all__ = [
    "Evidence",
    "KINDS",
    "sample_args",
    "classify",
    "apply_evidence",
    "evidence_line",
    "TRIAL_CODES",
    "without_streaming_flags",
    "with_print_once_flags",
    "optional_operands",
    "required_operands",
]

# kind -> (what wrap does, what the trial showed, what wrap did about it)
KINDS = {
    "ok": ("keep", "tried: it ran and exited 0", ""),
    "long-running": (
        "drop",
        "tried: still running at the trial's timeout (long-running or streaming)",
        "left out",
    ),
    "interactive": ("drop", "tried: it waits for a terminal or input: interactive", "left out"),
    "writes": ("relabel", "tried: it writes: not a read", "relabelled write (confirm-gated)"),
    "lacks-operand": (
        "drop",
        "tried: it exits with its usage: the verb lacks an operand its command needs",
        "left out",
    ),
    # wrap keeps these when leaving them out would leave the pack with no command at all (cut needs -f)
    "lacks-operand-kept": (
        "keep",
        "tried: it exits with its usage: the verb lacks an operand or flag its command needs; "
        "kept, since without it the pack would hold no command: a call must give what the tool needs",
        "",
    ),
    "json-wrong": (
        "drop-json",
        "tried: JSON selected but the output is not JSON",
        "the JSON selection is dropped",
    ),
    "unreachable": (
        "keep",
        "could not be tried: it needs a daemon, cluster, network or login the sandbox does not give",
        "",
    ),
    "context": (
        "keep",
        "tried: it needs a working directory with content (try it with --try-in DIR); context, not a defect",
        "",
    ),
    "failed": ("keep", "tried: it failed", ""),
    "not-tried": ("keep", "not tried", ""),
    "rendered": ("keep", "a write verb: rendered with sample args, never run", ""),
}

TRIAL_CODES = {
    "long-running": "W060",
    "interactive": "W061",
    "writes": "W062",
    "lacks-operand": "W063",
    "json-wrong": "W064",
}


@dataclass(frozen=True)
class Evidence:
    """What one trial showed about one verb."""

    verb: str
    kind: str  # a key of KINDS
    detail: str = ""  # the phrase that decided, or what appeared ("work/out.txt"), or "exit 2"
    dropped_flags: tuple[
        str, ...
    ] = ()  # streaming flags taken out of cli[] before this trial ("--follow")
    required_args: tuple[
        str, ...
    ] = ()  # optional operands this trial gave a value: wrap makes them required
    fixed_flags: tuple[
        str, ...
    ] = ()  # print-once switches turned on for this trial ("--nostream"): wrap fixes them
    optional_args: tuple[
        str, ...
    ] = ()  # required operands this trial left out and the tool did without

    @property
    def action(self) -> str:
        return KINDS[self.kind][0]

    @property
    def finding(self) -> str:
        """What the trial showed: the kind's words and, in brackets, the detail (check's message)."""
        text = KINDS[self.kind][1]
        return f"{text} ({self.detail})" if self.detail else text

    @property
    def words(self) -> str:
        """The sentence for x-why and wrap's summary: what it showed, then what wrap did about it."""
        done = KINDS[self.kind][2]
        text = f"{self.finding}: {done}" if done else self.finding
        if self.dropped_flags:
            flags = " ".join(self.dropped_flags)
            text = f"tried: still running at the trial's timeout with {flags}: {flags} dropped; without it {text}"
        if self.fixed_flags:
            flags = " ".join(self.fixed_flags)
            text = (
                f"tried: still running at the trial's timeout (streaming): {flags} fixed in its cli[]; "
                f"then {text.removeprefix('tried: ')}"
            )
        if self.optional_args:
            names = ", ".join(self.optional_args)
            text = (
                f"tried: with a sample {names} it failed; without {'it' if len(self.optional_args) == 1 else 'them'}, "
                f"{text.removeprefix('tried: ')}: {names} made optional"
            )
        if self.required_args:
            names = ", ".join(self.required_args)
            text = (
                f"tried: without {names} it exits with its usage: {names} made required; "
                f"with {'it' if len(self.required_args) == 1 else 'them'} {text.removeprefix('tried: ')}"
            )
        return text


def sample_args(args_schema: Mapping[str, Any]) -> dict:
    """A value for each required arg (a revision ``HEAD``, a path ``.``, a pattern ``.``, ...); the rest left out.

    A trial calls a verb the way an agent's first call would: only what the verb cannot do without.
    """
    properties = args_schema.get("properties") or {}
    return {
        name: sample_value(properties.get(name, {}), name=name, realistic=True)
        for name in args_schema.get("required", ())
        if name in properties
    }


def classify(outcome: TrialOutcome) -> Evidence:
    """The evidence of one trial, by the first class that fits (docs/packs-and-check.md, "Trials")."""
    verb = outcome.verb
    if outcome.not_run:
        return Evidence(
            verb,
            "rendered" if outcome.not_run == "write" else "not-tried",
            "" if outcome.not_run == "write" else outcome.not_run,
        )
    if outcome.sandbox_failed:
        return Evidence(verb, "not-tried", "the sandbox failed to start")
    if (
        outcome.timed_out
        and outcome.retrying_network
        and not (outcome.stdout + outcome.stderr).strip()
    ):
        return Evidence(
            verb,
            "unreachable",
            "it tried to reach the network, then printed nothing and slept until "
            "the timeout, holding no socket or file watch: waiting to try again",
        )
    if outcome.timed_out:
        return Evidence(
            verb,
            "long-running",
            "it printed output and kept running"
            if outcome.stdout.strip()
            else "it printed nothing and kept running",
        )
    written = sorted(p for p in outcome.new_paths if not ignored_path(p))
    if written:
        shown = ", ".join(written[:3]) + (
            f" and {len(written) - 3} more" if len(written) > 3 else ""
        )
        return Evidence(verb, "writes", f"created {shown}")
    said = outcome.stderr + "\n" + outcome.stdout
    if outcome.exit_code != 0:
        found = phrase("state_root", said)
        if found:
            return Evidence(
                verb,
                "unreachable",
                f"'{found}': it keeps its state under /run, which the sandbox does not give",
            )
    found = phrase("writes", said)
    if found:
        return Evidence(verb, "writes", f"'{found}'")
    ok = outcome.exit_code == 0 and outcome.signal is None
    if not ok:
        for kind, table in (("interactive", "interactive"), ("unreachable", "unreachable")):
            found = phrase(table, said)
            if found:
                return Evidence(verb, kind, f"'{found}'")
        found = phrase("context", said)
        if found:
            if outcome.tried_in:
                return Evidence(verb, "failed", f"in the --try-in directory: '{found}'")
            return Evidence(verb, "context", f"'{found}'")
        found = phrase("usage", said)
        if found:
            return Evidence(verb, "lacks-operand", f"'{found}'")
        if outcome.signal is not None:
            return Evidence(verb, "failed", f"killed by signal {outcome.signal}")
        return Evidence(verb, "failed", f"exit {outcome.exit_code}")
    if outcome.json_selected and outcome.stdout.strip() and not outcome.output_capped:
        parsed = (
            outcome.stdout_json if outcome.stdout_json is not None else is_json_text(outcome.stdout)
        )
        if not parsed:
            return Evidence(verb, "json-wrong")
    return Evidence(
        verb, "ok", "and printed JSON" if outcome.json_selected and outcome.stdout.strip() else ""
    )


def without_streaming_flags(
    cli: Iterable[str], args: Mapping[str, Any] | None = None
) -> tuple[list[str], tuple[str, ...]]:
    """``cli`` without its literal streaming flags (``--follow``, ``-f``, ``--watch``), and the flags taken out.

    A flag is taken out only where no literal value follows it (``-f FILE`` keeps its ``-f``), and
    not where its own switch slot does (``--follow {{follow}}`` with ``follow`` a boolean of ``args``,
    the verb's args schema): that flag streams only when the caller asks, and taking it out would
    leave the slot bare.
    """
    from wrapgen.knowledge.trials import streaming_flags

    properties = (args or {}).get("properties") or {}
    switches = {
        f"{{{{{name}}}}}"
        for name, schema in properties.items()
        if isinstance(schema, Mapping) and schema.get("type") == "boolean"
    }
    tokens = list(cli)
    out, dropped = [], []
    for i, token in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else "--"
        takes_literal = not after.startswith("-") and "{{" not in after
        if i > 0 and token in streaming_flags() and not takes_literal and after not in switches:
            dropped.append(token)
            continue
        out.append(token)
    return out, tuple(dropped)


def with_print_once_flags(
    cli: Iterable[str], args: Mapping[str, Any] | None = None
) -> tuple[list[str], dict, tuple[str, ...]]:
    """``cli`` and ``args`` with each print-once switch of the args turned on for good, and the switches.

    ``--nostream {{nostream}}`` with ``nostream`` a boolean of ``args`` becomes the literal ``--nostream``
    and ``nostream`` leaves the schema: a read that streams until stopped (pm2 logs) becomes the one
    snapshot of it an agent can use (``knowledge/data/trials.json``'s ``print_once_flags``)."""
    from wrapgen.knowledge.trials import print_once_flags

    schema = dict(args or {})
    properties = dict(schema.get("properties") or {})
    tokens = list(cli)
    out, fixed, taken = [], [], []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        name = after[2:-2] if after.startswith("{{") and after.endswith("}}") else ""
        if (
            token in print_once_flags()
            and isinstance(properties.get(name), Mapping)
            and properties[name].get("type") == "boolean"
        ):
            out.append(token)
            fixed.append(token)
            taken.append(name)
            i += 2
            continue
        out.append(token)
        i += 1
    if not fixed:
        return list(cli), dict(args or {}), ()
    for name in taken:
        properties.pop(name, None)
    schema["properties"] = properties
    if "required" in schema:
        schema["required"] = [n for n in schema["required"] if n not in taken]
    return out, schema, tuple(fixed)


def _operand_slots(verb: Mapping[str, Any], *, required: bool) -> tuple[str, ...]:
    schema = verb.get("args") or {}
    properties = schema.get("properties") or {}
    asked = set(schema.get("required") or ())
    cli = list(verb.get("cli") or ())
    out = []
    for i, token in enumerate(cli):
        if not (token.startswith("{{") and token.endswith("}}")):
            continue
        name = token[2:-2]
        before = cli[i - 1] if i > 0 else ""
        after_flag = before.startswith("-") and before not in ("--", "--end-of-options")
        if (
            name in properties
            and (name in asked) == required
            and not after_flag
            and properties[name].get("type", "string") != "boolean"
            and name not in out
        ):
            out.append(name)
    return tuple(out)


def optional_operands(verb: Mapping[str, Any]) -> tuple[str, ...]:
    """The args of a verb (as pack.yaml holds it) that fill a bare operand slot of its ``cli[]`` and are
    not required: what a trial that ends in the tool's usage tries once more with a value (``rg``'s
    ``{{pattern}}``, optional because ``rg --files`` needs none, is what ``rg PATTERN`` cannot do without).
    A slot right after a flag is that flag's value or switch, never an operand."""
    return _operand_slots(verb, required=False)


def required_operands(verb: Mapping[str, Any]) -> tuple[str, ...]:
    """The required args of a verb that fill a bare operand slot of its ``cli[]``: what a trial that
    failed on their sample values tries once more without (npm's usage writes ``npm ls <package-spec>``
    although bare ``npm ls`` lists the whole tree)."""
    return _operand_slots(verb, required=True)


def evidence_line(evidence: Evidence) -> str:
    return f"{evidence.verb}: {evidence.words}"


def apply_evidence(
    manifest: dict, evidence: Iterable[Evidence]
) -> tuple[dict, dict[str, Evidence]]:
    """A copy of ``manifest`` acted on: dropped, relabelled and JSON-less verbs, the evidence in each ``x-why``.

    Returns the new manifest and the verbs that were dropped (name -> evidence).
    """
    verbs = dict(manifest.get("verbs") or {})
    dropped: dict[str, Evidence] = {}
    for item in evidence:
        if item.verb not in verbs:
            continue
        if item.action == "drop":
            dropped[item.verb] = item
            del verbs[item.verb]
            continue
        body = dict(verbs[item.verb])
        if item.required_args:
            args = dict(body.get("args") or {})
            args["required"] = [
                *(args.get("required") or ()),
                *(n for n in item.required_args if n not in (args.get("required") or ())),
            ]
            body["args"] = args
        if item.optional_args:
            args = dict(body.get("args") or {})
            args["required"] = [
                n for n in (args.get("required") or ()) if n not in item.optional_args
            ]
            if not args["required"]:
                del args["required"]
            body["args"] = args
        if item.dropped_flags and "cli" in body:
            body["cli"] = without_streaming_flags(body["cli"], body.get("args"))[0]
        if item.fixed_flags and "cli" in body:
            body["cli"], body["args"], _ = with_print_once_flags(body["cli"], body.get("args"))
        why = body.get("x-why", "")
        body["x-why"] = f"{why}; {item.words}" if why else item.words
        if item.action == "relabel":
            body["policy"] = {**dict(body.get("policy") or {}), "effect": "write", "confirm": True}
        elif item.action == "drop-json":
            body["json"] = False
        verbs[item.verb] = body
    return {**manifest, "verbs": verbs}, dropped


# --- rules: what `check --try` reports (the context carries the evidence; plain check has none) --------


def _trial_rule(kind: str):
    def run(ctx):
        for name, item in sorted((getattr(ctx, "trials", None) or {}).items()):
            if item.kind == kind:
                yield ctx.diagnostic(
                    TRIAL_CODES[kind], f"verbs.{name}", item.finding, hint=_HINTS[kind]
                )

    return run


_HINTS = {
    "long-running": "leave the verb out, or drop its streaming flag (--follow, --watch)",
    "interactive": "leave the verb out: an agent has no terminal",
    "writes": "mark it effect: write with confirm: true, or leave it out",
    "lacks-operand": "add the operand its command needs to cli[] and args (required), or leave the verb out",
    "json-wrong": "set json: false on the verb, or fix its JSON selection",
}

rule(
    "W060",
    severity="error",
    summary="--try: a read verb still running at the trial's timeout (long-running, streaming)",
)(_trial_rule("long-running"))
rule("W061", severity="error", summary="--try: a read verb that waits for a terminal or input")(
    _trial_rule("interactive")
)
rule(
    "W062",
    severity="error",
    summary="--try: a read verb that writes (EROFS, or files in the scratch cwd or HOME)",
)(_trial_rule("writes"))
rule(
    "W063", severity="error", summary="--try: a verb that exits with its usage: it lacks an operand"
)(_trial_rule("lacks-operand"))
rule("W064", severity="error", summary="--try: JSON selected but the output is not JSON")(
    _trial_rule("json-wrong")
)
