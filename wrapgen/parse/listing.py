"""Subcommand listings: ``  name[, alias][:]   summary`` lines under a heading, as stubs."""

from __future__ import annotations

import re

from wrapgen.model.tool import Command
from wrapgen.parse.sections import indent_of
from wrapgen.parse.usage import usage_flags, usage_positionals

__all__ = ["parse_listing", "stub", "usage_list_commands", "form_and_help", "path_rows"]

# The most subcommands read from one listing: git help -a lists ~170, kubectl ~50.
MAX_STUBS = 2_000

_ENTRY = re.compile(
    r"""
    ^(?P<names>
        [A-Za-z0-9][\w.+-]*\*?              # the name; docker marks plugins "buildx*"
        (?:,[ ]?[A-Za-z0-9][\w.+-]*)*       # cargo: "build, b"
    )
    (?P<operands>(?:[ ](?:[\[<({]\S*|[A-Z][A-Z0-9_=.|\[\]-]*\S*|\.\.\.))*)  # systemctl: "start UNIT..."
    (?: :[ ]+                               # gh: "auth:    Authenticate ..."
      | [ ]:[ ]+                            # an archiver: "a : Add files to archive"
      | [ ]+-[ ]+                           # apt: "list - list packages based on ..."
      | [ ]{2,}                             # the usual gap
      | :?$                                 # name alone; the summary may follow below
      | (?P<tight>[ ])(?=[A-Z][a-z])        # systemctl: operands so long one space is left
    )
    (?P<summary>.*)$
    """,
    re.VERBOSE,
)


# npm's "All commands:": names separated by commas, wrapped over lines ("access, adduser, audit,").
_COMMAS = re.compile(r"^ {0,8}[a-z][\w.+-]*(?:, ?[a-z][\w.+-]*){2,},?$")
_COMMA_TAIL = re.compile(r"^ {0,8}[a-z][\w.+-]*(?:, ?[a-z][\w.+-]*)*,?$")
# (indented up to a tab stop: a script's "Commands are:" over rows that start with a tab)
_COLUMNS = re.compile(r"^ {0,8}[a-z][\w.+-]*(?: {2,}[a-z][\w.+-]*){2,} *$")
_COLUMN_TAIL = re.compile(r"^ {0,8}[a-z][\w.+-]*(?: {2,}[a-z][\w.+-]*)* *$")


# "(deprecated) Use x instead", "DEPRECATED: ...", "[deprecated]" at the start of a summary.
_DEPRECATED = re.compile(
    r"""
    ^\W*deprecated\b          # "(deprecated) use x instead", "DEPRECATED: ..."
  | [(\[]deprecated[)\]]      # "... [deprecated]"
    """,
    re.VERBOSE | re.IGNORECASE,
)


# cobra pads names to the longest one plus a single space: "rebuild-index Build a new index".
_TIGHT = re.compile(r"^(?P<names>[A-Za-z0-9][\w.+-]*) (?P<summary>\S.*)$")


def _summary_columns(lines) -> set[int]:
    """The columns the summaries of well-spaced entries start at (two spaces or more before them)."""
    columns: set[int] = set()
    for line in lines:
        text = line.strip()
        match = _ENTRY.match(text) if text else None
        if (
            match is not None
            and not match["tight"]
            and match["summary"].strip()
            and re.search(r"\S {2,}\S", text)
        ):
            columns.add(indent_of(line) + match.start("summary"))
    return columns


def stub(path: tuple[str, ...], *, summary: str = "", group: str = "", aliases=()) -> Command:
    """A subcommand known only from its parent's listing."""
    return Command(path=path, summary=summary, group=group, aliases=tuple(aliases), stub=True)


def _with_operands(found: Command, operands: str, *, prog: tuple[str, ...]) -> Command:
    """The stub with the operands its listing entry spells (systemctl's ``start UNIT...``) as its usage
    line and positionals: a command whose own help cannot be read still says what it works on."""
    words = operands.split()
    # "Start one unit" after one space is a summary, not operands; placeholders are capitals or bracketed
    if not words or any(re.match(r"[\[<({]*[A-Z][a-z]", w) for w in words):
        return found
    here = tuple(w for w in prog if w) + found.path[-1:]
    line = " ".join((*here, *words))
    positionals = usage_positionals([line], prog=here)
    if not positionals:
        return found
    return found.with_changes(usage=(line,), positionals=positionals)


# A heading inside a listing, over its own more deeply indented entries (an application
# framework's "Commands:" split into "Learn:", "Create an App:", "And More:"): capitalised words
# ending in a colon, no summary
_SUBHEADING = re.compile(r"^[A-Z][A-Za-z]*(?: [A-Za-z][\w'&/-]*)*:$")


# An entry spelled as a whole path of lower-case words, then a gap and its summary
_PATH_ENTRY = re.compile(
    r"^(?P<words>[a-z][\w-]*(?: [a-z][\w-]*){1,2}) {2,}(?P<summary>[A-Z]\S.*)$"
)


def _deeper_next(lines, index: int, indent: int) -> bool:
    """Whether the next line with text after ``lines[index]`` is indented deeper than ``indent``."""
    following = next((line for line in lines[index + 1 :] if line.strip()), "")
    return bool(following) and indent_of(following) > indent


def parse_listing(
    lines,
    *,
    parent: tuple[str, ...],
    group: str = "",
    max_indent: int = 12,
    prog: tuple[str, ...] = (),
) -> list[Command]:
    """Stubs for the entries of one listing section, in order.

    With ``prog``, entries spelled as whole command lines (yargs: ``tool serve [port]``)
    lose that prefix.
    """
    prefix = " ".join(prog) + " " if prog and prog[0] else ""
    stubs: list[Command] = []
    base: int | None = None
    names: list[str] = []
    summary: list[str] = []
    summary_col = 10_000
    in_columns = False
    in_commas = False  # the last line was part of a comma list and ended with a comma
    carried = ""  # a name the comma list's line broke at its hyphen ("remove-iam-policy-")
    aligned = _summary_columns(lines)

    operands = ""

    def flush():
        if names:
            text = " ".join(summary).strip()[:300]
            found = stub(parent + (names[0],), summary=text, group=group, aliases=names[1:])
            found = _with_operands(
                found, operands, prog=prog if prog and tuple(prog[1:]) == parent else parent
            )
            if _DEPRECATED.search(text):
                found = found.with_changes(deprecated=True)
            stubs.append(found)

    lines = list(lines)
    for index, line in enumerate(lines):
        text = line.strip()
        if not text:
            in_columns = in_commas = False
            continue
        ind = indent_of(line)
        if (
            names
            and ind > (base or 0)
            and (ind >= summary_col or base is not None and ind > base + 1)
        ):
            summary.append(text)  # a wrapped summary
            continue
        commas = _COMMAS.match(line) or (in_commas and _COMMA_TAIL.match(line))
        in_commas = bool(commas) and line.rstrip().endswith((",", "-"))
        if commas:
            flush()
            names, summary = [], []
            listed = [name.strip() for name in text.split(",")]
            listed[0], carried = carried + listed[0], ""
            if listed[-1].endswith("-"):
                carried = listed.pop()  # the name goes on at the next line's start
            stubs.extend(stub(parent + (name,), group=group) for name in listed if name)
            continue
        carried = ""
        columns = _COLUMNS.match(line) or (in_columns and _COLUMN_TAIL.match(line))
        in_columns = bool(columns)
        if columns and (ind == 0 or len(text.split()) >= 3 or in_columns):
            flush()
            names, summary = [], []
            stubs.extend(stub(parent + (name,), group=group) for name in text.split())
            continue  # openssl: names in columns, no summaries; the last row may hold one
        if _SUBHEADING.match(text) and _deeper_next(lines, index, ind):
            # "Create an App:" over more deeply indented entries: a heading inside the listing
            flush()
            names, summary, base, group = [], [], None, text[:-1].strip()
            continue
        if prefix and text.startswith(prefix):
            text = text[len(prefix) :]
        nested = _PATH_ENTRY.match(text)
        if nested and ind and ind <= max_indent:
            # "alarm disarm    Disarms all alarms": a command of the family "alarm", listed by its
            # whole path; the family is the subcommand here, and its own page lists the rest
            flush()
            names, summary = [], []
            family = nested["words"].split()[0]
            if not any(s.name == family for s in stubs):
                stubs.append(stub(parent + (family,), group=group))
            continue
        match = _ENTRY.match(text)
        if match is None or match["tight"] and not match["operands"]:
            # "name Word" with one space is prose, unless operands filled the column or the
            # summary starts where the other entries' summaries do (the longest name, padded by one)
            tight = _TIGHT.match(text)
            match = tight if tight and ind + tight.start("summary") in aligned else None
        if (
            match is None
            or ind > max_indent
            or ind == 0
            or text.startswith("-")
            or (base is not None and abs(ind - base) > 2)
        ):
            flush()
            names, summary = [], []
            continue
        flush()
        if len(stubs) >= MAX_STUBS:
            names = []
            break
        base = ind if base is None else base
        names = [n.strip().rstrip("*") for n in match["names"].split(",")]
        operands = match.groupdict().get("operands") or ""
        summary = [match["summary"].strip()] if match["summary"].strip() else []
        summary_col = ind + text.index(match["summary"]) if summary else 10_000
    flush()
    return [s for s in stubs if s.name not in ("...",)]


# A form of a usage list: the program, then its command word (maybe in brackets: "[ls]", the
# default one), then the rest of the form
_USAGE_FORM = re.compile(r"^(?P<prog>\S+)\s+\[?(?P<word>[a-z][a-z0-9-]*)\]?(?=\s|$)(?P<rest>.*)$")
# Words a form puts where a command would stand that are placeholders of the options or of a
# command still to come ("[options]", "[command]"), not command words
_NOT_COMMAND_WORDS = frozenset(
    "options option flags flag opts args arguments command commands subcommand".split()
)
# The fewest forms that make a list of commands rather than a tool's few ways to be called
MIN_USAGE_FORMS = 3


def form_and_help(line: str) -> tuple[str, str]:
    """A line's form and the help beside it after a gap of two spaces or more ("TOOL cmd ARG    Does
    it"), each with its blanks collapsed."""
    parts = re.split(r"(?<=\S)\s{2,}(?=\S)", line.strip(), maxsplit=1)
    form = " ".join(parts[0].split())
    return form, " ".join(parts[1].split()) if len(parts) > 1 else ""


def _forms_below_their_help(lines, prog: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """``[(word, form, [help])]`` of a listing that gives each command's help first and its form
    below it, indented deeper (a storage client's "  Make bucket" over "      store mb s3://BUCKET");
    a word listed twice keeps its first form."""
    forms: list[tuple[str, str, list[str]]] = []
    said: tuple[int, str] | None = None  # the last line of help not yet given to a form
    for indent, text, beside, word in _lines_read(lines, prog):
        if word:
            if said is not None and said[0] < indent and word not in {w for w, _, _ in forms}:
                forms.append((word, text, [said[1]]))
            said = None
        else:
            said = (indent, f"{text} {beside}".strip())
    return forms


def _lines_read(lines, prog: tuple[str, ...]):
    """Each line that is not blank as (indent, text, help beside it, command word): the word is the
    one a form of the program names ("" on a line that is no form)."""
    for line in lines:
        if not line.strip():
            continue
        line = line.expandtabs(8)
        text, beside = form_and_help(line)
        match = _USAGE_FORM.match(text)
        named = match and match["prog"] == prog[-1] and match["word"] not in _NOT_COMMAND_WORDS
        yield indent_of(line), text, beside, match["word"] if named else ""


def usage_list_commands(lines, *, prog: tuple[str, ...]) -> list[Command]:
    """The commands of a usage section that lists one form per command, each with its help below
    it, indented deeper (a password store's "pass init [--path=subfolder] gpg-id..." then
    "Initialize new password storage ..."): each is a command with that form as its usage line,
    the help's first sentence as its summary, and its operands and flags from the form; [] when
    fewer than three forms name a command word of their own. A listing that gives each help
    first and the form below it is read the same way."""
    forms: list[tuple[str, str, list[str]]] = []  # (word, form, help lines)
    base: int | None = None
    for indent, text, beside, word in _lines_read(lines, prog):
        if word and (base is None or indent <= base):
            base = indent
            forms.append((word, text, [beside] if beside else []))
        elif forms and base is not None and indent > base:
            forms[-1][2].append(f"{text} {beside}".strip())
        elif forms:
            break
    words = [word for word, _, _ in forms]
    if len(set(words)) < MIN_USAGE_FORMS or len(set(words)) != len(words):
        forms = _forms_below_their_help(lines, prog)
        if len(forms) < MIN_USAGE_FORMS:
            return []
    out = []
    for word, form, said in forms:
        usage = (re.sub(r"\[(" + re.escape(word) + r")\]", r"\1", form, count=1),)
        summary = re.split(r"(?<=[.!?])\s", " ".join(said), maxsplit=1)[0] if said else ""
        path = (*prog[1:], word)
        out.append(
            Command(
                path=path,
                summary=summary[:300],
                description=" ".join(said)[:1000],
                usage=usage,
                flags=tuple(usage_flags(usage, prog=(*prog, word))),
                positionals=usage_positionals(usage, prog=(*prog, word), bare_words=True),
            )
        )
    return out


_PATH_ROW = re.compile(r"^ {1,8}(?P<words>[a-z][\w-]*(?: [a-z][\w-]*)+) *$")


def path_rows(lines, *, prog: tuple[str, ...]) -> list[Command]:
    """The commands under a page that answers with the whole command lines it stands for, one per
    indented row and nothing else on it (``  server add fixed ip``, ``  server list`` under
    ``Command "server" matches:``, a partial command's page): each row begins with the page's own
    command words, and the word after them is a command of its own (a family once, however many
    rows it begins). Two or more such rows, and no other line but one lead-in ending in ':'; else
    none. A tool's root (no command words) never answers so."""
    words = tuple(prog[1:])
    if not words:
        return []
    rows = [line for line in lines if line.strip()]
    if rows and rows[0].rstrip().endswith(":") and not _PATH_ROW.match(rows[0]):
        rows = rows[1:]
    children: list[str] = []
    for row in rows:
        match = _PATH_ROW.match(row)
        said = match["words"].split() if match else []
        if len(said) <= len(words) or tuple(said[: len(words)]) != words:
            return []
        if said[len(words)] not in children:
            children.append(said[len(words)])
    if len(rows) < 2:
        return []
    return [stub((*words, child)) for child in children[:MAX_STUBS]]
