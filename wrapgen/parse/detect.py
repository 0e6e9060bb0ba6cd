"""Which style a help text is written in: each style scores its tell-tale marks, best wins."""

from __future__ import annotations

import re

__all__ = ["detect_style", "scores"]

# Only the head of a long help is scored: the marks sit near the top or in headings.
_HEAD = 60_000

# (style, weight, pattern): every pattern is searched once (re.M), the weights add up.
_MARKS: tuple[tuple[str, int, re.Pattern], ...] = tuple(
    (style, weight, re.compile(pattern, re.MULTILINE))
    for style, weight, pattern in (
        # roff source or a rendered man page
        ("man", 10, r"^\.(?:TH|SH|Dd|Sh)\b"),
        ("man", 4, r"^NAME$"),
        ("man", 4, r"^SYNOPSIS$"),
        ("man", 2, r"^DESCRIPTION$"),
        # git's parse-options and git help -a
        ("git", 6, r"^usage: git\b"),
        ("git", 4, r"^ {3,}or: "),
        ("git", 6, r"^See 'git help <command>'"),
        ("git", 1, r"^ {4}-[A-Za-z], --[\w-]+"),
        # argparse
        (
            "argparse",
            5,
            r"^(?:options|optional arguments|[Pp]ositional arguments):$",
        ),  # httpie: "Positional"
        ("argparse", 2, r"^usage:(?: |$)"),  # httpie: "usage:" alone, the line below it
        ("argparse", 3, r"show this help message and exit"),
        # cobra and its custom templates (gh, kubectl, docker)
        ("cobra", 5, r"^(?:Available Commands|Global Flags|Flags):$"),
        ("cobra", 5, r"^(?:FLAGS|INHERITED FLAGS|CORE COMMANDS)$"),
        (
            "cobra",
            4,
            r"\[command\] --help\" for more information|COMMAND --help' for more information",
        ),
        ("cobra", 3, r"^Use \"[\w-]+ <command> --help\""),
        (
            "cobra",
            1,
            r"^ +(?:-\w, )?--[\w-]+ (?:string|int|strings|stringArray|duration|uint|float64|list)  ",
        ),
        ("cobra", 4, r"^ {4}(?:-\w, )?--[\w-]+=(?:false|true|''|\[\]|-?\d+):$"),
        ("cobra", 2, r"^Aliases:$"),
        # clap 2/3 and 4
        ("clap", 6, r"\[possible values: "),
        ("clap", 4, r"^(?:USAGE|FLAGS|OPTIONS|ARGS|SUBCOMMANDS):$"),
        ("clap", 3, r"^Arguments:$"),
        (
            "clap",
            3,
            r"Print (?:help|version)(?: information)?(?: \(see (?:more with '--help'|a summary with '-h')\))?$",
        ),
        ("clap", 2, r"^ +-\w, --[\w-]+ <[A-Z_]+>"),
        ("clap", 1, r"^ +(?:-\w, )?--[\w-]+\.\.\."),
        # click
        ("click", 6, r"Show this message and exit\.$"),
        ("click", 2, r"^Usage: \S+.*\[OPTIONS\]"),
        ("click", 2, r"--[\w-]+ / --[\w-]+"),
        # docopt
        ("docopt", 4, r"^ +\S+ \(-h \| --help\)$"),
        ("docopt", 1, r"^ +-\w --[\w-]+ {2,}"),  # systemd prints "-h --help" too
        ("docopt", 2, r"^Usage:$"),
        ("docopt", 1, r"\[default: [^\]]+\]\.?$"),
        # GNU getopt
        ("gnu", 4, r"\[OPTION\]\.\.\.|\[OPTION\.\.\.\]"),
        ("gnu", 4, r"^Mandatory arguments to long options"),
        ("gnu", 3, r"display this help and exit"),
        ("gnu", 2, r"^Report bugs to"),
        ("gnu", 2, r"^ +-\w, --[\w-]+\[=[A-Z]+\]"),
        # Node's frameworks (wrapgen/parse/styles/commander.py, yargs.py, oclif.py, npm.py)
        ("commander", 6, r"^ +-h, --help +(?:output usage information|display help for command)$"),
        ("commander", 3, r"^ {2}Usage: \S+(?: \[options\])?"),
        ("yarn", 6, r"^ {4}- [a-z][\w-]*(?: / [A-Za-z][\w-]*)?$"),
        ("yarn", 10, r"^ +Usage: yarn\b|^ +Visit https://yarnpkg\.com/"),
        (
            "yargs",
            6,
            r"  \[(?:boolean|string|number|array|count)\](?: \[(?:required|default: [^\]]*)\])?$",
        ),
        ("yargs", 4, r"\[choices: \"|^Positionals:$"),
        ("oclif", 6, r"^TOPICS$"),
        ("oclif", 4, r"^USAGE\n {2}\$ \S+"),
        ("oclif", 5, r"^ +(?:-\w, )?--[\w-]+=<(?:value|option)>"),
        ("npm", 8, r'^Run "npm help [\w-]+" for more info$'),
        ("npm", 6, r"^npm <command>$"),
        # Symfony Console and cleo (composer, artisan, poetry)
        ("symfony", 8, r"When no command is given display help for the list command"),
        ("symfony", 4, r"^ +-v\|vv\|vvv, --verbose"),
        (
            "symfony",
            3,
            r"^Usage:\n +(?:command \[options\] \[arguments\]|list \[options\] \[--\] \[<namespace>\])$",
        ),
        ("symfony", 2, r"^Available commands:$"),
        # kingpin (amtool, promtool)
        ("kingpin", 10, r"Show context-sensitive help \(also try --help-long\s+and\s+--help-man\)"),
        ("kingpin", 4, r"^usage: \S+(?: [\w.-]+)* \[<flags>\]"),
        ("kingpin", 3, r"<command> \[<args> \.\.\.\]$"),
        # Abseil flags (absl-py, python-gflags): "--[no]name: ...", "(default: '...')"
        ("absl", 6, r"^ +--\[no\][\w-]+: "),
        ("absl", 6, r"^Try --helpfull to get a list of all flags\.$"),
        ("absl", 4, r"^ +Flags for [\w-]+:$"),
        ("absl", 3, r"^ +\(default: '[^'\n]*'\)$"),
        ("absl", 2, r"^ +--[\w-]+: <[^>\n]+>: "),
        # urfave/cli (runc, mender-artifact, ctr)
        ("urfave", 6, r"^USAGE:\n +\S+.*\[(?:global )?options\] command \[command options\]"),
        ("urfave", 6, r"Shows a list of commands or help for one command"),
        ("urfave", 4, r"^NAME:\n {3}\S+(?: [\w.-]+)* - "),
        ("urfave", 3, r"^GLOBAL OPTIONS:$"),
        ("urfave", 2, r"^ {3}--help, -h +show help"),
    )
)


def _longest_run(items, literal_op) -> str:
    best, run = "", []
    for op, value in list(items) + [(None, None)]:
        if op is literal_op:
            run.append(chr(value))
            continue
        if len(run) > len(best):
            best = "".join(run)
        run = []
    return best


def _required_literals(pattern: re.Pattern) -> tuple[str, ...]:
    """Plain strings one of which every match of ``pattern`` contains (() when none of 3 or more
    characters is sure): substring tests that rule the pattern out are far cheaper than its search.
    The longest run of literal characters of the pattern's top level, else one per alternative of a
    top-level group of alternatives (``(?:USAGE|FLAGS|OPTIONS):``)."""
    if pattern.flags & re.IGNORECASE:
        return ()
    try:
        from re import _parser  # (the standard library's own parser, 3.11+)

        items = list(_parser.parse(pattern.pattern, pattern.flags))
        run = _longest_run(items, _parser.LITERAL)
        if len(run) >= 3:
            return (run,)
        # (a non-capturing group of alternatives is inlined: its BRANCH sits at the top level)
        branches = [value[1] for op, value in items if op is _parser.BRANCH]
        if len(branches) != 1:
            return ()
        alternatives = tuple(_longest_run(list(b), _parser.LITERAL) for b in branches[0])
    except Exception:  # noqa: BLE001 - another Python: every pattern is simply searched
        return ()
    return alternatives if alternatives and all(len(a) >= 3 for a in alternatives) else ()


# Each mark's required literals: where the text holds none of them, the mark cannot match.
_LITERALS: tuple[tuple[str, ...], ...] = tuple(
    _required_literals(pattern) for _style, _weight, pattern in _MARKS
)


def _at_line_starts(pattern: re.Pattern) -> re.Pattern | None:
    """For a mark that is ``^`` then the rest, under re.M (``^ +-\\w, --...``, no top-level ``|``, no
    lookbehind): the same mark with the ``^`` spelled as the newline before the line, to be searched
    in the text with a newline put in front. It matches there exactly where the mark matches the text
    (``^`` under re.M is the start or just after a newline), but the search tries only the newlines (a
    literal first character is found by a scan), not every position of the text. None for the others."""
    source = pattern.pattern
    if not source.startswith("^") or not pattern.flags & re.MULTILINE or "(?<" in source:
        return None
    depth, escaped, in_class = 0, False, False
    for char in source:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return None
    return re.compile("\n" + source[1:], pattern.flags)


_LINE_MARKS: tuple[re.Pattern | None, ...] = tuple(
    _at_line_starts(pattern) for _style, _weight, pattern in _MARKS
)


# On a tie the earlier style wins: the more specific ones come first.
_ORDER = (
    "man",
    "git",
    "symfony",
    "kingpin",
    "urfave",
    "absl",
    "npm",
    "yarn",
    "oclif",
    "yargs",
    "commander",
    "cobra",
    "clap",
    "click",
    "argparse",
    "docopt",
    "gnu",
)


def _marked_lines(text: str) -> str:
    """The head of the text plus every shallow line: marks live in headings and entry lines,
    so long indented descriptions (rg's run to 60 KB) need not be searched."""
    head, rest = text[:8_000], text[8_000:_HEAD]
    shallow = [line for line in rest.split("\n") if line[:9].strip() or "Print help" in line]
    return head + "\n" + "\n".join(shallow)


def scores(text: str) -> dict[str, int]:
    """Each style's score for this (cleaned) text."""
    head = _marked_lines(text)
    lines = "\n" + head  # (for the marks of _LINE_MARKS)
    out = dict.fromkeys(_ORDER, 0)
    for (style, weight, pattern), literals, at_lines in zip(_MARKS, _LITERALS, _LINE_MARKS):
        if _mark_found((weight, literals, pattern, at_lines), head, lines):
            out[style] += weight
    return out


_ROFF = re.compile(r"^\.(?:TH|SH|Dd|Sh|Dt)\b", re.MULTILINE)

# Each style's marks, heaviest first, as (weight, literals, pattern, pattern at line starts), and the
# most it can score: what lets ``detect_style`` stop scoring a style that can no longer win.
_STYLE_MARKS: dict[str, tuple[tuple[int, tuple[str, ...], re.Pattern, re.Pattern | None], ...]] = {
    name: tuple(
        sorted(
            (
                (weight, literals, pattern, at_lines)
                for (style, weight, pattern), literals, at_lines in zip(
                    _MARKS, _LITERALS, _LINE_MARKS
                )
                if style == name
            ),
            key=lambda mark: -mark[0],
        )
    )
    for name in _ORDER
}
_MOST = {name: sum(mark[0] for mark in marks) for name, marks in _STYLE_MARKS.items()}
# The styles in the order they are scored: the one with the heaviest mark first, as a page that has such
# a mark rules most others out at once (the order only saves time: every order gives the same winner).
_FIRST_SCORED = tuple(
    sorted(_ORDER, key=lambda name: -(_STYLE_MARKS[name][0][0] if _STYLE_MARKS[name] else 0))
)
# ... and with the style of the last page first
_SCORING_ORDER = {
    first: (first, *(name for name in _FIRST_SCORED if name != first)) for first in _ORDER
}
_RANK = {name: -index for index, name in enumerate(_ORDER)}  # (a higher rank wins a tie)


def _mark_found(mark, head: str, lines: str) -> bool:
    """Whether one mark matches, the way ``scores`` tests it."""
    _weight, literals, pattern, at_lines = mark
    if literals and not (
        literals[0] in head if len(literals) == 1 else any(literal in head for literal in literals)
    ):
        return False
    return bool(at_lines.search(lines) if at_lines is not None else pattern.search(head))


class _LastStyle:
    """The style the last page was detected as: scored first, since a tool's pages share one (a crawl
    reads them one after another), and when it wins early the other styles stop after a mark or
    two. Only the order of scoring depends on it, never the winner, so it is safe to share."""

    name = ""

    @classmethod
    def cache_clear(cls) -> None:  # (what clears the parsers' memos forgets it too)
        cls.name = ""


def _winner(text: str) -> str:
    """The style ``max(scores(text))`` picks (ties to the earlier in ``_ORDER``), or "" when none
    scores 3. A style is scored only while it can still beat the best so far: its marks' weights
    bound what it can reach, so most styles stop after their heaviest mark."""
    head = _marked_lines(text)
    lines = "\n" + head  # (for the marks of _LINE_MARKS)
    # (score, rank) of the best so far; (2, 1) stands for "nothing scores 3": no style ties with it
    best, best_key = "", (2, 1)
    for name in _SCORING_ORDER.get(_LastStyle.name, _FIRST_SCORED):
        rank = _RANK[name]
        if (_MOST[name], rank) <= best_key:
            continue
        score, left = 0, _MOST[name]
        for mark in _STYLE_MARKS[name]:
            left -= mark[0]
            if _mark_found(mark, head, lines):
                score += mark[0]
            if (score + left, rank) <= best_key:
                break  # it cannot win any more
        else:
            best, best_key = name, (score, rank)
    return best


def detect_style(text: str) -> str:
    """The best-scoring style; ``gnu`` when no style scores at least 3."""
    if _ROFF.search(text[:4_000]):
        return "man"  # roff source says so in its first lines; no need to score it
    best = _winner(text) or "gnu"
    _LastStyle.name = best
    return best
