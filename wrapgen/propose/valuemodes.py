"""Modes a tool without subcommands expresses through a flag that takes a value (finder, fetcher).

Switch modes (``searcher --files``) are in ``modes.py``. Some tools' main modes are a value flag instead,
and a person who knows the tool names them as commands of their own:

- a *kind* filter whose help lists the kinds (``finder --type``: ``'f' or 'file': regular files``):
  its first two kinds, fixed as literals, give ``files`` and ``dirs``;
- a *recent* filter on modification time (``finder --changed-within``): ``recent``, the time required;
- a flag that *sends data in a POST request* (``fetcher --data``, ``fetcher --json``): ``post`` and
  ``post.json``, the data required; these write, so they are confirm-gated;
- a flag that *writes the fetched document to a file* for a tool whose operand is a URL
  (``fetcher --output``, ``getter --output-document``): ``download``, the file required; a write;
- a flag that *runs one command of the tool's own and exits* on a tool whose help speaks of a query
  language (a database shell's ``-c COMMAND``, ``--execute``): ``query``, the statement required;
  a statement may change the data, so a confirm-gated write.

Each is found from the flag's help words, never from the tool's name; a tool whose help says none
of these gets none of them. The flag a mode requires is returned marked ``required`` in the mode's
command, so the args planner always offers it (and other commands leave it out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from wrapgen.knowledge.dangerous_flags import dangerous_reason
from wrapgen.knowledge.phrases import retired_words, value_mode_words
from wrapgen.knowledge.words import kind_names
from wrapgen.model.tool import Command, Flag
from wrapgen.names import proposed_verb_name
from wrapgen.propose.args import flag_noise
from wrapgen.propose.rules import rule

__all__ = ["ValueMode", "value_modes", "kind_choices", "runs_and_exits", "MAX_KINDS"]

MAX_KINDS = 2  # the help lists the common kinds first (files, directories); the rest are rare

# "'f' or 'file':   regular files" -> (f, file, regular files)
_KIND_PAIR = re.compile(
    r"'(?P<short>[\w-]+)'\s+or\s+'(?P<long>[\w-]+)'\s*:\s*(?P<what>[A-Za-z][A-Za-z ]*?)\s*(?=\s'|[(.,;]|$)"
)
# What a value flag's help says when it is a mode (a kind filter, a time filter, a POST, a download,
# the raw variant of a POST): wrapgen/knowledge/data/phrases.json value_modes, each with its reason.
_KIND_FLAG = value_mode_words("kind_filter")
_RECENT = value_mode_words("recent")
_RECENT_NAME = value_mode_words("recent_name")
_SEND = value_mode_words("send")
_SAVE = value_mode_words("save")
_RAW = value_mode_words("raw")
_STATEMENT = value_mode_words("statement")
_QUERY_LANGUAGE = value_mode_words("query_language")
# Short forms a person types for a kind ("dirs"); any other kind is pluralized:
# wrapgen/knowledge/data/fields.json.
_KIND_NAMES = kind_names()


@dataclass(frozen=True)
class ValueMode:
    """One mode: its name, summary, the literal tokens it fixes, and the command it sees."""

    name: str
    summary: str
    fixed: tuple[str, ...]  # literal tokens (``--type``, ``f``)
    owns: tuple[
        str, ...
    ]  # the flag spellings this mode sets or requires (kept off the other commands)
    command: Command
    note: str


def _first_sentence(text: str) -> str:
    text = re.sub(r"^\s*\([A-Z/ ]+\)\s*", "", re.sub(r"\s+", " ", text or ""))
    return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]


def kind_choices(flag: Flag) -> tuple[tuple[str, str, str], ...]:
    """(short value, long value, what it selects) for each kind a ``--type`` style flag's help lists."""
    return tuple(
        (m.group("short"), m.group("long"), m.group("what").strip())
        for m in _KIND_PAIR.finditer(re.sub(r"\s+", " ", flag.description or ""))
    )


def _plural(word: str) -> str:
    if word in _KIND_NAMES:
        return _KIND_NAMES[word]
    return (
        word[:-1] + "ies"
        if re.search(r"[^aeiou]y$", word)
        else word
        if word.endswith("s")
        else word + "s"
    )


def _requiring(root: Command, flag: Flag, *, drop: tuple[Flag, ...] = ()) -> Command:
    """The root with ``flag`` required once (the mode is that flag) and its rival spellings ``drop``ped."""
    one = replace(flag, required=True, repeatable=False)
    return root.with_changes(
        flags=tuple(
            one if f is flag else f
            for f in root.flags
            if f is flag or all(f is not d for d in drop)
        )
    )


def _usable(flag: Flag) -> bool:
    return (
        bool(flag.long)
        and not flag.hidden
        and not flag.deprecated
        and not retired_words().search(flag.description or "")
    )


@rule("which value flags make modes of their own?")
def value_modes(
    root: Command, *, bin: str, main_name: str, main_verb: str, fetches_url: bool
) -> list[ValueMode]:
    """The value-flag modes of ``root`` in the order a person would list them: reads, then writes."""
    verb = main_verb.capitalize()
    reads: list[ValueMode] = []
    writes: list[ValueMode] = []
    kind_done = recent_done = save_done = False
    send: list[Flag] = []
    for flag in root.flags:
        if not flag.takes_value or not _usable(flag):
            continue
        text = flag.description or ""
        safe = not dangerous_reason(flag, tool=bin) and not flag_noise(flag)
        if not kind_done and safe and _KIND_FLAG.search(text) and len(kind_choices(flag)) >= 3:
            kind_done = True
            for short, long, what in kind_choices(flag)[:MAX_KINDS]:
                reads.append(
                    ValueMode(
                        name=proposed_verb_name(_plural(long)),
                        summary=f"{verb} {what} by name",
                        fixed=(flag.long, short),
                        owns=(),
                        command=root,
                        note=f"kind filter {flag.long} {short} ({what})",
                    )
                )
        elif (
            not recent_done
            and safe
            and _RECENT.search(text)
            and _RECENT_NAME.search(flag.long or "")
        ):
            recent_done = True
            reads.append(
                ValueMode(
                    name="recent",
                    summary=f"{verb} entries modified recently (within a duration or since a date)",
                    fixed=(),
                    owns=flag.spellings,
                    command=_requiring(root, flag),
                    note=f"time filter {flag.long} (modification time)",
                )
            )
        elif _SEND.search(_first_sentence(text)) and re.search(
            r"\bdata\b", _first_sentence(text), re.I
        ):
            send.append(flag)
        elif (
            not save_done
            and fetches_url
            and _SAVE.search(text)
            and (flag.type == "path" or re.search(r"file", flag.value_name or "", re.I))
        ):
            save_done = True
            writes.append(
                ValueMode(
                    # it overwrites the file it names: "overwrite" makes the verb destructive (policy words)
                    name="download",
                    summary="Download and overwrite a local file with what a URL returns",
                    fixed=(),
                    owns=flag.spellings,
                    command=_requiring(root, flag),
                    note=f"save flag {flag.long} (writes a local file)",
                )
            )
    writes += _statement_modes(root)
    plain = next((f for f in send if not re.search(r"\bJSON\b", f.description)), None)
    if plain is not None:
        # "--data-raw: like --data but without the special interpretation of the @ character": the
        # variant that never reads "@file" from disk is the one to hand an agent
        plain = next(
            (
                f
                for f in root.flags
                if f.takes_value
                and f.long
                and _usable(f)
                and _RAW.search(f.description or "")
                and plain.long in f.description
            ),
            plain,
        )
    as_json = next(
        (f for f in send if re.search(r"\bJSON\b", _first_sentence(f.description))), None
    )
    sends: list[ValueMode] = []
    for flag, name, what in ((plain, "post", "data"), (as_json, "post.json", "JSON data")):
        if flag is not None:
            sends.append(
                ValueMode(
                    name=name if name == "post" or plain is not None else "post",
                    summary=f"Send {what} to a URL in an HTTP POST request and return the response",
                    fixed=(),
                    owns=flag.spellings,
                    command=_requiring(root, flag, drop=tuple(send) + (plain,)),
                    note=f"send flag {flag.long} (an HTTP POST)",
                )
            )
    if main_name in {m.name for m in reads + sends + writes}:
        return []  # the main mode already has the name: a tool this reading does not fit
    return reads + sends + writes


def runs_and_exits(flag: Flag) -> bool:
    """Whether ``flag``'s help says it runs one command of the tool's own and then exits."""
    return bool(flag.takes_value and _STATEMENT.search(flag.description or ""))


def _statement_modes(root: Command) -> list[ValueMode]:
    """``query``: the first flag that runs one command of the tool's own and exits, where the tool's
    help speaks of a query language (SQL, a database, queries): the command is a statement of that
    language, not a program (a shell's ``-c`` is no such tool's). Its other spellings of the same
    help (a second ``-s``) are dropped. A statement may change the data: a write."""
    said = " ".join(
        (root.summary, root.description, *root.usage, *(p.name for p in root.positionals))
        + tuple(f.description or "" for f in root.flags)
    )
    if not _QUERY_LANGUAGE.search(said):
        return []
    runs = [
        f
        for f in root.flags
        if f.spellings and not f.hidden and not f.deprecated and runs_and_exits(f)
    ]
    if not runs:
        return []
    flag = runs[0]
    return [
        ValueMode(
            name="query",
            summary=f"Run one statement ({flag.value_name or 'COMMAND'}) and return its result; "
            "a statement may change the data",
            fixed=(),
            owns=flag.spellings,
            command=_requiring(root, flag, drop=tuple(runs[1:])),
            note=f"statement flag {flag.spellings[0]} (runs one statement of the tool's "
            "language, then exits)",
        )
    ]
