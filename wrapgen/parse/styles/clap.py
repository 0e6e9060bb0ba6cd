"""clap help (rg, fd, cargo): old ``USAGE:/OPTIONS:/SUBCOMMANDS:`` and new ``Usage:/Options:/Commands:``."""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command, Positional
from wrapgen.parse.assemble import Rules, assemble, classify, read_parts
from wrapgen.parse.facts import guess_type
from wrapgen.parse.registry import register_parser
from wrapgen.parse.sections import indent_of

__all__ = ["parse_clap"]

RULES = Rules(
    operands=r"^(?:args|arguments|positional arguments)$",
    listing=r"^(?:subcommands|commands)$|commands?\b",
)

# An entry of clap's ``Arguments:`` section: ``<FILE>``, ``[FILES]...``, ``[PACKAGE]...  help``.
_ARGUMENT = re.compile(
    r"""
    ^(?P<open>[<\[])(?P<name>[\w.-]+)[>\]]   # <NAME> is required, [NAME] optional
    (?P<dots>\.\.\.)?                       # repeated
    (?:\s{2,}|$)                            # then the help, after a gap, or on the next lines
    """,
    re.VERBOSE,
)


def _listed_arguments(parts) -> list[Positional]:
    """The operands clap's ``Arguments:`` section lists, in order: clap prints every positional
    argument there, even where the usage line folds it into a group
    (uv pip install's ``<PACKAGE|--requirements <REQUIREMENTS>|...>``)."""
    out: list[Positional] = []
    for section in parts.sections:
        if classify(section, RULES) != "operands":
            continue
        lines = [line for line in section.lines if line.strip()]
        base = min((indent_of(line) for line in lines), default=0)
        for line in lines:
            match = _ARGUMENT.match(line.strip()) if indent_of(line) == base else None
            if match:
                kind = guess_type(match["name"])
                out.append(
                    Positional(
                        name=match["name"],
                        required=match["open"] == "<",
                        variadic=bool(match["dots"]),
                        type=kind if kind in ("path", "integer") else "string",
                    )
                )
    return out


# clap prints a subcommand's visible aliases after its summary: "install  Install it [aliases: i, add]".
_LISTED_ALIASES = re.compile(r"\s*\[(?:aliases|alias):\s*(?P<names>[\w.-]+(?:,\s*[\w.-]+)*)\]\s*$")


def _with_listed_aliases(stub: Command) -> Command:
    match = _LISTED_ALIASES.search(stub.summary)
    if match is None:
        return stub
    names = [n.strip() for n in match["names"].split(",")]
    return stub.with_changes(
        summary=stub.summary[: match.start()], aliases=tuple(dict.fromkeys((*stub.aliases, *names)))
    )


@register_parser("clap")
def parse_clap(text: str, *, prog: tuple[str, ...]) -> Command:
    """``[possible values: ...]``, ``[default: ...]``, ``-v...`` repeatable, ``<ARG>...`` operands."""
    parts = read_parts(text, prog=prog, rules=RULES)
    parts.subcommands = [_with_listed_aliases(s) for s in parts.subcommands]
    command = assemble(parts, prog=prog, style="clap")
    listed = _listed_arguments(parts)
    known = {p.name.lower() for p in command.positionals}
    missing = [p for p in listed if p.name.lower() not in known]
    if not missing:
        return command
    # The usage line's reading stays (its order and alternatives); what it could not name is added.
    docs = parts.operand_docs
    added = tuple(replace(p, description=docs.get(p.name.lower(), "")[:300]) for p in missing)
    return command.with_changes(positionals=command.positionals + added)
