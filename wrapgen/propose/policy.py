"""Classify a command as read, write or destructive from its name and its help words.

The effect is the strongest one any deciding word asks for, so "List, create, or delete branches"
is destructive; a command no word speaks for is treated as a write, to be safe. The result keeps
the words that decided it, because a person judging the proposal needs to see why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from wrapgen.knowledge.phrases import (
    code_operand_names,
    escape_guard_words,
    in_place_words,
    preview_words,
    program_sandbox_words,
)
from wrapgen.knowledge.words import (
    EFFECTS,
    name_effects,
    name_nouns,
    opt_in_rewrite,
    summary_effects,
    summary_modifiers,
    summary_self_run,
    summary_umbrella,
)
from wrapgen.model.tool import Command, Flag
from wrapgen.propose.rules import rule

__all__ = [
    "PolicyGuess",
    "classify",
    "flag_destroys",
    "program_sandbox",
    "escape_guards",
    "main_mode_effect",
    "EFFECTS",
    "NAME_EFFECTS",
    "SUMMARY_EFFECTS",
    "UNSURE_WRITE",
    "FORM_OF_MAIN",
    "ABOUT_ITSELF",
    "summary_verb",
]

# A switch's help that prints the tool's own help, usage or version ("Print help", "display this
# help and exit", "output version information and exit"): no word of what the tool does
ABOUT_ITSELF = re.compile(
    # the tool's own documents, too: a task runner's --man "Print man page", --changelog "Print
    # changelog" (modes of their own that ranked beside its listings)
    r"\s*(?:print|show|display|output)s?\s+(?:this\s+|the\s+|its\s+)?"
    r"(?:help|usage|version|man(?:ual)?\s+page|changelog|release\s+notes|licen[cs]e|credits|authors)\b"
    r"(?!\s+(?:of|for)\b)",  # (not "the version of each package")
    re.I,
)

# The reason of a write that no word decided: wrap's trials may show it is a read (flows/trials.py).
UNSURE_WRITE = "no read, write or delete word in its name or help; treated as a write to be safe"
# The reason's words of a form (the main mode with an everyday switch, propose/forms.py), which does
# what the main mode does: where a trial shows the main mode a read, so is the form (flows/trials.py).
FORM_OF_MAIN = "a form of the main command"

# The word tables are data: wrapgen/knowledge/data/effects.json (each word with its reason).
NAME_EFFECTS: Mapping[str, str] = name_effects()
# Leading verbs of a summary ("List pull requests", "Fetch the logs of a container"). Kept apart
# from the name table: "fetch" as a summary verb reads (containerctl logs), as a command name it writes.
SUMMARY_EFFECTS: Mapping[str, str] = summary_effects()

_RANK = {effect: i for i, effect in enumerate(EFFECTS)}

# The leading run of verbs: "List, create, or delete branches" -> list, create, delete.
_LEADING_VERBS = re.compile(
    r"""^\s*
    (?P<run>[A-Za-z-]+                     # the first word
      (?:\s*(?:,\s*(?:or\s+|and\s+)?       # ", " or ", or " / ", and "
            |\s+(?:or|and|and/or)\s+       # " or " / " and "
            |\s*/\s*)                      # "get / set" (procmgr config), "enable/disable"
         [A-Za-z-]+)*)                     # each further verb
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class PolicyGuess:
    """The effect of a command and the words that decided it."""

    effect: str
    words: tuple[str, ...]  # e.g. ("name 'list'", "help 'List'")
    reason: str


def _names_itself(rest: str, name: str) -> bool:
    """Whether the words after a summary's "run" name the command itself within a few words ("a
    security audit" after "Run", for ``audit``): then the summary only says the command is done."""
    words = re.findall(r"[a-z][\w-]*", rest.lower())[:4]
    return bool(name) and any(word in (name, f"{name}s") for word in words)


def _summary_verbs(summary: str, tool_name: str = "", name: str = "") -> list[str]:
    first = re.match(r"\s*([A-Za-z]+)\s+(?=[A-Za-z])", summary or "")
    if first and first.group(1).lower() in summary_modifiers():
        # "force compression": the word after decides ("Force delete a branch" still deletes)
        summary = summary[first.end() :]
    elif (
        first
        and first.group(1).lower() in summary_self_run()
        and (
            (
                tool_name
                and re.match(rf"(?:the\s+)?{re.escape(tool_name)}\b", summary[first.end() :], re.I)
            )
            or (
                first.group(1).lower() in ("run", "runs")
                and _names_itself(re.split(r"[.;:(]", summary[first.end() :])[0], name)
            )
        )
    ):
        # "Run Linter on the given files": the tool runs itself; "Run a security audit" (pkgmgr audit): the
        # command runs itself. Either way the command's name decides. Only "run" says so: "Executes
        # given SQL query" (ormtool query) runs a program of the caller's, whatever the name reads as
        return []
    match = _LEADING_VERBS.match(summary or "")
    if not match:
        return []
    words = re.split(r"[\s,/]+", match.group("run"))
    out = []
    for word in words:
        low = word.lower()
        if low in ("or", "and", "and/or", ""):
            continue
        base = _summary_key(low)
        if base is None:
            break
        out.append(word if base == low else base)
    return out


def _summary_key(word: str) -> str | None:
    """The table's form of a summary's leading verb: itself, or its base where the help writes the third
    person ("Prints the total size", "Checks the files", "Copies"), else None."""
    for key in (
        word,
        word[:-1] if word.endswith("s") else "",
        word[:-2] if word.endswith("es") else "",
        word[:-3] + "y" if word.endswith("ies") else "",
    ):
        if key and key in SUMMARY_EFFECTS:
            return key
    return None


@rule("does a flag's help open by saying it deletes something?")
def summary_verb(word: str) -> bool:
    """Whether ``word`` opens a summary as a verb the effect tables know ("Extract", "Lists")."""
    return _summary_key(word.lower()) is not None


def flag_destroys(flag: Flag) -> str:
    """The leading verb of a flag's help when it is a destructive one ("Deletes all identities from
    the agent", "Remove the cached results"), else "": such a flag makes a call that deletes."""
    # "Instead of adding identities, removes identities": the verb after the clause decides
    text = re.sub(r"^\s*instead of [^,.;]*,\s*", "", flag.description or "", flags=re.I)
    for verb in _summary_verbs(text):
        if SUMMARY_EFFECTS.get(_summary_key(verb.lower()) or "") == "destructive":
            return verb
    return ""


def _own_first_line(command: Command) -> str:
    """The first line of the command's own help where it is not its listing row's summary again."""
    first = next(
        (line.strip() for line in (command.description or "").splitlines() if line.strip()), ""
    )
    return "" if first.lower() == (command.summary or "").strip().lower() else first


@rule("what does a command change: read, write or destructive?")
def classify(
    command: Command, *, extra_words: tuple[str, ...] = (), tool_name: str = ""
) -> PolicyGuess:
    """The effect of ``command``: the strongest of its name's and its summary's leading verbs.

    ``tool_name`` (the program, "linter") lets a summary that only says the tool runs itself ("Run
    Linter on the given files") leave the effect to the command's name."""
    found: list[tuple[str, str]] = []  # (effect, evidence)
    name = command.name.lower()
    named_by = ""  # the name word whose effect was found
    for word in (name, *command.aliases, *extra_words):
        effect = NAME_EFFECTS.get(word.lower())
        if effect:
            found.append((effect, f"name '{word}'"))
            named_by = word.lower()
            break
    if not found and "-" in name:
        # "ls-files", "dselect-upgrade": the strongest part speaks for the whole; a part that is as
        # often a noun is the object here ("check-config" checks a config, it does not configure)
        effects = [
            NAME_EFFECTS[part]
            for part in name.split("-")
            if part in NAME_EFFECTS and part not in name_nouns()
        ]
        if effects:
            found.append((max(effects, key=_RANK.__getitem__), f"name '{name}'"))
    if re.match(
        r"\s*(?:write|print|output)s?\b.*\bto (?:the )?standard output\b",
        command.summary or "",
        re.I,
    ):
        # "Write sorted concatenation of all FILE(s) to standard output" prints; it does not write
        found.append(("read", "help 'to standard output'"))
        return PolicyGuess(
            "read", tuple(e for _, e in found), f"read: {', '.join(e for _, e in found)}"
        )
    verbs = _summary_verbs(command.summary, tool_name.rsplit("/", 1)[-1], name)
    own = _own_first_line(command)
    if own and all(v.lower() in summary_umbrella() for v in verbs):
        # the row names the topic's range ("manage apps") or no work at all ("tools and services
        # for ..."): the command's own help says what it does run bare ("list your apps")
        own_verbs = _summary_verbs(own, tool_name.rsplit("/", 1)[-1], name)
        if own_verbs:
            verbs = own_verbs
    if verbs and named_by in name_nouns():
        found = found[
            1:
        ]  # "config: Display site configuration": the noun says what, the verb what it does
    for verb in verbs:
        found.append((SUMMARY_EFFECTS[verb.lower()], f"help '{verb}'"))
    if not found:
        return PolicyGuess(
            "write",
            (),
            UNSURE_WRITE,
        )
    effect = max((e for e, _ in found), key=_RANK.__getitem__)
    deciding = tuple(evidence for e, evidence in found if e == effect)
    others = tuple(evidence for e, evidence in found if e != effect)
    reason = f"{effect}: {', '.join(deciding)}"
    if others:
        reason += f" (outranks {', '.join(others)})"
    return PolicyGuess(effect, deciding, reason)


_FIRST_WORD = re.compile(r"\W*([A-Za-z]+)")


@rule("which switch confines the program a tool runs for its caller to reading and printing?")
def program_sandbox(root: Command) -> str:
    """The spelling of the root's switch whose help says it confines the program the tool runs
    (``--sandbox``: "disabling the system() function, input redirection with getline, output
    redirection"; knowledge ``program_sandbox``), "" where it has none. Every verb of the tool
    passes it (propose/core.py), so a program an agent gives cannot start commands or write files."""
    for flag in root.flags:
        if (
            flag.spellings
            and not flag.takes_value
            and not (flag.hidden or flag.deprecated)
            and program_sandbox_words().search(flag.description or "")
        ):
            return flag.long or flag.spellings[0]
    return ""


@rule("which switches keep the statements a command runs from reaching outside what it opens?")
def escape_guards(command: Command) -> tuple[str, ...]:
    """The spellings of ``command``'s switches whose help says they keep its statements from reaching
    outside ("enable safe-mode": knowledge ``escape_guards``): a read form passes them (select.py),
    and a trial that fails with one and answers without it drops it (flows/trial_steps.py)."""
    return tuple(
        f.long or f.spellings[0]
        for f in command.flags
        if f.spellings and not f.takes_value and escape_guard_words().search(f.description or "")
    )


@rule("what does the main mode of a tool without subcommands change, where no word of it says?")
def main_mode_effect(root: Command, guess: PolicyGuess) -> PolicyGuess:
    """Where no word of a tool's name or summary says what its main mode changes (``guess`` is the
    fallback write), its switches speak for it: a switch that asks it to rewrite what it reads
    (``--fix``, ``--write``, ``--in-place``: ``opt_in_rewrite``; or any switch whose help says it
    edits the files in place: ``in_place_words``) says that without it it reads;
    else a switch that confines the program it runs to reading and printing (``--sandbox``:
    ``program_sandbox``, passed by every verb) makes it a read; else an operand that is code of
    the tool's own language (``SQL``, ``program``: ``code_operands``) a write no trial overturns;
    else its switches' help: where at least two open with a verb that
    reads ("print", "display", "output") and more do than open with one that changes something
    ("set", "remove"), and none only previews what it would do (a dry run: then it does something),
    the tool prints what it is asked, a read. A wrap tries every read in the
    sandbox and makes one that writes a confirm-gated write. ``guess`` otherwise."""
    if guess.words or guess.effect != "write":
        return guess
    asked = next(
        (
            spelling
            for flag in root.flags
            for spelling in (flag.long, *flag.aliases)
            if spelling in opt_in_rewrite()
        ),
        "",
    ) or next(
        # a switch of any spelling whose help says it edits the files in place ("-i: Inplace edit
        # <file>s, if specified")
        (
            flag.spellings[0]
            for flag in root.flags
            if flag.spellings
            and not flag.takes_value
            and in_place_words().search(flag.description or "")
        ),
        "",
    )
    if asked:
        # "--fix: fix the problems found", "--write: edit files in place": the tool rewrites what
        # it reads only when asked, so without it it reports or prints (the switch itself is kept
        # off reads, and a trial shows any other write); a dry run of that switch previews it
        return PolicyGuess(
            "read",
            (f"switch '{asked}'",),
            f"read: it rewrites the files it reads only when asked ({asked}); without it it "
            "reports or prints",
        )
    confined = program_sandbox(root)
    if confined:
        # "Run in sandbox mode, disabling the system() function, ... output redirection": every
        # call passes the switch, so the program the caller gives can read its input and print,
        # nothing else (the flags that write files are kept off reads as always)
        return PolicyGuess(
            "read",
            (f"switch '{confined}'",),
            f"read: every call passes its sandbox switch {confined}, which keeps the program it "
            "runs from starting commands or writing files",
        )
    code = next(
        (p.name for p in root.positionals if code_operand_names().search(p.name.strip("<>[]. "))),
        "",
    )
    if code:
        # "DBSHELL FILENAME [SQL]": the statement the caller gives decides what a call changes; a
        # trial with a harmless sample proves nothing of the next one, so it stays a write
        return PolicyGuess(
            "write",
            (f"operand '{code}'",),
            f"write: it runs the {code} it is given, which decides what it changes",
        )
    if any(preview_words().search(flag.description or "") for flag in root.flags):
        # a switch that only shows what the tool would do (a dry run, the result to standard
        # output instead of files) says that without it the tool does it
        return guess
    counts = {effect: 0 for effect in EFFECTS}
    for flag in root.flags:
        if ABOUT_ITSELF.match(flag.description or ""):
            continue  # "Print help", "output version information": says nothing of the tool's job
        first = _FIRST_WORD.match(flag.description or "")
        key = _summary_key(first.group(1).lower()) if first else None
        if key is not None:
            counts[SUMMARY_EFFECTS[key]] += 1
    reads = counts["read"]
    changes = sum(n for effect, n in counts.items() if effect != "read")
    if reads < 2 or reads <= changes:
        return guess
    return PolicyGuess(
        "read",
        (f"{reads} switches' help",),
        f"read: no word of its name or help says what it changes; the help of {reads} of its "
        f"switches says what it prints, of {changes} that it changes something",
    )
