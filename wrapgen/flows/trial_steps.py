"""The steps of one verb's trial chain after its first trial, each acting on what the last one showed.

A chain (``wrapgen.flows.trials``) is: ``settle_double_dash`` (where the verb's grammar says nothing
of ``--``, the same operand with and without it), ``settle_equals`` (a value joined to its long
flag and in the next argument), the verb's trial, then ``retry_without_streaming`` (without
``--follow``, or with a print-once switch), ``retry_slow_start`` (a read still running given 3x the
timeout), ``retry_without_operands`` (sample operands the tool did without),
``retry_with_operands`` (optional operands filled after its usage), ``retry_with_two_items`` (two
items in an array operand after its usage), ``retry_in_context`` (in a working
directory made a repository), ``retry_without_json`` (a failure its JSON selection caused) and
``find_json`` (a JSON selection its flags may offer). Every trial
goes through ``trial_run.try_manifest`` with the chain's options.
"""

from __future__ import annotations

from dataclasses import replace

from wrapgen.check.trial_evidence import (
    JSON_BY_DEFAULT,
    Evidence,
    double_dash_verdict,
    equals_verdict,
    joined_value_flags,
    operands_after_double_dash,
    optional_operands,
    prints_json,
    required_operands,
    with_print_once_flags,
    with_split_values,
    without_double_dash,
    without_streaming_flags,
)
from wrapgen.check.trial_forms import optional_file_flags
from wrapgen.flows import trial_run
from wrapgen.flows.trial_facts import VerbFacts
from wrapgen.flows.trial_run import TrialReport
from wrapgen.knowledge.trials import context_fixture, fixture_of
from wrapgen.probe.fixtures import CWD_PREFIX
from wrapgen.probe.trial import DEFAULT_TRIAL_TIMEOUT_S

__all__ = [
    "SLOW_START_FACTOR",
    "carried",
    "command_words",
    "settle_double_dash",
    "settle_equals",
    "retry_slow_start",
    "retry_without_streaming",
    "retry_without_guards",
    "retry_without_operands",
    "retry_with_input_files",
    "retry_with_operands",
    "retry_with_two_items",
    "retry_in_context",
    "retry_without_json",
    "find_json",
]

# A read still running at the timeout that has printed nothing at all may only start slowly (a Python
# tool on a loaded machine: pip's reads all timed out at 3 s at a load of 14 on 2 cores): it is tried
# once more with this many times the timeout before it is called long-running. So is one that printed
# a first line and kept working (a package manager's "Listing..." while it reads its index: 2-8 s):
# a command that runs until stopped is never proposed by name (commands.json never_proposed), so a
# read still running is more often slow than a stream; SLOW_RETRIES of them at a time, the first, and
# the next as many only while every one tried again finished: a tool whose every read starts slowly
# (a node CLI's, four at once on a loaded machine) has all of them tried again, one that streams
# costs one round.
SLOW_START_FACTOR = 3.0
SLOW_RETRIES = 3
_STILL_RUNNING = ("it printed nothing and kept running", "it printed output and kept running")


def retry_slow_start(
    manifest: dict,
    report: TrialReport,
    **options,
) -> TrialReport:
    """A read still running at the timeout, printing or not, is tried again with
    ``SLOW_START_FACTOR`` times the timeout, ``SLOW_RETRIES`` at a time while every one tried again
    finished; when it then finishes, its evidence is that trial's (the words say nothing of it)."""
    waiting = [
        item.verb
        for item in report.evidence
        if item.kind == "long-running" and item.detail in _STILL_RUNNING
    ]
    if not waiting:
        return report
    timeout_s = options.get("timeout_s")
    longer = (timeout_s or DEFAULT_TRIAL_TIMEOUT_S) * SLOW_START_FACTOR
    verbs = manifest.get("verbs") or {}
    again: dict = {}
    while waiting:
        batch, waiting = waiting[:SLOW_RETRIES], waiting[SLOW_RETRIES:]
        tried = trial_run.try_manifest(
            {**manifest, "verbs": {name: verbs[name] for name in batch if name in verbs}},
            **{**options, "timeout_s": longer},
            try_in_checked=True,
            key_timeout_s=timeout_s or DEFAULT_TRIAL_TIMEOUT_S,
        ).by_verb()
        again.update(tried)
        if any(item.kind in ("long-running", "not-tried") for item in tried.values()):
            break  # one still running: the rest may stream as well
    evidence = []
    for item in report.evidence:
        retry = again.get(item.verb)
        if retry is not None and _waits_on_the_network(retry):
            retry = replace(retry, kind="unreachable", detail=_STILL_TRYING)
        if retry is not None and retry.kind not in ("long-running", "not-tried"):
            item = retry
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


# A read still running at the longer try that had tried the network and printed nothing as its
# answer waits on what the sandbox does not give, whether or not its processes sleep meanwhile (a
# cloud client retrying its API while a self-updater it started works beside it)
_STILL_TRYING = (
    "it tried to reach the network and printed no answer, still running at "
    f"{SLOW_START_FACTOR:g}x the timeout: waiting on it"
)


def _waits_on_the_network(item) -> bool:
    outcome = item.outcome
    return (
        item.kind == "long-running"
        and outcome is not None
        and outcome.tried_network
        and not outcome.stdout.strip()
    )


def retry_without_streaming(
    manifest: dict,
    report: TrialReport,
    **options,
) -> TrialReport:
    """A long-running read whose cli[] has a literal streaming flag (``--follow``) is tried once more
    without it; one with none, whose args offer a print-once switch (pm2 logs ``--nostream``), is tried
    once more with that switch on. When it then finishes, its evidence is that trial's, with the flag
    to drop or the switch to fix."""
    verbs = manifest.get("verbs") or {}
    variants = {}  # verb -> (its body for the second trial, the evidence fields that say what changed)
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        if item.kind == "long-running" and "cli" in body:
            cli, flags = without_streaming_flags(body["cli"], body.get("args"))
            if flags:
                variants[item.verb] = ({**body, "cli": cli}, {"dropped_flags": flags})
                continue
            # no streaming flag to drop: a switch the tool offers to print once (pm2 logs --nostream)
            cli, args, fixed = with_print_once_flags(body["cli"], body.get("args"))
            if fixed:
                variants[item.verb] = ({**body, "cli": cli, "args": args}, {"fixed_flags": fixed})
    return _second_trial(
        manifest,
        report,
        variants,
        lambda retry: retry.kind not in ("long-running", "not-tried"),
        **options,
    )


def carried(item: Evidence) -> dict:
    """What an earlier retry changed in a verb's cli[] or args (a streaming flag dropped, a print-once
    switch fixed, an operand given two items), which a later retry's evidence keeps: wrap applies it
    from the evidence it ends with."""
    return {
        "dropped_flags": item.dropped_flags,
        "fixed_flags": item.fixed_flags,
        "two_items": item.two_items,
        "dropped_guards": item.dropped_guards,
    }


def _second_trial(
    manifest: dict,
    report: TrialReport,
    variants: dict,
    keep,
    **options,
) -> TrialReport:
    """Try each verb of ``variants`` (verb -> (its changed body, the evidence fields that say what
    changed)) once more; where ``keep(retry)``, its evidence is the retry's with those fields, and what
    an earlier retry changed carried over (``carried``)."""
    if not variants:
        return report
    changed = {**manifest, "verbs": {name: body for name, (body, _) in variants.items()}}
    again = trial_run.try_manifest(changed, **options, try_in_checked=True).by_verb()
    evidence = []
    for item in report.evidence:
        retry = again.get(item.verb)
        if retry is not None and keep(retry):
            item = replace(retry, **{**carried(item), **variants[item.verb][1]})
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def retry_without_guards(
    manifest: dict,
    report: TrialReport,
    said: VerbFacts,
    **options,
) -> TrialReport:
    """A read that failed with a switch of its command that keeps statements from reaching outside
    (``said.guards``: "enable safe-mode") is tried once more without it: where it then answers, the
    switch is what broke it (a tool whose safe mode refuses its own start-up), and it goes on without
    it; the read's sandbox still keeps it from writing or reaching the network."""
    verbs = manifest.get("verbs") or {}
    variants = {}
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        guards = tuple(t for t in body.get("cli") or () if t in said.guards)
        if item.kind in ("failed", "crashed") and guards:
            cli = [t for t in body["cli"] if t not in guards]
            variants[item.verb] = ({**body, "cli": cli}, {"dropped_guards": guards})
    return _second_trial(manifest, report, variants, _answers, **options)


def retry_without_operands(
    manifest: dict,
    report: TrialReport,
    **options,
) -> TrialReport:
    """A read that failed on the sample values of its required operands is tried once more without
    them (npm's usage writes ``npm ls <package-spec>``, and 'sample' is no installed package, while
    bare ``npm ls`` lists the tree): when the tool then exits 0, the operands become optional."""
    verbs = manifest.get("verbs") or {}
    variants = {}
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        names = required_operands(body) if item.kind == "failed" and "cli" in body else ()
        if names:
            args = dict(body.get("args") or {})
            args["required"] = [n for n in (args.get("required") or ()) if n not in names]
            variants[item.verb] = ({**body, "args": args}, {"optional_args": names})
    return _second_trial(manifest, report, variants, _answers, **options)


def _answers(retry: Evidence) -> bool:
    """A retry to keep: it ran and answered (exit 0, or a status that is an answer)."""
    return retry.kind in ("ok", "answered")


def _printed_nothing(item: Evidence) -> bool:
    return item.kind == "ok" and item.outcome is not None and not item.outcome.stdout.strip()


# how many of a verb's optional file flags are each tried alone after all of them together
_MAX_FILE_FLAGS = 2


def retry_with_input_files(
    manifest: dict,
    report: TrialReport,
    **options,
) -> TrialReport:
    """A read that failed with none of its optional file flags given (``--file={{file}}``: its input
    named by a flag, ``optional_file_flags``) is tried once more with them, each a sample file of its
    kind: where it then answers, they become required (an archiver's listing read the archive from
    its empty stdin without ``--file``)."""
    verbs = manifest.get("verbs") or {}
    wanted = {}
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        names = optional_file_flags(body) if item.kind == "failed" and "cli" in body else ()
        if names:
            wanted[item.verb] = names
    # all of them, then each alone (an archiver's --files-from beside its --file reads names)
    for round_ in range(1 + _MAX_FILE_FLAGS):
        variants = {}
        for verb, names in wanted.items():
            chosen = names if round_ == 0 else names[round_ - 1 : round_]
            if not chosen or (round_ and len(names) == 1):
                continue
            body = verbs[verb]
            args = dict(body.get("args") or {})
            args["required"] = [*(args.get("required") or ()), *chosen]
            variants[verb] = (
                {**body, "args": args},
                {"required_args": chosen, "failed_without": True},
            )
        before = report
        report = _second_trial(manifest, report, variants, _answers, **options)
        done = {a.verb for a, b in zip(report.evidence, before.evidence) if a is not b}
        wanted = {verb: names for verb, names in wanted.items() if verb not in done}
        if not wanted:
            break
    return report


def retry_with_operands(
    manifest: dict,
    report: TrialReport,
    *,
    silent: bool = False,
    **options,
) -> TrialReport:
    """A read that exits with its usage and has optional operand slots is tried again with a value in
    the first of them, then in all of them ("add it or drop the verb"): when the tool then gets past its
    usage, those operands become required and the verb stays; otherwise it is left out as before.
    With ``silent`` (a write no word decided, tried as a read), one that exited 0 printing nothing is
    tried so too: a retry that prints or writes is its evidence. So is a read that failed without its
    optional operands (a filter that read the trial's empty standard input and found no document):
    where a retry with them answers cleanly, they are what it needs."""
    verbs = manifest.get("verbs") or {}
    candidates = {}
    quiet = set()  # verbs tried again because they printed nothing, not for their usage
    failed = set()  # verbs tried again because they failed without their operands
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        wanted = item.kind in ("lacks-operand", "failed") or (silent and _printed_nothing(item))
        names = optional_operands(body) if wanted and "cli" in body else ()
        if names:
            candidates[item.verb] = names
            if item.kind == "failed":
                failed.add(item.verb)
            elif item.kind != "lacks-operand":
                quiet.add(item.verb)
    found: dict[str, Evidence] = {}
    for take in (1, None):  # the first operand alone (rg's pattern), then every one
        variants = {}
        for verb, names in candidates.items():
            chosen = names[:take]
            if verb in found or (take is None and len(names) == 1):
                continue
            body = verbs[verb]
            args = dict(body.get("args") or {})
            args["required"] = [*(args.get("required") or ()), *chosen]
            variants[verb] = ({**body, "args": args}, chosen)
        if not variants:
            continue
        filled = {**manifest, "verbs": {name: body for name, (body, _) in variants.items()}}
        again = trial_run.try_manifest(filled, **options, try_in_checked=True).by_verb()
        for verb, (_, chosen) in variants.items():
            retry = again.get(verb)
            if retry is None or retry.kind in ("lacks-operand", "not-tried"):
                continue
            if verb in quiet and _printed_nothing(retry):
                continue  # still nothing shown
            if verb in failed and retry.kind not in ("ok", "answered"):
                continue  # it fails with them too: they are not what it lacked
            found[verb] = replace(
                retry,
                required_args=chosen,
                silent_without=verb in quiet,
                failed_without=verb in failed,
            )
    evidence = [
        replace(found[item.verb], **carried(item)) if item.verb in found else item
        for item in report.evidence
    ]
    return replace(report, evidence=tuple(evidence))


def retry_with_two_items(manifest: dict, report: TrialReport, **options) -> TrialReport:
    """A read that still exits with its usage with every operand given (one item in each array) is
    tried again with two items in its required array operands (a comparison of two files): when the
    tool then gets past its usage, those arrays take at least two items (``minItems``), so a call can
    no longer ask for what only ends in the tool's usage."""
    verbs = manifest.get("verbs") or {}
    variants = {}
    for item in report.evidence:
        body = verbs.get(item.verb, {})
        if item.kind != "lacks-operand" or "cli" not in body:
            continue
        args = dict(body.get("args") or {})
        required = [
            *(args.get("required") or ()),
            *(n for n in item.required_args if n not in (args.get("required") or ())),
        ]
        properties = dict(args.get("properties") or {})
        operands = required_operands({**body, "args": {**args, "required": required}})
        names = tuple(
            n
            for n in operands
            if (properties.get(n) or {}).get("type") == "array"
            and int((properties.get(n) or {}).get("minItems", 1)) < 2
        )
        if not names:
            continue
        for name in names:
            properties[name] = {**properties[name], "minItems": 2}
        changed = {**body, "args": {**args, "required": required, "properties": properties}}
        fields = {
            "two_items": names,
            "required_args": item.required_args,
            "optional_args": item.optional_args,
        }
        variants[item.verb] = (changed, fields)
    return _second_trial(
        manifest,
        report,
        variants,
        lambda retry: retry.kind not in ("lacks-operand", "not-tried"),
        **options,
    )


def settle_double_dash(one: dict, name: str, facts: VerbFacts, **options) -> tuple[dict, str]:
    """Where the verb's grammar says nothing of ``--`` and its cli[] holds one before operand slots,
    the same sample operands with and without it (both filled, required or not): when the tool reads
    ``--`` as an operand or refuses it, the verb goes on without it ("dropped"); when it takes it,
    "kept"; "" when the two trials show nothing (or there was nothing to try)."""
    body = one["verbs"][name]
    cli = list(body.get("cli") or ())
    operands = operands_after_double_dash(body)
    if (
        facts.double_dash is not None
        or not operands
        or (body.get("policy") or {}).get("effect", "read") != "read"
    ):
        return one, ""
    tried = _both_forms(one, name, operands, without_double_dash(cli), **options)
    if tried is None:
        return one, ""
    verdict = double_dash_verdict(*tried)
    if verdict == "dropped":
        return {**one, "verbs": {name: {**body, "cli": without_double_dash(cli)}}}, verdict
    return one, verdict


def _both_forms(one: dict, name: str, given, other_cli, **options):
    """The trials of verb ``name`` with the args ``given`` filled (required for the trial), as its
    cli[] is and as ``other_cli``: (as it is, the other) evidence, or None where either gave none."""
    body = one["verbs"][name]
    args = dict(body.get("args") or {})
    required = list(args.get("required") or ())
    args["required"] = [*required, *(n for n in given if n not in required)]
    as_is = {**body, "args": args}
    tried = [
        trial_run.try_manifest({**one, "verbs": {name: verb}}, **options, try_in_checked=True)
        .by_verb()
        .get(name)
        for verb in (as_is, {**as_is, "cli": list(other_cli)})
    ]
    return None if None in tried else tuple(tried)


def settle_equals(one: dict, name: str, **options) -> tuple[dict, str]:
    """Where a read's cli[] writes a value joined to its long flag (``--xpath={{xpath}}``), the
    same sample value joined and in the next argument: when the tool reads the joined form as one
    unknown option (its own parser, not getopt's), the verb goes on with its values split
    ("split"); "" when the two trials show nothing or there was nothing to try."""
    body = one["verbs"][name]
    joined = joined_value_flags(body)
    if not joined or (body.get("policy") or {}).get("effect", "read") != "read":
        return one, ""
    flag, arg = joined[0]
    tried = _both_forms(one, name, (arg,), with_split_values(body.get("cli") or ()), **options)
    if tried is None:
        return one, ""
    verdict = equals_verdict(flag, *tried)
    if verdict == "split":
        return {
            **one,
            "verbs": {name: {**body, "cli": with_split_values(body.get("cli") or ())}},
        }, verdict
    return one, verdict


def retry_in_context(manifest: dict, report: TrialReport, **options) -> TrialReport:
    """A read that needs its working directory to be something (``not a git repository``) is tried
    once more in a working directory made so (``context_fixtures``); that trial's evidence is kept
    when it gets past the need."""
    if options.get("try_in"):
        return report
    extra = {}
    for item in report.evidence:
        if item.kind == "context" and item.outcome is not None:
            kind = context_fixture(item.outcome.stderr + "\n" + item.outcome.stdout)
            if kind:
                extra[item.verb] = (f"{CWD_PREFIX}{kind}",)
    if not extra:
        return report
    verbs = manifest.get("verbs") or {}
    again = trial_run.try_manifest(
        {**manifest, "verbs": {n: verbs[n] for n in extra if n in verbs}},
        **options,
        try_in_checked=True,
        extra_inputs=extra,
    ).by_verb()
    evidence = []
    for item in report.evidence:
        retry = again.get(item.verb)
        if retry is not None and retry.kind not in ("context", "not-tried"):
            kind = extra[item.verb][0][len(CWD_PREFIX) :]
            item = replace(
                retry,
                **carried(item),
                in_context=kind,
                required_args=item.required_args,
                optional_args=item.optional_args,
            )
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


# what a read's trial ended in that its JSON selection may have caused: a refusal of the selection
# as an option ("--to-json can only be used with stdin"), or a usage error for it
_FAILED_UNDER_JSON = ("failed", "crashed", "lacks-operand")


def retry_without_json(
    manifest: dict, report: TrialReport, *, pack: dict | None = None, **options
) -> TrialReport:
    """A read that failed with its JSON selection rendered is tried once more with none: where it
    then answers, the selection is what broke it (a command that takes the switch only for one kind
    of input, or not at all), and it goes on without one, the failure's words in its evidence; a
    JSON twin (``pack``: the whole manifest, where another verb runs the same command as text) is
    left out instead. A read whose output is JSON with no flag (``json: true``) renders nothing, so
    is not tried."""
    verbs = manifest.get("verbs") or {}
    variants = {}
    for item in report.evidence:
        body = verbs.get(item.verb)
        if (
            body is not None
            and item.kind in _FAILED_UNDER_JSON
            and item.outcome is not None
            and item.outcome.json_selected
            and not _selects_no_json(manifest, item.verb)
        ):
            said = item.detail or f"exit {item.outcome.exit_code}"
            variants[item.verb] = ({**body, "json": False}, {"json_dropped": said})
    report = _second_trial(
        manifest, report, variants, lambda retry: retry.kind in ("ok", "answered"), **options
    )
    whole = pack or manifest
    evidence = tuple(
        replace(item, kind="json-twin", detail=item.json_dropped, json_dropped="")
        if item.json_dropped and _has_text_twin(whole, item.verb)
        else item
        for item in report.evidence
    )
    return replace(report, evidence=evidence)


def _has_text_twin(manifest: dict, name: str) -> bool:
    """Whether another verb runs the same command as ``name`` (the same words and fixed flags) with
    no JSON selection: the text form of the command is already in the pack."""
    return _has_twin(manifest, name, selects_json=False)


def find_json(
    manifest: dict,
    report: TrialReport,
    facts: VerbFacts,
    *,
    pack: dict | None = None,
    **options,
) -> TrialReport:
    """A read that ran but selects no JSON and printed JSON anyway, given no JSON file, selects it
    with no flag (``json: true``); else it is tried with each of its command's candidate selections
    (``trial_facts.json_candidates``: ``-json``, ``--format json``) in turn, and the first whose output
    parses as JSON, and that writes nothing, becomes its selection. ``pack``: the whole manifest,
    when ``manifest`` holds only the verbs being tried (a verb with a JSON twin there is left be)."""
    verbs = manifest.get("verbs") or {}
    evidence = []
    for item in report.evidence:
        body = verbs.get(item.verb)
        if (
            body is not None
            and item.kind == "ok"
            and _selects_no_json(manifest, item.verb)
            and not _has_json_twin(pack or manifest, item.verb)
        ):
            if (
                item.outcome is not None
                and prints_json(item.outcome.stdout)
                and not _given_json(item.outcome)
            ):
                # it printed JSON with no flag at all (a tool whose output is JSON): json: true; not
                # where it was given a JSON file (a formatter prints its input back, reformatted)
                evidence.append(replace(item, json_found=(JSON_BY_DEFAULT,)))
                continue
            for candidate in facts.json_candidates:
                retry = (
                    trial_run.try_manifest(
                        {**manifest, "verbs": {item.verb: {**body, "json": list(candidate)}}},
                        **options,
                        try_in_checked=True,
                    )
                    .by_verb()
                    .get(item.verb)
                )
                if (
                    retry is not None
                    and retry.kind == "ok"
                    and retry.outcome is not None
                    and retry.outcome.stdout_json
                ):
                    item = replace(item, json_found=tuple(candidate))
                    break
        evidence.append(item)
    return replace(report, evidence=tuple(evidence))


def _given_json(outcome) -> bool:
    """Whether a trial's argv named a JSON sample file (``sample.json``): not the ones every trial
    finds in its working directory, which a tool reads only when it is given them."""
    return any(fixture_of(word) == "json" for word in outcome.argv[1:])


def _has_json_twin(manifest: dict, name: str) -> bool:
    """Whether another verb runs the same command (the same words and fixed flags, only its args
    differ) with a JSON selection: the proposal gave the command a text verb and a JSON one on
    purpose (``search`` beside ``search.json``), so the text one keeps its text."""
    return _has_twin(manifest, name, selects_json=True)


def _has_twin(manifest: dict, name: str, *, selects_json: bool) -> bool:
    """Whether another verb runs ``name``'s command (``command_words``) and selects JSON or not."""
    from wrapgen.pack.build import resolve_verb

    own = command_words(manifest, name)
    return any(
        other != name
        and bool(resolve_verb(manifest, other)["json"]) == selects_json
        and command_words(manifest, other) == own
        for other in manifest.get("verbs") or {}
    )


def command_words(manifest: dict, name: str) -> tuple[str, ...]:
    """What a verb runs whatever its args: the literal words and fixed flags of its argv, without
    ``--``, its slots, and the flags whose value (or on/off) is an arg (``--glob``, ``{{glob}}``)."""
    from wrapgen.pack.build import resolve_verb

    argv = list(resolve_verb(manifest, name)["argv"])
    return tuple(
        token
        for i, token in enumerate(argv)
        if "{{" not in token
        and token != "--"
        and not (token.startswith("-") and i + 1 < len(argv) and argv[i + 1].startswith("{{"))
    )


def _selects_no_json(manifest: dict, name: str) -> bool:
    from wrapgen.pack.build import resolve_verb

    return not resolve_verb(manifest, name)["json"]
