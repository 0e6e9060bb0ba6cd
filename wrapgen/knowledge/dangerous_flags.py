"""The dangerous-flags catalogue: flags that write a file, run a program, load code, update the tool
or send data elsewhere; the subcommands that run programs; the environment that loads code.

Such a flag is never exposed on a read verb: a "read" command that can be told to write
``~/.bashrc`` (``git log --output``) or to run a program (``rg --pre``, ``find -exec``) is not a read.
Two layers decide: a catalogue of known spellings (per tool, for every tool, and per subcommand:
``rebase -x`` runs a command where ``ls-files -x`` excludes a pattern), and the words and value names
in a flag's help that mark one (``execute``, ``write the output to FILE``, ``--filter=PROGRAM``).
The catalogue, the program subcommands, the loader environment and the value guards are data
(``data/dangerous_flags.json``, one group per row of docs/packs-and-check.md's table); the help-word
patterns stay here, beside the code that reads them. ``wrapgen check`` runs the same tests over a
pack: every token of a read verb's ``cli[]``, joined short forms included (curl's ``-o/f``,
``-d@/f``, ``-sSo/f``; rule W030), a read verb's subcommand (W033) and the pack's ``env.set``
(W031), in ``wrapgen/check/dangerous_flags.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from wrapgen.knowledge.phrases import danger_words
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Flag

__all__ = [
    "DangerEntry",
    "CATALOGUE",
    "PROGRAM_COMMANDS",
    "LOADER_ENV",
    "DANGER_WORDS",
    "ValueGuard",
    "VALUE_GUARDS",
    "dangerous_reason",
    "token_danger",
    "value_guard",
    "program_command",
    "loader_env_reason",
    "is_program_value",
    "help_danger",
    "is_program_file",
    "names_a_command",
    "output_file_flag",
]


@dataclass(frozen=True)
class DangerEntry:
    tool: str  # "*" for every tool
    spellings: tuple[str, ...]  # a spelling "SUBCOMMAND FLAG" holds only after that subcommand
    why: str


def _catalogue() -> tuple[DangerEntry, ...]:
    return tuple(
        _grouped(
            load("dangerous_flags")["catalogue"],
            lambda first, spellings: DangerEntry(first.tool, spellings, first.why),
        )
    )


def _grouped(table, make):
    """One record per group of the data file, in file order."""
    out, run = [], []
    for entry in table:
        if run and entry.group != run[0].group:
            out.append(make(run[0], tuple(e.name for e in run)))
            run = []
        run.append(entry)
    if run:
        out.append(make(run[0], tuple(e.name for e in run)))
    return out


@dataclass(frozen=True)
class ValueGuard:
    """A flag that is fine to offer, but some of its values make the tool read a local file and
    send it away (``curl -H @/etc/passwd``). ``pattern`` (a JSON Schema pattern, searched) is what
    a safe value matches; the runtime refuses any other value before anything runs."""

    tool: str
    spellings: tuple[str, ...]
    pattern: str
    why: str
    max_length: int | None = None  # a pattern with an unbounded quantifier needs one (check's W053)


def _guard(first, spellings: tuple[str, ...]) -> ValueGuard:
    value = first.value
    if isinstance(value, dict):  # {"pattern": ..., "max_length": N}
        return ValueGuard(
            first.tool, spellings, value["pattern"], first.why, value.get("max_length")
        )
    return ValueGuard(first.tool, spellings, value, first.why)


def _value_guards() -> tuple[ValueGuard, ...]:
    return tuple(_grouped(load("dangerous_flags")["value_guards"], _guard))


def _program_commands() -> tuple[DangerEntry, ...]:
    return tuple(
        _grouped(
            load("dangerous_flags")["program_commands"],
            lambda first, paths: DangerEntry(first.tool, paths, first.why),
        )
    )


# Read once, from data/dangerous_flags.json (validated: a spelling twice for one tool is an error).
CATALOGUE: tuple[DangerEntry, ...] = _catalogue()
VALUE_GUARDS: tuple[ValueGuard, ...] = _value_guards()
PROGRAM_COMMANDS: tuple[DangerEntry, ...] = _program_commands()
LOADER_ENV: tuple[tuple[str, str], ...] = tuple(
    (e.name.upper(), e.why) for e in load("dangerous_flags")["loader_env"]
)
_PROGRAM_VALUES = frozenset(n.lower() for n in load("dangerous_flags")["program_values"].names)
_NAMED_VALUE = re.compile(
    "|".join(e.name for e in load("dangerous_flags")["named_values"]), re.IGNORECASE
)


def names_a_command(description: str) -> bool:
    """Whether a flag's help says its value only names a command, to describe or to pick
    (``--command NAME``, "show the help of the named command"; data: ``named_values``)."""
    return bool(_NAMED_VALUE.search(description or ""))


def value_guard(flag: Flag, *, tool: str) -> ValueGuard | None:
    """The guard on ``flag``'s values for ``tool``, or None when every value is harmless."""
    base = tool.rsplit("/", 1)[-1]
    for guard in VALUE_GUARDS:
        if guard.tool in ("*", base) and any(s in guard.spellings for s in flag.spellings):
            return guard
    return None


# Help words that mark a flag as dangerous in any tool (data/phrases.json), and the flag and value
# names that write the output to a file or load a configuration (data/dangerous_flags.json).
DANGER_WORDS = danger_words()
_FILE_VALUE = re.compile(
    "^(?:%s)$" % "|".join(e.name for e in load("dangerous_flags")["file_values"]), re.IGNORECASE
)
_OUTPUT_FLAGS = load("dangerous_flags")["output_flags"].names
_CONFIG_FLAGS = load("dangerous_flags")["config_flags"].names
_CONFIG_FLAGS_IF_SAID = load("dangerous_flags")["config_flags_if_said"].names


def _within(path: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the words of ``path`` stand together, in order, among ``words``."""
    width = len(path)
    return any(tuple(words[i : i + width]) == tuple(path) for i in range(len(words) - width + 1))


def _catalogue_hit(spelling: str, tool: str, command: Sequence[str] = ()) -> str | None:
    """The catalogue's reason for ``spelling`` of ``tool``, after the subcommand words ``command``."""
    base = tool.rsplit("/", 1)[-1]
    for entry in CATALOGUE:
        if entry.tool not in ("*", base):
            continue
        for name in entry.spellings:
            *path, flag = name.split(" ")
            if flag == spelling and (not path or _within(path, command)):
                return f"{name} {entry.why} (catalogue: {entry.tool})"
    return None


def _short_options(tool: str) -> frozenset[str]:
    base = tool.rsplit("/", 1)[-1]
    return frozenset(
        name.split(" ")[-1][1]
        for entry in CATALOGUE
        if entry.tool in ("*", base)
        for name in entry.spellings
        if len(name.split(" ")[-1]) == 2 and name.split(" ")[-1][0] == "-"
    )


def _writes_output_file(flag: Flag) -> bool:
    """``-o FILE``, ``--output=FILENAME``: a flag named as an output destination whose value is a
    file (``output_flags``), not a format (``--output json``)."""
    return (
        flag.takes_value
        and flag.name in _OUTPUT_FLAGS
        and bool(
            _FILE_VALUE.match(flag.value_name or "")
            or re.search(r"\bfile\b", flag.description, re.I)
        )
        and not re.search(r"\bformat\b", flag.description, re.I)
    )


def output_file_flag(flag: Flag, *, tool: str) -> bool:
    """A flag whose one danger is that it writes the tool's output into the file it names (``-o
    FILE``), and which no catalogue entry holds for a reason of its own: a read must never take it,
    a write may (writing is what that verb declares, its confirm gate asks first, and its sandbox
    bounds where the file can go)."""
    return _writes_output_file(flag) and not any(_catalogue_hit(s, tool) for s in flag.spellings)


def dangerous_reason(flag: Flag, *, tool: str) -> str | None:
    """Why ``flag`` must stay off a read verb, or None when it is harmless."""
    for spelling in flag.spellings:
        hit = _catalogue_hit(spelling, tool)
        if hit:
            return hit
    if _writes_output_file(flag):
        return f"{flag.spellings[0]} writes the output to a file"
    if flag.takes_value and (
        flag.name in _CONFIG_FLAGS
        or flag.name in _CONFIG_FLAGS_IF_SAID
        and re.search(r"config", flag.description, re.I)
    ):
        return f"{flag.spellings[0]} loads a configuration file"
    if flag.takes_value and is_program_file(flag.name, flag.value_name or ""):
        return f"{flag.spellings[0]} takes a file of code it runs ({flag.spellings[0]} {flag.value_name})"
    said = help_danger(flag.description, flag.value_name or "" if flag.takes_value else "")
    if said:
        return (
            f"{flag.spellings[0]} {said}"
            if said.startswith("takes")
            else f"{flag.spellings[0]}: {said}"
        )
    if flag.takes_value and is_program_value(flag.name) and not names_a_command(flag.description):
        # its arg takes the flag's name (``--shell=SHELLNAME`` -> ``{{shell}}``), and an arg named
        # as a program is one to check's W030 whatever the metavar was: the two must agree
        return f"{flag.spellings[0]} takes a value named as a program ({flag.name})"
    return None


def token_danger(token: str, *, tool: str, command: Sequence[str] = ()) -> str | None:
    """The catalogue reason for one literal ``cli[]`` token after the subcommand words ``command``:
    ``--output=x`` counts as ``--output``, and a short option joined with its value or bundled with
    others counts as itself (curl's ``-o/f``, ``-d@/f``, ``-sSo/f``: getopt reads the letters up to
    the first that takes a value, and the rest of the token is that value)."""
    if not token.startswith("-") or token == "--":
        return None
    spelling = token.split("=", 1)[0]
    hit = _catalogue_hit(spelling, tool, command)
    if hit or token.startswith("--") or len(token) <= 2:
        return hit
    shorts = _short_options(tool)
    for letter in token[1:]:
        if not letter.isalnum():
            break
        if letter in shorts:
            hit = _catalogue_hit(f"-{letter}", tool, command)
            if hit:
                return f"{token} joins {hit}"
    return None


def program_command(words: Sequence[str], *, tool: str) -> str | None:
    """Why the subcommand ``words`` (a verb's leading literal words after its bin) run a program the
    verb is given or the content's configuration names, or None (data: ``program_commands``)."""
    base = tool.rsplit("/", 1)[-1]
    for entry in PROGRAM_COMMANDS:
        if entry.tool not in ("*", base):
            continue
        for name in entry.spellings:
            path = name.split(" ")
            if tuple(words[: len(path)]) == tuple(path):
                return f"`{name}` {entry.why} (catalogue: {entry.tool})"
    return None


def loader_env_reason(name: str) -> str | None:
    """Why an environment variable ``name`` makes a tool load code, run a program or read its
    configuration from elsewhere, or None (data: ``loader_env``, matched case-blind)."""
    upper = name.upper()
    for pattern, why in LOADER_ENV:
        if pattern.endswith("*") and upper.startswith(pattern[:-1]) or upper == pattern:
            return why
    return None


def _value_words(name: str) -> list[str]:
    """The words of a value name, lower case: ``{decompression command}`` -> decompression,
    command; ``SCRIPT_FILE`` -> script, file; ``progFile`` -> prog, file."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name.strip())
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w and not w.isdigit()]


def is_program_value(name: str) -> bool:
    """Whether a value name says the value is a program, a command line or a file of code the tool
    runs: the whole name (``PROGRAM``, ``cmd``), its head word (``{decompression command}``,
    ``filter-program``; ``command-name`` is a name, not a program), or a file named as one
    (``script-file``, ``PROGRAM_PATH``)."""
    whole = name.strip("<>[]{}").lower().replace("-", "_")
    if whole in _PROGRAM_VALUES:
        return True
    words = _value_words(name)
    if not words:
        return False
    if words[-1] in _PROGRAM_VALUES:
        return True
    return bool(_FILE_VALUE.match(words[-1])) and any(w in _PROGRAM_VALUES for w in words[:-1])


def is_program_file(flag_name: str, value_name: str) -> bool:
    """Whether a flag named as a program (``--script``, ``--prog``, ``--hook``) takes a file: the
    file is code the tool runs (``--script FILE``). The same name as a switch (an output style
    for scripts) or with a name for its value (``--command NAME``) is none."""
    words = _value_words(flag_name)
    values = _value_words(value_name)
    return bool(words and values and words[-1] in _PROGRAM_VALUES and _FILE_VALUE.match(values[-1]))


# A negation just before a danger word in its clause: "Output the operations but do not execute
# anything" (a package manager's --dry-run) says the flag keeps the work from running
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever|\bwithout)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


def help_danger(description: str, value_name: str = "") -> str | None:
    """What a flag's own help says it does that a read must not (runs a program, executes a file,
    rewrites its inputs, writes a file, loads code): from its value name (``program_values``) and
    its description (``phrases.json`` danger_words), or None. The same test for a flag of the
    discovered model (``dangerous_reason``) and an arg of a pack (check's W030)."""
    text = description or ""
    for match in DANGER_WORDS.finditer(text):
        clause = re.split(r"[.;,:(]", text[: match.start()])[-1]
        if not _NEGATED.search(clause):
            return f"help says '{match.group(0).strip()}'"
    if value_name and is_program_value(value_name) and not names_a_command(description):
        return f"takes a {value_name.strip()}: its value is a program it runs"
    return None
