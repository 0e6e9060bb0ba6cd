"""man pages: roff source (``.SH OPTIONS``, ``.TP``, ``\\fB..\\fR``) or text rendered by ``man -P cat``.

Roff is first turned into the text ``man`` would print (headings flush left,
option tags at 7 columns, descriptions at 14), so one reading serves both.
"""

from __future__ import annotations

import re

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, _prose_before_options, assemble, read_parts
from wrapgen.parse.exit_status import exit_statuses
from wrapgen.parse.options import tidy_flags
from wrapgen.parse.registry import register_parser
from wrapgen.parse.sections import indent_of
from wrapgen.parse.styles.gnu import without_operators

__all__ = [
    "parse_man",
    "roff_to_text",
    "man_page_commands",
    "bullet_commands",
    "tagged_commands",
]

# SYNOPSIS is read here, not by the shared usage splitter: its paragraphs are whole usage lines.
RULES = Rules(
    usage=r"^$never",
    description=r"^description$",
    examples=r"^examples?$",
    skip=r"^(?:name|synopsis|see also|authors?|reporting bugs|copyright|bugs|history|"
    r"exit status|files|environment|version|homepage)$",
)

_ROFF_ESCAPES = re.compile(
    r"""
    \\f(?:\[[^\]]*\]|\(..|.)     # font changes: \fB \fI \fR \fP \f(CW \f[B]
  | \\s[+-]?\d                  # size changes
  | \\\*(?:\[[^\]]*\]|\(..|.)   # predefined strings
  | \\[&%|^c,/]                 # zero-width marks and italic corrections
  | \\"[^\n]*                   # comment to end of line
    """,
    re.VERBOSE,
)
_NAMED = {
    "em": "--",
    "en": "-",
    "aq": "'",
    "dq": '"',
    "lq": '"',
    "rq": '"',
    "oq": "'",
    "cq": "'",
    "hy": "-",
    "mi": "-",
    "bu": "*",
    "ti": "~",
    "ha": "^",
    "rs": "\\",
    "co": "(C)",
    "bv": "|",
    "ga": "`",
    "at": "@",
    "sh": "#",
    "Fo": "<<",
    "Fc": ">>",
    "lh": "<=",
    "rh": "=>",
    "<=": "<=",
    ">=": ">=",
}
_FONT_MACROS = {".B", ".I", ".BR", ".BI", ".IB", ".IR", ".RB", ".RI", ".SM", ".SB"}


# Every other escape, read left to right in one pass, so that the backslash ``\e`` stands for
# is never read again as the start of an escape (``\en`` is the two characters ``\n``).
_ESCAPE = re.compile(r"\\(?:\((?P<two>..)|\[(?P<long>[^\]]*)\]|(?P<one>.))")
_SINGLE = {"e": "\\", "\\": "\\", "-": "-", " ": " ", "~": " ", "0": " ", "'": "'", "`": "`"}


def _inline(text: str) -> str:
    if "\\" not in text:
        return text
    text = _ROFF_ESCAPES.sub("", text)

    def one(match: re.Match) -> str:
        name = match["two"] or match["long"]
        if name is not None:
            return _NAMED.get(name, "")
        return _SINGLE.get(match["one"], match["one"])

    return _ESCAPE.sub(one, text)


# An italic word in an option's tag is its value: "\-maxdepth \fIlevels\fR", "\-O\fIlevel\fR",
# and find's "\fI\-n\fP" (a numeric argument, no option). Marked "<levels>" as help would print it.
_ITALIC = re.compile(r"\\fI(.+?)\\f[RPB]")
_VALUE_WORD = re.compile(r"(?:\\-|\+)?[A-Za-z][\w.]*(?:\\-\w+)*")


def _mark_values(tag: str) -> str:
    """A tag with each lone italic word marked; a word with several (tar's ``MAJOR[.MINOR]``,
    both italic) is a value spelled out already and stays as it is."""
    if "\\fI" not in tag:
        return tag

    def mark(match: re.Match) -> str:
        word = re.sub(r"\\[,/&]", "", match[1])
        return f"<{word}>" if _VALUE_WORD.fullmatch(word) else match[0]

    return " ".join(
        _ITALIC.sub(mark, token) if len(_ITALIC.findall(token)) == 1 else token
        for token in tag.split(" ")
    )


# mdoc (BSD man pages: ssh, scp, tmux): macros that only style the words after them.
_MDOC_TEXT = {
    "Ar",
    "Cm",
    "Li",
    "Ic",
    "Pa",
    "Ev",
    "Va",
    "Em",
    "Sy",
    "No",
    "Dv",
    "Ql",
    "Ad",
    "Fn",
    "Fa",
    "Ft",
    "Er",
    "An",
    "Lk",
    "Mt",
    "Tn",
    "Ms",
    "Sx",
    "Xr",
    "At",
    "Bx",
    "Nx",
    "Ox",
    "Fx",
}
_MDOC_LAYOUT = {
    ".Bl",
    ".El",
    ".Sm",
    ".Xo",
    ".Xc",
    ".Bd",
    ".Ed",
    ".Dd",
    ".Dt",
    ".Os",
    ".Ek",
    ".Bk",
    ".Ft",
    ".Fd",
    ".In",
    ".Rs",
    ".Re",
    ".%A",
    ".%T",
    ".%D",
    ".%N",
    ".%J",
    ".%R",
    ".%O",
}
_MDOC_WRAP = {
    "Op": ("[", "]"),
    "Pq": ("(", ")"),
    "Dq": ('"', '"'),
    "Qq": ('"', '"'),
    "Sq": ("'", "'"),
    "Aq": ("<", ">"),
    "Bq": ("[", "]"),
    "Brq": ("{", "}"),
}


# The macro names an mdoc line may hold after its first: what is not one of these is an argument.
_MDOC_MACROS = frozenset(
    {*_MDOC_TEXT, *_MDOC_WRAP, "Fl", "Ns", "Nm", "Oo", "Oc", "Pc", "Dc", "Qc", "Ac", "Bc", "Ux"}
)


def _mdoc(words: list[str], name: str) -> str:
    """One mdoc macro line as text: ``Op Fl B Ar bind_interface`` -> ``[-B bind_interface]``."""
    out: list[str] = []
    closers: list[str] = []
    glue = False
    i = 0
    while i < len(words):
        word = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        piece = None
        if word == "Fl":
            if nxt is not None and not (
                nxt in _MDOC_TEXT or nxt in _MDOC_WRAP or nxt in ("Fl", "Ns", "Oc", "Nm")
            ):
                piece, i = "-" + nxt, i + 1
            else:
                piece = "-"
        elif word == "Nm":
            if nxt is not None and nxt[:1].islower():
                piece, i = nxt, i + 1
            else:
                piece = name
        elif word in _MDOC_WRAP:
            opener, closer = _MDOC_WRAP[word]
            out.append(opener)
            closers.append(closer)
            glue = True
        elif word == "Oo":
            out.append("[")
            glue = True
        elif word in ("Oc", "Pc", "Dc", "Qc", "Ac", "Bc"):
            out.append({"Oc": "]", "Pc": ")", "Ac": ">", "Bc": "]"}.get(word, '"'))
        elif word == "Ns":
            glue = True
        elif word == "Ux":
            piece = "UNIX"
        elif word == "Ar" and (nxt is None or nxt in _MDOC_MACROS):
            piece = "file ..."  # mdoc: an .Ar with no argument stands for "file ..."
        elif word in _MDOC_TEXT:
            pass
        else:
            piece = word
        if piece is not None:
            if out and (glue or re.fullmatch(r"[,.;:)\]]+", piece)):
                out[-1] += piece
            else:
                out.append(piece)
            glue = False
        elif out and out[-1] in ("[", "(", '"', "<", "{"):
            glue = True
        i += 1
    text = " ".join(out)
    text = re.sub(r"([\[(<{]) ", r"\1", text)
    text = re.sub(r" ([\])>}])", r"\1", text)
    return text + "".join(reversed(closers))


_BULLETS = ("\\(bu", "\\[bu]", "\\(ci", "\\[ci]", "-", "*", "Bullet", "Dash", "Enum")
_RONN_HEADING = re.compile(r"\s##\s+([A-Z][A-Z0-9 ]*[A-Z0-9])$")
_RONN_GLUED = re.compile(r"^(-[A-Za-z0-9])[a-z]+$")  # "-Ldirectory": -L with its value glued on


def _ronn_tags(text: str) -> list[str] | None:
    """A ronn bullet's option tag as option-table specs, or None when it names no option.

    ``--compact-output / -c:`` -> ``--compact-output, -c``; ``-f filename / --from-file filename``
    -> ``-f <filename>, --from-file <filename>`` (ronn sets value names in the same bold as the
    option, so only their place says they are values); ``A and B`` are two options, one tag each.
    """
    text = text.strip().removesuffix(":").strip()
    if not text.startswith("-"):
        return None
    tags = []
    for alternative in re.split(r"\s+and\s+(?=-)", text):
        parts = [p.split() for p in re.split(r"\s*/\s*(?=-)", alternative) if p.strip()]
        spelled = {p[0] for p in parts}
        specs = []
        for words in parts:
            if not words[0].startswith("-"):
                return None
            glued = _RONN_GLUED.match(words[0])
            if glued and len(words) == 1 and glued[1] in spelled:
                continue  # "-Ldirectory / -L directory": the same option written twice
            specs.append(
                " ".join([words[0], *(w if w[0] in "<[" else f"<{w}>" for w in words[1:])])
            )
        tags.append(", ".join(specs))
    return tags


def _macro_args(rest: str) -> list[str]:
    # An escaped space ("\ ") does not end an argument: ps(1)'s ".BI \-C \ cmdlist" has two.
    args = re.findall(r'"((?:[^"]|"")*)"|((?:\\.|\\$|[^\s\\])+)', rest)
    return [a or b for a, b in args]


def _mark_italic_arg(arg: str) -> str:
    """An italic argument of ``.BI``/``.RI`` in a tag, marked as a value when it is one word."""
    lead = re.match(r"(?:\\ )*", arg)[0]
    word = re.sub(r"\\[,/&]", "", arg[len(lead) :])
    return f"{lead}<{word}>" if _VALUE_WORD.fullmatch(word) else arg


def roff_to_text(source: str) -> str:
    """Roff (man macros) as the plain text ``man -P cat`` would show, near enough to parse."""
    out: list[str] = []
    indent = 7
    pending_tag = False
    fill = True  # roff joins the lines of a paragraph unless .nf says otherwise
    name = ""  # mdoc's .Nm with no argument repeats the first name given
    xo: list[str] | None = None  # mdoc: the pieces of an ".It ... Xo" tag until ".Xc"
    spaced = True  # mdoc's .Sm off joins words without spaces
    depth = 0  # .RS nesting: each level indents by 7
    joinable = False  # the last output line is running paragraph text
    bullet = False  # the last macro was a bullet ".IP": ronn's option tags follow one
    synopsis = False  # inside the SYNOPSIS section
    for raw in source.split("\n")[:50_000]:
        line = raw.rstrip()
        if line.startswith(('.\\"', "'\\\"", '\\"')) or line in (".", "'"):
            continue
        if line.startswith((".", "'")) and len(line) > 1:
            parts = line[1:].split(None, 1)
            macro = "." + (parts[0] if parts else "")
            rest = parts[1] if len(parts) > 1 else ""
            inline_macro = macro in _FONT_MACROS or (
                len(macro) == 3
                and macro[1].isupper()
                and macro[2].islower()
                and macro not in _MDOC_LAYOUT
                and macro not in (".Sh", ".Ss", ".It", ".Pp", ".Nd", ".Xc", ".Sm")
            )
            joinable = joinable and inline_macro
            if macro in (".nf", ".EX"):
                fill = False
            elif macro in (".fi", ".EE"):
                fill = True
            if macro in (".SH", ".SS", ".Sh", ".Ss"):
                title = " ".join(_inline(a) for a in _macro_args(rest)).strip()
                if macro in (".SH", ".Sh"):
                    synopsis = title.upper() == "SYNOPSIS"
                out.extend(["", title + (":" if macro in (".SS", ".Ss") else ""), ""])
                indent, pending_tag, depth = 7, False, 0
                continue
            if macro in (".TP", ".TQ"):
                pending_tag = True
                out.append("") if macro == ".TP" else None
                continue
            if macro in (".IP", ".It"):
                args = _macro_args(rest)
                out.append("")
                if macro == ".It" and args and args[-1] == "Xo":
                    xo = [_mdoc(args[:-1], name)]  # the tag goes on until .Xc
                    continue
                if (
                    macro == ".It"
                    and args
                    and args[0] in ("Fl", "Cm", "Ar", "Op", "Nm", "Ic", "Li", "Pa", "Ev")
                ):
                    out.append(
                        " " * 7 + _inline(_mdoc(args, name))
                    )  # mdoc: ".It Fl B Ar bind_interface"
                    indent = 14
                elif args and args[0] not in _BULLETS:
                    out.append(" " * 7 + _inline(_mark_values(args[0])))
                    indent = 14
                bullet = macro == ".IP" and bool(args) and args[0] in _BULLETS
                joinable = False
                continue
            if macro == ".Sm":
                spaced = rest.strip() != "off"
                if xo is not None and not spaced:
                    xo.append("")  # what follows is a new word, glued together from here on
                continue
            if macro == ".Xc" and xo is not None:
                out.append(" " * 7 + _inline(" ".join(p for p in xo if p)))
                xo, indent, joinable = None, 14, False
                continue
            if xo is not None:
                piece = _mdoc([macro[1:]] + _macro_args(rest), name)
                if piece:
                    if spaced or not xo:
                        xo.append(piece)
                    else:
                        xo[-1] += piece  # .Sm off: "[bind_address:]port"
                continue
            if macro in _MDOC_LAYOUT:
                continue
            if macro == ".Nm" and not name and rest.split():
                name = rest.split()[0]
            if macro == ".Nm" and synopsis and out and out[-1].strip():
                # mdoc's SYNOPSIS begins each form of the command with .Nm: a usage line of its own
                out.append("")
                joinable = False
            if macro == ".Nd":
                if out and out[-1].strip():
                    out[-1] += " - " + _inline(rest)
                else:
                    out.append(" " * indent + "- " + _inline(rest))
                continue
            if macro == ".RS":  # docbook pages: ".PP" tag, then ".RS 4" description ".RE"
                depth += 1
                indent = 7 + 7 * depth
                joinable = False
                continue
            if macro == ".RE":
                depth = max(0, depth - 1)
                indent = 7 + 7 * depth
                joinable = False
                continue
            if macro in (".PP", ".LP", ".P", ".sp", ".Pp"):
                out.append("")
                indent = 7 + 7 * depth
                continue
            if macro in _FONT_MACROS:
                args = _macro_args(rest)
                if pending_tag and macro in (".BI", ".RI", ".IB", ".IR"):
                    italic = (
                        1 if macro in (".BI", ".RI") else 0
                    )  # the alternating macros' italic turns
                    args = [
                        _mark_italic_arg(a) if i % 2 == italic else a for i, a in enumerate(args)
                    ]
                joiner = " " if macro in (".B", ".I", ".SM", ".SB") else ""
                text = _inline(joiner.join(args))
            elif len(macro) == 3 and macro[1].isupper() and macro[2].islower():
                text = _inline(
                    _mdoc([macro[1:]] + _macro_args(rest), name)
                )  # mdoc: ".Ar destination ,"
            else:
                continue  # .TH, .RS, .RE, .nf, .fi, .br, .in, .ad ... change layout only
        else:
            text = _inline(_mark_values(line) if pending_tag else line)
        text = text[:-1] if text.endswith("\\") else text  # an escaped newline joins lines
        heading = _RONN_HEADING.search(text)
        if heading:  # ronn left a markdown heading in running text: jq's "simpler: ## INVOKING JQ"
            text = text[: heading.start()]
            out.extend(
                ([" " * indent + text.strip()] if text.strip() else []) + ["", heading[1], ""]
            )
            indent, pending_tag, depth, bullet, joinable = 7, False, 0, False, False
            continue
        tags = _ronn_tags(text) if bullet else None
        bullet = False
        if tags:  # ronn (jq): a bullet whose first line is "--slurp/-s:" is an option's tag
            out.extend(" " * 7 + tag for tag in tags)
            indent, joinable = 14, False
            continue
        if pending_tag:
            out.append(" " * 7 + text.strip())
            pending_tag = False
            indent = 14
            joinable = False
            continue
        if not text.strip():
            out.append("")
            joinable = False
        elif joinable and fill:
            out[-1] += " " + text.strip()
        else:
            # .nf keeps a line's own leading spaces: git(1)'s synopsis indents its continuations
            out.append(" " * indent + (text.strip() if fill else text.rstrip()))
            joinable = fill
    return "\n".join(out)


# Top-level sections that describe the command line; others (tmux's COMMANDS, KEY BINDINGS,
# FORMATS) quote flags of other things and would read as noise. Whole words: find(1)'s
# "UNUSUAL FILENAMES" is no NAME.
_KEEP = re.compile(
    r"""
    \b(?:
      NAME|SYNOPSIS|DESCRIPTION    # summary, usage and (often) the options themselves
    | OPTIONS?|FLAGS?|ARGUMENTS    # "OPTIONS", "GLOBAL OPTIONS", "FLAGS"
    | INVOKING                     # jq's "INVOKING JQ" (GNU's "Invoking ls" too)
    | EXAMPLES?|USAGE|COMMAND.LINE # "EXAMPLES", "COMMAND LINE OPTIONS"
    | SUBCOMMANDS?$                # a listing of this command's own subcommands
    )\b
    """,
    re.VERBOSE,
)
_EXAMPLES = re.compile(r"^EXAMPLES?\b")
# A tagged paragraph as man renders it: the tag at 7 columns, its text at 14 on the next line.
_TAG = re.compile(r"^ {7}(\S.*)\n {14}\S", re.MULTILINE)


def _is_option_table(lines: list[str]) -> bool:
    """Whether most tagged paragraphs of a section are options: ps(1) files its options under
    "SIMPLE PROCESS SELECTION" and "OUTPUT FORMAT CONTROL", find(1) its primaries under
    "EXPRESSION"; a BSD option without a dash ("a", "x") is among them. Only tags that are words
    weigh against: find's nested lists of format directives ("%p", "b") do not."""
    tags = _TAG.findall("\n".join(lines))
    dashed = sum(1 for tag in tags if tag.startswith("-"))
    words = sum(1 for tag in tags if re.match(r"[A-Za-z]{2}", tag))
    return dashed >= 2 and dashed >= words


def _option_sections(text: str) -> str:
    """The text without the top-level sections that do not describe this command's options.

    A subsection (``.SS``, rendered with a colon) goes with its section; inside EXAMPLES, its
    title is kept as text so that the examples under it stay examples (find(1)'s "Simple
    `find|xargs` approach:" is no option table)."""
    blocks: list[tuple[str, list[str]]] = [("", [])]
    for line in text.split("\n"):
        if (
            line[:1].isalpha() and line.isupper() and len(line) < 60 and not line.endswith(":")
        ):  # a .SH heading
            blocks.append((line, []))
        blocks[-1][1].append(line)
    kept: list[str] = []
    for title, lines in blocks:
        if title and not _KEEP.search(title) and not _is_option_table(lines):
            continue
        if _EXAMPLES.match(title):
            lines = [lines[0]] + [
                " " * 7 + line if line[:1].isalpha() and line.endswith(":") else line
                for line in lines[1:]
            ]
        kept.extend(lines)
    return "\n".join(kept)


# ronn (jq) writes the description into SYNOPSIS: a paragraph of sentences is not a usage line.
_PROSE = re.compile(
    r"[a-z]{2}\.(?:\s+[A-Z]|$)"
)  # "... JSON documents. For instance", "... instead."


def _synopsis(sections, *, broken: bool = False) -> list[str]:
    """Usage lines: the paragraphs of SYNOPSIS and its subsections ("Traditional usage:").

    ``broken``: the text came from roff, where a line of a paragraph at its first line's indent
    was begun by ``.br`` (gzip(1): "gzip ...", "gunzip ...", "zcat ..."); deeper lines go on the
    line before (git(1)'s ``.nf`` synopsis). Rendered text wraps, so its paragraphs are joined."""
    lines: list[str] = []
    inside = False
    for section in sections:
        if section.key == "synopsis":
            inside = True
        elif inside and not section.title.endswith(":") and section.title.isupper():
            break  # the next .SH
        elif not inside:
            continue
        for para in "\n".join(section.lines).split("\n\n"):
            rows = [row for row in para.split("\n") if row.strip()]
            starts = [0]
            if broken and rows:
                base = indent_of(rows[0])
                starts = [i for i, row in enumerate(rows) if indent_of(row) <= base]
            for begin, end in zip(starts, starts[1:] + [len(rows)]):
                line = " ".join(" ".join(rows[begin:end]).split())
                if line and not _PROSE.search(line):
                    lines.append(line)
    return lines[:20]


def _is_roff(text: str) -> bool:
    return bool(re.search(r"^\.(?:TH|SH|Dd|Sh|TP|PP)\b", text[:20_000], re.MULTILINE))


# one entry of a NAME section: "name - what it does" ("git-log - Show commit logs", "a, b \- both")
_NAME_ENTRY = re.compile(
    r"^[ \t]*[\w.+-]+(?:[ \t]*,[ \t]*[\w.+-]+)*[ \t]+\\?-+[ \t]+", re.MULTILINE
)


@register_parser("man")
def parse_man(text: str, *, prog: tuple[str, ...]) -> Command:
    """Flags from every section's tagged paragraphs; summary from NAME; usage from SYNOPSIS."""
    roff = _is_roff(text)
    if roff:
        text = roff_to_text(text)
    pages = (
        man_page_commands(text, prog=prog)
        + bullet_commands(text, prog=prog)
        + tagged_commands(text, prog=prog)
    )
    statuses = exit_statuses(text)  # before _option_sections drops the EXIT STATUS section
    text = _option_sections(text)
    parts = read_parts(text, prog=prog, rules=RULES)
    summary = ""
    match = re.search(r"^NAME:?\n\s*\n?\s*(.+?)(?:\n\s*\n|\Z)", text, re.MULTILINE | re.DOTALL)
    if match:
        body = match[1]
        # a page for several programs names each on a line of its own ("dot - filter for drawing
        # directed graphs" / "neato - filter for drawing undirected graphs"): the first is this one's
        starts = [m.start() for m in _NAME_ENTRY.finditer(body)]
        if len(starts) > 1:
            body = body[: starts[1]]
        name_line = " ".join(body.split())
        halves = re.split(r"\s+\\?-+(?:\s+|$)", name_line, maxsplit=1)
        summary = (
            halves[-1] if len(halves) > 1 else name_line
        )  # "aws -": a name with no description
    parts.usage = _synopsis(parts.sections, broken=roff)
    described = [sec for sec in parts.sections if sec.key == "description"]
    if described:
        parts.prose = [_prose_before_options(described[0].lines)]
    command = assemble(parts, prog=prog, style="man")
    if command.global_flags and not command.subcommands and not pages:
        # find(1)'s "GLOBAL OPTIONS" are global to its expression: with no subcommands to
        # inherit them, a page's global flags are its own.
        command = command.with_changes(flags=command.flags + command.global_flags, global_flags=())
    command = command.with_changes(
        flags=without_operators(tidy_flags(command.flags, beside=command.global_flags)),
        global_flags=tuple(f for f in command.global_flags if not _names_a_list(f)),
    )  # find(1): "-not expr"
    command = command.with_changes(flags=tuple(f for f in command.flags if not _names_a_list(f)))
    if summary:
        command = command.with_changes(summary=summary[:200])
    if statuses:
        command = command.with_changes(exit_status=statuses)
    known = {s.name for s in command.subcommands}
    extra = tuple(page for page in pages if page.name not in known)
    if extra:
        command = command.with_changes(subcommands=command.subcommands + extra)
    return command


def _names_a_list(flag) -> bool:
    """Whether a "flag" is a sentence's list of flags ("These flags are available to all commands:
    --account, --billing-project, --configuration, ..." wrapped so that a line starts with one):
    no one option has more than four long spellings."""
    return sum(1 for s in flag.spellings if s.startswith("--")) > 4


# A subsection heading a listing sits under, as man renders it: "   Syncing repositories:".
_SUBSECTION = re.compile(r"^ {3}(\S.{0,60}):$")
_NOT_LISTINGS = re.compile(r"^(?:SEE ALSO|NOTES|BUGS|AUTHORS?|FURTHER DOCUMENTATION)$")


def man_page_commands(text: str, *, prog: tuple[str, ...]) -> tuple[Command, ...]:
    """The subcommands a tool's man page lists as pages of their own: a tagged paragraph whose tag is
    just ``PROG-SUB(1)`` (git(1) lists ``git-upload-pack(1)``, which ``git help -a`` leaves out),
    with its description as summary and the heading above it as group; SEE ALSO does not count."""
    if _is_roff(text):
        text = roff_to_text(text)
    tag = re.compile(r"^ {4,8}" + re.escape("-".join(prog)) + r"-([a-z0-9][a-z0-9-]*)\(1\)\s*$")
    found: dict[str, Command] = {}
    group = ""
    skipping = False
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line[:1].isalpha():
            skipping = bool(_NOT_LISTINGS.match(line.strip()))
            group = line.strip().rstrip(":")
            continue
        heading = _SUBSECTION.match(line.rstrip())
        if heading:
            group = heading.group(1)
            continue
        match = tag.match(line)
        if skipping or not match or match.group(1) in found:
            continue
        summary = []
        for follow in lines[index + 1 : index + 6]:
            if not follow.strip():
                break
            summary.append(follow.strip())
        name = match.group(1)
        found[name] = Command(
            path=(*prog[1:], name),
            summary=" ".join(summary)[:200].rstrip("."),
            group=group,
            stub=True,
        )
    return tuple(found.values())


# Pages written by docutils' man writer list commands as bullets under "AVAILABLE SERVICES" /
# "AVAILABLE COMMANDS": "       o accessanalyzer".
_BULLET_HEADING = re.compile(r"^(?:AVAILABLE\s+)?(?:SUB)?(?:COMMANDS|SERVICES)$")
_BULLET_ITEM = re.compile(r"^\s{2,}[o*\u2022+-]\s+([a-z0-9][\w.-]*)\s*$")


def bullet_commands(text: str, *, prog: tuple[str, ...]) -> tuple[Command, ...]:
    """Subcommands a man-style page lists as bare bullets under a commands heading."""
    found: dict[str, Command] = {}
    heading = ""
    for line in text.split("\n"):
        if line[:1].isalpha():
            heading = line.strip()
            continue
        if not _BULLET_HEADING.match(heading):
            continue
        match = _BULLET_ITEM.match(line)
        if match and match.group(1) not in found and match.group(1) != "help":
            name = match.group(1)
            found[name] = Command(path=(*prog[1:], name), group=heading.title(), stub=True)
    return tuple(found.values())


# Pages rendered in man's layout by the tool itself list commands, and groups of commands, as
# tagged paragraphs under "COMMANDS" or "GROUPS": the name alone on its line, its summary below
# it, indented deeper ("     list\n        List properties ...").
_TAGGED_HEADING = re.compile(r"^(?:AVAILABLE\s+)?(?:SUB)?(?:COMMANDS|COMMAND GROUPS|GROUPS)$")
_TAGGED_ITEM = re.compile(r"^(?P<indent>\s{2,})(?P<name>[a-z0-9][\w.-]*)\s*$")


def tagged_commands(text: str, *, prog: tuple[str, ...]) -> tuple[Command, ...]:
    """Subcommands a man-style page lists as tagged paragraphs (a bare name, its summary indented
    below) under a commands or groups heading."""
    found: dict[str, Command] = {}
    heading = ""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line[:1].isalpha():
            heading = line.strip()
            continue
        if not _TAGGED_HEADING.match(heading):
            continue
        match = _TAGGED_ITEM.match(line)
        if not match or match["name"] in found or match["name"] == "help":
            continue
        summary = []
        for follow in lines[index + 1 : index + 6]:
            if not follow.strip() or indent_of(follow) <= len(match["indent"]):
                break
            summary.append(follow.strip())
        if not summary:
            continue  # a word alone on a line with nothing under it: no listing
        found[match["name"]] = Command(
            path=(*prog[1:], match["name"]),
            summary=" ".join(summary)[:200].rstrip("."),
            group=heading.title(),
            stub=True,
        )
    return tuple(found.values())
