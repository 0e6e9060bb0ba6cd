"""Read a tldr-pages page into the tool's command lines: pure text in, ``Line``s out (issue 26).

A page is ``# title`` (``git log``: the page of ``git``'s subcommand ``log``) and examples, each a
sentence (never read) and one command line in backticks. tldr's syntax: ``{{placeholder}}`` for
what a person fills in, ``{{[-s|--long]}}`` for spellings of one flag (folded into the long one;
``{{[ls|list]}}`` of a subcommand into the longest). Only command lines whose command word is the
page's program count (``cat f | jq .`` counts for ``jq``; ``tldr docker container run``, an alias
page's pointer, does not); ``sudo``, ``env`` and ``time`` prefixes are dropped.

What is kept of a line: the subcommand path, each flag's spelling, and each operand's kind and
name read from its placeholder (``path/to/file`` -> file "file"; ``{{100}}`` -> number, no name).
A literal word the example writes (``git add .``) is an operand of kind ``literal`` named by the
word when it is a short single word; a placeholder's example value is never kept.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Callable

from wrapgen.model.usage import UsedOperand
from wrapgen.usage.cmdline import strip_prefix, tool_word
from wrapgen.usage.kinds import bundled_option_tools, placeholder_operand, variable_operand
from wrapgen.usage.shape import Line, Word, split_path

__all__ = ["Page", "read_page", "page_title", "ExampleSkip"]

_TITLE = re.compile(r"^#\s+(.+?)\s*$", re.M)
_EXAMPLE = re.compile(r"^`(.+)`\s*$")
# {{...}}; triple braces ({{{a: 1}}}) keep the inner brace
_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}(?!\})")
_SENTINEL = re.compile("\ue000([0-9]+)\ue001")
_SUBSTITUTION = re.compile(r"\$\([^()]*\)|`[^`]*`")
_VARIABLE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
_ALTERNATIVES = re.compile(r"^\[([^\[\]]*\|[^\[\]]*)\]$")
# one spelling of a flag, alone (no value, no second word)
_ONE_FLAG = re.compile(r"--?[A-Za-z0-9][\w-]*")
# "{{start|stop|status}}": plain words, each shaped like a subcommand
_CHOICES = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\|[a-z][a-z0-9]*(?:-[a-z0-9]+)*)+")
# a literal short enough to be syntax, not prose: one word, no spaces
_LITERAL = re.compile(r"^[A-Za-z0-9._/:@+,=%^~-]{1,32}$")
_SEPARATORS = {"|", "||", "&&", ";", "&", "|&", "(", ")", ";;"}
_REDIRECTS = {">", ">>", "<", "<<", "<<<", ">&", "&>", "&>>", ">|", "<>"}


@dataclass(frozen=True)
class ExampleSkip:
    """An example line that could not be read, and why."""

    line: int
    reason: str


@dataclass(frozen=True)
class Page:
    """A page's program, the subcommand path its title names, and its command lines."""

    tool: str
    title_path: tuple[str, ...]
    lines: tuple[Line, ...]
    skipped: tuple[ExampleSkip, ...] = ()


def page_title(text: str) -> tuple[str, ...]:
    """The words of the page's title (``# git log`` -> ("git", "log")), () if it has none."""
    match = _TITLE.search(text)
    return tuple(match.group(1).split()) if match else ()


def _fold(alternatives: str) -> str:
    """One spelling for ``-s|--long``: the long flag (the longest), or the longest word."""
    options = [a.strip() for a in alternatives.split("|") if a.strip()]
    if not options:
        return ""
    dashed = [a for a in options if a.startswith("--")]
    pool = dashed or options
    return max(pool, key=lambda a: (len(a.split()[0]), -pool.index(a)))


def _tokens(command: str) -> tuple[list[str], list[str]]:
    """(shell words with each placeholder replaced by a sentinel, the placeholders' texts)."""
    holders: list[str] = []

    def hold(match: re.Match) -> str:
        holders.append(match.group(1) if match.re is _PLACEHOLDER else "")
        return f"\ue000{len(holders) - 1}\ue001"

    text = _PLACEHOLDER.sub(hold, command)
    text = _SUBSTITUTION.sub(hold, text)
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    return list(lexer), holders


def _segments(tokens: list[str]) -> list[list[str]]:
    """The simple commands of a line: split at pipes and lists, redirections dropped."""
    out: list[list[str]] = [[]]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in _SEPARATORS:
            out.append([])
        elif token in _REDIRECTS:
            i += 1  # and its target
        elif token.isdigit() and i + 1 < len(tokens) and tokens[i + 1] in _REDIRECTS:
            i += 2
        else:
            out[-1].append(token)
        i += 1
    return [segment for segment in out if segment]


def _parts(token: str, holders: list[str]) -> list[tuple[bool, str]]:
    """A token as (is_placeholder, text) parts."""
    parts: list[tuple[bool, str]] = []
    last = 0
    for match in _SENTINEL.finditer(token):
        if match.start() > last:
            parts.append((False, token[last : match.start()]))
        parts.append((True, holders[int(match.group(1))]))
        last = match.end()
    if last < len(token):
        parts.append((False, token[last:]))
    return parts


def _resolve(parts: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    """Alternatives folded into literal text: ``{{[-p|--patch]}}`` -> ``--patch``."""
    out: list[tuple[bool, str]] = []
    for is_holder, text in parts:
        alternatives = _ALTERNATIVES.match(text.strip()) if is_holder else None
        if alternatives:
            folded = _fold(alternatives.group(1))
            if out and not out[-1][0]:
                out[-1] = (False, out[-1][1] + folded)
            else:
                out.append((False, folded))
        elif out and not out[-1][0] and not is_holder:
            out[-1] = (False, out[-1][1] + text)
        else:
            out.append((is_holder, text))
    return out


def _literal(text: str) -> UsedOperand:
    variable = _VARIABLE.match(text)
    if variable:
        return variable_operand(variable.group(1))
    if _LITERAL.match(text):
        return UsedOperand("literal", text)
    return UsedOperand("text", "")


def _value(parts: list[tuple[bool, str]]) -> UsedOperand:
    for is_holder, text in parts:
        if is_holder:
            operand, repeated = placeholder_operand(text)
            return UsedOperand(operand.kind, operand.name, repeated)
    return _literal("".join(text for _, text in parts))


def _spelled(token: str, holders: list[str]) -> list[tuple[str, Word]] | None:
    """A token that is one placeholder of alternatives a model can settle: a flag's one-word
    spellings (``{{[-a|-autoskip]}}`` -> ``-autoskip|-a``, the usual fold first, the others after:
    a tool whose help knows only ``-a`` still finds it), or several subcommands where the path
    goes on (``{{start|stop|status}}`` -> the path word ``start|stop|status``, each of which the
    model may know). None for any other token."""
    parts = _parts(token, holders)
    if len(parts) != 1 or not parts[0][0]:
        return None
    text = parts[0][1].strip()
    alternatives = _ALTERNATIVES.match(text)
    if alternatives:
        options = [a.strip() for a in alternatives.group(1).split("|") if a.strip()]
        if len(options) > 1 and all(_ONE_FLAG.fullmatch(a) for a in options):
            first = _fold(alternatives.group(1))
            joined = "|".join([first, *(a for a in dict.fromkeys(options) if a != first)])
            return [("", Word("flag", joined))]
        return None
    if _CHOICES.fullmatch(text):
        return [(text, Word("operand", operand=UsedOperand("text", "")))]
    return None


def _words(token: str, holders: list[str]) -> list[tuple[str, Word]]:
    """The ``Word``s a token is, each with its bare literal text (or ""): one, or several where a
    folded spelling is several words (``{{[-lt|--listening --tcp]}}``, ``{{[ps|container ls]}}``)."""
    spelled = _spelled(token, holders)
    if spelled is not None:
        return spelled
    raw = _parts(token, holders)
    parts = _resolve(raw)
    if not parts:
        return []
    first_holder, first = parts[0]
    if len(parts) == 1 and not first_holder and len(first.split()) > 1 and any(h for h, _ in raw):
        # a folded spelling of several words; a quoted literal ('{print $5}', "a b") is one word
        return [w for piece in first.split() for w in _words(piece, holders)]
    if first_holder and first.lstrip().startswith("-"):
        # {{--arg name value ...}} or {{--tcp|--udp}}: flags written inside one placeholder
        head = first.split()[0]
        spelling = _fold(head) if "|" in head else head
        valued = UsedOperand("text") if len(first.split()) > 1 or len(parts) > 1 else None
        return [("", Word("flag", spelling, valued))]
    if not first_holder and first.startswith("-") and first != "-":
        if first == "--" and len(parts) == 1:
            return [("", Word("end"))]
        head, eq, rest = first.partition("=")
        if eq:
            value_parts = ([(False, rest)] if rest else []) + parts[1:]
            return [("", Word("flag", head.split()[0], _value(value_parts)))]
        if len(parts) > 1:  # -{{n}} or --x{{y}}: a flag glued to a value
            return [("", Word("flag", head.split()[0], _value(parts[1:])))]
        return [("", Word("flag", first))]
    if len(parts) == 1 and not first_holder:
        return [(first, Word("operand", operand=_literal(first)))]
    return [("", Word("operand", operand=_value(parts)))]


def _after_global_flags(words: list[tuple[str, Word]], known: Callable) -> int:
    """Where the path starts when global flags come first (``git -C DIR status``): past leading
    flags (each with the placeholder after it) to a word a subcommand page names; 0 otherwise."""
    i = 0
    while i < len(words) and words[i][1].kind == "flag":
        i += 1
        if words[i - 1][1].operand is None and i < len(words) and _is_value(words[i]):
            i += 1
    if 0 < i < len(words) and words[i][0] and known((words[i][0],)):
        return i
    return 0


def _is_value(word: tuple[str, Word]) -> bool:
    """A placeholder's operand (not a literal word): what a global flag before the path takes."""
    literal, item = word
    return item.kind == "operand" and not literal


def read_line(
    command: str,
    *,
    tool: str,
    known: Callable[[tuple[str, ...]], bool] = lambda path: False,
    where: str = "",
) -> list[Line]:
    """The tool's command lines in one example (several where a pipeline calls it twice)."""
    tokens, holders = _tokens(command)
    lines = []
    for segment in _segments(tokens):
        segment = strip_prefix(segment)
        if not segment or _SENTINEL.search(segment[0]) or tool_word(segment[0]) != tool:
            continue
        words = [word for token in segment[1:] for word in _words(token, holders)]
        bundled = tool in bundled_option_tools()
        start = 0 if bundled else _after_global_flags(words, known)
        bare = []
        for literal, _ in words[start:]:
            if not literal:
                break
            bare.append(literal)
        n = split_path(bare, known=known, shaped=not bundled)
        items: list[Word] = [word for _, word in words[:start]]
        if bundled and n == 0 and bare and bare[0].isalpha():
            items.extend(Word("flag", "-" + letter) for letter in dict.fromkeys(bare[0]))
            words = words[1:]
        else:
            words = words[start + n :]
        items.extend(word for _, word in words)
        lines.append(Line(tuple(bare[:n]), tuple(items), where))
    return lines


def read_page(
    text: str,
    *,
    known: Callable[[str, tuple[str, ...]], bool] = lambda tool, path: False,
) -> Page | None:
    """A page's command lines; None for a page with no title. ``known(tool, path)``: whether a
    page names that subcommand path of the tool (tldr has pages for subcommands)."""
    title = page_title(text)
    if not title:
        return None
    tool = title[0]
    lines: list[Line] = []
    skipped: list[ExampleSkip] = []
    for number, raw in enumerate(text.splitlines(), 1):
        match = _EXAMPLE.match(raw)
        if not match:
            continue
        try:
            lines.extend(read_line(match.group(1), tool=tool, known=lambda p: known(tool, p)))
        except ValueError as error:
            skipped.append(ExampleSkip(number, f"not a shell command line ({error})"))
    return Page(tool, title[1:], tuple(lines), tuple(skipped))
