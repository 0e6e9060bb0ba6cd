"""Forms of a tool without subcommands: the main mode with one everyday switch fixed (``sorter
--numeric-sort``, ``differ --recursive``, ``sizer --summarize``), from its uses first, then its help.

Where uses name the tool, the switches its main mode's uses pass are its forms, the most used first
(``use_forms``): a page of examples shows each everyday form once, so one use is enough here, where a
mode needs more (evidence.py). Only where the uses leave the pack short of its minimum does the help
rank the rest (``help_forms``).

A tool whose modes are options (a sorter, a differ, a disk-usage counter) has one main mode and no
mode switch its help calls one, so the help alone proposed one command. Its uses are that command
with one of a few switches, which its help cannot rank by use; what it can say is which switches
people reach for first (``flags.json`` preferred_flags), which have a short letter beside their long
name, and which change what the answer shows (``phrases.json`` form_switches). The best of them
become forms, up to the pack's minimum. A form's switch is not a mode: it stays offered on the
other commands (``Candidate.form``), so a use that passes two of them is still expressible.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from wrapgen.knowledge.dangerous_flags import dangerous_reason
from wrapgen.knowledge.flags import preferred_weight
from wrapgen.knowledge.phrases import form_switch_words, in_place_words, preview_words
from wrapgen.knowledge.table import load
from wrapgen.model.proposal import Candidate
from wrapgen.model.tool import Command, Flag
from wrapgen.propose.args import flag_noise
from wrapgen.propose.modes import is_mode_flag, mode_name, mode_summary
from wrapgen.propose.policy import classify, main_mode_effect
from wrapgen.propose.rules import rule
from wrapgen.propose.select import MIN_VERBS

__all__ = ["help_forms", "use_forms", "form_score"]

_FORMS = load("weights")["forms"].values()
# "output a normal diff (the default)": the form the tool runs without the switch
_THE_DEFAULT = re.compile(r"\((?:the\s+)?default\)", re.IGNORECASE)


def _named(flag: Flag) -> bool:
    """A switch with a name, not a letter alone: ``--numeric-sort``, or a single-dash word
    (``-show_format``) of a tool whose options are words."""
    return bool(flag.long) or (not flag.short and bool(flag.aliases))


def form_score(flag: Flag) -> float:
    """How much a switch looks like one people run the tool with: its name's bonus, a short letter
    beside the long name, and a help that says it changes what the answer shows."""
    name = flag.name if _named(flag) else ""
    score = preferred_weight(name) if name else 0.0
    if flag.short and flag.long:
        score += 1.0
    if form_switch_words().search(flag.description or ""):
        score += _FORMS["shows_bonus"]
    return score


def _eligible(flag: Flag, *, bin: str, taken: set[str]) -> bool:
    """A switch that is no mode, noise, danger, operation, in-place rewrite, negation or the tool's
    default, and that no other candidate fixes."""
    return (
        not flag.operation
        and not (set(flag.spellings) & taken)
        and not flag.spelling.startswith("--no-")
        and not _THE_DEFAULT.search(flag.description or "")
        and not in_place_words().search(flag.description or "")
        and flag_noise(flag) is None
        and dangerous_reason(flag, tool=bin) is None
        and not is_mode_flag(flag, bin=bin)
    )


@rule(
    "which switches of a tool without subcommands make forms of its main mode, where no use says?"
)
def help_forms(root: Command, *, bin: str, candidates: Sequence[Candidate]) -> list[Candidate]:
    """The forms a tool without subcommands gets where no usage evidence names it: its best
    switches (or flags with a value, which the form then asks for) by ``form_score`` (at least ``min_form_score``), as many as fill the pack up to its
    minimum beside ``candidates`` (at most ``max_forms``), each the main mode with the switch fixed.
    None for a tool run as one of its operations (it has no main mode to vary)."""
    main = _main(root, candidates)
    if main is None:
        return []
    room = min(int(_FORMS["max_forms"]), MIN_VERBS - len(candidates))
    if room <= 0:
        return []
    taken = {t for c in candidates for t in c.fixed + c.owns}
    main_reads = _main_reads(root, main, bin)
    scored = [
        (form_score(f), i, f)
        for i, f in enumerate(root.flags)
        if _named(f)
        and _eligible(f, bin=bin, taken=taken)
        and not _previews_the_write(f, main_reads=main_reads)
    ]
    kept = [t for t in scored if t[0] >= _FORMS["min_form_score"]]
    if len(kept) < room:
        # a pack still short of its minimum takes the switches a point short as well
        kept = [t for t in scored if t[0] >= _FORMS["short_pack_form_score"]]
    scored = sorted(kept, key=lambda t: (-t[0], t[1]))
    return [
        _form(
            main,
            flag,
            f"a form of the main mode with {flag.spelling} (its help ranks it {score:g})",
        )
        for score, _, flag in scored[:room]
    ]


def _main(root: Command, candidates: Sequence[Candidate]) -> Candidate | None:
    """The main mode among ``candidates`` (None for a tool run as one of its operations, which has
    no main mode to vary, and for a tool with subcommands)."""
    if root.subcommands:
        return None
    return next((c for c in candidates if c.name and not c.fixed and not c.owns), None)


def _form(main: Candidate, flag: Flag, note: str, uses: tuple = ()) -> Candidate:
    """The main mode with ``flag`` fixed; a flag with a value (the first NUM lines) asks for it."""
    if flag.takes_value and not flag.value_optional:
        command = main.command.with_changes(
            flags=tuple(replace(f, required=True) if f is flag else f for f in main.command.flags)
        )
        fixed, owns = (), flag.spellings
    else:
        command, fixed, owns = main.command, (flag.spelling,), ()
    return Candidate(
        path=(),
        command=command,
        fixed=fixed,
        owns=owns,
        name=mode_name(flag),
        summary=mode_summary(flag),
        json=main.json,
        note=note,
        uses=uses,
        source=main.source,
        form=True,
    )


def _main_reads(root: Command, main: Candidate, bin: str) -> bool:
    """Whether the main mode's words make it a read (a formatter that prints its result and rewrites
    the files only when asked, -w): then no read-only form of a write is made of its switches that
    only report (``-d`` "display diffs instead of rewriting files"), so they are forms of their own."""
    word = main.name.split(".")[0] if main.name else bin
    guess = classify(Command(path=(word,), summary=main.effective_summary), tool_name=bin)
    return main_mode_effect(root, guess).effect == "read"


def _previews_the_write(flag: Flag, *, main_reads: bool) -> bool:
    """Whether ``flag`` only reports what the main mode's write would do (``-c`` "write on standard
    output"): the read-only form of that write (select.preview_modes) is its verb, so it makes no
    form of the write as well; of a main mode that reads (``main_reads``), it is a form like any
    other."""
    return (
        not main_reads
        and not flag.takes_value
        and bool(preview_words().search(flag.description or ""))
    )


@rule("which switches of a tool without subcommands make forms of its main mode, by its uses?")
def use_forms(root: Command, *, bin: str, candidates: Sequence[Candidate]) -> list[Candidate]:
    """The forms the uses of a tool without subcommands show: each switch its main mode's uses pass
    (the most used first, then in the uses' order), as many as fill the pack up to its minimum beside
    ``candidates`` (at most ``max_forms``), each the main mode with the switch fixed and the uses
    that pass it. A switch that is noise, danger, an operation, an in-place rewrite or another
    candidate's is none."""
    main = _main(root, candidates)
    if main is None or not main.uses:
        return []
    room = min(int(_FORMS["max_forms"]), MIN_VERBS - len(candidates))
    if room <= 0:
        return []
    taken = {t for c in candidates for t in c.fixed + c.owns}
    main_reads = _main_reads(root, main, bin)
    by_spelling = {f.spelling: f for f in root.flags}
    passing: dict[str, list] = {}
    for use in main.uses:
        for spelling in use.flags:
            if spelling in by_spelling:
                passing.setdefault(spelling, []).append(use)
    # the most used first; of as many uses, a switch before a flag with a value (a switch changes
    # what the answer is, a value mostly tunes it: columns, a length), then the help's ranking
    ranked = sorted(
        passing,
        key=lambda s: (
            -sum(u.count for u in passing[s]),
            by_spelling[s].takes_value,
            -form_score(by_spelling[s]),
        ),
    )
    out = []
    for spelling in ranked:
        flag = by_spelling[spelling]
        if not _eligible(flag, bin=bin, taken=taken):
            continue
        if _previews_the_write(flag, main_reads=main_reads):
            continue  # a switch that only reports makes the read-only form of each write (select.py)
        uses = tuple(passing[spelling])
        n = sum(u.count for u in uses)
        note = f"a form of the main mode with {spelling}: " + (
            f"{n} uses pass it" if n != 1 else "a use passes it"
        )
        out.append(_form(main, flag, note, uses))
        if len(out) == room:
            break
    return out
