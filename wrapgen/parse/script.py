"""Internal tools that are shell scripts: read the dispatch and the usage text, never run the script.

A shell script's subcommands are the arms of its ``case "$1" in`` dispatch; its flags are the
dash-patterns of the option loops reached from each arm (``--env) env="$2"; shift 2 ;;``) and its
``getopts`` strings; summaries, positionals and flag descriptions come from the hand-written usage
text (a heredoc or ``echo`` lines in ``usage()``). Reading is static on purpose: probing
``deploy --help`` of a script that does not handle ``--help`` would run the deploy.

bashlex 0.18's parser does not implement ``case`` (idank/bashlex#91), so this module walks
bashlex's *tokenizer* output, which knows quoting, reserved words and ``;;``. Heredoc bodies are cut
out before tokenizing (the tokenizer alone would read them as words, and an apostrophe in help text
would break it) and kept as text.

``read_shell_script(text, *, prog)`` is pure; ``discover_script(path)`` reads the file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from wrapgen.errors import HelpUnreadableError
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.parse.usage import usage_positionals

__all__ = [
    "is_shell_script",
    "is_launcher",
    "hands_over",
    "launched_paths",
    "launcher_prelude_problem",
    "shebang_interpreter",
    "read_shell_script",
    "discover_script",
    "SHELLS",
]

# The shells whose scripts are read statically: wrapgen/knowledge/data/shells.json, table script_shells.
SHELLS = tuple(sorted(load("shells")["script_shells"].names))
_PARSER = "script"

# A word naming the first positional argument, or a variable copied from it.
_FIRST_ARG = re.compile(r"""^["']?\$\{?1(?:[:]?[-=?+][^}]*)?\}?["']?$""")
_ASSIGN_FROM_FIRST = re.compile(r"""^(\w+)=["']?\$\{?1(?:[:]?[-=?+][^}]*)?\}?["']?$""")
_VAR_WORD = re.compile(r"""^["']?\$\{?(\w+)\}?["']?$""")
_HEREDOC_START = re.compile(
    r"""<<(?!<)(-?)\s*          # << or <<- (not a here-string <<<)
        (['"]?)([A-Za-z_]\w*)\2  # the delimiter, maybe quoted
    """,
    re.VERBOSE,
)
_USAGE_VARIABLE = re.compile(r"usage|help", re.IGNORECASE)  # usage=, USAGE_TEXT=, help_text=
_USAGE_FUNCS = (
    "usage",
    "help",
    "show_help",
    "print_help",
    "print_usage",
    "show_usage",
    "_usage",
    "die_usage",
)
# A listing line of the usage text: "  deploy SERVICE [--env ENV]    Deploy a service".
_LISTING = re.compile(
    r"""^\s{1,12}(?P<name>[a-z][\w-]*(?:\|[a-z][\w-]*)*)  # the subcommand (with |aliases)
        (?P<spec>(?:\ (?!\ )\S+)*)                         # its arguments, single-spaced
        (?:\s{2,}|\t+|\s+-\s+)(?P<summary>\S.*)$           # two spaces (or " - ") then the summary
    """,
    re.VERBOSE,
)
_FLAG_LINE = re.compile(
    r"""^\s+(?P<spellings>-[\w-]+(?:[ =][A-Z<][\w<>-]*)?(?:,\s*-[\w-]+(?:[ =][A-Z<][\w<>-]*)?)*)
        (?:\s{2,}|\t+)(?P<description>\S.*)$""",
    re.VERBOSE,
)


def shebang_interpreter(path: str | os.PathLike) -> str:
    """The interpreter a script's shebang names (``bash`` for ``#!/usr/bin/env bash``), or ``""``."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(256)
    except OSError:
        return ""
    if not first.startswith(b"#!"):
        return ""
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return ""
    name = os.path.basename(words[0])
    if name == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        name = os.path.basename(rest[0]) if rest else ""
    return re.sub(r"[\d.]+$", "", name)


def is_shell_script(path: str | os.PathLike) -> bool:
    return shebang_interpreter(path) in SHELLS


# A line that hands every argument on to another program: pyenv's shims
# (`exec "/root/.pyenv/libexec/pyenv" exec "$program" "$@"`), nix and snap wrappers.
_EXEC_ALL_ARGS = re.compile(
    r"""
    ^\s*(?:\w+=\S*\s+)*         # maybe variables set for it: PYTHONPATH=lib exec ...
    exec\s+                  # the script becomes the program
    (?:[^#\n]*\s)?            # the program and its leading arguments
    "\$(?:@|\{@\})"            # "$@" or "${@}": every argument, as given
    """,
    re.VERBOSE | re.MULTILINE,
)


def is_launcher(text: str, *, hand_over: bool = True) -> bool:
    """Whether a shell script only launches another program with all its arguments (pyenv's
    shims, wrappers that set a variable and ``exec`` the real binary): no dispatch, no option
    loop of its own, an ``exec ... "$@"`` as its last statement, and nothing before it but the
    statements of ``launcher_prelude_problem``'s allowlist. The program it starts reads ``--help``
    itself, so such a script is probed (in the probe sandbox) like a binary instead of read; any
    other script is read statically, since probing it runs its lines (``rm "$HOME/..."``).
    ``hand_over``: a hand-over script (``hands_over``), whose set-up may be anything, counts too;
    the caller allows it only where the probes run in the sandbox (its set-up then writes nothing)."""
    if not _EXEC_ALL_ARGS.search(text) or launcher_prelude_problem(text):
        return hand_over and hands_over(text)
    try:
        script = _tokenize(text)
        return _dispatch(script) is None and not _flags_reached(script, 0, len(script.tokens))
    except Exception:  # noqa: BLE001 - a script the tokenizer cannot read is read, not run
        return False


# -- hand-over scripts -------------------------------------------------------------------------------
#
# A launcher whose set-up is more than the allowlist below admits (an SDK's preamble: functions
# that look for a Python, loops over candidates, a `case` over a variable) is still a launcher when
# the script never reads its own arguments before handing all of them over: its last statement runs
# a program with "$@", and nowhere outside a function body (where $1 and "$@" are the function's
# own) does a word name an argument ($1..$9, $@, $*, $#), `shift`, `getopts` or `set --`. Its
# set-up then runs the same on every call, `--help` included, as a binary's start-up does, and the
# program it starts answers --help. Since the set-up may be any command (an `rm` line too), such a
# script is probed only where the probes run in the sandbox, whose file system is read-only.

# A word that names the script's arguments: $1..$9, $@, $*, $#, ${1...}, ${@...}, ${#}, ${#@}.
_ARG_REF = re.compile(r"\$(?:[@*#1-9]|\{(?:#?[@*1-9]|#\}))")
_ALL_ARGS_WORDS = frozenset({'"$@"', '"${@}"'})
# The statement separators of bashlex's tokenizer (a pipe ends the program's statement too).
_STATEMENT_ENDS = frozenset({"NEWLINE", "SEMICOLON", "AND_AND", "OR_OR", "BAR", "AMPERSAND"})
_EXITS = (("exit",), ("exit", "$?"), ("exit", '"$?"'))  # after the hand-over: its own status


def _statements_from_end(tokens: list[_Tok]) -> list[list[_Tok]]:
    """The script's statements, last first, as runs of tokens between separators."""
    out: list[list[_Tok]] = []
    current: list[_Tok] = []
    for tok in reversed(tokens):
        if tok.kind in _STATEMENT_ENDS:
            if current:
                out.append(current[::-1])
                current = []
        else:
            current.append(tok)
    if current:
        out.append(current[::-1])
    return out


def _hand_over(script: _Script) -> tuple[int, list[_Tok]] | None:
    """(index of its first token, the words) of the statement that hands every argument to a
    program, when it is the script's last one (an ``exit`` of its status may follow); else None."""
    statements = _statements_from_end(script.tokens)
    while statements and tuple(t.value for t in statements[0]) in _EXITS:
        statements = statements[1:]
    if not statements:
        return None
    last = statements[0]
    if any(t.kind not in ("WORD", "ASSIGNMENT_WORD") for t in last):
        return None  # `fi`, `done`, `}`: the hand-over is inside a construct, not the script's end
    if not any(t.value in _ALL_ARGS_WORDS for t in last):
        return None
    words = [t for t in last if t.kind == "WORD"]
    if words and words[0].value == "exec":
        words = [w for w in words[1:] if not w.value.startswith("-")]
    if not words or _ARG_REF.search(words[0].value):
        return None  # `exec "$@"`: the arguments are the program (probing it would run them)
    return script.tokens.index(last[0]), last


def hands_over(text: str) -> bool:
    """Whether a shell script is a hand-over launcher (see above): it never reads its arguments
    but to pass all of them, in its last statement, to the program that statement runs."""
    try:
        script = _tokenize(text)
    except Exception:  # noqa: BLE001 - a script the tokenizer cannot read is read, not run
        return False
    found = _hand_over(script)
    if found is None:
        return False
    start, _ = found
    inside = list(script.functions.values())
    for index, tok in enumerate(script.tokens[:start]):
        if any(lo <= index <= hi for lo, hi in inside):
            continue  # a function's own arguments
        if _ARG_REF.search(tok.value) or tok.value in ("shift", "getopts"):
            return False
        if tok.value == "set" and index + 1 < start:
            following = script.tokens[index + 1].value
            if following == "--" or not following.startswith(("-", "+")):
                return False  # `set -- ...`, `set a b`: the arguments replaced
    return True


# -- the launcher allowlist -------------------------------------------------------------------------
#
# A script is run as a launcher only when every statement before its final `exec ... "$@"` is one
# of these, each unable to run a program, write a file or read input:
#
#   comments and blank lines;  assignments (NAME=value ...);  export / readonly / unset / local /
#   declare / typeset of names and assignments;  cd DIR;  set and shopt with options only;  the
#   test builtins [ ... ], [[ ... ]], test ... (alone, after `if`/`elif`, joined with && or ||, or
#   negated with !);  true and :;  if / then / elif / else / fi around allowed statements;  more
#   `exec ... "$@"` lines inside an if (each ends the script).
#
# Command substitution only as $(dirname ...), $(basename ...), $(pwd), $(cd ... && pwd),
# $(readlink -f ...), $(realpath ...), $(uname ...): the launcher idioms for finding the program.
# Refused anywhere: backquotes, other $(...), $((...)), redirections (< > and here-documents),
# pipes, background &, subshells and groups ( ) { }, loops, case, functions, any other command.

_SUBST = re.compile(r"\$\(([^()`]*)\)")
_SAFE_SUBST = re.compile(
    r"""^\s*(?:
        (?:dirname|basename|realpath|uname)(?:\s+[^;&|<>]*)?   # path helpers and the machine name
      | pwd(?:\s+-[LP])?                                      # where we are
      | readlink\s+-[fem]\s+[^;&|<>]*                           # the real path of a link
      | cd\s+(?:-[LP]\s+)?[^;&|<>]+?\s*(?:&&|;)\s*pwd(?:\s+-[LP])?   # $(cd "$(dirname "$0")" && pwd)
    )\s*$""",
    re.VERBOSE,
)
_NAME = re.compile(r"^[A-Za-z_]\w*$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=")
_SET_OPTION = re.compile(
    r"^(?:[-+][a-zA-Z]+|[-+]o|errexit|nounset|pipefail|xtrace|noclobber|noglob|posix)$"
)
_DECLARERS = frozenset({"export", "readonly", "unset", "local", "declare", "typeset"})
_TESTS = frozenset({"[", "[[", "test"})
_SEPARATORS = frozenset({";", "&&", "||", "\n"})


def _strip_comment(line: str) -> str:
    """The line without its comment: a `#` outside quotes that starts a word (bash's rule)."""
    quote = ""
    escaped = False
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t;&|()"):
            return line[:index]
    return line


def _safe_substitutions(line: str) -> str | None:
    """The line with its allowed $(...) replaced by a plain word; None when one is not allowed."""
    if "`" in line or "$((" in line:
        return None
    while True:
        match = _SUBST.search(line)
        if match is None:
            break
        if not _SAFE_SUBST.match(match.group(1)):
            return None
        line = line[: match.start()] + "SUBST" + line[match.end() :]
    return None if "$(" in line else line


def _words(line: str) -> list[str] | None:
    import shlex

    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unclosed quote: not a script we run
        return None


def _statement_problem(words: list[str], depth: int) -> tuple[str, int, bool]:
    """(problem or "", the if-depth after it, whether it is an exec) for one simple statement."""
    while words and words[0] in ("then", "else", "!"):
        words = words[1:]
    if not words:
        return "", depth, False
    head = words[0]
    if head in ("if", "elif"):
        depth += head == "if"
        rest = words[1:]
        while rest and rest[0] == "!":
            rest = rest[1:]
        if not rest or rest[0] not in _TESTS:
            return f"`{head}` on something other than a test: {' '.join(words)}", depth, False
        return "", depth, False
    if head == "fi":
        return (
            ("" if depth > 0 and len(words) == 1 else "an unmatched or busy `fi`"),
            depth - 1,
            False,
        )
    index = 0
    while index < len(words) and _ASSIGNMENT.match(words[index]):
        index += 1
    if index == len(words):
        return "", depth, False
    command, args = words[index], words[index + 1 :]
    if command == "exec":
        program = next((a for a in args if not a.startswith("-")), "")
        if program in ("$@", "${@}", "$*", "${*}", "$1", "${1}"):
            return "an exec of the script's own arguments (probing it would run them)", depth, True
        return (
            ("" if "$@" in args or "${@}" in args else 'an exec that does not pass "$@"'),
            depth,
            True,
        )
    if index:
        return f"a command run with variables set for it: {command}", depth, False
    if command in _DECLARERS:
        ok = all(
            _NAME.match(a) or _ASSIGNMENT.match(a) or re.match(r"^-[a-zA-Z]+$", a) for a in args
        )
        return ("" if ok else f"`{command}` of something other than names"), depth, False
    if command == "cd":
        return ("" if len(args) <= 2 else "cd with more than a directory"), depth, False
    if command in ("set", "shopt"):
        ok = all(_SET_OPTION.match(a) or (command == "shopt" and _NAME.match(a)) for a in args)
        return (
            ("" if ok else f"`{command}` with more than options (it would change the arguments)"),
            depth,
            False,
        )
    if command in _TESTS or command in ("true", ":"):
        return "", depth, False
    return f"a command that launchers do not need: {command}", depth, False


def launched_paths(text: str) -> tuple[str, ...]:
    """The absolute paths a launcher's ``exec`` line names (its program, a script it hands over):
    the sandboxed probe binds their directories back, since it hides /tmp and /run."""
    import shlex

    found: list[str] = []
    lines = [line for line in text.splitlines() if _EXEC_ALL_ARGS.search(line)]
    if not lines and hands_over(text):
        found_over = _hand_over(_tokenize(text))
        lines = [" ".join(t.value for t in found_over[1])] if found_over else []
    for line in lines:
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        found += [w for w in words if w.startswith("/") and "$" not in w]
    return tuple(dict.fromkeys(found))


def launcher_prelude_problem(text: str) -> str:
    """Why the script is not a pure launcher (see the allowlist above), or "" when it is one."""
    lines = text.replace("\\\n", " ").splitlines()
    depth = 0
    last_exec = False  # whether the last statement so far is an exec at the top level
    for number, raw in enumerate(lines, start=1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        if "<<" in line:
            return f"line {number}: a here-document"
        line = _safe_substitutions(line)
        if line is None:
            return f"line {number}: a command substitution other than the path idioms"
        words = _words(line)
        if words is None:
            return f"line {number}: unbalanced quotes"
        statement: list[str] = []
        for word in [*words, "\n"]:
            if word in _SEPARATORS:
                problem, depth, is_exec = _statement_problem(statement, depth)
                if problem:
                    return f"line {number}: {problem}"
                if statement:
                    last_exec = is_exec and depth == 0
                statement = []
            elif word and word[0] in "<>|&(){}" and word not in ("{}",):
                return f"line {number}: {word!r} (a redirection, pipe, background job or group)"
            else:
                statement.append(word)
    if depth != 0:
        return "an if without its fi"
    if not last_exec:
        return 'the script does not end in exec ... "$@"'
    return ""


# -- tokens ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tok:
    kind: str  # bashlex tokentype name: WORD, CASE, IN, ESAC, RIGHT_PAREN, SEMI_SEMI, ...
    value: str
    pos: int


@dataclass
class _Script:
    tokens: list[_Tok]
    heredocs: list[tuple[int, str]]  # (position of the << in the source, body text)
    functions: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> token index range


def _cut_heredocs(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with heredoc bodies blanked (positions kept) and the bodies themselves."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    docs: list[tuple[int, str]] = []
    offset = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        pending = [] if line.lstrip().startswith("#") else list(_HEREDOC_START.finditer(line))
        offset_line = offset
        offset += len(line)
        i += 1
        for match in pending:
            strip_tabs, delim = match.group(1) == "-", match.group(3)
            body: list[str] = []
            while i < len(lines):
                candidate = lines[i].rstrip("\n")
                if (candidate.lstrip("\t") if strip_tabs else candidate) == delim:
                    break
                body.append(candidate.lstrip("\t") if strip_tabs else candidate)
                out.append("".join(" " if c != "\n" else c for c in lines[i]))
                offset += len(lines[i])
                i += 1
            docs.append((offset_line + match.start(), "\n".join(body)))
    return "".join(out), docs


def _tokenize(text: str) -> _Script:
    from bashlex import errors as bash_errors
    from bashlex import state, tokenizer

    cut, docs = _cut_heredocs(text)
    tokens: list[_Tok] = []
    try:
        for token in tokenizer.tokenizer(cut, parserstate=state.parserstate()):
            if token.ttype is None:
                break
            tokens.append(_Tok(token.ttype.name, str(token.value), token.lexpos))
    except (
        bash_errors.ParsingError,
        NotImplementedError,
        AssertionError,
        IndexError,
        ValueError,
    ) as error:
        raise HelpUnreadableError(
            f"cannot read the shell script: {error}",
            hint="check the script with `bash -n`; or list the commands in the recipe (`commands:`)",
        ) from None
    script = _Script(tokens, docs)
    script.functions = _functions(tokens)
    return script


def _matching(tokens: list[_Tok], start: int, opening: set[str], closing: set[str]) -> int:
    """Index of the token closing the construct opened at ``start`` (nesting counted)."""
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i].kind in opening:
            depth += 1
        elif tokens[i].kind in closing:
            depth -= 1
            if depth == 0:
                return i
    return len(tokens) - 1


def _functions(tokens: list[_Tok]) -> dict[str, tuple[int, int]]:
    """``name() { ... }`` and ``function name { ... }``: name -> (first, last) token index of the body."""
    found: dict[str, tuple[int, int]] = {}
    for i, tok in enumerate(tokens):
        name = None
        if (
            tok.kind in ("WORD", "FUNCTION")
            and i + 2 < len(tokens)
            and tokens[i + 1].kind == "LEFT_PAREN"
            and tokens[i + 2].kind == "RIGHT_PAREN"
        ):
            name, body = tok.value, i + 3
        elif tok.kind == "FUNCTION" and i + 1 < len(tokens):
            name, body = tokens[i + 1].value, i + 2
            if body + 1 < len(tokens) and tokens[body].kind == "LEFT_PAREN":
                body += 2
        if name is None:
            continue
        if tok.kind == "FUNCTION" and tokens[i + 1].kind == "LEFT_PAREN":
            continue
        while body < len(tokens) and tokens[body].kind == "NEWLINE":
            body += 1
        if body < len(tokens) and tokens[body].kind in ("LEFT_CURLY", "LEFT_PAREN"):
            pair = {"LEFT_CURLY": "RIGHT_CURLY", "LEFT_PAREN": "RIGHT_PAREN"}[tokens[body].kind]
            found.setdefault(name, (body, _matching(tokens, body, {tokens[body].kind}, {pair})))
    return found


# -- case statements -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Arm:
    patterns: tuple[str, ...]
    body: tuple[int, int]  # token index range [start, end)


@dataclass(frozen=True)
class _Case:
    subject: str
    start: int
    end: int
    arms: tuple[_Arm, ...]


def _cases(tokens: list[_Tok], lo: int = 0, hi: int | None = None) -> list[_Case]:
    """Every ``case`` statement in tokens[lo:hi], outermost first, nested ones too."""
    hi = len(tokens) if hi is None else hi
    found: list[_Case] = []
    i = lo
    while i < hi:
        if tokens[i].kind == "CASE" and i + 2 < hi:
            end = _matching(tokens, i, {"CASE"}, {"ESAC"})
            found.append(_Case(tokens[i + 1].value, i, end, _arms(tokens, i + 2, end)))
        i += 1
    return found


def _arms(tokens: list[_Tok], start: int, end: int) -> tuple[_Arm, ...]:
    arms: list[_Arm] = []
    i = start + 1 if tokens[start].kind == "IN" else start
    while i < end:
        while i < end and tokens[i].kind in ("NEWLINE", "LEFT_PAREN"):
            i += 1
        patterns: list[str] = []
        while i < end and tokens[i].kind != "RIGHT_PAREN":
            if tokens[i].kind not in ("BAR", "NEWLINE"):
                patterns.append(tokens[i].value)
            i += 1
        i += 1
        body_start, depth = i, 0
        while i < end:
            kind = tokens[i].kind
            if kind == "CASE":
                depth += 1
            elif kind == "ESAC":
                depth -= 1
            elif kind in ("SEMI_SEMI", "SEMI_AND", "SEMI_SEMI_AND") and depth == 0:
                break
            i += 1
        if patterns:
            arms.append(_Arm(tuple(_unquote(p) for p in patterns), (body_start, i)))
        i += 1
    return tuple(arms)


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def _is_literal(pattern: str) -> bool:
    return bool(pattern) and not re.search(r"[*?\[\]$]", pattern)


def _first_arg_vars(tokens: list[_Tok]) -> set[str]:
    """Variables assigned from ``$1``: ``cmd="${1:-}"`` makes ``case "$cmd" in`` the dispatch too."""
    names = set()
    for tok in tokens:
        match = (
            _ASSIGN_FROM_FIRST.match(tok.value) if tok.kind in ("ASSIGNMENT_WORD", "WORD") else None
        )
        if match:
            names.add(match.group(1))
    return names


def _is_dispatch_subject(subject: str, first_vars: set[str]) -> bool:
    if _FIRST_ARG.match(subject):
        return True
    match = _VAR_WORD.match(subject)
    return bool(match and match.group(1) in first_vars)


def _word_arms(case: _Case) -> list[_Arm]:
    return [
        arm
        for arm in case.arms
        if any(_is_literal(p) and not p.startswith("-") for p in arm.patterns)
    ]


def _dispatch(script: _Script) -> _Case | None:
    """The ``case`` over the first argument with the most word (not dash) arms."""
    first_vars = _first_arg_vars(script.tokens)
    candidates = [
        c
        for c in _cases(script.tokens)
        if _is_dispatch_subject(c.subject, first_vars) and _word_arms(c)
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda c: (len(_word_arms(c)), -c.start))


# -- flags -------------------------------------------------------------------------------------------


def _reached(
    script: _Script, lo: int, hi: int, seen: set[str] | None = None
) -> list[tuple[int, int]]:
    """Token ranges that run from tokens[lo:hi]: the range itself plus the functions it calls."""
    seen = set() if seen is None else seen
    ranges = [(lo, hi)]
    for tok in script.tokens[lo:hi]:
        if tok.kind == "WORD" and tok.value in script.functions and tok.value not in seen:
            seen.add(tok.value)
            f_lo, f_hi = script.functions[tok.value]
            if tok.value not in _USAGE_FUNCS:
                ranges += _reached(script, f_lo, f_hi, seen)
    return ranges


def _takes_value(tokens: list[_Tok], body: tuple[int, int]) -> bool:
    words = [t.value for t in tokens[body[0] : body[1]]]
    text = " ".join(words)
    return bool(re.search(r"\$\{?2\b|\bshift 2\b|\$OPTARG|\$\{OPTARG", text))


def _assigned_var(tokens: list[_Tok], body: tuple[int, int]) -> str:
    for tok in tokens[body[0] : body[1]]:
        if tok.kind == "ASSIGNMENT_WORD" and re.search(r"\$\{?(2|OPTARG)\b", tok.value):
            return tok.value.split("=", 1)[0]
    return ""


def _flags_from_case(tokens: list[_Tok], case: _Case) -> list[Flag]:
    flags: list[Flag] = []
    for arm in case.arms:
        dashed = [p for p in arm.patterns if p.startswith("-") and p not in ("-", "--")]
        if not dashed:
            continue
        takes = _takes_value(tokens, arm.body) or any(p.endswith("=*") for p in dashed)
        spellings = []
        for p in dashed:
            p = p[:-2] if p.endswith("=*") else p
            if _is_literal(p) and p not in spellings:
                spellings.append(p)
        if not spellings:
            continue
        longs = [s for s in spellings if s.startswith("--")]
        shorts = [s for s in spellings if not s.startswith("--") and len(s) == 2]
        others = [s for s in spellings if s not in longs[:1] and s not in shorts[:1]]
        var = _assigned_var(tokens, arm.body)
        flags.append(
            Flag(
                long=longs[0] if longs else None,
                short=shorts[0] if shorts else None,
                aliases=tuple(others),
                takes_value=takes,
                value_name=(var.upper() or "VALUE") if takes else None,
                type="string" if takes else "boolean",
            )
        )
    return flags


def _flags_from_getopts(tokens: list[_Tok], lo: int, hi: int) -> list[Flag]:
    """``getopts "e:nv" opt``: one short flag per letter, ``:`` after a letter means it takes a value."""
    flags: list[Flag] = []
    for i in range(lo, min(hi, len(tokens)) - 1):
        if tokens[i].value == "getopts":
            spec = _unquote(tokens[i + 1].value).lstrip(":")
            for j, letter in enumerate(spec):
                if letter == ":":
                    continue
                takes = j + 1 < len(spec) and spec[j + 1] == ":"
                flags.append(
                    Flag(
                        short=f"-{letter}",
                        takes_value=takes,
                        value_name="VALUE" if takes else None,
                        type="string" if takes else "boolean",
                    )
                )
    return flags


def _flags_reached(
    script: _Script, lo: int, hi: int, *, exclude: tuple[int, int] | None = None
) -> list[Flag]:
    flags: dict[str, Flag] = {}
    for r_lo, r_hi in _reached(script, lo, hi):
        for case in _cases(script.tokens, r_lo, r_hi):
            if exclude and exclude[0] <= case.start <= exclude[1]:
                continue
            for flag in _flags_from_case(script.tokens, case):
                flags.setdefault(flag.spellings[0], flag)
        for flag in _flags_from_getopts(script.tokens, r_lo, r_hi):
            flags.setdefault(flag.spellings[0], flag)
    return list(flags.values())


def _ends_options(script: _Script, lo: int, hi: int) -> bool:
    """Whether the code reached from tokens[lo:hi] reads ``--`` as the end of its options: an option
    loop with a ``--)`` arm, or ``getopts`` (which stops at ``--`` itself). Without either, a ``--``
    after the subcommand reaches it as a word (``deploy -- api`` deploys a service named ``--``)."""
    return any(_ends_in(script, r_lo, r_hi) for r_lo, r_hi in _reached(script, lo, hi))


def _ends_in(script: _Script, lo: int, hi: int, *, outside=()) -> bool:
    """``_ends_options`` of tokens[lo:hi] alone, leaving out what starts in the ``outside`` ranges."""
    for case in _cases(script.tokens, lo, hi):
        if not any(a <= case.start <= b for a, b in outside) and any(
            "--" in arm.patterns for arm in case.arms
        ):
            return True
    return any(
        t.value == "getopts" and not any(a <= i <= b for a, b in outside)
        for i, t in enumerate(script.tokens[lo:hi], start=lo)
    )


# -- the usage text --------------------------------------------------------------------------------


def _usage_text(script: _Script, text: str) -> str:
    """The text ``usage()`` (or a sibling) prints: its heredocs, else its echo/printf strings."""
    for name in _USAGE_FUNCS:
        if name not in script.functions:
            continue
        lo, hi = script.functions[name]
        start, end = script.tokens[lo].pos, script.tokens[hi].pos
        docs = [body for pos, body in script.heredocs if start <= pos <= end]
        if docs:
            return "\n".join(docs)
        lines: list[str] = []
        toks = script.tokens[lo:hi]
        for i, tok in enumerate(toks):
            if tok.kind == "WORD" and tok.value in ("echo", "printf"):
                j = i + 1
                while j < len(toks) and toks[j].value.startswith("-") and tok.value == "echo":
                    j += 1
                if j < len(toks) and toks[j].kind == "WORD":
                    line = _unquote(toks[j].value)
                    lines.append(line.replace("\\n", "\n").replace("\\t", "    ").rstrip("\n"))
        if lines:
            return "\n".join(lines)
    # No usage function: a usage text held in a variable (`usage="Usage: $0 [OPTION]... FILE..."`,
    # printed with `echo "$usage"`), else a heredoc printed at the top level (`cat <<EOF`).
    assigned = _assigned_usage(script)
    if assigned:
        return assigned
    return script.heredocs[0][1] if script.heredocs else _leading_comment(text)


def _assigned_usage(script: _Script) -> str:
    """The value of the first variable named like a usage or help text whose value opens with
    ``Usage:``: a script that prints its help from a variable keeps it there."""
    for tok in script.tokens:
        if tok.kind != "ASSIGNMENT_WORD" or "=" not in tok.value:
            continue
        name, value = tok.value.split("=", 1)
        value = _unquote(value)
        if _USAGE_VARIABLE.search(name) and re.match(r"\s*usage:", value, re.IGNORECASE):
            return value.strip("\n")
    return ""


def _leading_comment(text: str) -> str:
    lines = []
    for line in text.splitlines()[1:]:
        if not line.startswith("#"):
            break
        lines.append(line[1:].removeprefix(" "))
    return "\n".join(lines).strip("\n")


def _substitute_prog(text: str, prog: str) -> str:
    return re.sub(
        r"\$\{0##\*/\}|\$\{?0\}?|\$\(basename \"?\$0\"?\)|\$\{?(?:PROG|prog|SCRIPT|script|me|ME|NAME)\}?",
        prog,
        text,
    )


def _spec_positionals(spec: str) -> tuple[Positional, ...]:
    """Positionals from an argument spec like ``SERVICE [--env ENV] [TAG...]``: the words not after a flag."""
    words = spec.split()
    out: list[Positional] = []
    previous_flag = False
    for word in words:
        bare = word.strip("[]")
        if bare.startswith("-"):
            previous_flag = "=" not in bare and not word.endswith("]")
            continue
        if previous_flag:
            previous_flag = False
            continue
        if not re.fullmatch(r"<?[A-Za-z][\w-]*>?(\.\.\.)?", bare):
            continue
        variadic = bare.endswith("...")
        name = bare.removesuffix("...").strip("<>").lower().replace("-", "_")
        out.append(Positional(name=name, required=not word.startswith("["), variadic=variadic))
    return tuple(out)


@dataclass(frozen=True)
class _Listing:
    summary: str
    spec: str
    usage: str


def _listings(usage: str, names: set[str], prog: str) -> dict[str, _Listing]:
    """Per subcommand: its summary and argument spec from the usage text's command listing."""
    found: dict[str, _Listing] = {}
    for line in usage.splitlines():
        body = line
        stripped = line.strip()
        for prefix in (f"{prog} ", "usage: " + prog + " ", "Usage: " + prog + " "):
            if stripped.startswith(prefix):
                body = "  " + stripped[len(prefix) :]
        match = _LISTING.match(body)
        if not match:
            continue
        for name in match.group("name").split("|"):
            if name in names and name not in found:
                found[name] = _Listing(
                    match.group("summary").strip(),
                    match.group("spec").strip(),
                    f"{prog} {name} {match.group('spec').strip()}".strip(),
                )
    for line in usage.splitlines():  # "usage: prog deploy SERVICE [--env ENV]" with no summary
        stripped = re.sub(r"^\s*(?:usage:|or:)?\s*", "", line.strip(), flags=re.IGNORECASE)
        words = stripped.split()
        if len(words) >= 2 and words[0] == prog and words[1] in names and words[1] not in found:
            spec = " ".join(words[2:])
            found[words[1]] = _Listing("", spec, stripped)
    return found


def _flag_descriptions(usage: str) -> dict[str, tuple[str, str]]:
    """spelling -> (description, value name) from option lines of the usage text."""
    out: dict[str, tuple[str, str]] = {}
    for line in usage.splitlines():
        match = _FLAG_LINE.match(line)
        if not match:
            continue
        for part in re.split(r",\s*", match.group("spellings")):
            pieces = re.split(r"[ =]", part, maxsplit=1)
            spelling = pieces[0]
            value_name = pieces[1].strip("<>").upper() if len(pieces) > 1 else ""
            out.setdefault(spelling, (match.group("description").strip(), value_name))
    return out


def _describe(flags: list[Flag], described: dict[str, tuple[str, str]]) -> tuple[Flag, ...]:
    out = []
    for flag in flags:
        for spelling in flag.spellings:
            if spelling in described:
                description, value_name = described[spelling]
                changes = {"description": description}
                if value_name and flag.takes_value:
                    changes["value_name"] = value_name
                flag = replace(flag, **changes)
                break
        out.append(flag)
    return tuple(out)


def _summary_line(usage: str) -> str:
    """The first prose line of the usage text (not a usage line, not a heading, not a listing)."""
    for line in usage.splitlines():
        stripped = line.strip()
        if not stripped or stripped.lower().startswith(("usage", "or:")) or stripped.endswith(":"):
            continue
        if line[:1].isspace():
            continue
        return stripped
    return ""


# -- the model -----------------------------------------------------------------------------------

_HELP_WORDS = {"help", "-h", "--help"}


def read_shell_script(text: str, *, prog: str) -> tuple[Command, tuple[str, ...]]:
    """The command tree of a shell script's source, and warnings about what could not be read."""
    script = _tokenize(text)
    usage = _substitute_prog(_usage_text(script, text), prog)
    described = _flag_descriptions(usage)
    warnings: list[str] = []
    dispatch = _dispatch(script)
    subcommands: list[Command] = []
    if dispatch is None:
        warnings.append(
            f'{prog}: no `case "$1" in` dispatch found; read it as a tool without subcommands'
        )
        root_flags = _flags_reached(script, 0, len(script.tokens))
    else:
        arms = _word_arms(dispatch)
        names = {p for arm in arms for p in arm.patterns if _is_literal(p)}
        listing = _listings(usage, names, prog)
        for arm in arms:
            words = [p for p in arm.patterns if _is_literal(p) and not p.startswith("-")]
            if not words or words[0] in _HELP_WORDS:
                continue
            name = next((w for w in words if w in listing), words[0])
            entry = listing.get(name) or next((listing[w] for w in words if w in listing), None)
            flags = _flags_reached(script, *arm.body)
            subcommands.append(
                Command(
                    path=(name,),
                    summary=entry.summary if entry else "",
                    usage=(entry.usage,) if entry and entry.usage else (),
                    flags=_describe(flags, described),
                    positionals=_spec_positionals(entry.spec) if entry else (),
                    aliases=tuple(w for w in words if w != name),
                    parser=_PARSER,
                    double_dash=_ends_options(script, *arm.body),
                )
            )
        missing = sorted(s.name for s in subcommands if not s.summary)
        if missing:
            warnings.append(f"{prog}: no summary in the usage text for {', '.join(missing)}")
        # Root options: dash arms of the dispatch itself, and option loops outside it.
        root_flags = _flags_from_case(script.tokens, dispatch)
        for case in _cases(script.tokens):
            inside_function = any(lo <= case.start <= hi for lo, hi in script.functions.values())
            if (
                case is not dispatch
                and not inside_function
                and not (dispatch.start < case.start < dispatch.end)
            ):
                root_flags += [
                    f
                    for f in _flags_from_case(script.tokens, case)
                    if f.spellings[0] not in {g.spellings[0] for g in root_flags}
                ]
    if not usage.strip():
        warnings.append(f"{prog}: no usage text found (no usage() function or help heredoc)")
    usage_lines = tuple(
        re.sub(r"^\s*usage:\s*", "", line.strip(), flags=re.IGNORECASE)
        for line in usage.splitlines()
        if line.strip().lower().startswith("usage:")
    )
    root_flags = _describe(root_flags, described)
    # A tool without subcommands names its operands on its usage line (`[OPTION]... PATTERN [FILE]...`).
    operands = (
        usage_positionals(
            usage_lines,
            prog=(prog,),
            switches=frozenset(s for f in root_flags if not f.takes_value for s in f.spellings),
        )
        if dispatch is None
        else ()
    )
    root = Command(
        path=(),
        summary=_summary_line(usage),
        description=usage.strip(),
        usage=usage_lines,
        flags=root_flags,
        positionals=operands,
        subcommands=tuple(subcommands),
        parser=_PARSER,
        # the root's own option loops: outside the dispatch and outside the functions
        double_dash=_ends_in(
            script,
            0,
            len(script.tokens),
            outside=(
                *script.functions.values(),
                *(((dispatch.start, dispatch.end),) if dispatch is not None else ()),
            ),
        ),
    )
    return root, tuple(warnings)


def discover_script(path: str | os.PathLike, *, name: str | None = None) -> Tool:
    """Read the shell script at ``path`` into a ``Tool`` without running it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise HelpUnreadableError(
            f"cannot read {path}: {error.strerror}", hint="check the path"
        ) from None
    prog = os.path.basename(name) if name else path.name
    root, warnings = read_shell_script(text, prog=prog)
    if not (root.flags or root.subcommands or root.positionals):
        # Reading is static because running a script that ignores --help would run its real action;
        # when the reading found nothing, the user may know better (mvn's script hands --help on).
        warnings += (
            f"{prog} is a shell script, read without running it, and nothing was found in it; "
            f"if `{prog} --help` is safe to run, pass --style gnu (or another help style) to probe it",
        )
    return Tool(name=name or path.name, root=root, path=str(path), warnings=warnings)
