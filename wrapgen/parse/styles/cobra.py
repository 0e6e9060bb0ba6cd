"""cobra help (gh, kubectl, docker, hugo): ``Flags:`` / ``Global Flags:`` and command groups."""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.usage import usage_positionals

__all__ = ["parse_cobra"]

RULES = Rules(
    # gh: "INHERITED FLAGS"; cobra: "Global Flags:"; docker: "Global Options:".
    globals=r"global|inherited",
    # cobra's "Available Commands:", "Additional Commands:", gh's "CORE COMMANDS",
    # kubectl's "Basic Commands (Beginner):", docker's "Management Commands:".
    listing=r"commands?\b|^available|^subcommands",
    # gh prints "HELP TOPICS" and "JSON FIELDS": not subcommands, not flags.
    skip=r"^(?:help topics|json fields|learn more|environment variables|see also|feedback)$",
)


_GLOBAL_LIST = re.compile(r"^The following options can be passed to any command", re.MULTILINE)
# kubectl lists its global flags under a command it names only in a hint line.
_GLOBAL_HINT = re.compile(
    r"""^Use "(?P<cmd>[\w -]+)" for a list of (?P<what>global [^(\n]*?options)""", re.MULTILINE
)


@register_parser("cobra")
def parse_cobra(text: str, *, prog: tuple[str, ...]) -> Command:
    """Own flags, inherited flags apart, grouped subcommands; kubectl's ``--x=default:`` tables too."""
    parts = read_parts(text, prog=prog, rules=RULES)
    if _GLOBAL_LIST.search(text[:500]):
        # `kubectl options` lists the flags every command inherits: they are global by nature.
        parts.global_flags, parts.flags = parts.global_flags + parts.flags, []
    hint = _GLOBAL_HINT.search(text)
    words = tuple(hint["cmd"].split()) if hint else ()
    # Only where the hint names a child of this very command: every kubectl page repeats it.
    if (
        len(words) == len(prog) + 1
        and words[:-1] == tuple(prog)
        and words[-1] not in {s.name for s in parts.subcommands}
    ):
        parts.subcommands.append(
            stub(tuple(prog[1:]) + (words[-1],), summary=f"List the {hint['what']}")
        )
    command = assemble(parts, prog=prog, style="cobra")
    if command.subcommands or not command.usage:
        return command
    # A command without subcommands: its usage line is "TOOL PATH OPERANDS [flags]", so bare words
    # after the path are operands ("rclone gendocs output_directory", "rclone about remote:").
    switches = frozenset(
        s for f in command.flags + command.global_flags if not f.takes_value for s in f.spellings
    )
    operands = usage_positionals(command.usage, prog=prog, switches=switches, bare_words=True)
    if len(operands) > len(command.positionals):
        docs = {p.name: p.description for p in command.positionals}
        command = command.with_changes(
            positionals=tuple(replace(p, description=docs.get(p.name, "")) for p in operands)
        )
    return command
