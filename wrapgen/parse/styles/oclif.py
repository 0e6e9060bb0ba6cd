"""oclif help (heroku, salesforce's sf, the ``oclif`` generator itself).

Headings in capitals (``USAGE``, ``ARGUMENTS``, ``FLAGS``, ``GLOBAL FLAGS``, ``TOPICS``,
``COMMANDS``); usage lines start with ``$ ``; flags are spelled ``-d, --output-dir=<value>``, their
choices follow as ``<options: npm|yarn|pnpm>``. Commands are listed by their whole path below the
root: ``generate command  Add a command ...`` under ``oclif generate``, ``pack deb`` under
``oclif pack``. ``TOPICS`` lists groups of commands (a topic may be a command too): each is a
subcommand whose own page lists the commands under it, so the crawl reads it like any other.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, assemble, classify, read_parts
from wrapgen.parse.facts import split_choices
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.sections import indent_of

__all__ = ["parse_oclif"]

RULES = Rules(listing=r"^(?:topics|commands)$", operands=r"^arguments$", globals=r"^global flags$")

# "generate command  Add a command ..." / "plugins:install  Installs a plugin"
_ENTRY = re.compile(
    r"^(?P<words>[A-Za-z0-9][\w:.-]*(?: [A-Za-z0-9][\w:.-]*)*)(?:\s{2,}(?P<summary>\S.*))?$"
)
_OPTIONS = re.compile(r"<options:\s*(?P<values>[^>]+)>")


def _listing(parts, prog: tuple[str, ...]) -> list[Command]:
    path = tuple(prog[1:])
    out: list[Command] = []
    seen: set[str] = set()
    for section in parts.sections:
        if classify(section, RULES) != "listing":
            continue
        last: Command | None = None
        for line in section.lines:
            text = line.strip()
            if not text:
                continue
            match = _ENTRY.match(text) if indent_of(line) <= 4 else None
            if match is None:
                if last is not None and indent_of(line) > 4:
                    index = out.index(last)
                    last = out[index] = last.with_changes(
                        summary=(last.summary + " " + text).strip()[:300]
                    )
                continue
            words = match["words"].split()
            if tuple(words[: len(path)]) == path:
                words = words[len(path) :]
            if not words:
                continue
            # "pack deb" one level deeper than this page: its first word is the topic to read
            name = words[0]
            summary = (match["summary"] or "") if len(words) == 1 else ""
            if name in seen:
                index = next(i for i, s in enumerate(out) if s.name == name)
                if summary and not out[index].summary:
                    out[index] = out[index].with_changes(summary=summary[:300])
                last = None
                continue
            seen.add(name)
            last = stub(path + (name,), summary=summary[:300], group=section.title.title())
            out.append(last)
    return out


def _with_choices(flag):
    match = _OPTIONS.search(flag.description)
    if match is None:
        return flag
    choices = split_choices(match["values"].replace("|", ","))
    description = (flag.description[: match.start()] + flag.description[match.end() :]).strip()
    if not flag.takes_value or not choices:
        return replace(flag, description=description)
    return replace(flag, description=description, choices=choices, type="enum")


@register_parser("oclif")
def parse_oclif(text: str, *, prog: tuple[str, ...]) -> Command:
    """oclif: ``$ tool ...`` usage, ``--flag=<value>`` flags with ``<options: a|b>``, topics."""
    parts = read_parts(text, prog=prog, rules=RULES)
    parts.usage = [re.sub(r"^\$\s+", "", u) for u in parts.usage]
    parts.subcommands = _listing(parts, prog)
    parts.flags = [_with_choices(f) for f in parts.flags]
    parts.global_flags = [_with_choices(f) for f in parts.global_flags]
    command = assemble(parts, prog=prog, style="oclif")
    if command.summary.startswith("$ "):
        command = command.with_changes(summary="")
    return command
