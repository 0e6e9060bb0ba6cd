"""man pages: roff source (``.SH OPTIONS``, ``.TP``, ``\\fB..\\fR``) or text rendered by ``man -P cat``.

Roff is first turned into the text ``man`` would print (headings flush left,
option tags at 7 columns, descriptions at 14), so one reading serves both.
"""

from __future__ import annotations

import re

from wrapgen.model import Command

from ._build import Rules, _prose_before_options, assemble, read_parts
from ._registry import register_parser

__all__ = ["parse_man", "roff_to_text"]

# SYNOPSIS is read here, not by the shared usage splitter: its paragraphs are whole usage lines.
RULES = Rules(usage=r"^$never", description=r"^description$", examples=r"^examples?$",
              skip=r"^(?:name|synopsis|see also|authors?|reporting bugs|copyright|bugs|history|"
                   r"exit status|files|environment|version|homepage)$")

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
    "em": "--", "en": "-", "aq": "'", "dq": '"', "lq": '"', "rq": '"', "oq": "'", "cq": "'",
    "hy": "-", "mi": "-", "bu": "*", "ti": "~", "ha": "^", "rs": "\\", "co": "(C)", "bv": "|",
    "ga": "`", "at": "@", "sh": "#", "Fo": "<<", "Fc": ">>", "lh": "<=", "rh": "=>", "<=": "<=", ">=": ">=",
}
_FONT_MACROS = {".B", ".I", ".BR", ".BI", ".IB", ".IR", ".RB", ".RI", ".SM", ".SB"}


def _inline(text: str) -> str:
    text = _ROFF_ESCAPES.sub("", text)
    text = re.sub(r"\\\((..)", lambda m: _NAMED.get(m[1], ""), text)
    text = re.sub(r"\\\[([^\]]*)\]", lambda m: _NAMED.get(m[1], ""), text)
    text = text.replace("\\-", "-").replace("\\ ", " ").replace("\\e", "\\").replace("\\\\", "\\")
    text = text.replace("\\~", " ").replace("\\0", " ").replace("\\'", "'").replace("\\`", "`")
    return re.sub(r"\\(.)", r"\1", text)


def _macro_args(rest: str) -> list[str]:
    args = re.findall(r'"((?:[^"]|"")*)"|(\S+)', rest)
    return [a or b for a, b in args]


def roff_to_text(source: str) -> str:
    """Roff (man macros) as the plain text ``man -P cat`` would show, near enough to parse."""
    out: list[str] = []
    indent = 7
    pending_tag = False
    fill = True  # roff joins the lines of a paragraph unless .nf says otherwise
    joinable = False  # the last output line is running paragraph text
    for raw in source.split("\n")[:50_000]:
        line = raw.rstrip()
        if line.startswith(('.\\"', "'\\\"", '\\"')) or line in (".", "'"):
            continue
        if line.startswith((".", "'")) and len(line) > 1:
            parts = line[1:].split(None, 1)
            macro = "." + (parts[0] if parts else "")
            rest = parts[1] if len(parts) > 1 else ""
            joinable = joinable and macro in _FONT_MACROS
            if macro in (".nf", ".EX"):
                fill = False
            elif macro in (".fi", ".EE"):
                fill = True
            if macro in (".SH", ".SS", ".Sh", ".Ss"):
                title = " ".join(_inline(a) for a in _macro_args(rest)).strip()
                out.extend(["", title + (":" if macro in (".SS", ".Ss") else ""), ""])
                indent, pending_tag = 7, False
                continue
            if macro in (".TP", ".TQ"):
                pending_tag = True
                out.append("") if macro == ".TP" else None
                continue
            if macro in (".IP", ".It"):
                args = _macro_args(rest)
                out.append("")
                if args and args[0] not in ("\\(bu", "\\[bu]", "-", "*"):
                    out.append(" " * 7 + _inline(args[0]))
                    indent = 14
                continue
            if macro in (".PP", ".LP", ".P", ".sp", ".Pp"):
                out.append("")
                indent = 7
                continue
            if macro in _FONT_MACROS:
                args = _macro_args(rest)
                joiner = " " if macro in (".B", ".I", ".SM", ".SB") else ""
                text = _inline(joiner.join(args))
            elif macro == ".Fl":  # mdoc: .It Fl a Ar file
                text = "-" + _inline(rest)
            else:
                continue  # .TH, .RS, .RE, .nf, .fi, .br, .in, .ad ... change layout only
        else:
            text = _inline(line)
        text = text[:-1] if text.endswith("\\") else text  # an escaped newline joins lines
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
            out.append(" " * indent + text.strip())
            joinable = fill
    return "\n".join(out)


def _synopsis(sections) -> list[str]:
    """Usage lines: the paragraphs of SYNOPSIS and its subsections ("Traditional usage:")."""
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
            if para.strip():
                lines.append(" ".join(para.split()))
    return lines[:20]


def _is_roff(text: str) -> bool:
    return bool(re.search(r"^\.(?:TH|SH|Dd|Sh|TP|PP)\b", text[:20_000], re.MULTILINE))


@register_parser("man")
def parse_man(text: str, *, prog: tuple[str, ...]) -> Command:
    """Flags from every section's tagged paragraphs; summary from NAME; usage from SYNOPSIS."""
    if _is_roff(text):
        text = roff_to_text(text)
    parts = read_parts(text, prog=prog, rules=RULES)
    summary = ""
    match = re.search(r"^NAME:?\n\s*\n?\s*(.+?)(?:\n\s*\n|\Z)", text, re.MULTILINE | re.DOTALL)
    if match:
        name_line = " ".join(match[1].split())
        summary = re.split(r"\s+\\?-+\s+", name_line, maxsplit=1)[-1]
    parts.usage = _synopsis(parts.sections)
    described = [sec for sec in parts.sections if sec.key == "description"]
    if described:
        parts.prose = [_prose_before_options(described[0].lines)]
    command = assemble(parts, prog=prog, style="man")
    if summary:
        command = command.with_changes(summary=summary[:200])
    return command
