"""A command's operands as a person passes them, read from its positionals and its usage lines.

Parsers report positionals; usage lines say more: which repeat (``[PATH ...]``), which are
alternatives (``{<number> | <url>}``), which belong to another mode (``jq --args <filter>
[strings...]``), which stand before a ``[--]`` (``git log``), and, for upper-case usages the parser
did not read (``kubectl logs (POD | TYPE/NAME)``), what the operands are at all.
"""

from __future__ import annotations

import re

from wrapgen.model import Command, Positional

__all__ = ["operands", "usage_operands", "usage_split", "DASH_DASH_AFTER"]

# Tools known to read a literal "--" as an operand when it stands before their first operand:
# jq 1.6 takes "jq -- ." as the filter "--". The value is how many operands go before "--".
DASH_DASH_AFTER = {"jq": 1}


_NOT_OPERANDS = {"global", "options", "option", "global options", "flags", "flag", "opts"}

_ALTERNATIVES = re.compile(r"(?P<open>[\[{])\s*(?P<body><[\w-]+>(?:\s*\|\s*<[\w-]+>)+)\s*[\]}]")


def operands(command: Command) -> list[Positional]:
    """Positionals as a person would pass them.

    Marked variadic where the first usage line repeats them (``[PATH ...]``); alternatives
    (``{<number> | <url>}``) become one positional named after the first, required when braced,
    also when the parser did not list them.
    """
    from dataclasses import replace

    usage = command.usage[0] if command.usage else ""
    # "terraform [global options] plan [options]" read as operands "global" and "plan": not operands
    words = {w.lower() for w in command.path}
    positionals = [p for p in command.positionals
                   if p.name.strip("<>[]. ").lower() not in words | _NOT_OPERANDS] or usage_operands(command)
    for match in _ALTERNATIVES.finditer(usage):
        names = re.findall(r"<([\w-]+)>", match.group("body"))
        first = next((p for p in positionals if p.name.strip("<>") == names[0]), None)
        merged = Positional(
            name=names[0], required=match.group("open") == "{",
            description=" or ".join(names).replace("-", " "),
        )
        positionals = [p for p in positionals if p.name.strip("<>") not in names]
        index = command.positionals.index(first) if first in command.positionals else len(positionals)
        positionals.insert(min(index, len(positionals)), merged)
    if len(command.usage) > 1:
        # an operand shown only in a usage line of another mode (jq --args <filter> [strings...],
        # git diff --no-index <path> <path>) belongs to that mode, not to this command
        def in_plain_line(pos: Positional) -> bool:
            name = pos.name.strip("<>[]. ")
            lines = [u for u in command.usage if name and name in u]
            return not lines or any(not re.search(r"\s--?[a-z][\w-]*(?=[\s\]])", u) for u in lines)

        positionals = [p for p in positionals if in_plain_line(p)] or positionals
    out = []
    for pos in positionals:
        bare = re.escape(pos.name.strip("<>[]. "))
        if not pos.variadic and bare and re.search(bare + r"[>\]]*\s?\.\.\.", usage):
            pos = replace(pos, variadic=True)
        out.append(pos)
    return out


# An upper-case operand: not a flag's value (--x=VAL), not part of TYPE/NAME or [.VERSION].
_UPPER_OPERAND = re.compile(r"(?<![.\w/=-])([A-Z][A-Z0-9_]{1,})(?![\w\]]*[=/])")


def usage_operands(command: Command) -> list[Positional]:
    """Operands from an upper-case usage line when the parser found none.

    ``kubectl logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]`` -> ``POD`` (required);
    flag values (``-c CONTAINER``), alternatives after ``|`` and ``[.VERSION]`` parts are skipped.
    """
    if not command.usage:
        return []
    line = command.usage[0]
    words = line.split()
    start = 0
    for i, word in enumerate(words):
        if command.path and word == command.path[-1]:
            start = i + 1
            break
    line = " ".join(words[start:])
    line = re.sub(r"\[(?:flags|options|OPTIONS|FLAGS)\]", " ", line)
    line = re.sub(r"--?[\w-]+(?:[ =])[A-Z_][A-Z0-9_]*", " ", line)  # flag values
    out: list[Positional] = []
    seen: set[str] = set()
    for match in _UPPER_OPERAND.finditer(line):
        name = match.group(1)
        if name in seen or name in ("OPTIONS", "FLAGS", "ARGS", "COMMAND"):
            continue
        seen.add(name)
        before = line[: match.start()]
        depth = before.count("[") - before.count("]")
        group = before.rfind("(") > before.rfind(")")
        if group:
            # inside "(A | B)" an operand is one of several ways: optional on its own
            close = line.find(")", match.end())
            depth += 1 if "|" in line[before.rfind("("): close if close >= 0 else None] else 0
        variadic = line[match.end(): match.end() + 6].lstrip("]").lstrip().startswith("...")
        out.append(Positional(name=name, required=depth <= 0, variadic=variadic))
    return out


def usage_split(command: Command) -> int | None:
    """How many positionals stand before a ``[--]`` in the usage (git log), or None."""
    for line in command.usage:
        if "[--]" in line or " -- " in line:
            head = re.split(r"\[--\]| -- ", line, maxsplit=1)[0]
            return sum(1 for p in command.positionals if p.name.split("|")[0] in head)
    return None
