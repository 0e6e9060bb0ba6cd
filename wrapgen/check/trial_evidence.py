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

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from wrapgen.check.registry import rule
from wrapgen.check.samples import sample_value
from wrapgen.check.trial_forms import (  # noqa: F401 (named here too: trial_evidence's public API)
    joined_value_flags,
    operands_after_double_dash,
    optional_operands,
    required_operands,
    with_print_once_flags,
    with_split_values,
    without_double_dash,
    without_streaming_flags,
)
from wrapgen.knowledge.trials import (
    answer_phrase,
    cache_markers,
    fixture_of,
    ignored_path,
    phrase,
)
from wrapgen.model.trial import TrialOutcome, is_json_text

__all__ = [
    "Evidence",
    "KINDS",
    "sample_args",
    "sample_inputs",
    "failure_reason",
    "home_writes",
    "tagged_caches",
    "is_state",
    "state_roots",
    "named_state_roots",
    "classify",
    "apply_evidence",
    "evidence_line",
    "TRIAL_CODES",
    "without_streaming_flags",
    "without_double_dash",
    "double_dash_verdict",
    "equals_verdict",
    "joined_value_flags",
    "with_split_values",
    "prints_json",
    "JSON_BY_DEFAULT",
    "operands_after_double_dash",
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
    # a JSON twin (``list.json`` beside ``list``) whose selection failed where the same call without
    # it answered: without its selection it is its text twin, so it goes
    "json-twin": (
        "drop",
        "tried: with its JSON selection it failed, and without it the command is its text twin's",
        "left out",
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
    # a tool that crashes or prints garbage on the inputs made for it: left out, and the wrap goes on
    "crashed": ("drop", "tried: it crashed on the sample inputs", "left out"),
    "garbage": ("drop", "tried: it printed binary output, which no result can carry", "left out"),
    # check --try: the same operand with and without the verb's "--" showed the tool refuses it or
    # reads it as an operand (wrap drops such a "--" and says so in the evidence of the verb's trial)
    "double-dash-refused": (
        "keep",
        "tried: with and without its '--' before the same operand, the tool refuses '--' or reads "
        "it as an operand",
        "",
    ),
    # a non-zero status the verb declares as an answer (exit_codes): the tool ran and answered
    "answered": ("keep", "tried: it answered with a status that is an answer", ""),
    "not-tried": ("keep", "not tried", ""),
    # the tool refused a made-up sample value (a rule, a name that does not exist): the verb is fine
    # with a real one, and nothing was learned (no finding of check --try)
    "sample-refused": (
        "keep",
        "could not be tried: the tool refused the made-up sample value, as it would any unknown one",
        "",
    ),
    "rendered": ("keep", "a write verb: rendered with sample args, never run", ""),
    # a verb no word labelled (a write to be safe), tried as a read: it did not answer cleanly, so it
    # stays a write; the detail says what the trial showed ("it failed (exit 2)")
    "kept-write": (
        "keep",
        "tried as a read, since no word says what it does; it stays a write (confirm-gated)",
        "",
    ),
}

TRIAL_CODES = {
    "long-running": "W060",
    "interactive": "W061",
    "writes": "W062",
    "lacks-operand": "W063",
    "json-wrong": "W064",
    "json-twin": "W064",  # (wrap's alone: check --try runs no chains, so never reports it)
    "crashed": "W065",
    "garbage": "W066",
    "failed": "W067",
    "double-dash-refused": "W068",
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
    # switches that keep statements from reaching outside ("-safe") this trial went without: with
    # them the tool failed, without them it answered, so wrap takes them out of cli[]
    dropped_guards: tuple[str, ...] = ()
    # "dropped": the same operand with and without "--" showed the tool reads "--" as an operand or
    # refuses it, so wrap takes it out of cli[]; "kept": it showed the tool takes it
    double_dash: str = ""
    dash_shown_by: str = ""  # "dropped-with": the verb whose trial showed the tool refuses "--"
    # "split": the same value as "--flag=value" and as "--flag value" showed the tool reads the first
    # as one unknown option, so wrap writes each such value in the next argument; "split-with": as
    # another verb's trial showed (``equals_shown_by``), one option parser reading all the tool
    equals: str = ""
    equals_shown_by: str = ""
    json_found: tuple[str, ...] = ()  # a JSON selection a trial found (its output parsed as JSON)
    # what the tool said when it failed under the verb's JSON selection, where the same call without
    # it answered: the selection is what broke it (a switch the command takes only for stdin), and
    # wrap drops it
    json_dropped: str = ""
    answer: tuple[int, str] | None = (
        None  # a status its output showed to be an answer: (1, "findings reported")
    )
    in_context: str = ""  # the kind of working directory a retry made for it (context_fixtures)
    # array operands the tool exited with its usage on with one item and took two of: minItems 2
    two_items: tuple[str, ...] = ()
    # required_args came from a run without them that exited 0 printing nothing (not its usage)
    silent_without: bool = False
    # required_args came from a run without them that failed (an input file flag it read stdin
    # without), not one that exited with its usage
    failed_without: bool = False
    # what the trial did (kept so the evidence can be read again once more is known, the tool's own
    # state), not part of what the evidence says
    outcome: TrialOutcome | None = field(default=None, compare=False, repr=False)

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
        if self.answer is not None:
            text = f"{text}: declared in its exit_codes"
        if self.dropped_flags:
            flags = " ".join(self.dropped_flags)
            text = f"tried: still running at the trial's timeout with {flags}: {flags} dropped; without it {text}"
        if self.fixed_flags:
            flags = " ".join(self.fixed_flags)
            text = (
                f"tried: still running at the trial's timeout (streaming): {flags} fixed in its cli[]; "
                f"then {text.removeprefix('tried: ')}"
            )
        if self.json_dropped:
            text = (
                f"tried: with its JSON selection it failed ({self.json_dropped}); without it "
                f"{text.removeprefix('tried: ')}: the JSON selection is dropped"
            )
        if self.dropped_guards:
            flags = " ".join(self.dropped_guards)
            text = (
                f"tried: with {flags} it failed, without it {text.removeprefix('tried: ')}: "
                f"{flags} dropped (its sandbox still keeps the read from writing)"
            )
        if self.optional_args:
            names = ", ".join(self.optional_args)
            text = (
                f"tried: with a sample {names} it failed; without {'it' if len(self.optional_args) == 1 else 'them'}, "
                f"{text.removeprefix('tried: ')}: {names} made optional"
            )
        if self.required_args:
            names = ", ".join(self.required_args)
            shown = (
                "printed nothing"
                if self.silent_without
                else ("failed" if self.failed_without else "exits with its usage")
            )
            text = (
                f"tried: without {names} it {shown}: {names} made required; "
                f"with {'it' if len(self.required_args) == 1 else 'them'} {text.removeprefix('tried: ')}"
            )
        if self.two_items:
            names = ", ".join(self.two_items)
            text = (
                f"tried: with one item in {names} it exits with its usage; with two "
                f"{text.removeprefix('tried: ')}: {names} take at least two"
            )
        if self.in_context:
            text = f"tried in a sample {self.in_context} working directory made for it: {text.removeprefix('tried: ')}"
        if self.double_dash == "dropped":
            text = (
                "tried: the same operand with and without '--': the tool reads '--' as an operand "
                f"or refuses it, so '--' is dropped; then {text.removeprefix('tried: ')}"
            )
        elif self.double_dash == "dropped-with":
            text = (
                f"{text}; '--' dropped: the trial of {self.dash_shown_by} showed the tool reads "
                "'--' as an operand or refuses it, and this command's help says nothing of it"
            )
        elif self.double_dash == "kept":
            text = f"{text}; the same operand with and without '--' gave the same: it takes '--'"
        if self.equals == "split":
            text = (
                f"{text}; tried '--flag=value' and '--flag value': the tool reads the first as "
                "one unknown option, so each value goes in the next argument"
            )
        elif self.equals == "split-with":
            text = (
                f"{text}; each value goes in the next argument: the trial of "
                f"{self.equals_shown_by} showed the tool reads '--flag=value' as one unknown option"
            )
        if self.json_found == (JSON_BY_DEFAULT,):
            text = f"{text}; it printed JSON with no flag: its output is read as JSON (json: true)"
        elif self.json_found:
            text = f"{text}; with {' '.join(self.json_found)} it printed JSON: that is its JSON selection"

        return text


def sample_args(args_schema: Mapping[str, Any], *, context: str = "") -> dict:
    """A value for each required arg (a revision ``HEAD``, a path ``.``, a pattern ``.``, a sample
    file ``sample.db`` for a database, ...); the rest left out. ``context``: the verb's and the pack's
    descriptions, which say what a generic file holds ("Command-line JSON processor").

    A trial calls a verb the way an agent's first call would: only what the verb cannot do without.
    """
    properties = args_schema.get("properties") or {}
    return {
        name: sample_value(properties.get(name, {}), name=name, realistic=True, context=context)
        for name in args_schema.get("required", ())
        if name in properties
    }


def sample_inputs(args: Mapping[str, Any]) -> tuple[str, ...]:
    """The kinds of sample file the values of ``args`` name (``sample.db`` -> ``sqlite``), in order."""
    out: list[str] = []
    for value in args.values():
        for item in value if isinstance(value, list) else [value]:
            kind = fixture_of(item) if isinstance(item, str) else ""
            if kind and kind not in out:
                out.append(kind)
    return tuple(out)


# Signals a tool dies of when it crashed, not when it was stopped (SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV)
_CRASH_SIGNALS = frozenset((4, 6, 7, 8, 11))
_REASON_MAX = 80


def is_state(path: str, state: Iterable[str]) -> bool:
    """Whether ``path`` (``home/.gnupg/pubring.kbx``) lies in the tool's own state (``home/.gnupg/``)."""
    return any(path == root or (root.endswith("/") and path.startswith(root)) for root in state)


def tagged_caches(outcome: TrialOutcome) -> tuple[str, ...]:
    """The folders a trial tagged as caches: each one holding a marker file it made or changed
    (``work/.lint/CACHEDIR.TAG`` -> ``work/.lint/``; ``cache_markers``). The scratch cwd or HOME
    itself is never one: a marker there says nothing of the user's files beside it."""
    markers = cache_markers()
    out = []
    for path in (*outcome.new_paths, *outcome.changed_paths):
        folder, _, name = path.rpartition("/")
        if name in markers and "/" in folder:
            out.append(folder + "/")
    return tuple(sorted(set(out)))


def _cache(path: str, tagged: tuple[str, ...]) -> bool:
    """Whether ``path`` is a cache: by its name (``ignored_paths``) or in a folder tagged as one."""
    return ignored_path(path) or is_state(path, tagged)


def _writes(outcome: TrialOutcome, state: Iterable[str]) -> list[str]:
    """What the trial wrote that is neither a cache, nor the tool's own state, as words per path."""
    state = tuple(state)
    tagged = tagged_caches(outcome)
    created = [p for p in outcome.new_paths if not _cache(p, tagged) and not is_state(p, state)]
    changed = [p for p in outcome.changed_paths if not _cache(p, tagged) and not is_state(p, state)]
    removed = [p for p in outcome.removed_paths if not is_state(p, state)]
    out = []
    for verb, paths in (("created", created), ("changed", changed), ("deleted", removed)):
        paths = sorted(paths)
        if paths:
            shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
            out.append(f"{verb} {shown}")
    return out


def home_writes(outcome: TrialOutcome) -> tuple[str, ...]:
    """The paths a trial made in its HOME that are no cache (``ignored_paths``): what may be the tool's own state."""
    tagged = tagged_caches(outcome)
    return tuple(
        sorted(p for p in outcome.new_paths if p.startswith("home/") and not _cache(p, tagged))
    )


# The XDG folders under HOME whose entries are each one tool's own (home/.config/gcloud/)
_XDG = ("home/.config/", "home/.local/share/", "home/.local/state/", "home/.cache/")


def state_roots(paths: Iterable[str]) -> tuple[str, ...]:
    """Where a tool keeps its own state, from paths it made in HOME: a folder of its own at the top
    of HOME (``home/.gnupg/pubring.kbx`` -> ``home/.gnupg/``) or in an XDG folder
    (``home/.config/gcloud/logs/x`` -> ``home/.config/gcloud/``); a file at the top, as it is."""
    out: set[str] = set()
    for path in paths:
        if not path.startswith("home/"):
            continue
        xdg = next((x for x in _XDG if path.startswith(x) and len(path) > len(x)), "")
        base = xdg or "home/"
        rest = path[len(base) :]
        head, sep, _ = rest.partition("/")
        out.add(base + head + "/" if sep else path)
    return tuple(sorted(out))


def named_state_roots(bin_name: str) -> tuple[str, ...]:
    """The folders in HOME named after the tool, where a tool keeps its own state by convention
    (``home/.TOOL/``, ``home/.config/TOOL/`` and the other XDG folders'), whichever run first makes
    them: a cloud client's first listing makes ``~/.TOOL/`` where its ``--version`` did not."""
    name = os.path.basename(bin_name or "")
    if not name or name.startswith("."):
        return ()
    return tuple(sorted({f"home/.{name}/", *(f"{xdg}{name}/" for xdg in _XDG)}))


def failure_reason(outcome: TrialOutcome) -> str:
    """A failed trial's reason in a few words: its status and the last line it printed on stderr (else
    stdout), shortened: ``exit 2: 'no such table: items'``."""
    status = (
        f"killed by signal {outcome.signal}"
        if outcome.signal is not None
        else f"exit {outcome.exit_code}"
    )
    for text in (outcome.stderr, outcome.stdout):
        lines = [
            " ".join(line.split())
            for line in text.splitlines()
            if _WORDS.search(line) and not _FRAME.match(line) and not _POINTER.search(line)
        ]
        said_wrong = [line for line in lines if _ERROR_WORD.search(line)]
        # a traceback ends with what went wrong; other tools say it first ("tar: ...: Cannot open",
        # then "Exiting with failure status due to previous errors")
        traceback = "traceback (most recent call last)" in text.lower()
        said = (said_wrong[-1] if traceback else said_wrong[0]) if said_wrong else ""
        said = said or (lines[-1] if lines else "")
        if said:
            if len(said) > _REASON_MAX:
                said = said[: _REASON_MAX - 1].rsplit(" ", 1)[0] + "…"
            return f"{status}: '{said}'"
    return status


# What a failure's reason is read from: a line with words, not a frame of a stack trace, preferring
# one that says what went wrong
_WORDS = re.compile(r"[A-Za-z]{3}")
_FRAME = re.compile(r"\s*(?:at\s|File\s\"|#\d+\s|goroutine\s|\d+:\s+0x|[\]}),]+$)")
# Lines that point elsewhere rather than say what went wrong
_POINTER = re.compile(
    r"\b(?:log of this run|for more (?:details|information|info)|previous errors|run with --\w+)\b",
    re.IGNORECASE,
)
_ERROR_WORD = re.compile(
    r"\b(?:error|fatal|failed|cannot|can't|unable|invalid|not found|no such|denied|missing|unknown)\b",
    re.IGNORECASE,
)


def _answer_in_output(outcome: TrialOutcome) -> str:
    """What a non-zero status means when the tool printed its answer on stdout and no error on
    stderr: findings (``FILE:LINE:COL: message``), failed tests, differences, changes a formatter
    would make (``answer_output`` in ``knowledge/data/trials.json``); "" otherwise."""
    if (
        outcome.exit_code in (None, 0)
        or not outcome.stdout.strip()
        or not 0 < outcome.exit_code < 126
    ):
        return ""
    if outcome.stderr.strip() and phrase("answer_noise", outcome.stderr):
        return ""  # it said an error of its own: a failure that also printed something
    said = answer_phrase(outcome.stdout)
    if not said and outcome.json_selected and outcome.stdout_json:
        # JSON selected: a non-empty list printed with the status is what it found (a linter's
        # findings as JSON); an object may be an error's own report, and says nothing here
        head = outcome.stdout.lstrip()
        if head.startswith("[") and not head.startswith("[]"):
            said = "findings reported"
    return said


def _crash_words(said: str, found: str) -> str:
    """What a crash said, in a few words: the exception a traceback ends with, else the line that
    showed the crash (``panic: runtime error: index out of range``)."""
    lines = [" ".join(line.split()) for line in said.splitlines() if line.strip()]
    if found.startswith("traceback") and lines:
        line = lines[-1]
    else:
        line = next((x for x in lines if found in x.lower()), found)
    if len(line) > _REASON_MAX:
        line = line[: _REASON_MAX - 1].rsplit(" ", 1)[0] + "…"
    return f"'{line}'"


def classify(
    outcome: TrialOutcome,
    *,
    state: Iterable[str] = (),
    answers: Mapping[str, str] | None = None,
) -> Evidence:
    """The evidence of one trial, by the first class that fits (docs/packs-and-check.md, "Trials").

    ``state``: paths in the scratch HOME that are the tool's own state (``home/.terraform.d/``),
    learned from runs of the tool that were not this verb's: writing there is no write of the verb.
    ``answers``: the verb's declared answer statuses (``{"1": "no matches"}``), which are no failure.
    """
    verb = outcome.verb
    if outcome.not_run:
        return Evidence(
            verb,
            "rendered" if outcome.not_run == "write" else "not-tried",
            "" if outcome.not_run == "write" else outcome.not_run,
            outcome=outcome,
        )
    if outcome.sandbox_failed:
        return Evidence(verb, "not-tried", "the sandbox failed to start", outcome=outcome)
    if (
        outcome.timed_out
        and outcome.retrying_network
        and not (outcome.stdout + outcome.stderr).strip()
    ):
        return Evidence(
            verb,
            "unreachable",
            "it tried to reach the network, then printed nothing and slept until "
            "the timeout, watching no file: waiting to try again",
            outcome=outcome,
        )
    if outcome.timed_out:
        return Evidence(
            verb,
            "long-running",
            "it printed output and kept running"
            if outcome.stdout.strip()
            else "it printed nothing and kept running",
            outcome=outcome,
        )
    said = outcome.stderr + "\n" + outcome.stdout
    if outcome.exit_code != 0 or outcome.signal is not None:
        # a read that stopped to wait for a terminal or an editor is left out whatever it wrote first
        found = phrase("interactive", said)
        if found:
            return Evidence(verb, "interactive", f"'{found}'", outcome=outcome)
    written = _writes(outcome, state)
    if written:
        return Evidence(verb, "writes", "; ".join(written), outcome=outcome)
    if outcome.exit_code != 0:
        found = phrase("state_root", said)
        if found:
            return Evidence(
                verb,
                "unreachable",
                f"'{found}': it keeps its state under /run, which the sandbox does not give",
                outcome=outcome,
            )
    found = phrase("writes", said)
    if found:
        return Evidence(verb, "writes", f"'{found}'", outcome=outcome)
    if outcome.signal in _CRASH_SIGNALS:
        return Evidence(verb, "crashed", f"killed by signal {outcome.signal}", outcome=outcome)
    ok = outcome.exit_code == 0 and outcome.signal is None
    if not ok:
        found = phrase("crashed", said)
        if found:
            return Evidence(verb, "crashed", _crash_words(said, found), outcome=outcome)
        for kind, table in (("interactive", "interactive"), ("unreachable", "unreachable")):
            found = phrase(table, said)
            if found:
                return Evidence(verb, kind, f"'{found}'", outcome=outcome)
        # a tool that opens by refusing the made-up value, then prints its usage ("error: user name
        # does not exist", then "Usage:"), has the operand it needs: the value was refused
        first = next((line for line in said.splitlines() if line.strip()), "")
        found = phrase("sample_refused", first)
        if found:
            return Evidence(verb, "sample-refused", f"'{found}'", outcome=outcome)
        found = phrase("context", said)
        if found:
            if outcome.tried_in:
                return Evidence(
                    verb, "failed", f"in the --try-in directory: '{found}'", outcome=outcome
                )
            return Evidence(verb, "context", f"'{found}'", outcome=outcome)
        # a usage error is no answer, though its status is one an answer also has (exit 1 of a
        # formatter that says "would reformat" with it)
        found = phrase("usage", said)
        if found:
            return Evidence(verb, "lacks-operand", f"'{found}'", outcome=outcome)
        found = phrase("sample_refused", said)
        if found:
            return Evidence(verb, "sample-refused", f"'{found}'", outcome=outcome)
        meaning = (answers or {}).get(str(outcome.exit_code)) if outcome.signal is None else None
        if meaning:
            return Evidence(
                verb, "answered", f"exit {outcome.exit_code}: {meaning}", outcome=outcome
            )
        learned = _answer_in_output(outcome)
        if learned:
            return Evidence(
                verb,
                "answered",
                f"exit {outcome.exit_code}: {learned}, on stdout",
                answer=(outcome.exit_code, learned),
                outcome=outcome,
            )
        if _text_under_json(outcome):
            # what it printed on stdout under its JSON selection is text: the selection does not
            # reach this command (a global output flag its subcommand ignores), so a call that
            # succeeds would answer "output is not JSON" (docs/contract.md §7) where text is right
            return Evidence(verb, "json-wrong", failure_reason(outcome), outcome=outcome)
        return Evidence(verb, "failed", failure_reason(outcome), outcome=outcome)
    if outcome.binary_output and not outcome.json_selected:
        return Evidence(verb, "garbage", outcome=outcome)
    if _text_under_json(outcome):
        return Evidence(verb, "json-wrong", outcome=outcome)
    return Evidence(
        verb,
        "ok",
        "and printed JSON" if outcome.json_selected and outcome.stdout.strip() else "",
        outcome=outcome,
    )


def _text_under_json(outcome: TrialOutcome) -> bool:
    """The verb's JSON selection was rendered and what stdout holds (whole) is not JSON."""
    if not (outcome.json_selected and outcome.stdout.strip()) or outcome.output_capped:
        return False
    parsed = (
        outcome.stdout_json if outcome.stdout_json is not None else is_json_text(outcome.stdout)
    )
    return not parsed


_ANSWERED = ("ok", "answered")

# Evidence.json_found of a read that printed JSON with no flag: the pack selects it with json: true
JSON_BY_DEFAULT = "(json by default)"


def prints_json(stdout: str) -> bool:
    """Whether a trial's output is a JSON document or JSON lines (an object or an array: a bare
    number or word is no JSON output of a tool)."""
    head = stdout.lstrip()[:1]
    return head in ("{", "[") and is_json_text(stdout)


def _lone_dashes(outcome: TrialOutcome) -> int:
    """How often its output holds a "--" that is not its own command line echoed back ("-- VALUE",
    as a process listing shows it): a "--" it answered about."""
    argv = list(outcome.argv)
    after = argv[argv.index("--") + 1] if "--" in argv[:-1] else ""
    echoed = outcome.stdout.count(f"-- {after}") if after else 0
    return outcome.stdout.count("--") - echoed


# An error that names "-" or "--" as an option it does not know: "unknown option: -",
# "Unknown option --", "Unrecognized option '-'", "invalid option -- '-'"; or says "--" may not
# be used there: "can't use -- before archive name", "'--' is not allowed".
_REFUSED_DASHES = re.compile(
    r"""
    \b(?:unknown|unrecogni[sz]ed|invalid|illegal|unexpected|bad)\s+
    (?:option|flag|switch|argument)s?                # "unknown option", "invalid flag"
    [\s:]*(?:--\s+)?                                  # getopt's "invalid option -- '-'"
    ['"`\u2018]?--?['"`\u2019]?                         # the option named: "-" or "--", maybe quoted
    (?=$|[\s,.:;)])
    | \b(?:can'?t|cannot|can\s+not|may\s+not|must\s+not)\s+(?:use|give|pass|put)\s+
      ['"`\u2018]?--['"`\u2019]?(?=$|[\s,.:;)])       # "can't use -- before archive name"
    | ['"`\u2018]--['"`\u2019]\s+(?:is\s+)?not\s+(?:allowed|supported|permitted)
    """,
    re.VERBOSE | re.IGNORECASE | re.MULTILINE,
)


def _refuses_dashes(outcome: TrialOutcome | None) -> bool:
    return outcome is not None and bool(
        _REFUSED_DASHES.search(f"{outcome.stderr}\n{outcome.stdout}")
    )


def double_dash_verdict(with_it: Evidence, without_it: Evidence) -> str:
    """What the same operand with and without ``--`` shows: "dropped" (the tool reads ``--`` as an
    operand or refuses it: it fails only with it, or answers about a ``--`` it took for a name, or
    fails both ways but names ``--`` as an unknown option, quotes it as a value, or prints its
    usage, only with it),
    "kept" (it takes it: it fails only without it, or answers the same), "" (nothing is shown)."""
    good_with, good_without = with_it.kind in _ANSWERED, without_it.kind in _ANSWERED
    if good_without and not good_with and with_it.kind not in ("not-tried", "long-running"):
        return "dropped"
    if good_with and not good_without and without_it.kind not in ("not-tried", "long-running"):
        return "kept"
    if good_with and good_without and with_it.outcome and without_it.outcome:
        said_with, said_without = with_it.outcome.stdout, without_it.outcome.stdout
        if said_with == said_without:
            return "kept"
        if _lone_dashes(with_it.outcome) > said_without.count("--"):
            return "dropped"  # it answered about "--": a widget, a service, a file named "--"
    if (
        not good_with
        and _refuses_dashes(with_it.outcome)
        and not _refuses_dashes(without_it.outcome)
    ):
        return "dropped"  # both failed, and with it the error names "--" as an unknown option
    if not good_with and not good_without and without_it.kind not in ("not-tried", "long-running"):
        if with_it.kind == "lacks-operand" and without_it.kind != "lacks-operand":
            return "dropped"  # one operand short only with it: it took "--" for one
        # its error quotes "--" as a value it was given ("no such schema '--'")
        if _quotes_dashes(with_it.outcome) and not _quotes_dashes(without_it.outcome):
            return "dropped"
    return ""


def equals_verdict(flag: str, joined: Evidence, split: Evidence) -> str:
    """What the same value as ``--flag=value`` (``joined``) and as ``--flag value`` (``split``) shows:
    "split" where only the joined form's error names ``--flag=`` as an unknown option (the tool's own
    parser, not getopt's, reads it as one word), "" otherwise."""
    if split.kind in ("not-tried", "long-running") or joined.kind in _ANSWERED:
        return ""
    return (
        "split"
        if _unknown_joined(joined.outcome, flag) and not _unknown_joined(split.outcome, flag)
        else ""
    )


_UNKNOWN_OPTION = re.compile(
    r"\b(?:unknown|unrecogni[sz]ed|invalid|illegal|unexpected|bad)\b|not\s+recogni[sz]ed|no\s+such\s+option",
    re.IGNORECASE,
)


def _unknown_joined(outcome: TrialOutcome | None, flag: str) -> bool:
    """Whether a line of what the tool printed names ``flag=`` and calls it unknown."""
    if outcome is None:
        return False
    return any(
        f"{flag}=" in line and _UNKNOWN_OPTION.search(line)
        for line in f"{outcome.stderr}\n{outcome.stdout}".splitlines()
    )


# "--" quoted in an error as a value: 'No such schema “--”', "file '--' not found"
_QUOTED_DASHES = re.compile(r"""["'“‘`]--["'”’`]""")


def _quotes_dashes(outcome: TrialOutcome | None) -> bool:
    return outcome is not None and bool(
        _QUOTED_DASHES.search(f"{outcome.stderr}\n{outcome.stdout}")
    )


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
        if item.two_items:
            args = dict(body.get("args") or {})
            properties = dict(args.get("properties") or {})
            for name in item.two_items:
                if name in properties:
                    properties[name] = {**properties[name], "minItems": 2}
            body["args"] = {**args, "properties": properties}
        if item.double_dash in ("dropped", "dropped-with") and "cli" in body:
            body["cli"] = without_double_dash(body["cli"])
        if item.equals in ("split", "split-with") and "cli" in body:
            body["cli"] = with_split_values(body["cli"])
        if item.json_found == (JSON_BY_DEFAULT,):
            body["json"] = True
        elif item.json_found:
            body["json"] = list(item.json_found)
        if item.json_dropped:
            body["json"] = False
        if item.answer is not None:
            code, meaning = item.answer
            body["exit_codes"] = {**dict(body.get("exit_codes") or {}), str(code): meaning}
        if item.dropped_guards and "cli" in body:
            body["cli"] = [t for t in body["cli"] if t not in item.dropped_guards]
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
    "json-twin": "leave the JSON twin out: without its selection it runs what its text twin runs",
    "crashed": "leave the verb out, or give it the operands its tool handles",
    "garbage": "leave the verb out, or select a text or JSON output of the tool",
    "failed": "fix cli[] or the args so the tool accepts the call (the reason is its own words), "
    "or leave the verb out",
    "double-dash-refused": "take '--' out of cli[] (a dashed operand value is then refused by the runtime)",
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
rule(
    "W065",
    severity="error",
    summary="--try: a read verb that crashed on its sample inputs (an uncaught exception, a fault)",
)(_trial_rule("crashed"))
rule("W066", severity="error", summary="--try: a read verb that printed binary output")(
    _trial_rule("garbage")
)
rule(
    "W068",
    severity="error",
    summary="--try: a read verb's cli[] holds a '--' its tool refuses or reads as an operand",
)(_trial_rule("double-dash-refused"))
rule(
    "W067",
    severity="warning",
    summary="--try: a read verb that failed its trial for a reason of its own (not a daemon, "
    "network, login or working directory the sandbox lacks)",
)(_trial_rule("failed"))
