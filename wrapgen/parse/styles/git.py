"""git help: ``git help -a`` command sections and ``git CMD -h`` parse-options usage."""

from __future__ import annotations

import re

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.listing import parse_listing, stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.usage import usage_subcommands

__all__ = ["parse_git"]

RULES = Rules()
# git help -a also lists guides ("User-facing ... interfaces"): those are not commands.
_NOT_COMMANDS = re.compile(
    r"""
    interfaces       # "User-facing repository, command and file interfaces"
  | guides           # "Guides" in other git versions
  | file\ formats    # "Developer-facing file formats, protocols and other interfaces"
  | protocols
    """,
    re.VERBOSE | re.IGNORECASE,
)


@register_parser("git")
def parse_git(text: str, *, prog: tuple[str, ...]) -> Command:
    """Every titled section of ``git help -a`` is a listing; ``-h`` output is an option table."""
    parts = read_parts(text, prog=prog, rules=RULES)
    if re.search(r"^See 'git help <command>'", text, re.MULTILINE) or re.search(
        r"^Main Porcelain Commands$", text, re.MULTILINE
    ):
        parts.subcommands = []
        for section in parts.sections:
            if section.title and not _NOT_COMMANDS.search(section.title):
                parts.subcommands.extend(
                    parse_listing(section.lines, parent=tuple(prog[1:]), group=section.title)
                )
        parts.prose = []
    elif len(prog) > 1:
        # git stash -h, git remote -h: one usage line per subcommand ("or: git remote add ...").
        found = usage_subcommands(parts.usage, prog=prog)
        if len(found) >= 2:
            listed = {s.name for s in parts.subcommands}
            parts.subcommands.extend(stub(tuple(prog[1:]) + (w,)) for w in found if w not in listed)
            parts.operand_usage = [u for u in parts.usage if not usage_subcommands([u], prog=prog)]
    return assemble(parts, prog=prog, style="git")
