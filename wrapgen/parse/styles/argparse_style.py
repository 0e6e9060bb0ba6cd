"""argparse help: ``usage:``, ``positional arguments:``, ``options:``, ``{a,b}`` subcommand choices."""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.listing import parse_listing, stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.sections import indent_of
from wrapgen.parse.usage import split_usage

__all__ = ["parse_argparse"]

RULES = Rules(operands=r"^positional arguments$|^arguments$")

# The line of a subparsers action: "{a,b,c}", or its metavar ("COMMAND", "<command>"), maybe
# followed by the action's help; the subcommands are listed on the deeper lines under it.
_SUBPARSERS_HEAD = re.compile(
    r"""
    ^(?P<indent>[ ]+)
    (?: \{(?P<names>[\w.-]+(?:,[\w.-]+)*)\}   # {init,run,list,ls}: every name and alias
      | (?P<metavar>[A-Za-z<][\w<>-]*)        # COMMAND, <command>, cmd
    )
    (?:[ ]{2,}(?P<help>.*))?$                 # the action's own help
    """,
    re.VERBOSE,
)
# argparse lists a subcommand with aliases as "list (ls, l)"; read as cargo's "list, ls, l".
_ALIASED = re.compile(
    r"^(?P<indent>\s+)(?P<name>[\w.-]+) \((?P<aliases>[\w.-]+(?:, [\w.-]+)*)\)(?=\s{2,}|$)"
)


def _unalias(line: str) -> str:
    """``"    list (ls)    List things"`` as ``"    list, ls     List things"`` (same width)."""
    match = _ALIASED.match(line)
    if not match:
        return line
    names = ", ".join([match["name"], *match["aliases"].split(", ")])
    return f"{match['indent']}{names}".ljust(match.end()) + line[match.end() :]


def _subparsers(parts, prog: tuple[str, ...]) -> list[Command]:
    """Subcommands from a subparsers action: its ``{a,b,c}`` (or metavar) line and the deeper
    entries listed under it. A metavar line counts only where the usage shows ``METAVAR ...``,
    argparse's mark of a subparsers action; ``{a,b,c}`` names subcommands argparse lists no entry
    for (one added without ``help=``)."""
    usage = " ".join(parts.usage)
    parent = tuple(prog[1:])
    out: dict[str, Command] = {}
    for section in parts.sections:
        if re.search(RULES.usage, section.key):
            continue  # a wrapped usage line can hold "{a,b,c}" too
        lines = list(section.lines)
        for i, line in enumerate(lines):
            match = _SUBPARSERS_HEAD.match(line)
            if not match:
                continue
            depth = len(match["indent"])
            body: list[str] = []
            for following in lines[i + 1 :]:
                if following.strip() and indent_of(following) <= depth:
                    break
                body.append(following)
            if match["metavar"] and not (
                body and re.search(rf"(?<![\w<-]){re.escape(match['metavar'])} \.\.\.", usage)
            ):
                continue
            listed = parse_listing(
                [_unalias(ln) for ln in body], parent=parent, group=section.title
            )
            aliases = {a for s in listed for a in s.aliases}
            named = match["names"].split(",") if match["names"] else []
            known = {s.name for s in listed}
            for found in listed + [
                stub(parent + (name,), group=section.title)
                for name in named
                if name not in known and name not in aliases
            ]:
                out.setdefault(found.name, found)
    return list(out.values())


@register_parser("argparse")
def parse_argparse(text: str, *, prog: tuple[str, ...]) -> Command:
    """Flags from ``options:`` (or ``optional arguments:``), operands, subparsers as stubs."""
    parts = read_parts(text, prog=prog, rules=RULES)
    # The subparsers' own entries win over the same lines read as a plain listing (which
    # would take "list (ls)" for a command with an operand).
    found = _subparsers(parts, prog)
    names = {name for s in found for name in (s.name, *s.aliases)}
    parts.subcommands = found + [s for s in parts.subcommands if s.name not in names]
    parts.operand_docs = {k: v for k, v in parts.operand_docs.items() if not k.startswith("{")}
    command = assemble(parts, prog=prog, style="argparse")
    # ArgumentDefaultsHelpFormatter prints "(default: None)" for an option that has no default.
    flags = tuple(replace(f, default=None) if f.default == "None" else f for f in command.flags)
    required = _required_spellings(command.usage)
    flags = tuple(replace(f, required=True) if set(f.spellings) & required else f for f in flags)
    return command.with_changes(flags=flags)


def _required_spellings(usage) -> set[str]:
    """argparse prints a required option bare on its usage line: ``prog [-h] --name NAME``."""
    if len(usage) != 1:
        return set()
    words = split_usage(usage[0])
    depth = 0
    out: set[str] = set()
    for word in words[1:]:
        if depth == 0 and re.fullmatch(r"--?[A-Za-z0-9][\w-]*", word):
            out.add(word)
        depth = max(
            0, depth + word.count("[") + word.count("(") - word.count("]") - word.count(")")
        )
    return out
