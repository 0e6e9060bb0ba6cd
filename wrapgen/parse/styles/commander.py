"""commander.js help (pm2, and yarn v1 which is built on commander 2).

commander 2 indents the whole page by two spaces ("  Usage: start [options] [name...]",
"  Options:"), names only the command itself in its usage line, and lists commands with their
operands and aliases before the summary::

    start [options] [name|namespace|file|ecosystem|id...]        start and daemonize an app
    delete|del <name|id|namespace|script|all|json|stdin...>      stop and delete a process
    profile:mem [time]                                           Sample PM2 heap memory

yarn v1 lists its commands as bullets (``    - access``, ``    - upgrade-interactive /
upgradeInteractive``) and a command's own subcommands only in its usage line
(``yarn cache [ls|list|clean|dir] [flags]``): those become stubs marked ``USAGE_LISTED``, read from
this same page by the crawl, because ``yarn cache list --help`` *runs* ``yarn cache list``.
"""

from __future__ import annotations

import re

from wrapgen.model.tool import Command, Positional
from wrapgen.parse.assemble import Rules, assemble, classify, read_parts
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import USAGE_LISTED, register_parser

__all__ = ["parse_commander", "parse_yarn", "dedent_page", "commander_listing"]

RULES = Rules(listing=r"^commands$")

# "start [options] [name|id...]  summary", "delete|del <name>  summary", "autoinstall", "*".
_ENTRY = re.compile(
    r"""
    ^(?P<names>[A-Za-z0-9][\w:.-]*(?:\|[A-Za-z0-9][\w:.-]*)*)   # the name, then its aliases
    (?P<operands>(?:[ ](?:\[[^\]]*\]|<[^>]*>))*)                # [options] <id> [name...]
    (?:[ ]{2,}(?P<summary>\S.*))?$
    """,
    re.VERBOSE,
)
# yarn: "- generate-lock-entry / generateLockEntry"
_BULLET = re.compile(r"^- (?P<name>[a-z][\w:-]*)(?: / (?P<alias>[A-Za-z][\w:-]*))?$")
_ALIAS_SUMMARY = re.compile(r"^\(alias\)\s*")


_USAGE_LINE = re.compile(r"^ +Usage: ", re.MULTILINE)


def dedent_page(text: str) -> str:
    """The page without the indentation every line shares (commander 2 pads by two spaces).

    What a tool prints before commander's indented ``  Usage:`` line is its own output, not help
    (pm2's banner and "[PM2] Spawning PM2 daemon"): it is left out."""
    start = _USAGE_LINE.search(text)
    if start is not None:
        text = text[start.start() :]
    lines = text.split("\n")
    shared = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    if not shared:
        return text
    return "\n".join(line[shared:] for line in lines)


def commander_listing(lines, *, parent: tuple[str, ...], group: str = "") -> list[Command]:
    """The stubs of one ``Commands:`` section: commander's entries and yarn's bullets."""
    out: list[Command] = []
    base: int | None = None
    for line in lines:
        text = line.strip()
        if not text:
            continue
        indent = len(line) - len(line.lstrip(" "))
        if base is not None and indent > base + 1 and out:
            # a wrapped summary
            out[-1] = out[-1].with_changes(summary=(out[-1].summary + " " + text).strip()[:300])
            continue
        bullet = _BULLET.match(text)
        if bullet:
            base = indent if base is None else base
            out.append(
                stub(
                    parent + (bullet["name"],),
                    group=group,
                    aliases=(bullet["alias"],) if bullet["alias"] else (),
                )
            )
            continue
        match = _ENTRY.match(text)
        if match is None:
            continue
        base = indent if base is None else base
        names = match["names"].split("|")
        summary = _ALIAS_SUMMARY.sub("", match["summary"] or "")
        out.append(
            stub(parent + (names[0],), summary=summary[:300], group=group, aliases=names[1:])
        )
    return out


def _full_usage(usage: list[str], prog: tuple[str, ...]) -> list[str]:
    """commander prints ``start [options] ...`` for ``pm2 start``: the usage with the whole path."""
    out = []
    for line in usage:
        words = line.split()
        if len(prog) > 1 and words and words[0] == prog[-1] and words[0] != prog[0]:
            line = " ".join(prog[:-1]) + " " + line
        out.append(line)
    return out


def _read(text: str, *, prog: tuple[str, ...], style: str) -> tuple[Command, list[str]]:
    page = dedent_page(text)
    parts = read_parts(page, prog=prog, rules=RULES)
    parts.usage = _full_usage(parts.usage, prog)
    listed: list[Command] = []
    for section in parts.sections:
        if classify(section, RULES) == "listing":
            listed += commander_listing(section.lines, parent=tuple(prog[1:]), group=section.title)
    parts.subcommands = listed
    command = assemble(parts, prog=prog, style=style)
    if not command.positionals and (len(prog) > 1 or not listed):
        # a subcommand's usage, or a tool without subcommands (a linter's ``[options]
        # [files|directories|globs...]``): its operands are the usage line's
        command = command.with_changes(positionals=_operands(parts.usage, prog))
    return command, parts.usage


_OPERAND = re.compile(r"(?P<open>[<\[])(?P<names>[^<>\[\]]+)[>\]]")


def _operands(usage: list[str], prog: tuple[str, ...]) -> tuple[Positional, ...]:
    """``pm2 start [options] [name|namespace|id...]``: one operand per ``<x>``/``[x]`` after the path,
    named by its first alternative; ``[options]`` and ``[command]`` are not operands."""
    for line in usage:
        words = line.split()
        if tuple(words[: len(prog)]) != tuple(prog):
            continue
        out = []
        for match in _OPERAND.finditer(" ".join(words[len(prog) :])):
            names = match["names"].strip()
            variadic = names.endswith("...")
            name = names.rstrip(".").split("|")[0].strip()
            if not re.fullmatch(r"[\w:.-]+", name) or name.lower() in (
                "options",
                "command",
                "flags",
                "cmd",
            ):
                continue
            out.append(Positional(name=name, required=match["open"] == "<", variadic=variadic))
        return tuple(out)
    return ()


@register_parser("commander")
def parse_commander(text: str, *, prog: tuple[str, ...]) -> Command:
    """commander.js: the page dedented, ``name|alias [options] <operand>  summary`` listings."""
    command, _ = _read(text, prog=prog, style="commander")
    return command


# "yarn cache [ls|list|clean|dir] [flags]": the bracketed words right after the path.
_WORDS_GROUP = re.compile(r"^\[(?P<words>[a-z][\w-]*(?:\|[a-z][\w-]*)*)\]$")
_NOT_SUBCOMMANDS = frozenset({"flags", "options", "command", "args", "arguments"})


def usage_group_subcommands(usage: list[str], prog: tuple[str, ...]) -> list[str]:
    """The subcommand names a usage line offers right after the command's path: ``[ls|list|clean]``."""
    names: list[str] = []
    for line in usage:
        words = line.split()
        if tuple(words[: len(prog)]) != tuple(prog) or len(words) <= len(prog):
            continue
        group = _WORDS_GROUP.match(words[len(prog)])
        if group:
            names += [w for w in group["words"].split("|") if w not in _NOT_SUBCOMMANDS]
    return list(dict.fromkeys(names))


@register_parser("yarn")
def parse_yarn(text: str, *, prog: tuple[str, ...]) -> Command:
    """yarn v1: commander 2's page with ``- name`` bullets; subcommands from the usage line.

    A page names the path it belongs to in its usage line: read at a deeper path (the crawl
    reading ``yarn cache list`` from ``yarn cache``'s page) it is that subcommand's page, with the
    same flags and no further subcommands."""
    command, usage = _read(text, prog=prog, style="yarn")
    if len(prog) == 1:
        # the root's prose is the help command's ("Displays help information."), not yarn's
        return command.with_changes(summary="", description="")
    page_path = next(
        (tuple(line.split()[1 : len(prog)]) for line in usage if line.split()[:1] == [prog[0]]), ()
    )
    if (
        page_path
        and page_path != tuple(prog[1:])
        and tuple(prog[1 : len(page_path) + 1]) == page_path
    ):
        return command.with_changes(subcommands=(), positionals=())
    subs = tuple(
        stub(tuple(prog[1:]) + (name,)).with_changes(probe=USAGE_LISTED)
        for name in usage_group_subcommands(usage, prog)
    )
    return command.with_changes(subcommands=command.subcommands + subs) if subs else command
