"""A command's operands as a person passes them: the parser's positionals, trimmed for proposing.

Discovery (``wrapgen.parse.usage``) reads which operands a usage line names, whether they
are required or repeat, and which alternatives are one operand (``{<number> | <url>}``,
``NAME|ID``, ``(POD | TYPE/NAME)``, ``NAME[:TAG|@DIGEST]``). What is left here is about
proposing: leaving out words that are not operands of this command (``infractl [global
options] plan``), operands that belong to another mode's usage line (``jsonq --args <filter>
[strings...]``), and where a ``--`` goes (``vcs log``, jsonq's quirk).
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import MappingProxyType
from typing import Mapping, Sequence

from wrapgen.knowledge.commands import is_not_operand
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command, Positional
from wrapgen.propose.rules import rule

__all__ = ["operands", "usage_split", "DASH_DASH_AFTER"]

# Tools known to read a literal "--" as an operand when it stands before their first operand
# (jsonq 1.6 takes "jsonq -- ." as the filter "--"), and the words a usage line shows where operands go
# that are none: data in wrapgen/knowledge/data/tools.json and commands.json. DASH_DASH_AFTER
# (tool -> how many operands go before "--") stays importable.
DASH_DASH_AFTER: Mapping[str, int] = MappingProxyType(
    {entry.name: int(entry.value) for entry in load("tools")["dash_dash_after"]}
)


def operands(command: Command, *, mode: Sequence[str] = ()) -> list[Positional]:
    """The parser's positionals a person would pass to this command, in order.

    An operand given one of several ways (``number|url``) is described as such, and one whose
    usage spelling refines it (``NAME[:TAG|@DIGEST]``) carries that spelling as its description
    when the help gave none: it is still one argv element.
    """
    usage = command.usage[0] if command.usage else ""
    # "infractl [global options] plan [options]" read as operands "global" and "plan": not operands
    words = {w.lower() for w in command.path}
    positionals = [
        p
        for p in command.positionals
        if p.name.strip("<>[]. ").lower() not in words and not is_not_operand(p.name)
    ]
    if len(command.usage) > 1:
        # an operand shown only in a usage line of another mode (jsonq --args <filter> [strings...],
        # vcs diff --no-index <path> <path>) belongs to that mode, not to this command
        def in_plain_line(pos: Positional) -> bool:
            name = pos.name.strip("<>[]. ")
            lines = [u for u in command.usage if name and name in u]
            return not lines or any(not re.search(r"\s--?[a-z][\w-]*(?=[\s\]])", u) for u in lines)

        positionals = [p for p in positionals if in_plain_line(p)] or positionals
        # an operand named only on lines that a mode flag leads (keygen -M generate ... output_file,
        # keygen -I ... file ...) is that mode's, whatever else is left
        positionals = [p for p in positionals if not only_in_mode_lines(command, p, mode=mode)]
    out = []
    for pos in _pairs_spelled_out(command, positionals):
        bare = re.escape(pos.name.strip("<>[]. "))
        if not pos.variadic and bare and re.search(bare + r"[>\]]*\s?\.\.\.", usage):
            pos = replace(pos, variadic=True)
        if not pos.description:
            pos = replace(pos, description=_spelling(pos.name, usage))
        out.append(pos)
    return out


@rule("is a plural operand two operands the help spells out (FILES are 'FILE1 FILE2')?")
def _pairs_spelled_out(command: Command, positionals: Sequence[Positional]) -> list[Positional]:
    """A plural operand that is not repeated (``diff [OPTION]... FILES``) whose help spells it as a
    numbered pair ("FILES are 'FILE1 FILE2' or 'DIR1 DIR2'") is those two operands, each as
    required as the plural was; one the help does not spell out repeats (a list); the others stay
    as they are."""
    text = "\n".join((command.summary, command.description, *command.usage))
    out: list[Positional] = []
    for pos in positionals:
        bare = pos.name.strip("<>[]. ")
        one = bare[:-1] if bare.lower().endswith("s") and len(bare) > 3 else ""
        pair = one and re.search(
            rf"(?<![\w-]){re.escape(one)}1\s+{re.escape(one)}2(?![\w-])", text, re.IGNORECASE
        )
        if not pos.variadic and not pair and _plural(bare):
            # "FILES" with no "...": still more than one, so a list (a call passes each)
            pos = replace(pos, variadic=True)
        if pos.variadic or not pair:
            out.append(pos)
            continue
        first, second = pair.group(0).split()
        said = pos.description or f"one of {bare} ({pair.group(0)})"
        out += [
            replace(pos, name=first, description=f"the first {said}"),
            replace(pos, name=second, description=f"the second {said}"),
        ]
    return out


def _plural(name: str) -> bool:
    """``FILES``, ``paths``: a plural noun (not ``ADDRESS``, ``STATUS``, ``ALIAS``)."""
    return (
        len(name) > 3
        and (name.isupper() or name.islower())
        and name.lower().endswith("s")
        and not name.lower().endswith(("ss", "us", "is", "as", "os"))
    )


def only_in_mode_lines(command: Command, pos: Positional, *, mode: Sequence[str] = ()) -> bool:
    """Whether every usage line naming ``pos`` starts (after the command path) with a bare flag: a
    mode of its own (``keygen -M generate [-O option] output_file``), not the command's plain form.
    ``mode``: the flags of the mode being proposed; lines they lead are that mode's own."""
    names = [n.strip("<>[]. ") for n in pos.name.split("|") if n.strip("<>[]. ")]
    lines = [
        u
        for u in command.usage
        if any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", u) for n in names)
    ]
    if not lines:
        return False
    path = {w.lower() for w in command.path}

    def leads_with_flag(line: str) -> bool:
        words = line.split()
        rest = [w for w in words[1:] if w.lower() not in path] if words else []
        return bool(rest) and rest[0].startswith("-") and rest[0] not in ("-", "--", *mode)

    return all(leads_with_flag(u) for u in lines) and not all(
        leads_with_flag(u) for u in command.usage
    )


def _spelling(name: str, usage: str) -> str:
    """How the usage spells an operand, when that says more than its name: ``name[:tag|@digest]``."""
    first = name.split("|")[0]
    suffix = re.search(rf"(?<![\w<]){re.escape(first)}>?((?:\[[:@.,=/#][^\[\]]*\])+)", usage)
    if suffix:
        return (first + suffix.group(1)).lower()
    parts = [p.strip("<> ") for p in name.split("|")]
    if len(parts) > 1:
        return " or ".join(parts).replace("-", " ").lower()  # "number or url"
    return ""


def usage_split(command: Command) -> int | None:
    """How many positionals stand before a ``[--]`` in the usage (vcs log), or before a ``[-- ...]``
    that hands what follows on (``test [TESTNAME] [-- [ARGS]...]``), or None."""
    for line in command.usage:
        if command.path and command.path[-1] not in line.split()[1:4]:
            continue  # vcs show -h also prints vcs log's usage: another command's grammar
        if "[--]" in line or " -- " in line or "[-- " in line:
            head = re.split(r"\[--\]| -- |\[-- ", line, maxsplit=1)[0]
            # a placeholder, not part of a flag: vcs commit's "--pathspec-from-file" names no <pathspec>
            # counted as operands() counts them: a placeholder for options (<rev-opts>) is none
            words = {w.lower() for w in command.path}
            return sum(
                1
                for p in command.positionals
                if p.name.strip("<>[]. ").lower() not in words
                and not is_not_operand(p.name)
                and re.search(rf"(?<![\w-]){re.escape(p.name.split('|')[0])}(?![\w-])", head)
            )
    return None
