"""Clean help text and cut it into titled sections.

Every style parser starts here: ``split_sections(clean_text(raw))`` gives the
preamble (title ``""``) and one ``Section`` per heading such as ``Options:``,
``CORE COMMANDS``, `` Main operation mode:`` or git's ``Commit message options``.
The work is linear in the size of the text and capped (``MAX_CHARS``), so
megabytes of output or binary junk cost little and never loop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "MAX_CHARS",
    "MAX_LINE",
    "Section",
    "clean_text",
    "indent_of",
    "is_clean",
    "split_sections",
]

# Help longer than this is cut: no real tool's help for one command is this long,
# and the cap keeps parsing time bounded whatever a tool prints.
MAX_CHARS = 400_000
# Longer lines are cut: option tables never need them, regexes stay cheap.
MAX_LINE = 1_000

_ANSI = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]              # CSI: colours, cursor movement
  | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?   # OSC: hyperlinks, window titles
  | \x1b[ -/]*[0-~]                      # other escapes: charset switches, keypad modes
    """,
    re.VERBOSE,
)
# "b\bb" (bold) and "_\bx" (underline) as nroff renders man pages for a terminal.
_OVERSTRIKE = re.compile(r"[^\n]\x08")
# Control characters other than tab and newline, and the odd C1 control.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")

_HEADING_COLON = re.compile(
    r"""
    ^(?P<indent>[ ]?)                       # at most one space: tar's " Main operation mode:"
    (?P<title>[A-Za-z][\w ()/,.'&+-]{0,60}?) # a short title
    [ ]*:[ ]*$                              # ending in a colon, nothing after it
    """,
    re.VERBOSE,
)
_HEADING_INLINE = re.compile(
    r"""
    ^(?P<title>usage|Usage|USAGE)           # usage headings often carry the first line
    [ ]*:[ ]*
    (?P<inline>\S.*)$                       # e.g. "Usage:  docker ps [OPTIONS]"
    """,
    re.VERBOSE,
)
_HEADING_CAPS = re.compile(
    r"""
    ^(?P<title>[A-Z][A-Z0-9 &/()'-]{1,50})$ # gh's "CORE COMMANDS", man's "SYNOPSIS"
    """,
    re.VERBOSE,
)
_HEADING_BARE = re.compile(
    r"""
    ^(?P<title>[A-Za-z][\w ()/,'&+-]{2,60}  # git's "Commit message options": no colon, no full stop
      (?:\(see\ also:[^)]*\))?             # git --help's "collaborate (see also: git help workflows)"
    )$
    """,
    re.VERBOSE,
)


_COLUMNS = re.compile(r"^[\w.+-]+(?: {2,}[\w.+-]+){2,} *$")  # "asn1parse   ca   ciphers   cmp"


@dataclass(frozen=True)
class Section:
    """A heading and the lines under it (indentation kept, trailing blanks kept)."""

    title: str  # as printed, without the colon: "Global Flags", "" for the preamble
    lines: tuple[str, ...] = ()
    inline: str = ""  # text on the heading line after the colon ("Usage: ls [OPTION]...")
    line: int = 0  # 0-based line number of the heading in the cleaned text

    @property
    def key(self) -> str:
        """The title folded for matching: lower case, single spaces."""
        return " ".join(self.title.lower().split())


def clean_text(text: str | bytes) -> str:
    """Help text as plain lines: decoded, capped, no ANSI, no overstrike, tabs expanded."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text[: MAX_CHARS * 4]).decode("utf-8", errors="replace")
    text = text[:MAX_CHARS]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x1b" in text:  # (every escape starts so)
        text = _ANSI.sub("", text)
    if "\x08" in text:
        text = _OVERSTRIKE.sub("", text)
    text = _CONTROL.sub("", text)
    if "\t" in text:
        lines = [line[:MAX_LINE].expandtabs(8).rstrip() for line in text.split("\n")]
    else:
        lines = [line[:MAX_LINE].rstrip() for line in text.split("\n")]
    if "\u256d" in text:
        lines = _unboxed(lines)
    return "\n".join(lines)


def is_clean(raw: str | bytes, cleaned: str) -> bool:
    """Whether ``clean_text(cleaned) == cleaned`` is sure, ``cleaned`` being ``clean_text(raw)``. It is
    when the raw text holds no tab (expanding one after a line's cut lengthens the line, and the
    text) and the cleaned one no panel corner of rich's (a panel row may hold another panel):
    cleaning removes every control and escape character, cuts and strips every line, so nothing
    else changes a second time."""
    return (
        "\t" not in raw if isinstance(raw, str) else b"\t" not in raw
    ) and "\u256d" not in cleaned


# rich's panels (typer, rich-click): "╭─ Options ───╮", "│ --force  -f  Skip checks │", "╰───╯".
_PANEL_TOP = re.compile(r"^\s*\u256d\u2500+\s*(?P<title>[^\u2500\u256e]*?)\s*\u2500*\u256e$")
_PANEL_ROW = re.compile(r"^\s*\u2502(?P<body>.*?)\s*\u2502$")
_PANEL_BOTTOM = re.compile(r"^\s*\u2570\u2500*\u256f$")


def _unboxed(lines: list[str]) -> list[str]:
    """rich's panels as plain sections: the title a heading, the rows indented under it. Outside
    the panels rich pads every line by one space ("  Usage: app ..."): that padding goes too."""
    if not any(_PANEL_TOP.match(line) for line in lines):
        return lines
    out: list[str] = []
    for line in lines:
        top, row = _PANEL_TOP.match(line), _PANEL_ROW.match(line)
        if top:
            out.append(f"{top['title']}:" if top["title"] else "")
        elif row:
            out.append((" " + row["body"]).rstrip())
        elif _PANEL_BOTTOM.match(line):
            out.append("")
        else:
            out.append(line[1:] if line.startswith(" ") else line)
    return out


def indent_of(line: str) -> int:
    """How many spaces a line starts with."""
    return len(line) - len(line.lstrip(" "))


def _heading(lines: list[str], i: int) -> tuple[str, str] | None:
    """(title, inline text) when line ``i`` is a heading, else None."""
    line = lines[i]
    if _INDENTED_HEADING.match(line) and _stands_over_deeper(lines, i):
        # a page whose headings are indented too ("  Usage:" over "    TOOL command ..."): one of
        # the usual section names, set off by a blank line above and a deeper body below
        return line.strip().rstrip(":").strip(), ""
    if not line or line.startswith("  "):
        return None  # (every heading starts in the first two columns: most lines are entries, indented)
    match = _HEADING_INLINE.match(line)
    if match:
        return match["title"], match["inline"].strip()  # usage lines may be long
    if len(line) > 80:
        return None
    after = lines[i + 1] if i + 1 < len(lines) else ""
    angled = _ANGLED_HEADING.match(line)
    if angled:
        return angled["title"], ""  # an archiver's "<Commands>", "<Switches>"
    if _underlines(line, after):
        # "Documented commands (type help <topic>):" over a row of "=" (Python's cmd module)
        return line.strip().rstrip(":").strip(), ""
    match = _HEADING_COLON.match(line)
    # A heading's body is indented (or set off by a blank line); prose runs on flush left. A body
    # of one flush-left line that lists names and ends at a blank line is no prose either (an
    # "Aliases:" over "pod, pods, po"), nor are flush-left columns of names ("Frequently used
    # commands:" over rows of command names).
    if (
        match
        and len(match["title"].split()) <= 10
        and (
            not after.strip()
            or after[0] == " "
            or _name_list_body(lines, i + 1)
            or _COLUMNS.match(after)
        )
    ):
        return match["title"].strip(), ""
    if line[0] == " ":
        return None
    match = _HEADING_CAPS.match(line)
    if match and any(c.isalpha() for c in match["title"]) and len(match["title"].strip()) >= 2:
        return match["title"].strip(), ""
    match = _HEADING_BARE.match(line)
    if match and len(match["title"].split("(see also:")[0].split()) <= 8:
        before = lines[i - 1] if i > 0 else ""
        # A bare title stands alone: blank line (or the colon heading it belongs under, as in
        # git --help) before, indented entries right after, or columns of names (openssl's
        # "Standard commands").
        stands_alone = not before.strip() or (before[0] != " " and before.rstrip().endswith(":"))
        if stands_alone and after.strip() and (indent_of(after) >= 2 or _COLUMNS.match(after)):
            return match["title"].strip(), ""
    return None


# "  Usage:", "  Examples:": a usual section name indented by two or three spaces.
_INDENTED_HEADING = re.compile(
    r"^ {2,3}(?:usage|examples?|options|commands|subcommands|arguments|flags)[ ]*:[ ]*$", re.I
)


def _stands_over_deeper(lines: list[str], i: int) -> bool:
    """Whether line ``i`` follows a blank line (or opens the text) and the next line is indented
    deeper than it."""
    before = lines[i - 1] if i > 0 else ""
    after = lines[i + 1] if i + 1 < len(lines) else ""
    return not before.strip() and bool(after.strip()) and indent_of(after) > indent_of(lines[i])


_NAME_LIST = re.compile(r"^[\w.-]+(?:, ?[\w.-]+)+\s*$")


def _name_list_body(lines: list[str], i: int) -> bool:
    """Whether line ``i`` alone, flush left, is a comma-separated list of two or more bare names
    with a blank line (or the end) after it."""
    after = lines[i + 1] if i + 1 < len(lines) else ""
    return bool(_NAME_LIST.match(lines[i])) and not after.strip()


_ANGLED_HEADING = re.compile(r"^<(?P<title>[A-Z][A-Za-z]+(?: [A-Za-z]+){0,3})>:?\s*$")
_UNDERLINE = re.compile(r"^([=~-])\1{2,}\s*$")


def _underlines(line: str, after: str) -> bool:
    """Whether ``after`` is a row of one mark ("=====", "-----") under ``line``, about as long."""
    text = line.strip()
    return (
        bool(text)
        and len(line) <= 80
        and line[0] != " "
        and _UNDERLINE.match(after) is not None
        and abs(len(after.strip()) - len(text)) <= max(3, len(text) // 4)
    )


def split_sections(text: str) -> list[Section]:
    """Cut cleaned help text into sections; the first one is the preamble (title "")."""
    lines = text.split("\n")
    sections: list[Section] = []
    title, inline, start, body = "", "", 0, []
    for i in range(len(lines)):
        if i and _underlines(lines[i - 1], lines[i]):
            continue  # the underline of the heading just read
        found = _heading(lines, i)
        if found is None:
            body.append(lines[i])
            continue
        sections.append(Section(title, tuple(body), inline, start))
        (title, inline), start, body = found, i, []
    sections.append(Section(title, tuple(body), inline, start))
    return [s for s in sections if s.title or any(line.strip() for line in s.lines)]
