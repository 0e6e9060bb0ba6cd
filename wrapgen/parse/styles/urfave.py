"""urfave/cli help (runc, mender-artifact, containerd's ctr): ``NAME:`` / ``USAGE:`` / ``COMMANDS:`` /
``GLOBAL OPTIONS:`` / ``OPTIONS:`` headings, entries indented by three spaces.

The ``NAME:`` line says ``TOOL PATH - summary``. ``COMMANDS:`` may be split into categories
(mender-artifact's "Artifact creation and validation:") whose entries are indented further; the
framework adds a ``help, h`` command at every level that has subcommands (kept as a listed command,
never probed: crawl leaves ``help`` unread). ``[arguments...]`` is urfave's generic operand and
names nothing (``--log value`` keeps its placeholder as the value name). Flags under ``REQUIRED ARGUMENTS:``
(mender-artifact) are required. A ``NAME:`` line whose summary is the command's own usage
(mender-artifact's "cp - cp <src> <dst>", "cat - cat [artifact|sdimg]:<filepath>") is read as the
usage where the page's own names no operand; the summary is then the description's first sentence,
and the root's listing keeps no such usage as a summary. All functions here are pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.styles.symfony import value_choices

__all__ = ["parse_urfave", "urfave_commands"]

RULES = Rules(
    usage=r"^usage$",
    globals=r"^global",
    listing=r"^commands$",
    operands=r"^arguments$",
    description=r"^description$",
    skip=r"^(?:version|authors?|copyright|name|category)$",  # (a command's category is its listing group)
)

_NAME = re.compile(r"^NAME:\n +(?P<line>\S.*)$", re.MULTILINE)
_COMMANDS = re.compile(r"^COMMANDS:\n(?P<body>(?:[ \t].*\n?|\n)*)", re.MULTILINE)
_ENTRY = re.compile(
    r"^(?P<indent> +)(?P<names>[A-Za-z0-9][\w.:-]*(?:, [A-Za-z0-9][\w.:-]*)*)(?: {2,}(?P<summary>\S.*))?$"
)
_CATEGORY = re.compile(r"^ +(?P<name>\S.*):$")
_GENERIC_OPERANDS = {"arguments", "command", "command options", "global options"}


def urfave_commands(text: str, *, parent: tuple[str, ...] = ()) -> list[Command]:
    """The stubs of the ``COMMANDS:`` section, each under its category heading, in order."""
    match = _COMMANDS.search(text)
    if not match:
        return []
    out: list[Command] = []
    group = ""
    base: int | None = None
    for line in match["body"].split("\n"):
        if not line.strip():
            continue
        category = _CATEGORY.match(line)
        entry = _ENTRY.match(line)
        indent = len(line) - len(line.lstrip())
        if category and not (entry and entry["summary"]):
            group, base = category["name"].strip(), None
            continue
        if entry is None:
            if out and base is not None and indent > base:
                continue  # a wrapped summary
            continue
        if base is not None and indent > base + 2 and out:
            out[-1] = replace(out[-1], summary=f"{out[-1].summary} {line.strip()}".strip()[:300])
            continue
        base = indent if base is None else base
        names = [n.strip() for n in entry["names"].split(",")]
        summary = (entry["summary"] or "").strip()
        if _usage_in_name(summary, ("", names[0])):
            summary = (
                ""  # "cp   cp <src> <dst>": a usage, not a summary (the command's page has one)
            )
        out.append(stub((*parent, names[0]), summary=summary[:300], group=group, aliases=names[1:]))
    return out


@register_parser("urfave")
def parse_urfave(text: str, *, prog: tuple[str, ...]) -> Command:
    """One urfave/cli page: summary from ``NAME:``, commands by category, own and global options."""
    parts = read_parts(text, prog=prog, rules=RULES, stubs=False)  # (its commands are read below)
    path = tuple(prog[1:])
    parts.subcommands = urfave_commands(text, parent=path)
    name = _NAME.search(text)
    said = (
        re.split(r"\s+-\s+", name["line"].strip(), maxsplit=1)[-1]
        if name and " - " in name["line"]
        else ""
    )
    named = _usage_in_name(said, prog)
    if named:
        # mender-artifact's "cp - cp <src> <dst>": the name line is the usage, where USAGE holds
        # prose (cp) or names no operand of its own ("cat [arguments...]")
        if not any(line.startswith(prog[0] + " ") for line in parts.usage):
            parts.prose.extend(parts.usage)
            parts.usage = named
        elif not any(_names_operands(line, prog) for line in parts.usage):
            parts.usage = (
                named  # (the generic line says nothing, and would make every operand optional)
            )
    command = assemble(parts, prog=prog, style="urfave")
    summary = command.summary
    if name:
        summary = said if not named else _first_sentence(command.description)
    required = _required_spellings(text)
    flags = tuple(
        _tidy(replace(f, required=True) if required and not required.isdisjoint(f.spellings) else f)
        for f in command.flags
    )
    global_flags = tuple(_tidy(f) for f in command.global_flags)
    positionals = tuple(p for p in command.positionals if p.name.lower() not in _GENERIC_OPERANDS)
    if command.subcommands:
        positionals = ()
    return command.with_changes(
        summary=summary[:200], flags=flags, global_flags=global_flags, positionals=positionals
    )


# "[artifact|sdimg|uefiimg]:<filepath>": one operand, a path inside an image of one of those kinds
_PREFIXED_OPERAND = re.compile(r"(?<!\S)\[?[\w|.-]+\]?:(<[\w-]+>)")


def _usage_in_name(said: str, prog: tuple[str, ...]) -> list[str]:
    """The usage lines a ``NAME:`` line gives in place of a summary (``cp <src> <dst>``, ``install
    -m <mode> <file> X:<path> or install -d X:<dir>``: the command's own name, then operands), as
    ``TOOL PATH ...`` lines; [] for a summary."""
    own = prog[-1] if len(prog) > 1 else ""
    if not own or not said.startswith(own + " ") or "<" not in said:
        return []
    forms = re.split(rf"\s+or\s+(?={re.escape(own)}\s)", said)
    return [" ".join((*prog[:-1], _PREFIXED_OPERAND.sub(r"\1", form.strip()))) for form in forms]


_GENERIC_USAGE = re.compile(r"\[(?:global |command )?options\]|\[arguments\.\.\.\]|\bcommand\b")


def _names_operands(line: str, prog: tuple[str, ...]) -> bool:
    """Whether a usage line names anything past its path besides urfave's generic words."""
    rest = line[len(" ".join(prog)) :] if line.startswith(" ".join(prog)) else line
    return bool(_GENERIC_USAGE.sub("", rest).strip())


def _first_sentence(text: str) -> str:
    first = " ".join(text.strip().split("\n\n", 1)[0].split())
    return re.split(r"(?<=\.)\s", first, maxsplit=1)[0]


_REQUIRED = re.compile(
    r"^REQUIRED (?:ARGUMENTS|OPTIONS|FLAGS):\n(?P<body>(?:[ \t].*\n?)*)", re.MULTILINE
)


def _required_spellings(text: str) -> set[str]:
    """The spellings under mender-artifact's ``REQUIRED ARGUMENTS:`` heading: flags that must be given."""
    match = _REQUIRED.search(text)
    if not match:
        return set()
    heads = [
        re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        for line in match["body"].split("\n")
        if line.strip()
    ]
    return {word for head in heads for word in re.findall(r"(?<![\w-])(--?\w[\w.-]*)", head)}


def _tidy(flag):
    # (not memoised: hashing a Flag to look it up costs more than value_choices' substring tests)
    if flag.takes_value and not flag.choices:
        choices = value_choices(flag.description)
        if choices:
            flag = replace(flag, choices=choices, type="enum")
    return flag
