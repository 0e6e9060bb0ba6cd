"""Abseil flags help (absl-py and python-gflags programs, their ``appcommands`` tools).

A flag is ``--name: description`` (it takes a value: ``--name=VALUE``), ``--[no]name: ...`` (a
switch, ``--noname`` its negation) or ``-n,--name: ...``; a value's choices open the description
as ``<a|b|c>: ``; continuation lines are indented deeper and end with ``(default: '...')`` and a
type note (``(an integer)``). Flags are grouped under the module that defines them
(``/path/to/tool.py:``, ``frontend.command_query:``). An ``appcommands`` tool's ``help COMMAND``
page holds the command's summary on its first line, its ``Usage:`` and its ``Flags for COMMAND:``;
the program's own flags sit under ``Global flags:`` (a program without commands: ``flags:``).
"""

from __future__ import annotations

import re

from wrapgen.model.tool import Command, Flag
from wrapgen.parse.registry import register_parser
from wrapgen.parse.usage import usage_positionals

__all__ = ["parse_absl"]

_FLAG = re.compile(
    r"""
    ^(?P<indent>[ ]*)
    (?:-(?P<short>\w),)?                 # "-n," before the long name
    --(?P<no>\[no\])?(?P<name>\w[\w-]*)  # "--name" or "--[no]name"
    :[ ](?:<(?P<choices>[^>\n]+)>:[ ])?   # "<a|b>: " when the value is one of a few
    (?P<description>.*)$
    """,
    re.VERBOSE,
)
_DEFAULT = re.compile(r"\(default: '(?P<value>[^']*)'\)")
# absl's note on a flag that may be given again ("...;\n repeat this option to specify a list of values")
_REPEAT = re.compile(r";?\s*repeat this option to specify a list of values", re.IGNORECASE)
_TYPES = (
    ("(an integer)", "integer"),
    ("(a number)", "number"),
    ("(a comma separated list)", "string"),
)
_GLOBAL = re.compile(r"^\s*Global flags:\s*$", re.IGNORECASE)
_PROGRAM_FLAGS = re.compile(r"^flags:\s*$")  # a program without commands: its own flags
_COMMAND_FLAGS = re.compile(r"^\s*Flags for (?P<name>[\w-]+):\s*$")
_USAGE_LABEL = re.compile(r"^\s*Usage:\s*$")
_ENTRY = re.compile(
    r"^(?P<name>[a-z][\w-]*)\s{2,}(?P<summary>\S.*)$"
)  # "query    Execute a query."


def _flags(lines: list[str]) -> list[Flag]:
    """Every flag of ``lines``, with its continuation lines read for the default and the type."""
    flags: list[Flag] = []
    current: dict | None = None
    for line in lines + [""]:
        match = _FLAG.match(line)
        deeper = (
            current is not None
            and line.strip()
            and len(line) - len(line.lstrip()) > current["indent"]
        )
        if deeper and not match:
            current["text"].append(line.strip())
            continue
        if current is not None:
            flags.append(_flag(current))
            current = None
        if match:
            current = {**match.groupdict(), "indent": len(match["indent"]), "text": []}
            current["text"].insert(0, match["description"].strip())
    return flags


def _flag(found: dict) -> Flag:
    text = " ".join(t for t in found["text"] if t)
    default = _DEFAULT.search(text)
    description = _DEFAULT.sub("", text)
    kind = "string"
    for note, name in _TYPES:
        if note in description:
            kind = name
            description = description.replace(note, "")
    repeatable = _REPEAT.search(description) is not None
    description = " ".join(_REPEAT.sub("", description).split()).rstrip(";").strip()
    switch = bool(found["no"])
    choices = tuple(c.strip() for c in (found["choices"] or "").split("|") if c.strip())
    return Flag(
        long=f"--{found['name']}",
        short=f"-{found['short']}" if found["short"] else None,
        aliases=(f"--no{found['name']}",) if switch else (),
        takes_value=not switch,
        value_name=None if switch else found["name"].upper(),
        type="boolean" if switch else ("enum" if choices else kind),
        choices=() if switch else choices,
        default=default["value"] if default and default["value"] not in ("", "[]") else None,
        repeatable=repeatable,
        description=description[:300],
    )


@register_parser("absl")
def parse_absl(text: str, *, prog: tuple[str, ...]) -> Command:
    """The command's flags (``Flags for CMD:``) and the program's (``Global flags:``), the command's
    summary and usage from its entry, and the commands a listing page names."""
    lines = text.splitlines()
    name = prog[-1] if len(prog) > 1 else ""
    own: list[str] = []
    global_lines: list[str] = []
    usage: list[str] = []
    summary = ""
    section = ""
    listed: dict[str, str] = {}
    for index, line in enumerate(lines):
        if _GLOBAL.match(line):
            section = "global"
            continue
        if _PROGRAM_FLAGS.match(line):
            section = "own" if not name else "global"
            continue
        heading = _COMMAND_FLAGS.match(line)
        if heading:
            section = "own" if heading["name"] == name else "other"
            continue
        if _USAGE_LABEL.match(line):
            following = next((x.strip() for x in lines[index + 1 : index + 4] if x.strip()), "")
            words = following.split()
            if name and words[:1] == [name]:
                usage.append(" ".join((*prog[:-1], following)))
            continue
        entry = _ENTRY.match(line)
        if entry:
            section = ""
            listed.setdefault(entry["name"], entry["summary"].strip())
            if entry["name"] == name:
                summary = entry["summary"].strip()
            continue
        if section == "own":
            own.append(line)
        elif section == "global":
            global_lines.append(line)
    flags = tuple(_flags(own))
    global_flags = tuple(_flags(global_lines))
    switches = frozenset(s for f in flags if not f.takes_value for s in f.spellings)
    positionals = usage_positionals(usage, prog=prog, switches=switches) if usage else ()
    subcommands: tuple[Command, ...] = ()
    if not name:
        # the program's page opens with what it is for ("Python script for interacting with ...")
        first = next((line.strip() for line in lines if line.strip()), "")
        summary = "" if first.upper().startswith("USAGE") else first
        subcommands = tuple(
            Command(path=(*prog[1:], sub), summary=about.rstrip("."), stub=True)
            for sub, about in listed.items()
        )
    return Command(
        path=tuple(prog[1:]),
        summary=summary.rstrip("."),
        usage=tuple(usage),
        flags=flags,
        global_flags=global_flags,
        positionals=positionals,
        subcommands=subcommands,
        parser="absl",
    )
