"""Flags and positionals -> the verb's args schema and its ``cli[]`` tokens.

A person uses a handful of a command's flags; this module picks them (required ones, the
positionals, then the flags a user reaches for first), leaves out noise (color, pager, verbosity,
the output format the pack itself controls, browser and editor switches) and every flag in the
dangerous catalogue, and writes each as a JSON Schema property with its type, enum, default,
array-ness and description. ``cli[]`` follows docs/contract.md §5's option safety: ``--flag={{x}}`` where the
tool accepts ``=``, and ``--`` before positionals where the tool honours it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from wrapgen.knowledge.commands import (
    forwarding_operand,
    is_revision_operand,
    options_after_operands,
)
from wrapgen.knowledge.dangerous_flags import (
    ValueGuard,
    dangerous_reason,
    output_file_flag,
    value_guard,
)
from wrapgen.knowledge.flags import (
    kept_when_shown,
    kept_when_shown_on_text,
    leads_commands,
    noise_flag_pattern,
    noise_letter_words,
    preferred_weight,
    primary_flags,
)
from wrapgen.knowledge.phrases import (
    answer_switch_words,
    dry_run_words,
    noise_help_words,
    operand_from_file_words,
    other_output_format_words,
    retired_words,
)
from wrapgen.knowledge.shells import runner, takes_code
from wrapgen.knowledge.table import load
from wrapgen.knowledge.tools import (
    END_OF_OPTIONS,
    accepts_equals,
    global_flags_follow,
    operands_before_dash_dash,
    revisions_before_dash_dash,
    supports_end_of_options,
)
from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.model.usage import Use
from wrapgen.names import arg_name as _valid_arg_name
from wrapgen.propose.evidence import operands_from_uses, used_flags
from wrapgen.propose.operands import operands, usage_split
from wrapgen.propose.policy import ABOUT_ITSELF, flag_destroys
from wrapgen.propose.rules import rule
from wrapgen.propose.text import flag_description, operand_description
from wrapgen.usage import flag_spread

__all__ = [
    "ArgPlan",
    "plan_args",
    "arg_name",
    "positional_arg_name",
    "flag_noise",
    "leads_usage_line",
    "leading_options",
    "MAX_ARGS",
    "NOISE_FLAG",
    "NO_EQUALS",
    "MAX_ARGS_SINGLE",
    "RICH_COMMAND_FLAGS",
]

MAX_ARGS = 8
# A tool without subcommands is one command whose flags are its whole surface: its verbs carry more.
MAX_ARGS_SINGLE = 12
# A command with as many options as a whole tool (vcs log: 164) carries as many args as such a tool's
# verbs: at 8, log kept --follow and --first-parent but lost --author, --grep and --oneline.
RICH_COMMAND_FLAGS = 40
# A command with this few flags of its own (not noise) is about them: each is offered although no
# table says people reach for it first (alertctl's config routes show has one, --config.file, the
# file whose routing tree it prints; without it the verb could only ask a running Alertmanager).
FEW_OWN_FLAGS = 2
# The help's own examples use the flag: what people reach for first, above every name bonus but "required".
SHOWN_BONUS = 3.0

# Flags whose job the pack or the runtime owns, or that only change how output looks:
# wrapgen/knowledge/data/flags.json, each with its reason.
NOISE_FLAG = noise_flag_pattern()
# Words in a flag's help that mark it as interactive or as something the pack controls:
# wrapgen/knowledge/data/phrases.json.
_NOISE_WORDS = noise_help_words()
_NOISE_LETTER_WORDS = noise_letter_words()
_OTHER_FORMAT = other_output_format_words()
_DRY_RUN = dry_run_words()
_OPERAND_FROM_FILE = operand_from_file_words()
# Flag names a person reaches for first (a rank bonus), and which tools take no "--flag=value"
# (fetcher): wrapgen/knowledge/data/flags.json and tools.json. NO_EQUALS stays importable.
NO_EQUALS = load("tools")["no_equals"].names

# What usage evidence is worth to a flag: wrapgen/knowledge/data/weights.json ("args").
_ARG_WEIGHTS = load("weights")["args"].values()
_MIN_USES_REQUIRED = load("weights")["modes"].values()["min_mode_uses"]

_SCHEMA_TYPES = {"integer": "integer", "number": "number", "boolean": "boolean"}


@dataclass(frozen=True)
class ArgPlan:
    properties: dict  # name -> JSON Schema
    required: tuple[str, ...]
    cli_tail: tuple[str, ...]  # tokens after the subcommand path
    left_out: tuple[tuple[str, str], ...]  # (flag spelling, why)
    primary: str  # the arg a title should name ("" when none)
    cli_lead: tuple[str, ...] = ()  # the root's options, before the subcommand path


def arg_name(flag: Flag) -> str:
    """``--max-count`` -> ``max_count``; ``-n`` alone -> ``n``; ``--0`` -> ``x_0`` (``wrapgen.names``)."""
    return _valid_arg_name(flag.name)


def positional_arg_name(pos: Positional) -> str:
    """``<revision-range>`` -> ``revision_range``; ``[PATH...]`` variadic -> ``paths``."""
    return _valid_arg_name(pos.name.split("|")[0], empty="value", plural=pos.variadic)


def _clean_description(text: str) -> str:
    text = re.sub(r"\s+", " ", text or "").strip()
    text = re.sub(r"\s*\((?:default|defaults to)[^)]*\)", "", text, flags=re.I)
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)[0]
    if len(first) > 160:
        first = first[:159].rstrip() + "…"
    return first.rstrip(".")


def _typed_default(value: str | None, typ: str, choices: Sequence[str]) -> Any:
    if value is None:
        return None
    text = value.strip().strip("'\"")
    if text in ("", "[]", "none", "None", "null", "<none>"):
        return None
    if typ == "integer":
        return int(text) if re.fullmatch(r"-?\d+", text) else None
    if typ == "number":
        return float(text) if re.fullmatch(r"-?\d+(?:\.\d+)?", text) else None
    if choices and text not in choices:
        return None
    return text if typ in ("string", "path", "enum") else None


def _schema_for(
    typ: str,
    choices: Sequence[str],
    default: str | None,
    description: str,
    repeatable: bool,
    *,
    boolean: bool,
) -> dict:
    base = "boolean" if boolean else _SCHEMA_TYPES.get(typ, "string")
    schema: dict[str, Any] = {"type": base}
    if choices and base == "string":
        schema["enum"] = list(choices)
    if not boolean:
        dflt = _typed_default(default, typ, choices)
        if dflt is not None and not repeatable and "default" not in description.lower():
            said = f"default: {dflt}"
            description = f"{description.rstrip('.')} ({said})" if description else said
    if repeatable and not boolean:
        schema = {"type": "array", "items": schema}
    if description:
        schema["description"] = description
    return schema


def _guard_values(schema: dict, guard: ValueGuard) -> None:
    """Constrain a flag's string values to the guard's pattern, and say why in its description."""
    target = schema["items"] if schema.get("type") == "array" else schema
    target["pattern"] = guard.pattern
    if guard.max_length is not None:
        target["maxLength"] = guard.max_length
    text = schema.get("description", "")
    schema["description"] = (
        f"{text} ({guard.why})" if text else guard.why[0].upper() + guard.why[1:]
    )


# The flag itself is experimental where its first sentence says so or a mark does ("(experimental)");
# a later sentence may say only a part of it is ("Install from the given requirements file. ...
# pylock.toml support is experimental."), and the flag stays an everyday one
_EXPERIMENTAL = re.compile(
    r"^[^.]*\b(?:experimental|alpha)\b|[\[(]\s*(?:experimental|alpha)\b", re.IGNORECASE
)


@rule("why is a flag noise for a pack?")
def flag_noise(flag: Flag) -> str | None:
    """Why a flag is noise for a pack, or None."""
    if flag.hidden:
        return "hidden"
    if flag.deprecated or retired_words().search(flag.description):
        return "deprecated"
    if not flag.takes_value and ABOUT_ITSELF.match(flag.description or ""):
        # (a switch: a flag with a value shows that value's help or version, not the tool's)
        return "about the tool itself: its help, usage or version"
    if _placeholder_spelling(flag):
        return "a pattern, not a flag: its help quotes part of its spelling as a placeholder"
    if _EXPERIMENTAL.search(flag.description):
        return "experimental"
    names = [s.lstrip("-") for s in flag.spellings]
    long_names = [s.lstrip("-") for s in flag.spellings if s.startswith("--")]
    if any(NOISE_FLAG.match(n) for n in (long_names or names)) and (
        # a letter alone (-h, -v, -q) is noise only where its help agrees or says nothing
        long_names
        or any(len(n) > 2 for n in names)
        or not flag.description
        or _NOISE_LETTER_WORDS.search(flag.description)
    ):
        return "noise: output, color, verbosity or connection the pack controls"
    if _NOISE_WORDS.search(flag.description):
        return "interactive or presentation only"
    return None


def _placeholder_spelling(flag: Flag) -> bool:
    """A single-dash spelling whose tail its own help quotes as a placeholder (``-Gname=val``: "Set
    graph attribute 'name' to 'val'"): the tool takes ``-G`` glued to a name of the caller's."""
    for spelling in flag.spellings:
        tail = spelling[2:] if not spelling.startswith("--") else ""
        if len(tail) >= 2 and re.search(rf"['\"`]{re.escape(tail)}['\"`]", flag.description or ""):
            return True
    return False


@rule("does a short switch of a tool without subcommands lead a usage line of its own?")
def leads_usage_line(root: Command, flag: Flag, *, bin: str) -> bool:
    """A short-only flag that opens a usage line other than the first, the plain form (``keygen -l
    [-v] [-f input_keyfile]``, ``keygen -R hostname``): the help shows it as a way to run the tool
    of its own, a mode, unless it is noise or dangerous."""
    if flag.long or not flag.short or len(root.usage) < 2 or root.path or root.subcommands:
        return False
    if flag.hidden or flag_noise(flag) or dangerous_reason(flag, tool=bin):
        return False
    for line in root.usage[1:]:
        words = line.split()
        if len(words) > 1 and words[1] == flag.short:
            return True
    return False


def example_spellings(examples, known: frozenset[str] = frozenset()) -> frozenset[str]:
    """The flag spellings the help's own example lines use: ``archiver -cf archive.tar`` uses -c and -f;
    a word that is a known spelling as a whole (find's ``-name``) is that flag, not bundled letters."""
    used: set[str] = set()
    for line in examples:
        for word in line.split()[1:]:
            if word.split("=", 1)[0] in known:
                used.add(word.split("=", 1)[0])
            elif word.startswith("--") and len(word) > 2:
                used.add(word.split("=", 1)[0])
            elif re.fullmatch(r"-[A-Za-z]+", word):
                used.update("-" + letter for letter in word[1:])  # bundled switches: -tvf
    return frozenset(used)


def _offered_flags(
    command: Command, own: Sequence[Flag], *, style: str, shown: frozenset[str]
) -> list[Flag]:
    """The command's own flags, then the inherited ones a person passes with this command.

    An inherited (global) flag is offered only where the help style lets it follow the command
    (cobra's persistent flags: ``clusterctl get --namespace=x``) and only when it scopes what the command
    works on (a preferred name such as ``namespace`` or ``repo``) or the examples use it."""
    flags = list(own)
    if not global_flags_follow(style):
        return flags
    taken = {s for f in own for s in f.spellings}
    for flag in command.global_flags:
        if not flag.spellings or taken & set(flag.spellings):
            continue
        names = [s.lstrip("-") for s in flag.spellings if s.startswith("--")]
        if (
            shown & set(flag.spellings)
            or max((preferred_weight(n) for n in names), default=0.0) >= 4.0
        ):
            flags.append(flag)
            taken |= set(flag.spellings)
    return flags


@rule("which of the root's options does a command take before its own words?")
def leading_options(
    root: Command, command: Command, *, style: str, tool: str = ""
) -> tuple[Flag, ...]:
    """The root's value options a subcommand acts under (flags.json ``leading_root_options``: the
    application a framework's commands act on, ``TOOL --app=x status``), where the root's options
    must stand before the command (``global_flags_follow`` offers them after it elsewhere) and take
    ``--name=value`` (the one token ``pack/cli_words.py`` passes over to find the command's words);
    never one the command has itself."""
    if (
        not command.path
        or command is root
        or global_flags_follow(style)
        or not accepts_equals(tool, style=style)
    ):
        return ()
    own = {s for f in (*command.flags, *command.global_flags) for s in f.spellings}
    return tuple(
        flag
        for flag in root.flags
        if flag.takes_value
        and not (flag.hidden or flag.deprecated)
        and flag.long
        and leads_commands(flag.long.lstrip("-"))
        and not own & set(flag.spellings)
    )


def _shown_overrides(flag: Flag, shown: frozenset[str], why: str, *, text: bool = False) -> bool:
    """Whether the examples' use of a noise flag keeps it: only for the noise kinds that change what
    a command prints (verbosity, layout), and on a verb that selects no JSON (``text``) for an output
    format its uses pass; never for interactive or connection flags."""
    if not (shown & set(flag.spellings)) or flag.hidden or flag.deprecated:
        return False
    names = [s.lstrip("-") for s in flag.spellings if s.startswith("--")] or [
        s.lstrip("-") for s in flag.spellings
    ]
    kept = any(kept_when_shown(n) or (text and kept_when_shown_on_text(n)) for n in names)
    return kept and not _NOISE_WORDS.search(flag.description)


def _changes_the_answer(flag: Flag) -> bool:
    """A quiet-named switch whose help says it changes what the command prints as its answer
    (``streamed -n``: "suppress automatic printing of pattern space"), not how it talks to a person."""
    if flag.takes_value or flag.hidden or flag.deprecated:
        return False
    names = [s.lstrip("-") for s in flag.spellings if s.startswith("--")] or [
        s.lstrip("-") for s in flag.spellings
    ]
    return any(kept_when_shown(n) for n in names) and bool(
        answer_switch_words().search(flag.description or "")
    )


def _score(flag: Flag, *, shown: frozenset[str] = frozenset()) -> float:
    # a long name is "--name", or "-name" where the tool spells its long options with one dash (find)
    score = max(
        (
            preferred_weight(s.lstrip("-"))
            for s in flag.spellings
            if s.startswith("--") or len(s) > 2
        ),
        default=0.0,
    )
    if shown & set(flag.spellings):
        score += SHOWN_BONUS  # the help's own examples use it: one people reach for first
    if flag.short and flag.long:
        score += 1.0  # a long flag that also got a short letter is one people type often
    if flag.choices:
        score += 0.5
    if flag.required:
        score += 10.0
    if (flag.long or "").startswith("--no-"):
        score -= 2.0
    return score


# The fewest tools whose uses pass a long flag's name before that name says people reach for it
# (one tool's habit is no more than the help's order says)
_MIN_SPREAD = 2


def _spread_points(spelling: str, spread: Mapping[str, int]) -> int:
    """How many tools' uses pass ``spelling`` where at least ``_MIN_SPREAD`` do, else 0."""
    count = spread.get(spelling, 0)
    return count if count >= _MIN_SPREAD else 0


def _used_points(flag: Flag, used: dict[str, int]) -> float:
    """The points usage evidence gives a flag its verb's uses pass (weights.json "args")."""
    count = max((used.get(s, 0) for s in flag.spellings), default=0)
    if not count:
        return 0.0
    return _ARG_WEIGHTS["used"] + _ARG_WEIGHTS["used_per_doubling"] * math.log2(count)


def _as_used(flag: Flag, used: dict[str, int], given_values: set[str]) -> Flag:
    """A flag whose value may be left out (``--unified[=NUM]``) that the uses pass bare (``diff -u a
    b``), and never with a value, is offered as the switch people pass: as a value arg it could not
    be asked for without a value it does not need. Its default is the value it takes bare, so the
    switch carries none. With no use, or a use that gives a value (``--pretty=format:%h``), it stays
    a value arg: the help's ``[=VALUE]`` alone is no evidence that the bare form is the one wanted."""
    spellings = set(flag.spellings)
    if (
        not (flag.takes_value and flag.value_optional)
        or not any(used.get(s) for s in spellings)
        or given_values & spellings
    ):
        return flag
    return replace(
        flag, takes_value=False, value_optional=False, type="boolean", choices=(), default=None
    )


def _flag_tokens(flag: Flag, name: str, *, style: str, tool: str = "") -> list[str]:
    spelling = flag.spelling
    if not flag.takes_value:
        return [spelling, "{{%s}}" % name]
    if flag.repeatable:
        return [spelling, "{{%s}}" % name]
    if flag.long and accepts_equals(tool, style=style):
        return [f"{flag.long}={{{{{name}}}}}"]
    return [spelling, "{{%s}}" % name]


@rule("which flags and operands does a verb offer, and how are they written?")
def plan_args(
    command: Command,
    *,
    tool: str,
    effect: str,
    style: str = "",
    include: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
    positional_order: Sequence[str] | None = None,
    fixed: Sequence[str] = (),
    json_flag: str = "",
    honours_double_dash: bool = True,
    max_args: int = MAX_ARGS,
    examples: Sequence[str] | None = None,
    uses: Sequence[Use] = (),
    fill: bool = False,
    lead: Sequence[Flag] = (),
    fill_first: frozenset[str] = frozenset(),
) -> ArgPlan:
    """Choose and render the args of ``command``; ``fixed`` are literal mode tokens (``--files``).

    ``uses`` are the usage evidence of this verb (``wrapgen.propose.evidence``, folded onto the
    model): the flags they pass are offered first, the operands they pass are offered (one every
    use passes is required), typed from the model. ``examples`` are the example command lines that
    show this verb (default: the command's own); the flags they use rank next and may be kept
    although their names read as noise (``archiver -tvf``'s ``-v``), see ``_offered_flags``.
    ``max_args`` caps the flags and operands together. ``fill``: the verb is a whole tool's surface
    (a tool without subcommands): where too few of its flags have a name people know or a use
    passes, its other flags fill the room in the help's own order, which lists what matters first, the flags of ``fill_first`` (what the tool's other uses pass) before
    the rest. ``lead``: the root's options the command acts under (``leading_options``),
    each an optional arg written before the subcommand path (``cli_lead``).
    """

    def norm(s):
        # one letter keeps its case: -f and -F are two flags (keygen's key file and hostname)
        name = s.replace("-", "_").lstrip("_")
        return name if len(name) == 1 else name.lower()

    excluded = {norm(x) for x in exclude}
    left_out: list[tuple[str, str]] = []

    grammar = operands(command, mode=tuple(fixed))
    own = [s for f in command.flags if f.required and f.takes_value for s in f.spellings]
    positionals = [(positional_arg_name(p), p) for p in operands_from_uses(grammar, uses, own=own)]
    # the help's own examples already rank their flags (``shown``): the rest of the evidence on top
    told = [u for u in uses if "examples" not in u.where]
    used = {s: n for s, n in used_flags(told).items() if s not in fixed}
    # a flag with a value that every use passes (two or more uses) is what the verb needs: required
    total = sum(u.count for u in told)
    needed = {s for s, n in used.items() if n == total and total >= _MIN_USES_REQUIRED}
    all_flags = [f for f in command.flags if f.spellings]
    by_name = {arg_name(f): f for f in all_flags}
    for f in command.global_flags:
        by_name.setdefault(arg_name(f), f)
    for f in all_flags:
        for s in f.spellings:
            by_name.setdefault(norm(s), f)

    takes_required_operand = any(p.required for _, p in positionals)
    # the flags the verb's uses and its help's examples pass
    shown = example_spellings(
        command.examples if examples is None else examples,
        frozenset(sp for f in (*all_flags, *command.global_flags) for sp in f.spellings),
    ) | frozenset(used)

    # the words of the verb's command line that name an interpreter (the tool, a subcommand)
    interpreters = [
        (word, program)
        for word in (tool, *command.path)
        if (program := runner(word)) is not None and program.kind != "program_operand"
    ]

    def usable(flag: Flag, *, asked: bool) -> str | None:
        if set(flag.spellings) & set(fixed) or (json_flag and json_flag in flag.spellings):
            return "set by the command itself"
        if effect != "read" and shown & set(flag.spellings) and output_file_flag(flag, tool=tool):
            # the file a write's uses name (an encoder's -o FILE) is asked for by those uses: neither
            # noise (the pack does not control where a write puts its file) nor a danger there
            # (writing is what the verb declares; its sandbox bounds where)
            asked = True
        danger = dangerous_reason(flag, tool=tool)
        if danger and (effect == "read" or not asked):
            return f"dangerous: {danger}"
        code = next(
            (
                f"{word} {s}"
                for word, program in interpreters
                for s in flag.spellings
                if takes_code(s, program)
            ),
            None,
        )
        if code:
            # check's W007 refuses the verb whatever it is asked for (a tool's subcommand named
            # after an interpreter, whose -e the rule reads as the interpreter's)
            return f"dangerous: {code} runs its argument as code"
        destroys = flag_destroys(flag) if effect == "read" and not asked else ""
        if destroys:
            return (
                f"its help opens with '{destroys}': a flag that deletes is never offered on a read"
            )
        if not asked and (flag.operation or leads_usage_line(command, flag, bin=tool)):
            return "another of the tool's operations (a command of its own)"
        if (
            effect == "read"
            and not asked
            and not flag.takes_value
            and _DRY_RUN.search(flag.description or "")
        ):
            return "a dry run: a read changes nothing there is to preview"
        if json_flag and _OTHER_FORMAT.search(flag.description or ""):
            return "another output format: the verb selects JSON, which this flag would replace"
        if takes_required_operand and _OPERAND_FROM_FILE.search(flag.description or ""):
            return "reads from a file what the verb's required operand gives: it would change what that operand means"
        if not asked:
            return flag_noise(flag)
        return None

    chosen_flags: list[tuple[str, Flag]] = []
    chosen_pos: list[tuple[str, Positional]] = []
    if include is not None:
        for wanted in include:
            key = norm(wanted)
            flag = by_name.get(key)
            # an operand given one of several ways (NAME|ID) answers to each of its names
            pos = next(
                (
                    (n, p)
                    for n, p in positionals
                    if norm(n) == key
                    or norm(p.name) == key
                    or key in {norm(alt.strip("<> ")) for alt in p.name.split("|")}
                ),
                None,
            )
            # "-f FILENAME" is sometimes read as an operand too: there the flag is what the usage means
            value_of_flag = pos is not None and any(
                re.search(r"-[\w-]+[ =]\(?" + re.escape(pos[1].name), u) for u in command.usage
            )
            if pos and (flag is None or not value_of_flag):
                chosen_pos.append(pos)
                continue
            if flag is None:
                left_out.append((wanted, "not a flag or positional of this command"))
                continue
            why = usable(flag, asked=True)
            if why:
                left_out.append((flag.spellings[0], why))
                continue
            chosen_flags.append((arg_name(flag), flag))
        # the person listed what they want: a positional left out is left out on purpose
        chosen_pos.sort(key=lambda np: positionals.index(np))
    else:
        for n, p in positionals:
            if norm(n) in excluded or forwarding_operand(n):
                left_out.append(
                    (n, "excluded" if norm(n) in excluded else "forwards a command line")
                )
                continue
            chosen_pos.append((n, p))
        ranked: list[tuple[float, int, Flag]] = []
        unknown: list[tuple[float, int, Flag]] = []  # below the floor: no name people know
        offered = _offered_flags(command, all_flags, style=style, shown=shown)
        own_offered = [f for f in offered if f in all_flags and not flag_noise(f)]
        for i, flag in enumerate(offered):
            name = arg_name(flag)
            if name in excluded or any(norm(s) in excluded for s in flag.spellings):
                left_out.append((flag.spellings[0], "excluded by the recipe"))
                continue
            # a required flag is the command's point (a mode's --data): asked for, so never noise
            why = usable(flag, asked=flag.required)
            if (
                why
                and not why.startswith("dangerous")
                and (
                    _shown_overrides(flag, shown, why, text=not json_flag)
                    or _changes_the_answer(flag)
                )
            ):
                why = None  # the tool's own example uses it (archiver -tvf), or it shapes the answer (streamed -n)
            if why:
                left_out.append((flag.spellings[0], why))
                continue
            score = _score(flag, shown=shown) + _used_points(flag, used)
            # the floor is on the flag's own points; the help's order only breaks ties (as it
            # did, a flag listed late fell below the floor: -j/--parallel as the 14th)
            entry = (score - i * 0.01, i, flag)
            if score < 0.9 and len(own_offered) > FEW_OWN_FLAGS:
                unknown.append(entry)
                continue
            ranked.append(entry)
        ranked.sort(key=lambda t: (-t[0], t[1]))
        room = max(0, max_args - len(chosen_pos))
        # a whole tool's surface, past what its uses pass: its other flags fill the room in the help's
        # own order, which lists what matters first (a name no table knows says no less than a short
        # letter does; with letters only, a help of long options gave its one verb no args at all)
        # (what the tool's other uses pass first: a finder's -type beside its -name)
        # (a subcommand's, then a name many tools' uses pass: a key-value store's get --prefix
        # before --consistency; a whole tool's help lists what matters first, its short switches
        # too, which no count of long names knows: an XML linter's --noout, a compressor's -9)
        spread = flag_spread() if fill and command.path else {}
        unknown.sort(
            key=lambda t: (
                not set(t[2].spellings) & fill_first,
                -max((_spread_points(s, spread) for s in t[2].spellings), default=0),
                t[1],
            )
        )
        # (never one named as an operand is: a project generator's --name beside its NAME would
        # rename the operand every call gives)
        operand_names = {norm(n) for n, _ in chosen_pos}
        filled = [entry for entry in unknown if fill and arg_name(entry[2]) not in operand_names][
            : max(0, room - len(ranked))
        ]
        ranked += filled
        left_out += [
            (flag.spellings[0], "not a flag people reach for first")
            for score, i, flag in unknown
            if (score, i, flag) not in filled
        ]
        keep = sorted(ranked[:room], key=lambda t: t[1])
        for _, _, flag in ranked[room:]:
            left_out.append((flag.spellings[0], f"beyond the {max_args} args a person would use"))
        chosen_flags = [(arg_name(f), f) for _, _, f in keep]

    if positional_order:
        order = [norm(x) for x in positional_order]
        chosen_pos.sort(
            key=lambda np: order.index(norm(np[0])) if norm(np[0]) in order else len(order)
        )

    properties: dict[str, dict] = {}
    required: list[str] = []
    tail: list[str] = list(fixed)
    seen: set[str] = set()
    # find's grammar: the options its usage shows before the operands stay there, the rest follow them
    leading = options_after_operands(command)
    trailing: list[str] = []
    given_values = {s for u in told for s in u.valued}
    for name, flag in _distinct_names(chosen_flags):
        if name in seen:
            continue
        seen.add(name)
        flag = _as_used(flag, used, given_values)
        # The runtime fills a schema default in when the arg is omitted, and passing a flag at its
        # default is not leaving it out (diff's --unified=3 turns its normal output into a unified
        # diff): the tool's own default applies to a flag left out, and the description says what it
        # is; never for a required flag (clusterctl scale prints "--replicas=0" although the flag has
        # no default)
        needs = flag.required or (flag.takes_value and bool(needed & set(flag.spellings)))
        default = None if needs else flag.default
        properties[name] = _schema_for(
            flag.type,
            flag.choices,
            default,
            flag_description(flag, _clean_description(flag.description)),
            flag.repeatable,
            boolean=not flag.takes_value,
        )
        guard = value_guard(flag, tool=tool) if flag.takes_value else None
        if guard is not None:
            _guard_values(properties[name], guard)
        if needs:
            required.append(name)
        tokens = _flag_tokens(flag, name, style=style, tool=tool)
        if leading is not None and not set(flag.spellings) & leading:
            trailing += tokens
        else:
            tail += tokens
    lead_props: dict[str, dict] = {}
    lead_tokens: list[str] = []
    for flag in lead:
        name = arg_name(flag)
        if name in seen:
            continue
        seen.add(name)
        lead_props[name] = _schema_for(
            flag.type,
            flag.choices,
            None,
            flag_description(flag, _clean_description(flag.description)),
            False,
            boolean=False,
        )
        lead_tokens.append(f"{flag.long}={{{{{name}}}}}")  # one token: see leading_options
    if leading is not None:
        # no "--" and no "--end-of-options": a dashed path after either is still read as an option
        # there; an operand before any "--" is refused a leading dash by the runtime
        honours_double_dash = False
        if fixed:
            tail, trailing = tail[len(fixed) :], list(fixed) + trailing
    split = usage_split(command)
    quirk = operands_before_dash_dash(tool)
    if quirk is not None and split is None:
        split = quirk
    # revisions and objects stand before "--" (vcs show -- HEAD reads HEAD as a path), as do the
    # operands the usage puts before its "[--]"
    before = [
        np
        for np in chosen_pos
        if split is not None
        and positionals.index(np) < split
        or honours_double_dash
        and is_revision_operand(np[1].name)
    ]
    after = [np for np in chosen_pos if np not in before]
    pos_props: dict[str, dict] = {}
    for name, pos in before + after:
        if name in seen:
            base, n = name + "_arg", 2
            name = base
            while name in seen:  # two operands of one name (a usage line's "0 0")
                name, n = f"{base}_{n}", n + 1
        seen.add(name)
        pos_props[name] = _schema_for(
            pos.type,
            pos.choices,
            None,
            operand_description(
                replace(pos, description=_clean_description(pos.description)),
                name,
                f"{command.summary}\n\n{command.description}",
            ),
            pos.variadic,
            boolean=False,
        )
        if pos.required:
            required.append(name)
    names_before = list(pos_props)[: len(before)]
    names_after = list(pos_props)[len(before) :]
    pattern_flag = next(
        (f for f in all_flags if f.takes_value and (f.short == "-e" or f.long == "--regexp")), None
    )
    plain_before: list[str] = []
    for n in names_before:
        if (
            pattern_flag is not None
            and n in ("pattern", "patterns", "regexp")
            and not pos_props[n].get("type") == "array"
        ):
            # an operand that must stand before "--" (a VCS's search command: its pattern) goes in option form, which takes
            # a dashed value safely: --regexp=-foo, or -e-foo stuck to its short flag
            tail.append(
                f"{pattern_flag.long}={{{{{n}}}}}" if pattern_flag.long else f"-e{{{{{n}}}}}"
            )
        else:
            plain_before.append(n)
    if (
        plain_before
        and honours_double_dash
        and supports_end_of_options(
            tool, [s for f in all_flags for s in f.spellings], getattr(command, "path", ())
        )
    ):
        # nothing after it is an option, whatever the value (the runtime refuses a dashed one here all the same)
        tail.append(END_OF_OPTIONS)
    tail += ["{{%s}}" % n for n in plain_before]
    if names_after:
        if honours_double_dash:
            tail.append("--")
        tail += ["{{%s}}" % n for n in names_after]
    elif plain_before and honours_double_dash and revisions_before_dash_dash(tool):
        tail.append("--")  # the revisions end here: a name that is also a file stays a revision
    if leading is not None:
        tail += trailing
    else:
        tail = _fixed_where_it_stays(tail, len(fixed), set(required))
    # positionals first in the schema: they are what the command works on
    ordered = {**pos_props, **lead_props, **properties}
    primary = next(iter(pos_props), "")
    if not primary:
        primary = next((n for n in properties if n in primary_flags()), "")
    return ArgPlan(
        ordered, tuple(required), tuple(tail), tuple(left_out), primary, tuple(lead_tokens)
    )


def _distinct_names(chosen: Sequence[tuple[str, Flag]]) -> list[tuple[str, Flag]]:
    """The chosen flags, each under a name of its own: of two short letters that differ only in
    case (keygen -f keyfile, -F hostname) the second is named by its value (``hostname``), else
    numbered; a flag chosen twice keeps one name (the writer drops the second)."""
    taken: dict[str, Flag] = {}
    out = []
    for name, flag in chosen:
        known = taken.get(name)
        if known is not None and not set(known.spellings) & set(flag.spellings):
            by_value = _valid_arg_name(flag.value_name) if flag.value_name else ""
            name = by_value if by_value and by_value not in taken else f"{name}_2"
        taken.setdefault(name, flag)
        out.append((name, flag))
    return out


_SLOT = re.compile(r"\{\{(\w+)\}\}")


def _fixed_where_it_stays(tail: list[str], count: int, required: set[str]) -> list[str]:
    """The mode tokens (the first ``count``) moved to stand before a literal token, where needed.

    docs/contract.md §5 drops the literal flag right before a slot left empty, so ``archiver --create
    --level={{level}}`` without a level would run ``archiver`` with no operation at all. Where the token
    after the mode tokens holds an optional slot, they move to just before the first literal token
    (``--``, or a flag followed by its own slot), or to the end."""
    fixed, rest = tail[:count], tail[count:]
    # only a flag is dropped with the slot after it: "--type f --extension={{x}}" keeps its "f"
    if (
        not fixed
        or not fixed[-1].startswith("-")
        or not rest
        or not (set(_SLOT.findall(rest[0])) - required)
    ):
        return tail
    index = next((i for i, token in enumerate(rest) if "{{" not in token), len(rest))
    return rest[:index] + fixed + rest[index:]
