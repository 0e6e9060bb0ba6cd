"""Named commands for a tool without subcommands (searcher, jsonq, finder, fetcher): its main mode and its modes.

An *operation* (``Flag.operation``: listed under the help's "Operation mode:" heading, archiver's ``-c``,
packer's ``-d``) is always a mode.

The main mode is the tool itself, named by the verb its help opens with ("ripgrep recursively
searches ..." -> ``search``). A *mode flag* is a switch that changes what the tool does rather
than how it filters: its help says it prints or lists something *instead of* the normal output
(``searcher --files``, ``searcher --type-list``, ``searcher --count``). A tool whose JSON output is a switch of its
own (``searcher --json``) also gets the main mode with JSON as ``<main>.json``, so the plain mode keeps
its readable text.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.knowledge.commands import is_mega_command
from wrapgen.knowledge.dangerous_flags import dangerous_reason
from wrapgen.knowledge.phrases import (
    in_place_words,
    io_mode_words,
    mode_switch_words,
    not_a_description,
    strong_mode_words,
)
from wrapgen.knowledge.words import main_names, opt_in_rewrite
from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.names import proposed_verb_name
from wrapgen.propose.args import flag_noise, leads_usage_line
from wrapgen.propose.jsonsel import JsonChoice, select_json
from wrapgen.propose.rules import rule
from wrapgen.propose.select import Candidate
from wrapgen.propose.valuemodes import ValueMode, value_modes
from wrapgen.propose.verbs import KNOWN_VERBS

__all__ = [
    "root_candidates",
    "root_value_modes",
    "value_mode_candidate",
    "main_verb",
    "is_mode_flag",
    "short_only_flags",
    "leads_usage_line",
    "mode_command",
    "mode_name",
    "mode_summary",
    "MAX_MODES",
]

MAX_MODES = 5

# The verb a tool's description opens with -> the name of its main mode:
# wrapgen/knowledge/data/verbs.json.
_MAIN_NAMES = main_names()
_VERB_FORMS = re.compile(r"\b([a-z]+?)(?:es|s|ing|e?d)?\b")
# How a mode switch's help opens (it prints something else instead of the normal output), and the
# words that make it clearly a mode: wrapgen/knowledge/data/phrases.json, each with its reason.
_MODE_HELP = mode_switch_words()
_STRONG_MODE = strong_mode_words()


def _mode_rank(flag: Flag) -> float:
    score = 2.0 if _STRONG_MODE.search(flag.description) else 0.0
    score += 1.0 if flag.short else 0.0
    score += (
        1.0
        if re.search(r"\b(?:files|paths)\b", flag.name + " " + flag.description[:60], re.I)
        else 0.0
    )
    return score


def _stem(word: str) -> str | None:
    """``searches`` -> ``search``, ``processing`` -> ``process``, ``find`` -> ``find``."""
    word = word.lower()
    candidates = [word]
    for suffix in ("es", "s", "ing", "ed", "d"):
        if word.endswith(suffix):
            candidates.append(word[: -len(suffix)])
            if suffix == "ing":
                candidates.append(word[:-3] + "e")
    for c in candidates:
        if c in _MAIN_NAMES:
            return c
    return None


# Words after which a verb's form is a noun ("from list", "the format", "a match")
_NOUN_MARKERS = frozenset(
    "a an the from of in into on with by this that its their each every any no and or".split()
)


def _what_it_does(root: Command, bin: str) -> str:
    """The help's own words on what the tool does: its summary and description without copyright
    lines, usage lines, headings and banners, and bracketed groups (a synopsis's ``[zipfile list]`` names no job)."""
    program = re.escape(bin.rsplit("/", 1)[-1])
    kept = []
    # a description that opens with the summary says it once (the summary is its first sentence)
    said = (
        [root.description]
        if root.description.startswith(root.summary)
        else [root.summary, root.description]
    )
    for line in "\n".join(filter(None, said)).splitlines():
        if re.search(r"\bcopyright\b|\(c\)\s*\d{4}|\busage:", line, re.I):
            continue
        if re.match(rf"\s*{program}\s+[\[<-]", line):
            continue  # a synopsis: "archiver [-options] [-b path] ..."
        if any(p.search(line) for p in not_a_description()):
            continue  # a heading or banner ("POSIX options:  GNU long options: (standard)")
        kept.append(re.sub(r"\[[^\]]*\]", " ", line))
    return " ".join(kept)


@rule("what is the main mode of a tool without subcommands called?")
def main_verb(root: Command, *, bin: str) -> tuple[str, str]:
    """(verb name, summary) for the tool's main mode: ``("search", "Search ... for a regex pattern")``."""
    text = _what_it_does(root, bin)
    for match in re.finditer(
        r"(?<![-\w])[A-Za-z]+", text[:400]
    ):  # "-print" names a flag, not what the tool does
        stem = _stem(match.group(0))
        before = re.findall(r"[A-Za-z]+", text[: match.start()])[-1:]
        if stem and before and before[0].lower() in _NOUN_MARKERS:
            continue  # "entries from list", "the count": a noun, not what the tool does
        if stem and re.match(r"\s+for\s+[a-z]+ing\b", text[match.end() :]):
            continue  # "Filter for drawing directed graphs", "Tool for converting": a noun
        if stem:
            rest = text[match.end() :].strip()
            rest = re.split(r"(?<=[.;])\s|\n\n|,\s+(?:applying|and)\b", rest, maxsplit=1)[0].rstrip(
                ".;, "
            )
            words = rest.split()
            if len(words) > 10:
                rest = " ".join(words[:10])
            verb = stem if stem in KNOWN_VERBS else _MAIN_NAMES[stem]
            return _MAIN_NAMES[stem], f"{verb.capitalize()} {rest}".strip()
    if any(p.name.strip("<>[]. ").lower() in ("url", "urls") for p in root.positionals):
        # the tool's operand is a URL (fetcher, getter): its main mode fetches it
        return "get", "Fetch a URL and return the response body"
    name = re.sub(r"[^a-z0-9-]", "-", bin.rsplit("/", 1)[-1].lower()).strip("-") or "main"
    # the help's first sentence on what it does (never a copyright or usage line)
    said = re.split(r"(?<=[.;])\s", text.strip(), maxsplit=1)[0].rstrip(".;, ")
    return proposed_verb_name(name), said or f"Run {bin}"


def mode_name(flag: Flag) -> str:
    """The verb name of a mode flag, always a valid one (``--files`` -> ``files``, ``--0`` -> ``x0``),
    and never one a verb forwarding a command line is named (``--X`` -> ``x-mode``, not ``x``: check's
    W008 refuses such a name on any verb that passes a list without a flag, as a main mode's
    operands are)."""
    name = proposed_verb_name(_mode_word(flag))
    return f"{name}-mode" if is_mega_command(name) else name


# "use a long listing format" (lister -l, short only): the listing form of a lister, named after its kind
_LONG_LISTING = re.compile(r"\s*use\s+an?\s+(?P<kind>detailed|long)\s+listing\b", re.I)


# Words between a switch's verb and what it acts on ("show the fingerprint of", "removes all keys")
_FILLER = frozenset(
    "a an the all any each every this that its their given specified new existing private public "
    "of to for from in on with".split()
)


def _verb_of(word: str) -> str:
    """The known verb a word is a form of ("removes" -> remove, "changing" -> change), or ""."""
    stems = [word]
    for suffix in ("s", "es", "ing", "ed", "d"):
        if word.endswith(suffix):
            stems += [word[: -len(suffix)], word[: -len(suffix)] + "e"]
    return next((stem for stem in stems if len(stem) > 2 and stem in KNOWN_VERBS), "")


def _verb_and_object(text: str) -> str:
    """``verb-object`` from a short-only switch's help when it opens with a verb among its first few
    words ("Show fingerprint of ..." -> show-fingerprint; "Requests changing the passphrase" ->
    change-passphrase; "Removes all keys belonging to ..." -> remove-keys); "" otherwise. A help
    that opens with a filter's input or output words keeps the naming below."""
    # an aside in brackets ("convert (or patch) hexdump") names no object
    words = re.findall(r"[a-z]+", re.sub(r"\([^)]*\)", " ", text).lower())[:8]
    if not words or words[0] in ("output", "read", "use"):
        return ""
    for i, word in enumerate(words):
        verb = _verb_of(word)
        if not verb:
            continue
        rest = [w for w in words[i + 1 :] if w not in _FILLER]
        if rest and _verb_of(rest[0]):
            continue  # "requests changing ...": the verb is the next one
        return f"{verb}-{rest[0]}" if rest else ""
    return ""


def _mode_word(flag: Flag) -> str:
    listing = _LONG_LISTING.match(flag.description or "")
    if not flag.long and listing:
        return listing.group("kind").lower()
    if flag.short and not flag.long:
        # a short-only switch is named from its help: "(slurp)", "output raw strings" -> raw; a word
        # in brackets names the switch only where it starts with its letter (-s "read (slurp) all
        # inputs"), not an aside (-w "write result to (source) file")
        text = flag.description or ""
        paren = re.search(r"\((\w+)\)", text)
        letter = flag.short.lstrip("-")[:1].lower()
        if paren and letter and paren.group(1).lower().startswith(letter):
            return paren.group(1).lower()
        named = _verb_and_object(text)
        if named:
            return named
        words = [
            w
            for w in re.findall(r"[a-z]+", text.lower())
            if w not in ("output", "read", "use", "as") and w not in _FILLER
        ]
        if words:
            low = text.lower().lstrip()
            suffix = (
                "-input"
                if low.startswith(("use", "read"))
                else "-output"
                if low.startswith("output")
                else ""
            )
            return words[0] + suffix
    return re.sub(r"[^a-z0-9-]", "-", flag.name.lower()).strip("-")


# Input/output switches of a filter (raw strings out, inputs slurped): phrases.json io_mode_switches.
_IO_MODE = io_mode_words()


def is_io_mode_flag(flag: Flag) -> bool:
    """``-s  read (slurp) all inputs into an array``: a switch that changes what the filter sees or prints."""
    return not flag.takes_value and bool(_IO_MODE.search(flag.description or ""))


@rule("is a switch a mode of its own (what the tool prints, not how it filters)?")
def is_mode_flag(flag: Flag, *, bin: str, short_only: bool = False) -> bool:
    """A switch that changes what the tool prints, not how it filters. ``short_only``: the tool
    spells every flag with one letter (BSD's style), so a switch's wording decides, as a long
    switch's does elsewhere."""
    if is_io_mode_flag(flag):
        return True
    if flag.operation and flag.takes_value:
        # an operation with what it works on ("-L|--listfiles <package>..."): a mode whose value
        # is its operands (operation_operand)
        return not (dangerous_reason(flag, tool=bin) or flag_noise(flag))
    if flag.takes_value:
        return False
    if flag.long is None and not short_only and not _LONG_LISTING.match(flag.description or ""):
        # beside long options a short-only switch is a mode only where its help names a listing
        # format (lister -l)
        return False
    if flag.long in ("--json",) or dangerous_reason(flag, tool=bin) or flag_noise(flag):
        return False
    if flag.operation:
        return True  # the help lists it as one of the tool's operations (archiver -c, packer -d)
    # a help that opens with the protocols it applies to in capitals: "(HTTP FTP) Fetch ..."
    text = re.sub(r"^\s*\([A-Z ]+\)\s*", "", flag.description or "")
    if not _MODE_HELP.search(text):
        return False
    if re.match(r"\s*only\b", text, re.I):
        # "Only show matches surrounded by word boundaries" filters; "Only print the paths" is a mode
        return bool(
            _STRONG_MODE.search(text) or re.search(r"\b(?:paths|files|names|count)\b", text, re.I)
        )
    return True


def operation_operand(flag: Flag) -> Positional:
    """What an operation listed with a value works on, as an operand: ``-L|--listfiles
    <package>...`` -> ``package`` (variadic), ``-l|--list [<pattern>...]`` -> an optional one."""
    shown = flag.value_name or "value"
    name = re.sub(r"[<>\[\]]|\.\.\.", "", shown).strip() or "value"
    return Positional(
        name=name,
        required=not flag.value_optional,
        variadic=flag.repeatable or "..." in shown,
        type=flag.type if flag.type != "boolean" else "string",
        description=flag.description,
    )


def short_only_flags(root: Command) -> bool:
    """Whether the tool spells all its flags with one letter (BSD's style: ``-l``, ``-d file``)."""
    return bool(root.flags) and not any(f.long for f in root.flags)


def _usage_value(root: Command, flag: Flag) -> str:
    """The placeholder a usage line that leads with ``flag`` puts right after it (``keygen -F
    hostname [-lv]`` -> ``hostname``), or ""."""
    if not leads_usage_line(root, flag, bin=""):
        return ""
    for line in root.usage[1:]:
        words = line.split()
        if len(words) > 2 and words[1] == flag.short and re.fullmatch(r"[a-z][\w-]*", words[2]):
            return words[2]
    return ""


def mode_command(root: Command, flag: str) -> Command:
    """The root as the mode sees it: only the positionals its own usage line shows, and where the
    line leads with the flag (``keygen -l [-v] [-f input_keyfile]``), only the flags it shows."""
    for line in root.usage:
        if re.search(re.escape(flag) + r"(?![\w-])", line):
            kept = tuple(p for p in root.positionals if p.name.strip("<>[]. ") in line)
            words = line.split()
            if len(words) < 2 or words[1] != flag or line is root.usage[0]:
                return root.with_changes(positionals=kept)
            shown = _line_spellings(line)
            flags = tuple(f for f in root.flags if set(f.spellings) & shown)
            return root.with_changes(positionals=kept, flags=flags)
    return root


def _line_spellings(line: str) -> set[str]:
    """The flag spellings a usage line shows: ``-f``, ``--all``, and each letter of ``[-lv]``."""
    out: set[str] = set()
    for token in re.findall(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)", line):
        out.add(token)
        if not token.startswith("--"):
            out.update(f"-{letter}" for letter in token[1:])
    return out


def mode_summary(flag: Flag) -> str:
    text = re.sub(r"\s+", " ", flag.description).strip().rstrip(";")
    text = re.sub(r"^\([A-Z ]+\)\s*", "", text)
    # a value's syntax before the sentence ("hostname | [hostname]:port Search for ..."): not said
    text = re.sub(r"^[a-z][^A-Z]*?[|\[][^A-Z]*?\s(?=[A-Z])", "", text)
    text = text[:1].upper() + text[1:]
    text = re.sub(r"^Only print", "Print only", text)
    return re.split(r"(?<=[.!?])\s", text)[0].rstrip(".")


def root_value_modes(root: Command, *, bin: str) -> list[ValueMode]:
    """The modes of a tool without subcommands that a value flag makes (``valuemodes``)."""
    name, summary = main_verb(root, bin=bin)
    return value_modes(
        root,
        bin=bin,
        main_name=name,
        main_verb=(summary.split() or [name])[0],
        fetches_url=any(
            p.name.strip("<>[]. ").lower() in ("url", "urls") for p in root.positionals
        ),
    )


def value_mode_candidate(mode: ValueMode, **more) -> Candidate:
    """The candidate of a value flag's mode (its command, literals, owned flags, name, summary and
    note), with ``more`` of Candidate's fields (its index, JSON choice, uses, source)."""
    return Candidate(
        path=(),
        command=mode.command,
        fixed=mode.fixed,
        owns=mode.owns,
        name=mode.name,
        summary=mode.summary,
        note=mode.note,
        **more,
    )


@rule("what modes does a tool without subcommands offer, by its help?")
def root_candidates(root: Command, *, bin: str) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """The modes of a tool without subcommands, and the flags considered but not taken (why)."""
    name, summary = main_verb(root, bin=bin)
    in_place = next(
        (
            f
            for f in root.flags
            if f.spellings and not f.hidden and in_place_words().search(f.description or "")
        ),
        None,
    )
    if in_place is not None and not (root.summary or root.description):
        # a help that says nothing of what the tool does, but has a switch to rewrite the input files
        # (streamed -i): without it the tool prints its result and changes nothing
        summary = f"Print what {bin} makes of its input; the files stay as they are (only {in_place.long or in_place.spellings[0]} rewrites them)"
    json_choice = select_json(root)
    skipped: list[tuple[str, str]] = []
    short_only = short_only_flags(root)
    modes = [
        f
        for f in root.flags
        if is_mode_flag(f, bin=bin, short_only=short_only) or leads_usage_line(root, f, bin=bin)
    ]
    # A tool whose help lists its operations (archiver, packer) is run as one of them: with no operation
    # flag archiver refuses to run, and packer's default is its --compress.
    by_operation = sum(1 for f in root.flags if f.operation) >= 2
    out = (
        []
        if by_operation
        else [
            Candidate(
                path=(),
                command=root,
                index=0,
                name=name,
                summary=summary,
                json=JsonChoice(False, "", "text output; the JSON variant is a separate command")
                if json_choice.selection and json_choice.flag == "--json"
                else None,
                note="the tool's main mode",
            )
        ]
    )

    def rank(flag: Flag) -> float:
        # a mode with a usage line of its own and no operand (searcher --type-list) does something else entirely
        own = mode_command(root, flag.spelling)
        return _mode_rank(flag) + (2.0 if own is not root and not own.positionals else 0.0)

    # modes guessed from a switch's wording are capped; the operations the help lists as such, and
    # the switches that lead a usage line of their own, are the help's own word (the pack's cap applies)
    said = {i for i, f in enumerate(modes) if f.operation or leads_usage_line(root, f, bin=bin)}
    guessed = [i for i in range(len(modes)) if i not in said]
    ranked = sorted(guessed, key=lambda i: (-rank(modes[i]), i))
    keep = set(ranked[:MAX_MODES]) | said
    for i, flag in enumerate(modes):
        if i not in keep:
            skipped.append((flag.spelling, f"{MAX_MODES} other mode flags rank higher"))
            continue
        spelling = flag.spelling
        command = mode_command(root, spelling)
        fixed, owns = (spelling,), ()
        shown = _usage_value(root, flag)
        if shown and not flag.takes_value:
            # its own usage line gives it a value (keygen -F hostname) its option table lost
            valued = replace(flag, takes_value=True, type="string", value_name=shown)
            command = command.with_changes(
                flags=tuple(valued if f is flag else f for f in command.flags)
            )
            flag = valued
        if flag.operation and flag.takes_value:
            # an operation's "value" is what it works on: the tool's operands after the switch
            command = command.with_changes(
                positionals=(operation_operand(flag),),
                flags=tuple(f for f in command.flags if f is not flag),
            )
        elif flag.takes_value and not is_io_mode_flag(flag):
            # a usage line of its own leads with it and its value (keygen -R hostname): the mode
            # asks for the value
            command = command.with_changes(
                flags=tuple(replace(f, required=True) if f is flag else f for f in command.flags)
            )
            fixed, owns = (), flag.spellings
        text_out = (
            (json_choice.selection and json_choice.flag == "--json")
            or re.search(r"\braw\s+strings?\b|\bnot\s+JSON\b", flag.description, re.I)
            and flag.description.lower().startswith("output")
        )
        out.append(
            Candidate(
                path=(),
                command=command,
                index=i + 1,
                fixed=fixed,
                owns=owns,
                name=mode_name(flag),
                summary=mode_summary(flag),
                json=JsonChoice(False, "", "a mode flag's output is text") if text_out else None,
                note=f"mode flag {spelling}",
            )
        )
    if in_place is not None and not by_operation:
        # the switch that rewrites the input files where they are (streamed -i): the write form of a read
        # tool, a command of its own; the danger catalogue keeps the switch off every read
        out.append(
            Candidate(
                path=(),
                command=root,
                index=len(out),
                fixed=(in_place.long or in_place.spellings[0],),
                name=mode_name(in_place),
                summary=mode_summary(in_place),
                note=f"in-place flag {in_place.long or in_place.spellings[0]} (rewrites the files it is given)",
            )
        )
    rewrite = next(
        (f for f in root.flags if f.long and set(f.spellings) & opt_in_rewrite()),
        None,
    )
    if in_place is None and rewrite is not None and not by_operation:
        # the switch a linter or formatter rewrites its files with only when asked (--fix,
        # --write): the write form of a tool that otherwise reports, a command of its own
        out.append(
            Candidate(
                path=(),
                command=root,
                index=len(out),
                fixed=(rewrite.long,),
                name=mode_name(rewrite),
                summary=mode_summary(rewrite),
                note=f"rewrite switch {rewrite.long} (rewrites the files it reads)",
            )
        )
    taken = {c.name for c in out}
    for mode in root_value_modes(root, bin=bin):
        if mode.name in taken:
            skipped.append(
                (
                    " ".join(mode.fixed or mode.owns[:1]),
                    f"a switch mode is already named '{mode.name}'",
                )
            )
            continue
        out.append(
            value_mode_candidate(
                mode,
                index=len(out),
                json=JsonChoice(False, "", "a mode's output is text")
                if json_choice.flag in ("--json",) + mode.owns
                else None,
            )
        )
    if json_choice.selection and json_choice.flag == "--json" and not by_operation:
        out.append(
            Candidate(
                path=(),
                command=root,
                index=len(out),
                name=f"{name}.json",
                summary=f"{summary} (JSON lines)",
                json=json_choice,
                note="the main mode with --json",
            )
        )
    return out, skipped
