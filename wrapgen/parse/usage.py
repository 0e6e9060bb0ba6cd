"""Usage lines and example lines, split into argv with bashlex.

Usage lines are not shell (``<file>`` is a placeholder, not a redirection), so
their metacharacters are escaped before bashlex splits them into words; the
words are then read with a small grammar: ``[...]`` optional, ``...`` variadic,
``<name>`` or ``NAME`` an operand. Example lines *are* shell: bashlex parses them
as written and we keep the commands that run the tool. A line whose only shell syntax is
quoting, pipes, lists or plain redirections is split here instead, as bashlex would split it
(tests/parse/test_shell_split_without_bashlex.py compares the two on the captured help):
importing bashlex builds its parser tables, about 0.2 s of CPU a process.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace

from wrapgen.model.tool import Flag, Positional
from wrapgen.parse.facts import guess_type as _guess_type  # (facts imports nothing of the parsers)

__all__ = [
    "split_usage",
    "split_example",
    "usage_positionals",
    "usage_flags",
    "usage_literals",
    "usage_subcommands",
]

# bashlex is a full shell parser: keep its input bounded so a hostile line costs little (it reads
# about 2.5 us a character: 10 ms at the bound). An argparse tool's synopsis, all its options
# joined on one line, runs past 1,000 characters with its operands at the end.
MAX_LINE = 4000
# Escaped in usage lines so bashlex reads them as text; quotes are left alone so that
# bashlex honours them ('--sep "a b"' is two words).
_USAGE_META = re.compile(r"([<>|&;()$`!{}#*?~])")
_USAGE_METACHARACTERS = frozenset("<>|&;()$`!{}#*?~")
# Any of these in an example line means real shell syntax: bashlex must read it.
_SHELL_META = re.compile(r"[<>|&;()$`!{}\\\"'#*?~]")
_QUOTING = re.compile(r"[\\\"']")
# Placeholders that stand for "the subcommand and its args" or "all the options": not operands.
_NOT_OPERANDS = re.compile(
    r"""^(?:
        (?:.*[_ -])?options?|(?:.*[_ -])?flags?|opts|option\.\.\.|   # "[options]", "[package-index-options]"
        switch|switches|                                           # an archiver's "[<switches>...]"
        command|commands|subcommand|sub-command|cmd|
        args|arguments|command[ _-]args|command[ _-]arguments
    )$""",
    re.VERBOSE | re.IGNORECASE,
)


# _NOT_OPERANDS, case-sensitive, for a lower-cased ASCII name: its literals are lower case and its
# classes blind to case, so it matches the lowered name exactly where the case-blind one matches the
# name, and faster.
_NOT_OPERANDS_LOW = re.compile(_NOT_OPERANDS.pattern, _NOT_OPERANDS.flags & ~re.IGNORECASE)


def _not_operand(name: str) -> bool:
    """Whether a placeholder stands for options or the subcommand (``_NOT_OPERANDS``), not an operand."""
    if name.isascii():
        return _NOT_OPERANDS_LOW.match(name.lower()) is not None
    return _NOT_OPERANDS.match(name) is not None


def _bashlex():
    """bashlex, imported on first need: building its parser tables takes ~0.2 s, and help whose
    usage lines have no quoting (most) never needs it."""
    import bashlex

    return bashlex


def _words(node) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if item.kind == "word":
            out.append(item.word)
            continue
        stack.extend(reversed(getattr(item, "parts", None) or []))
    return out


def split_usage(line: str) -> list[str]:
    """The words of a usage line (``gh <command> [flags]`` -> ``["gh", "<command>", "[flags]"]``)."""
    # GLib's tools write the ellipsis as one character: "LOCATION…", "[OPTION…]"
    return list(_split_usage(line.strip()[:MAX_LINE].replace("\u2026", "...")))


def _split_usage(line: str) -> tuple[str, ...]:
    # "<jq filter>" is one placeholder: keep its space out of the word splitting.
    protected = _ANGLED.sub(lambda m: m[0].replace(" ", "\x01"), line) if "<" in line else line
    if not _QUOTING.search(protected):
        # Every other metacharacter is escaped before bashlex sees it, so without quotes or
        # backslashes bashlex would only split on blanks; skipping it saves milliseconds a line.
        words = protected.split()
    elif (plain := _plain_quoted_words(protected)) is not None:
        words = plain
    else:
        try:
            trees = _bashlex().parse(_USAGE_META.sub(r"\\\1", protected))
            words = [w for tree in trees for w in _words(tree)] or protected.split()
        except Exception:  # noqa: BLE001 - bashlex raises many types; whitespace is a fine fallback
            words = protected.split()
    return tuple(w.replace("\x01", " ") for w in words)


def _plain_quoted_words(text: str) -> list[str] | None:
    """The words of a usage line with its metacharacters taken literally (as bashlex reads it once
    they are escaped): quote removal and blanks only; None where bashlex reads it its own way."""
    if "\\" in text or not _quoting_bashlex_agrees(text):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    if words and (words[0] in _RESERVED or _ASSIGNMENT.match(text.lstrip())):
        return None  # bashlex refuses a line starting so ("then ...", "name=x ..."); its fallback splits on blanks
    return words


def _quoting_bashlex_agrees(text: str) -> bool:
    """Whether bashlex removes the quotes of ``text`` as a shell does: no quote inside the other
    kind (bashlex drops it: `'a "b"'` gives `a b`) and no metacharacter escaped inside quotes, no two
    quoted parts in one word (`'-x'/'--exec'` keeps the inner quotes), every quote closed."""
    quote, opened = "", False
    for c in text:
        if quote:
            if c == quote:
                quote = ""
            elif c in "'\"" or c in _USAGE_METACHARACTERS:
                return False  # (an escaped metacharacter in quotes keeps its backslash in bashlex: `\*.pyc`)
        elif c in "'\"":
            if opened:
                return False
            quote, opened = c, True
        elif c.isspace():
            opened = False
    return not quote


def split_example(line: str, *, prog: str = "") -> list[str] | None:
    """The argv of an example command line; with ``prog``, the first command running it."""
    found = _split_example(line, prog)
    return list(found) if found is not None else None


def _split_example(line: str, prog: str) -> tuple[str, ...] | None:
    line = line.strip()
    if line.startswith("$ "):
        line = line[2:].strip()
    line = line[:MAX_LINE]
    if not line or line.startswith("#"):
        return None
    commands: list[list[str]] = []
    if not _SHELL_META.search(line):
        commands = [line.split()]  # plain words: what bashlex would give, without its cost
    else:
        commands = _shell_commands(line)
        if commands is None:
            return None
    if not prog:
        return tuple(commands[0]) if commands else None
    base = prog.rsplit("/", 1)[-1]
    for words in commands:
        if words and words[0].rsplit("/", 1)[-1] == base:
            return tuple(words)
    return None


# What only a shell parser reads right: substitutions, subshells, groups, comments, escapes.
# A line with none of them (quotes, globs, pipes, lists and plain redirections allowed) is split without bashlex,
# whose import alone (building its parser tables) costs about 0.2 s of CPU: more than a crawl of
# a small tool spends on everything else (amtool's examples quote their matchers).
_NEEDS_PARSER = re.compile(r"[()$`{}#\n\\]")
_LIST_OPERATORS = frozenset(("|", "||", "&", "&&", ";", "|&"))
_RESERVED = frozenset(
    (
        "!",
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "for",
        "while",
        "until",
        "do",
        "done",
        "case",
        "esac",
        "select",
        "function",
        "time",
        "coproc",
        "in",
        "[[",
        "]]",
    )
)
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\+?=")


def _simple_commands(line: str) -> list[list[str]] | None:
    """The simple commands of a line whose only shell syntax is quoting, pipes, lists and plain
    redirections (``tool 'a=~b.*' -o json > out.json | grep x && tool y``), split as bashlex splits them; None when the line needs a
    shell parser: anything else, a backslash, a quote inside the other kind or two quoted parts in a
    word (bashlex reads those its own way), an unbalanced quote, an assignment or a reserved word up front."""
    if _NEEDS_PARSER.search(line):
        return None
    segments: list[str] = []
    operators: list[str] = []
    current: list[str] = []
    quote, opened = "", False  # opened: the current word has a quoted part
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote:
            if c in "'\"" and c != quote:
                return None  # bashlex drops a quote inside the other kind (`'a "b"'` gives `a b`): its reading wins
            current.append(c)
            if c == quote:
                quote = ""
        elif c in "'\"":
            if opened:
                return None  # two quoted parts in one word (`'-x'/'--exec'`): bashlex keeps the inner quotes
            quote, opened = c, True
            current.append(c)
        elif c in "<>":
            # a redirection (`> out.json`, `2>&1`, `< in.txt`): bashlex keeps it and its target out of the words
            word = "".join(current).rsplit(None, 1)[-1] if "".join(current).strip() else ""
            if (
                word
                and not opened
                and word.isdigit()
                and not "".join(current).endswith((" ", "\t"))
            ):
                del current[len(current) - len(word) :]  # `2>`: the descriptor, not a word
            elif word and not "".join(current)[-1:].isspace():
                return None  # `a>b` glued to a word: leave it to the parser
            i += 1
            if i < n and line[i] == c and c == ">":
                i += 1
            if i < n and line[i] == "&":
                i += 1
            while i < n and line[i] in " \t":
                i += 1
            start = i
            while i < n and not line[i].isspace() and line[i] not in "|&;<>'\"":
                i += 1
            if i == start or (i < n and line[i] in "<>'\""):
                return None
            opened = False
            continue
        elif c in "|&;":
            if i + 1 < n and line[i + 1] in "<>":
                return None  # `&>`, `|>`: not a list operator
            run = c
            while i + 1 < n and line[i + 1] in "|&;":
                i += 1
                run += line[i]
            segments.append("".join(current))
            operators.append(run)
            current, opened = [], False
        else:
            current.append(c)
            if c.isspace():
                opened = False
        i += 1
    if quote or any(op not in _LIST_OPERATORS for op in operators):
        return None
    segments.append("".join(current))
    commands: list[list[str]] = []
    for at, segment in enumerate(segments):
        try:
            words = shlex.split(segment)
        except ValueError:
            return None
        if not words:
            # only `tool &` and `tool ;` may end in an operator; any other empty command is a syntax error
            if at == len(segments) - 1 and at > 0 and operators[-1] in ("&", ";"):
                continue
            return None
        if words[0] in _RESERVED or _ASSIGNMENT.match(segment.lstrip()):
            return None
        commands.append(words)
    return commands


def _shell_commands(line: str) -> list[list[str]] | None:
    """The simple commands of a shell line (a pipeline gives several), via bashlex where it needs a parser."""
    simple = _simple_commands(line)
    if simple is not None:
        return simple
    commands: list[list[str]] = []
    try:
        for tree in _bashlex().parse(line):
            stack = [tree]
            while stack:
                node = stack.pop()
                if node.kind == "command":
                    words = [p.word for p in node.parts if p.kind == "word"]
                    if words:
                        commands.append(words)
                    continue
                stack.extend(reversed(getattr(node, "parts", None) or []))
    except Exception:  # noqa: BLE001 - not shell after all (prose, a half line): try shlex
        try:
            return [shlex.split(line)]
        except ValueError:
            return None
    return commands


def _skip_prog(words: list[str], prog: tuple[str, ...]) -> list[str]:
    """Words after the program and subcommand path (``git commit ...`` -> ``...``)."""
    if not words:
        return words
    i = 1  # the first word is the program as the help spells it ("server.py", "python -m ...")
    if len(words) > 2 and words[1] == "-m":  # "python -m json.tool"
        i = 3
    for part in prog[1:]:
        if i < len(words) and words[i] == part:
            i += 1
    return words[i:]


def guess_type(name: str | None) -> str:
    return _guess_type(name)


# A group stuck to an operand's end that refines the same argv element: NAME[:TAG|@DIGEST],
# [REPOSITORY[:TAG]], <image>[:<tag>]. It starts with a separator, so "[bind_address:]port" is not one.
_SUFFIX_GROUP = re.compile(
    r"(?<=[\w>\]])\[[:@.,=/#][^\[\]]*\]"
)  # also kubectl's TYPE[.VERSION][.GROUP]
# An upper-case placeholder, possibly several joined into one argv element: TYPE/NAME, CONTAINER:SRC_PATH.
_UPPER = re.compile(r"[A-Z][A-Z0-9_-]*(?:[/:][A-Z][A-Z0-9_-]*)*")


_ANGLED = re.compile(r"<[^<>]*>")
_URL_PLACEHOLDER = re.compile(r"[a-z][a-z0-9+.-]*://[A-Z][A-Z0-9_]*(?:/[A-Z][A-Z0-9_]*)*/?")
_LOWER_WORD = re.compile(r"[a-z][a-z0-9_-]*")
_CAMEL_WORD = re.compile(r"[a-z]+(?:-?[A-Z][A-Za-z0-9]*)+")
_ACRONYM_WORD = re.compile(r"[A-Z]{2,}[a-z]+[A-Za-z0-9]*")  # "XMLfiles", "URLlist"
_REMOTE_WORD = re.compile(r"[a-z][a-z0-9_-]*:(?:[a-z][a-z0-9_/-]*)?")
_REPEAT_MARK = re.compile(r"[\]>][*+]$")
_REPEAT_MARK_AFTER = re.compile(r"([\]>])[*+]$")
_OPERAND_NAME = re.compile(r"[\w .:/|-]+")
_PHRASE_START = re.compile(r"\[[a-z]+")  # "[global options]" opens with "[global"
_PHRASE_WORD = re.compile(r"[a-z]+(?:\.\.\.)?\]?")
# "[POSIX or GNU style options]": a longer phrase, any case, that ends in an options word
_OPTIONS_PHRASE_START = re.compile(r"\[[A-Za-z]+")
_OPTIONS_PHRASE_WORD = re.compile(r"[A-Za-z]+\]?")
_OPTIONS_PHRASE_END = re.compile(r"(?:options?|flags?|opts|switches)\]", re.IGNORECASE)


def _placeholder(text: str, *, bare_ok: bool) -> str | None:
    """The name of one placeholder alternative (``<file>``, ``NAME``, ``TYPE/NAME``), else None."""
    if text.startswith("<") and text.endswith(">") and text.count("<") == 1:
        return text[1:-1].removesuffix("(s)")  # "<file(s)>": the files
    if _UPPER.fullmatch(text):
        return text
    if bare_ok and _LOWER_WORD.fullmatch(text):
        return text  # argparse: "[port]", clap: "[pattern]", BSD: "ssh [-46] destination"
    if bare_ok and (_CAMEL_WORD.fullmatch(text) or _ACRONYM_WORD.fullmatch(text)):
        # camelCase after the options began: cobra's "restic diff [flags] snapshotID snapshot-ID";
        # an acronym run into a word: "tool [options] XMLfiles ..."
        return text
    if _REMOTE_WORD.fullmatch(text):
        return text  # rclone: "source:path dest:path", "remote:"; no subcommand word holds a colon
    if _URL_PLACEHOLDER.fullmatch(text):
        return text  # "s3://BUCKET/OBJECT": a placeholder written inside its URL scheme
    return None


def _operand_name(word: str, *, bare_ok: bool = False) -> tuple[str, bool, bool] | None:
    """(name, optional, variadic) of a usage word that is an operand, else None.

    ``NAME|ID`` and ``<number>|<url>`` are one operand given one of several ways (named
    ``NAME|ID``); a ``-`` alternative (``DEST_PATH|-``, stdin or stdout) names nothing;
    ``a|b`` of lower-case words is a choice of literals, not an operand.
    """
    marked = "*" in word or "+" in word  # (what the repeat marks need: most words have neither)
    variadic = "..." in word or (
        marked and bool(_REPEAT_MARK.search(word))
    )  # rclone: "[remote:path]+"
    text = word.replace("...", "")
    if "(s)>" in text:
        variadic = True  # "<file(s)>": one or more
    if marked:
        text = _REPEAT_MARK_AFTER.sub(r"\1", text)
    optional = text.startswith("[")
    if text.find("[", 1) != -1:  # (a suffix group is a "[" after the operand's first character)
        text = _SUFFIX_GROUP.sub("", text)
    text = text.lstrip("[({").rstrip("])}").strip().rstrip(".")
    if not text or text.startswith("-") or "=" in text:
        return None
    if text.startswith("+") and _UPPER.fullmatch(text[1:]):
        # "[+FORMAT]", "+PAGE": an operand whose value is written with a leading + (the name keeps
        # it, so the operand's description shows how to write it)
        return text, optional, variadic
    if "|" in text and "|" in _ANGLED.sub("", text):
        parts = [p for p in (q.strip() for q in text.split("|")) if p != "-"]
        names = [_placeholder(p, bare_ok=False) for p in parts]
        if not parts or None in names:
            return None  # "a|b" is a choice of literals
        name = "|".join(names)
    else:
        # "<PROJECT | SOLUTION>" is one operand whose name holds the bar
        name = _placeholder(text, bare_ok=optional or bare_ok)
        if name is None:
            return None
    if not _OPERAND_NAME.fullmatch(name) or _not_operand(name.strip()):
        return None
    return name.strip(), optional, variadic


# A usage line's remarks in words: a bracket or brace group of bare lower-case words that holds one
# of these, or punctuation a sentence has, is prose ("[more options; see below]", "{zero or more
# file names}"), not operands. "or" alone is not among them: "[core-file or process-id]" is one
# operand given one of two ways.
_PROSE_WORDS = frozenset(
    "a an the of to see below above more zero one any some etc which is are for with by from "
    "every each many several no none optional optionally".split()
)
_BARE_WORD = re.compile(r"[a-z][a-z'-]*[;,:.]?")
_OPTIONS_WORD = re.compile(r"(?:options?|flags?|opts|switches)[;,:.]?")


def _prose_words(words: list[str], prog: tuple[str, ...] = ()) -> set[int]:
    """Indices of the words of a usage line that are prose, not grammar: a group of two or more bare
    words (``[`` ``{`` ``(``) that reads as a remark (a prose word, a sentence's punctuation, or a
    word for options among others: ``[verb-dependent options ...]``), a run of three or more bare
    words outside any group that holds a prose word (``zero or more file names``), and the tool's own
    name repeated (``tool [options] | tool --version``: the start of another form, no operand)."""
    out: set[int] = set()
    groups = _groups(words)
    members: dict[int, list[int]] = {}
    for i, gs in enumerate(groups):
        for g in gs:
            members.setdefault(g, []).append(i)
    for _g, indices in members.items():
        cores = [words[i].strip("[](){}") for i in indices]
        cores = [c for c in cores if c not in ("", "|", "...")]
        bare = [c for c in cores if _BARE_WORD.fullmatch(c)]
        # a remark may name an operand in passing ("(<value> can also be given from stdin)"): a
        # group of mostly bare words, three or more, is judged by them
        mostly = len(bare) >= 3 and len(bare) > len(cores) / 2
        if len(cores) < 2 or not (len(bare) == len(cores) or mostly):
            continue
        cores = bare
        plain = [c.rstrip(";,:.") for c in cores]
        if (
            any(c in _PROSE_WORDS for c in plain)
            or any(c[-1] in ";,:." for c in cores[:-1])
            or any(_OPTIONS_WORD.fullmatch(c) for c in cores)
        ):
            out.update(indices)
    run: list[int] = []
    for i, word in enumerate([*words, ""]):
        if i < len(words) and not groups[i] and _BARE_WORD.fullmatch(word):
            run.append(i)
            continue
        if len(run) >= 3 and any(words[j].rstrip(";,:.") in _PROSE_WORDS for j in run):
            out.update(run)
        run = []
    name = prog[0].rsplit("/", 1)[-1] if prog and prog[0] else ""
    if name:
        out.update(i for i, word in enumerate(words) if word.strip("[](){}") == name)
    return out


# A remark that counts what the command takes names its operand: "zero or more file names" is
# [FILE...], "one or more paths" is PATH...; only a noun the option types read as a path
# (facts.guess_type) is taken, so "[one or more options]" stays a remark.
_COUNTED = re.compile(
    r"""
    (?P<count>zero\ or\ more|one\ or\ more|any\ number\ of)   # how many
    \ (?P<noun>[a-z]+(?:\ [a-z]+)?)                             # "file names", "input files"
    """,
    re.VERBOSE,
)


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _counted_operand(span: list[str]) -> str | None:
    """``[FILE...]`` for the words of a remark that count files ("[zero or more file names]"), else None."""
    text = " ".join(span)
    bracketed = text.startswith("[") and text.endswith("]")
    found = _COUNTED.fullmatch(text.strip("[]{}()").rstrip(".").lower())
    if found is None:
        return None
    noun = next(
        (_singular(w) for w in found["noun"].split() if _guess_type(_singular(w)) == "path"), None
    )
    if noun is None:
        return None
    name = noun.upper() + "..."
    return f"[{name}]" if bracketed or found["count"] != "one or more" else name


def _without_prose(words: list[str], prose: set[int]) -> list[str]:
    """The words of a usage line without its remarks; a remark that counts files stays as its operand."""
    out: list[str] = []
    span: list[str] = []

    def flush() -> None:
        counted = _counted_operand(span) if span else None
        if counted is not None:
            out.append(counted)
        span.clear()

    for i, word in enumerate(words):
        if i not in prose:
            flush()
            out.append(word)
            continue
        joined = "".join(span)
        if word[:1] in "[{(" and sum(joined.count(c) for c in "[{(") == sum(
            joined.count(c) for c in "]})"
        ):
            flush()  # "[more options; see below] [zero or more file names]": two remarks
        span.append(word)
    flush()
    return out


def _is_flag_word(word: str) -> bool:
    bare = word.strip("[]()|")
    return bare.startswith("-") and bare != "--" and len(bare) > 1


def _groups(words: list[str], kinds: dict[int, str] | None = None) -> list[tuple[int, ...]]:
    """For each word, the ids of the bracket groups around it, outermost first.

    Every bracket in a word counts, so ``[bind_address:]port]`` opens and closes its own
    group and then closes the one around it. ``kinds`` (when given) learns each group's
    opening bracket: ``[`` is optional, ``(`` and ``{`` only group alternatives.
    """
    kinds = {} if kinds is None else kinds
    stack: list[int] = []
    out: list[tuple[int, ...]] = []
    next_id = 0
    for word in words:
        core = word.replace("[--]", "")
        lead = len(core) - len(core.lstrip("[({"))
        for char in core[:lead]:
            kinds[next_id] = char
            stack.append(next_id)
            next_id += 1
        out.append(tuple(stack))
        for char in core[lead:]:
            if char in "[({":
                kinds[next_id] = char
                stack.append(next_id)
                next_id += 1
            elif char in "])}" and stack:
                stack.pop()
    return out


def _join_phrases(words: list[str]) -> list[str]:
    """``[global options]`` as one word (``[global_options]``), so it reads as a placeholder; a
    bare ``or`` between two operands is the ``|`` it means."""
    out: list[str] = []
    i = 0
    while i < len(words):
        end = None
        if _PHRASE_START.fullmatch(words[i]):
            for j in range(i + 1, min(i + 4, len(words))):
                if not _PHRASE_WORD.fullmatch(words[j]):
                    break
                if words[j].endswith("]"):
                    end = j
                    break
        if end is None and _OPTIONS_PHRASE_START.fullmatch(words[i]):
            for j in range(i + 1, min(i + 7, len(words))):
                if not _OPTIONS_PHRASE_WORD.fullmatch(words[j]):
                    break
                if words[j].endswith("]"):
                    end = j if _OPTIONS_PHRASE_END.fullmatch(words[j]) else None
                    break
        if (
            words[i] == "or"
            and out
            and i + 1 < len(words)
            and not _is_flag_word(out[-1])
            and not _is_flag_word(words[i + 1])
            and out[-1] != "|"
        ):
            out.append("|")  # gdb: "[core-file or process-id]": one operand or the other
            i += 1
        elif end is None:
            out.append(words[i])
            i += 1
        else:
            out.append("_".join(words[i : end + 1]))
            i = end + 1
    return out


def _branches(
    words: list[str],
) -> tuple[list[tuple[tuple[int, int], ...]], dict[int, tuple[int, int] | None], dict[int, int]]:
    """For each word, the (group, branch) pairs around it, outermost first; where each group sits
    (its parent's group and branch) and how many branches each group has.

    A bare ``|`` starts the next branch of the group it stands in: in
    ``(-f FILENAME | TYPE [NAME | -l label])`` TYPE and FILENAME are in different branches.
    """
    stack: list[int] = []
    branch: dict[int, int] = {}
    parent: dict[int, tuple[int, int] | None] = {}
    out: list[tuple[tuple[int, int], ...]] = []
    next_id = 0

    def open_group() -> None:
        nonlocal next_id
        parent[next_id] = (stack[-1], branch[stack[-1]]) if stack else None
        branch[next_id] = 0
        stack.append(next_id)
        next_id += 1

    for word in words:
        core = word.replace("[--]", "")
        if core == "|":
            if stack:
                branch[stack[-1]] += 1
            out.append(tuple((g, branch[g]) for g in stack))
            continue
        lead = len(core) - len(core.lstrip("[({"))
        for _ in core[:lead]:
            open_group()
        out.append(tuple((g, branch[g]) for g in stack))
        for char in core[lead:]:
            if char in "[({":
                open_group()
            elif char in "])}" and stack:
                stack.pop()
    return out, parent, {g: b + 1 for g, b in branch.items()}


_CHOICE_WORD = re.compile(r"[a-z0-9][a-z0-9_.+-]*")


def _choice_branches(words: list[str], places, counts: dict[int, int]) -> set[tuple[int, int]]:
    """The branches of groups that spell one flag's choices: ``[-t dsa | ecdsa | rsa]`` (ssh-keygen).

    The first branch is a flag and one lowercase value; every other branch is a single lowercase
    word. Those words are more values of that flag, never operands (``[NAME | -l label]`` and
    ``[-f FILE | TYPE]`` do not have this shape)."""
    members: dict[tuple[int, int], list[str]] = {}
    for i, word in enumerate(words):
        if word == "|" or not places[i]:
            continue
        members.setdefault(places[i][-1], []).append(word.strip("[](){}"))
    out: set[tuple[int, int]] = set()
    for g, n in counts.items():
        if n < 2:
            continue
        first = members.get((g, 0), [])
        if len(first) != 2 or not _is_flag_word(first[0]) or not _CHOICE_WORD.fullmatch(first[1]):
            continue
        rest = [members.get((g, b), []) for b in range(1, n)]
        if all(len(words_) == 1 and _CHOICE_WORD.fullmatch(words_[0]) for words_ in rest):
            out.update((g, b) for b in range(n))
    return out


def _flag_words(
    words: list[str], places, parent: dict[int, tuple[int, int] | None], counts: dict[int, int]
) -> set[int]:
    """Indices of the words that are flags or a flag's value by grouping.

    A flag claims its own branch (``[-F <file> | -m <msg>]``: <file> goes with -F); a group all
    of whose branches are claimed acts as a flag in the branch around it (``[(-c | -C) <commit>]``),
    but ``[NAME | -l label]`` leaves NAME an operand and TYPE before it too.
    """
    claimed: set[tuple[int, int]] = set()
    for i, word in enumerate(words):
        if _is_flag_word(word) and places[i]:
            claimed.add(places[i][-1])
    claimed |= _choice_branches(words, places, counts)
    # A child group opens after its parent, so one pass from the last group up settles nesting.
    for g in sorted(counts, reverse=True):
        where = parent[g]
        if where is not None and all((g, b) in claimed for b in range(counts[g])):
            claimed.add(where)
    return {i for i, pl in enumerate(places) if set(pl) & claimed}


# "[file1, file2, ...]", "[FILE1 FILE2 ...]": one operand given many times, numbered to show it
_NUMBERED_RUN = re.compile(r"\b(?P<stem>[A-Za-z][A-Za-z_-]*?)1,?[ ]+(?P=stem)2,?[ ]*\.\.\.")


def usage_positionals(
    lines, *, prog: tuple[str, ...], switches=frozenset(), bare_words: bool = False
) -> tuple[Positional, ...]:
    """Operands named on the usage lines, first line wins, with required and variadic.

    A word inside a bracket group that holds a flag is that flag's value
    (``[-F <file> | -m <msg>]``), and so is a word right after a flag
    (``-e PATTERN``) unless ``switches`` says that flag takes no value: neither is an operand.
    ``bare_words``: the command has no subcommands, so a bare lowercase word right after its
    path is an operand too (cobra's ``rclone gendocs output_directory [flags]``).
    """
    found: dict[str, Positional] = {}
    required_in: dict[str, int] = {}
    counted = 0
    first_keys: list[str] | None = None
    alias: dict[str, str] = {}  # an operand merged into the first form's (docker cp's SRC_PATH)
    for line in list(lines)[:20]:
        line = _NUMBERED_RUN.sub(r"\g<stem>...", line)
        all_words = split_usage(line)
        if len(prog) > 1 and all_words[:1] == [prog[-1]] and prog[0] not in all_words:
            # "port [options] [--] SERVICE PRIVATE_PORT": the command's usage spelled from its own
            # word (docopt's way under a dispatcher), without the program before it
            all_words = [*prog[:-1], *all_words]
        if len(prog) > 1 and prog[1] not in all_words[1:4]:
            continue  # git log -h also prints "or: git show ...": another command's usage
        words = _skip_prog(all_words, prog)
        prose = _prose_words(words, prog)
        if prose:
            # the line's remarks are no operands: read it without them ("[more options; see below]"),
            # but a remark that counts files is its operand ("[zero or more file names]": [FILE...])
            words = _without_prose(words, prose)
        words = _join_phrases(words)
        counted += 1
        kinds: dict[int, str] = {}
        groups = _groups(words, kinds)
        places, parent, counts = _branches(words)
        flagged = _flag_words(words, places, parent, counts)
        # In "(A | B)" an operand is required only when every branch names one: kubectl describe's
        # "(-f FILENAME | TYPE ...)" needs no TYPE, kubectl logs' "(POD | TYPE/NAME)" needs POD or TYPE/NAME.
        with_operand: dict[int, set[int]] = {}
        for i, word in enumerate(words):
            if (
                i not in flagged
                and not _is_flag_word(word)
                and _operand_name(word.replace("[--]", ""), bare_ok=True)
            ):
                for g, b in places[i]:
                    with_operand.setdefault(g, set()).add(b)
        partial = {g for g, n in counts.items() if n > 1 and len(with_operand.get(g, ())) < n}
        after_command = False
        last: str | None = None
        last_group: tuple[int, ...] | None = None
        new_on_line: set[str] = set()  # alternatives merge only operands this line introduced
        line_keys: list[str] = []  # the operands of this line, in order
        required_here: set[str] = set()
        for i, word in enumerate(words):
            if word.rstrip("])") == "..." and last is not None:
                found[last] = replace(found[last], variadic=True)  # "[PATH ...]" split in two
                continue
            if word == "|" and last is not None:
                continue  # keep `last`: the next operand may be an alternative to it
            alternative_to = last if i and words[i - 1] == "|" else None
            last = None
            if _is_flag_word(word) or word.replace("[--]", "").strip("[]()") in ("|", "--", ""):
                continue
            if i in flagged:
                continue
            prev = words[i - 1] if i else ""
            if (
                _is_flag_word(prev)
                and prev not in switches
                and not prev.endswith(("]", ")"))
                and "=" not in prev
                and not word.startswith("[")
            ):
                continue  # "-e PATTERN": the flag's value
            # A bare lowercase word is an operand only after the options began: before them it
            # is a subcommand word ("naval-fate ship new <name>"), unless it repeats ("gsutil
            # stat url..."): no subcommand word is given more than once.
            parsed = _operand_name(
                word.replace("[--]", ""),
                bare_ok=bare_words
                or any(w.startswith(("[", "-")) for w in words[:i])
                or word.rstrip("])").endswith("...")
                or (i + 1 < len(words) and words[i + 1].rstrip("])") == "..."),
            )
            if parsed is None:
                bare = word.strip("[]<>.").lower()
                if bare in ("command", "subcommand", "cmd"):
                    after_command = True
                continue
            if after_command:
                continue  # "COMMAND [ARGS]...": the subcommand's operands, not ours
            name, optional, variadic = parsed
            optional = optional or any(kinds.get(g) == "[" or g in partial for g in groups[i])
            if "/" in name and "|" not in name and name.split("/")[0].lower() in line_keys:
                continue  # "TYPE [NAME] | TYPE/NAME": the same operands written as one word
            if (
                alternative_to is not None
                and alternative_to in new_on_line
                and groups[i]
                and groups[i] == last_group
            ):
                # "[<number> | <url> | <branch>]": one operand given one of several ways.
                merged = found.pop(alternative_to)
                required_in.pop(alternative_to, None)
                name = f"{merged.name}|{name}"
                variadic = variadic or merged.variadic
            key = alias.get(name.lower(), name.lower())
            last, last_group = key, groups[i]
            again = key in line_keys  # named twice in one form: "<commit> [<commit>...] <commit>"
            if key not in line_keys:
                line_keys.append(key)
            if not optional and key not in required_here:
                required_here.add(key)
                required_in[key] = required_in.get(key, 0) + 1
            if key in found:
                if key in new_on_line or again:
                    # "NAME|ID [NAME|ID...]", or the same operand twice ("diff snapshotID snapshotID")
                    found[key] = replace(found[key], variadic=True)
                continue
            new_on_line.add(key)
            kind = guess_type(name) if "|" not in name else "string"
            found[key] = Positional(
                name=name,
                variadic=variadic,
                type=kind if kind in ("path", "integer") else "string",
            )
        if first_keys is not None and new_on_line:
            _place_before_known(found, line_keys, new_on_line)
        if first_keys is None:
            first_keys = line_keys
        elif (
            len(line_keys) >= 2
            and len(line_keys) == len(first_keys)
            and set(line_keys) == new_on_line
        ):
            # one operand per form is too little shape to say two forms mean the same operands
            _merge_forms(found, required_in, first_keys, line_keys)
            alias.update((b, a) for a, b in zip(first_keys, line_keys) if a != b)
    # Required only when every usage form requires it: "rg --files" needs no PATTERN.
    return tuple(replace(p, required=required_in.get(k, 0) >= counted) for k, p in found.items())


def _place_before_known(found: dict[str, Positional], line: list[str], new: set[str]) -> None:
    """A later form's new operand goes where that form puts it: before the first operand it names
    after it that an earlier form already gave (``tool -f progfile file ...`` then ``tool 'program'
    file ...``: the program comes before the files, not after them)."""
    order = list(found)
    for i, key in enumerate(line):
        if key not in new or key not in found:
            continue
        after = next((k for k in line[i + 1 :] if k in found and k not in new), None)
        if after is not None:
            order.remove(key)
            order.insert(order.index(after), key)
    placed = {key: found[key] for key in order}
    found.clear()
    found.update(placed)


def _merge_forms(
    found: dict[str, Positional], required_in: dict[str, int], first: list[str], other: list[str]
) -> None:
    """A later form with as many operands, all new, spells the same operands another way.

    ``docker cp CONTAINER:SRC_PATH DEST_PATH|-`` and ``docker cp SRC_PATH|- CONTAINER:DEST_PATH``
    take a source and a destination each: two operands, ``CONTAINER:SRC_PATH|SRC_PATH`` first.
    """
    for a, b in zip(first, other):
        if a not in found or b not in found or a == b:
            continue
        extra = found.pop(b)
        found[a] = replace(
            found[a],
            name=f"{found[a].name}|{extra.name}",
            variadic=found[a].variadic or extra.variadic,
            type="string",
        )
        required_in[a] = required_in.get(a, 0) + required_in.pop(b, 0)


_USAGE_FLAG = re.compile(
    r"""
    (?P<spell>--\[no-\][A-Za-z0-9][\w-]*   # git: --[no-]keep-index
      |--?[A-Za-z0-9][\w-]*)               # -v, --speed
    (?:=(?P<eq>[<\w>-]+)                   # --speed=<kn>
      |\[=(?P<opt>[^\]]+)\])?              # --color[=<when>]
    """,
    re.VERBOSE,
)


def usage_flags(lines, *, prog: tuple[str, ...]) -> list[Flag]:
    """Flags spelled out on usage lines, short and long apart unless the line pairs them.

    docopt's ``[--speed=<kn>]``, BSD's clusters of switches ``[-46AaC]`` (one flag per
    letter), ``[-B bind_interface]`` (a flag and its value alone in a bracket), git's
    ``(-m | --message) <message>`` and ``--[no-]keep-index``; ``-q | --quiet`` is one flag.
    """
    found: dict[str, dict] = {}
    pairs: list[tuple[str, str]] = []
    for line in list(lines)[:40]:
        words = _skip_prog(split_usage(line), prog)
        previous_short = ""
        for i, word in enumerate(words):
            cluster = re.fullmatch(r"\[-([A-Za-z0-9]{2,})\]", word)
            if cluster:
                for letter in cluster[1]:
                    found.setdefault("-" + letter, {})
                continue
            if word != "|" and not word.startswith(("|", "-", "[-", "(-", "[(-")):
                previous_short = ""
            for match in _USAGE_FLAG.finditer(word):
                if match.start() and word[match.start() - 1] not in "[(|":
                    continue
                spell = match["spell"]
                negated = spell.startswith("--[no-]")
                if negated:
                    spell = "--" + spell[len("--[no-]") :]
                if spell == "--":
                    continue
                value = match["eq"] or match["opt"]
                nxt = words[i + 1] if i + 1 < len(words) else ""
                tail = word[match.end() :]
                if not value and tail.strip(")]") == "" and not tail.startswith("]"):
                    if re.fullmatch(r"<[\w -]+>\]?\)?", nxt):
                        value = nxt.rstrip("])")  # "-F <file>", "(-m | --message) <message>"
                    elif (
                        word.startswith("[")
                        and re.fullmatch(r"[\w@:./\[\]-]+\]", nxt)
                        and nxt.count("[") < nxt.count("]")
                    ):
                        value = nxt[:-1]  # ssh: "[-B bind_interface]"
                if (
                    not value
                    and word.startswith("[")
                    and not tail
                    and i + 2 < len(words)
                    and words[i + 2] == "|"
                ):
                    choices = _choices_after(words, i + 1)  # ssh-keygen: "[-t dsa | ecdsa | rsa]"
                    if choices:
                        found.setdefault(spell, {}).setdefault("choices", choices)
                        value = "type"
                entry = found.setdefault(spell, {})
                if value and "value" not in entry:
                    entry.update(value=value, optional=bool(match["opt"]))
                if negated:
                    entry["negation"] = "--no-" + spell[2:]
                if len(spell) == 2 and tail.rstrip(")]") == "":
                    previous_short = spell
                elif (
                    spell.startswith("--")
                    and previous_short
                    and spell[2:3].lower() == previous_short[1].lower()
                ):
                    pairs.append((previous_short, spell))  # "-q | --quiet": one flag
                    previous_short = ""
    shorts_of = {long: short for short, long in pairs if short in found and long in found}
    paired = set(shorts_of.values())
    out: list[Flag] = []
    for spell, entry in found.items():
        if spell in paired:
            continue
        value = entry.get("value")
        short = shorts_of.get(spell)
        if value is None and short is not None:
            value = found[short].get("value")  # "(-m | --message) <message>"
        is_long = spell.startswith("--")
        out.append(
            Flag(
                long=spell if is_long else None,
                short=short if is_long else (spell if len(spell) == 2 else None),
                aliases=((entry["negation"],) if "negation" in entry else ())
                + (() if is_long or len(spell) == 2 else (spell,)),
                takes_value=bool(value),
                value_optional=bool(entry.get("optional")),
                value_name=value.strip("<>") if value else None,
                type=("enum" if entry.get("choices") else guess_type(value))
                if value
                else "boolean",
                choices=entry.get("choices", ()),
            )
        )
    return out


def _choices_after(words: list[str], start: int) -> tuple[str, ...]:
    """``dsa | ecdsa | rsa]`` from ``start``: a flag's choices spelled as alternatives, or ()."""
    out: list[str] = []
    i = start
    while i < len(words):
        word = words[i]
        bare = word.rstrip("]")
        if not _CHOICE_WORD.fullmatch(bare):
            return ()
        out.append(bare)
        if word.endswith("]"):
            return tuple(out) if len(out) > 1 else ()
        if i + 1 >= len(words) or words[i + 1] != "|":
            return ()
        i += 2
    return ()


def usage_literals(lines, *, prog: tuple[str, ...]) -> list[str]:
    """Literal subcommand words of docopt usage lines: ``naval_fate ship new <name>`` -> ship."""
    out: list[str] = []
    for line in list(lines)[:40]:
        words = _skip_prog(split_usage(line), prog)
        if (
            words
            and re.fullmatch(r"[a-z][a-z0-9_-]*", words[0])
            and not _NOT_OPERANDS.match(words[0])
            and 0 not in _prose_words(words, prog)  # (the tool's name again: another form)
        ):
            if words[0] not in out:
                out.append(words[0])
    return out


def usage_subcommands(lines, *, prog: tuple[str, ...]) -> dict[str, str]:
    """Subcommand words of parse-options usage lines, each with its line.

    ``git remote [-v | --verbose] show [-n] <name>`` -> ``{"show": line}``; groups holding
    flags are stepped over, and ``git stash [push [-p] ...]`` counts too. Lines of other
    commands (git log -h also shows ``git show``) are left out.
    """
    out: dict[str, str] = {}
    for line in list(lines)[:60]:
        words = split_usage(line)
        if len(words) <= len(prog) or tuple(words[: len(prog)]) != tuple(prog):
            continue
        rest = words[len(prog) :]
        groups = _groups(rest)
        flagged = {g for word, gs in zip(rest, groups) if _is_flag_word(word) for g in gs}
        prose = _prose_words(rest, prog)
        for i, word in enumerate(rest):
            if i in prose:
                continue  # a remark ("[more options; see below]") names no subcommand
            bare = word.lstrip("[(")
            opens_group = word[:1] in "[(" and re.fullmatch(r"[a-z][a-z0-9-]*", bare)
            if flagged & set(groups[i]) and not opens_group:
                continue
            if re.fullmatch(r"[a-z][a-z0-9-]*", bare) and not _NOT_OPERANDS.match(bare):
                out.setdefault(bare, line)
            break  # only the first word that is not an option group can name a subcommand
    return out
