"""urfave/cli help (runc, mender-artifact, containerd's ctr): ``NAME:`` / ``USAGE:`` / ``COMMANDS:`` /
``GLOBAL OPTIONS:`` / ``OPTIONS:`` headings, entries indented by three spaces.

The ``NAME:`` line says ``TOOL PATH - summary``. ``COMMANDS:`` may be split into categories
(mender-artifact's "Artifact creation and validation:") whose entries are indented further; the
framework adds a ``help, h`` command at every level that has subcommands (kept as a listed command,
never probed: crawl leaves ``help`` unread). ``[arguments...]`` is urfave's generic operand and
names nothing (``--log value`` keeps its placeholder as the value name). Flags under ``REQUIRED ARGUMENTS:``
(mender-artifact) are required. All functions here are pure.
"""

from __future__ import annotations

import re

from wrapgen.model.changes import replace
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
    skip=r"^(?:version|authors?|copyright|name)$",
)

_NAME = re.compile(r"^NAME:\n +(?P<line>\S.*)$", re.MULTILINE)
_COMMANDS = re.compile(r"^COMMANDS:\n(?P<body>(?:[ \t].*\n?|\n)*)", re.MULTILINE)
_ENTRY = re.compile(r"^(?P<indent> +)(?P<names>[A-Za-z0-9][\w.:-]*(?:, [A-Za-z0-9][\w.:-]*)*)(?: {2,}(?P<summary>\S.*))?$")
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
        out.append(stub((*parent, names[0]), summary=(entry["summary"] or "").strip()[:300],
                        group=group, aliases=names[1:]))
    return out


@register_parser("urfave")
def parse_urfave(text: str, *, prog: tuple[str, ...]) -> Command:
    """One urfave/cli page: summary from ``NAME:``, commands by category, own and global options."""
    parts = read_parts(text, prog=prog, rules=RULES, stubs=False)  # (its commands are read below)
    path = tuple(prog[1:])
    parts.subcommands = urfave_commands(text, parent=path)
    command = assemble(parts, prog=prog, style="urfave")
    summary = command.summary
    name = _NAME.search(text)
    if name:
        summary = re.split(r"\s+-\s+", name["line"].strip(), maxsplit=1)[-1] if " - " in name["line"] else ""
    required = _required_spellings(text)
    flags = tuple(_tidy(replace(f, required=True) if required & set(f.spellings) else f) for f in command.flags)
    global_flags = tuple(_tidy(f) for f in command.global_flags)
    positionals = tuple(p for p in command.positionals if p.name.lower() not in _GENERIC_OPERANDS)
    if command.subcommands:
        positionals = ()
    return command.with_changes(summary=summary[:200], flags=flags, global_flags=global_flags,
                                positionals=positionals)


_REQUIRED = re.compile(r"^REQUIRED (?:ARGUMENTS|OPTIONS|FLAGS):\n(?P<body>(?:[ \t].*\n?)*)", re.MULTILINE)


def _required_spellings(text: str) -> set[str]:
    """The spellings under mender-artifact's ``REQUIRED ARGUMENTS:`` heading: flags that must be given."""
    match = _REQUIRED.search(text)
    if not match:
        return set()
    heads = [re.split(r"\s{2,}", line.strip(), maxsplit=1)[0] for line in match["body"].split("\n") if line.strip()]
    return {word for head in heads for word in re.findall(r"(?<![\w-])(--?\w[\w.-]*)", head)}


def _tidy(flag):
    # (not memoised: hashing a Flag to look it up costs more than value_choices' substring tests)
    if flag.takes_value and not flag.choices:
        choices = value_choices(flag.description)
        if choices:
            flag = replace(flag, choices=choices, type="enum")
    return flag
