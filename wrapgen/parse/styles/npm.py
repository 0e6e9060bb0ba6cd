"""npm's own help (``npm CMD --help``): usage lines, a bracketed option summary, described options.

::

    Usage:
    npm access list packages [<user>|<scope>|<scope:team>] [<package>]
    npm access get status [<package>]

    Options:
    [-S|--save|--no-save|--save-prod] [--install-strategy <hoisted|nested|shallow|linked>]
    [-w|--workspace <workspace-name> [-w|--workspace <workspace-name> ...]] [--no-audit]

      --audit
        When "true" submit audit reports alongside the current npm command ...

    aliases: add, i, in, ins

The usage lines hold the subcommands (``access list packages``: ``list``, then ``packages`` under
it): they become stubs marked ``USAGE_LISTED``, read from this page at their own path by the crawl
(``npm access list --help`` prints the same page). The bracketed summary spells every option (a
boolean's ``--no-audit`` where the description below calls it ``--audit``: npm takes both, so both
are kept); ``<a|b>`` after a spelling gives its choices, ``[... ...]`` says it repeats.
"""

from __future__ import annotations

import re

from wrapgen.knowledge.flags import is_value_kind
from wrapgen.model.tool import Command, Flag
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.facts import guess_type
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import USAGE_LISTED, register_parser
from wrapgen.parse.sections import indent_of

__all__ = ["parse_npm", "bracket_flags", "usage_subcommands"]

RULES = Rules(listing=r"^all commands$")

_BARE = re.compile(r"^[a-z][a-z0-9-]*$")


def _top_groups(text: str) -> list[str]:
    """The top-level ``[...]`` groups of the option summary, brackets stripped."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
    return out


def bracket_flags(summary: str, docs: dict[str, str]) -> list[Flag]:
    """Flags from npm's option summary; ``docs`` maps a spelling to its description."""
    flags: list[Flag] = []
    for group in _top_groups(summary):
        repeat = bool(re.search(r"\[[^\[\]]*\.\.\.\]\s*$", group))
        head = re.sub(r"\s*\[[^\[\]]*\.\.\.\]\s*$", "", group).strip()
        value = re.search(r"\s<(?P<value>[^<>]+)>$", head)
        names = head[: value.start()] if value else head
        pending_short: str | None = None
        longs = [n for n in names.split("|") if n.startswith("--")]
        for name in (n.strip() for n in names.split("|")):
            if re.fullmatch(r"-[A-Za-z0-9]", name):
                pending_short = name
                continue
            if not re.fullmatch(r"--[A-Za-z0-9][\w.-]*", name):
                continue
            takes = value is not None and name == longs[-1]
            choices: tuple[str, ...] = ()
            value_name = None
            if takes:
                value_name = value["value"]
                alternatives = tuple(v.strip() for v in value_name.split("|") if v.strip())
                # `<global|user|project>` are values to choose; `<pkg|glob>` are kinds of value
                if len(alternatives) > 1 and not all(is_value_kind(v) for v in alternatives):
                    choices = alternatives
            description = docs.get(name, "") or (
                docs.get(pending_short, "") if pending_short else ""
            )
            flags.append(
                Flag(
                    long=name,
                    short=pending_short,
                    takes_value=takes,
                    value_name=value_name,
                    type=("enum" if choices else guess_type(value_name)) if takes else "boolean",
                    choices=choices,
                    repeatable=repeat and takes,
                    description=description[:500],
                )
            )
            pending_short = None
    return flags


def _described(lines) -> dict[str, str]:
    """``  --json`` / ``  -S|--save`` entries and the paragraph under each."""
    docs: dict[str, str] = {}
    current: list[str] = []
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if text.startswith("-") and indent_of(line) <= 4 and re.fullmatch(r"-[\w|-]+", text):
            current = text.split("|")
            for spelling in current:
                docs.setdefault(spelling, "")
        elif current and indent_of(line) > 2:
            for spelling in current:
                docs[spelling] = (docs[spelling] + " " + text).strip()
    return docs


def usage_subcommands(usage: list[str], prog: tuple[str, ...]) -> list[str]:
    """The words after ``prog`` that name subcommands: ``list`` in ``npm access list packages <x>``.

    Right after the command a bare word is a subcommand (``npm org set orgname username``); deeper,
    only one followed by an operand, a bracket or nothing (``orgname username`` are placeholders).
    ``[fix|signatures]`` right after the path lists subcommands too."""
    names: list[str] = []
    for line in usage:
        words = line.split()
        if tuple(words[: len(prog)]) != tuple(prog) or len(words) <= len(prog):
            continue
        word = words[len(prog)]
        after = words[len(prog) + 1] if len(words) > len(prog) + 1 else ""
        if not _BARE.match(word) or (_BARE.match(after) and len(prog) > 2):
            continue
        names.append(word)
    for line in usage:
        # "npm audit [fix|signatures]": the alternatives right after the path
        words = line.split()
        if tuple(words[: len(prog)]) == tuple(prog) and len(words) > len(prog):
            group = re.fullmatch(
                r"\[(?P<words>[a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)+)\]", words[len(prog)]
            )
            if group:
                names += group["words"].split("|")
    return list(dict.fromkeys(names))


def _usage_lines(text: str) -> list[str]:
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        if line.strip() == "Usage:":
            for later in lines[i + 1 :]:
                if not later.strip():
                    if out:
                        break
                    continue
                out.append(" ".join(later.split()))
            break
    return out


def _option_summary(text: str) -> tuple[str, list[str]]:
    """(the bracketed summary joined, the lines after it) of the ``Options:`` section."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "Options:":
            summary: list[str] = []
            j = i + 1
            while j < len(lines) and lines[j].startswith("["):
                summary.append(lines[j].strip())
                j += 1
            return " ".join(summary), lines[j:]
    return "", []


@register_parser("npm")
def parse_npm(text: str, *, prog: tuple[str, ...]) -> Command:
    """npm: usage-line subcommands, the option summary with its described options, aliases."""
    parts = read_parts(text, prog=prog, rules=RULES)
    usage = _usage_lines(text)
    if usage:
        mine = [u for u in usage if tuple(u.split()[: len(prog)]) == tuple(prog)]
        parts.usage = mine or usage
    summary, rest = _option_summary(text)
    if summary:
        docs = _described(rest)
        flags = bracket_flags(summary, docs)
        spelled = {s for f in flags for s in f.spellings}
        for spelling, description in docs.items():
            # "--audit" described where the summary spells "[--no-audit]": npm takes both
            if (
                spelling.startswith("--")
                and spelling not in spelled
                and "--no-" + spelling[2:] in spelled
            ):
                flags.append(Flag(long=spelling, description=description[:500]))
        parts.flags, parts.companions = flags, []
    alias = re.search(r"^alias(?:es)?: (?P<names>[\w, -]+)$", text, re.MULTILINE)
    if alias:
        parts.aliases = [a.strip() for a in alias["names"].split(",") if a.strip()]
    if parts.prose and parts.prose[0].startswith("npm@"):
        parts.prose = parts.prose[1:]
    command = assemble(parts, prog=prog, style="npm")
    if len(prog) == 1:
        # the root's "Usage:" lines are examples with a gloss ("npm test  run this project's tests")
        command = command.with_changes(positionals=())
    subs = tuple(
        stub(tuple(prog[1:]) + (name,)).with_changes(probe=USAGE_LISTED)
        for name in usage_subcommands(parts.usage, prog)
        if len(prog) > 1
    )
    if subs:
        command = command.with_changes(subcommands=command.subcommands + subs)
    return command
