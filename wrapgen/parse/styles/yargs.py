"""yargs help (typeorm, mocha, wrangler): annotations after each entry say what it takes.

yargs right-aligns what it knows of an option after its description, on the entry's last line or
one of its own::

    -d, --dataSource   Path to the file where your DataSource instance is defined.
                                                                      [required]
    -f, --fake         Fakes running the migrations ...  [boolean] [default: false]

An option that is not ``[boolean]`` (or ``[count]``) takes a value, whether or not its type is
printed (yargs reads ``--dataSource x`` as the value). Commands are listed as whole command lines
(``typeorm migration:run``, ``typeorm entity:create <path>``), their names may hold colons, and
``Positionals:`` documents the operands with the same annotations.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.parse.assemble import Rules, assemble, classify, read_parts, rows_name_commands
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.sections import indent_of

__all__ = ["parse_yargs", "annotations"]

RULES = Rules(listing=r"^commands$", operands=r"^(?:positionals|arguments)$")

_NOTE = re.compile(
    r"""\[(?P<note>
        boolean|string|number|array|count|required|deprecated(?::[^\]]*)?
      | default:\ (?:"[^"]*"|[^\]]*)
      | choices:\ [^\]]*
      | aliases?:\ [^\]]*
    )\]""",
    re.VERBOSE,
)
_NOTES_AT_END = re.compile(r"(?:\s*" + _NOTE.pattern + r")+\s*$", re.VERBOSE)


def annotations(text: str) -> tuple[str, dict[str, str]]:
    """(the text without its trailing ``[...]`` annotations, {kind: value}) for one entry."""
    match = _NOTES_AT_END.search(text)
    if match is None:
        return text, {}
    notes: dict[str, str] = {}
    for note in _NOTE.finditer(match[0]):
        kind, _, value = note["note"].partition(":")
        notes[kind] = value.strip()
    return text[: match.start()].rstrip(), notes


def _quoted(values: str) -> tuple[str, ...]:
    found = re.findall(r'"([^"]*)"|([^\s,"]+)', values)
    return tuple(a or b for a, b in found)


def _entries(lines) -> list[tuple[str, str]]:
    """(spec, whole text) of each ``-x, --name  description`` entry, wrapped lines joined."""
    out: list[list[str]] = []
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if text.startswith("-") and indent_of(line) <= 8:
            out.append([text])
        elif out:
            out[-1].append(text)
    result = []
    for parts in out:
        spec = re.split(r"\s{2,}", parts[0], maxsplit=1)[0]
        result.append((spec, " ".join(parts)))
    return result


def _annotated(flags: list[Flag], lines) -> list[Flag]:
    notes_of: dict[str, dict[str, str]] = {}
    text_of: dict[str, str] = {}
    for spec, whole in _entries(lines):
        body, notes = annotations(whole)
        for spelling in re.findall(r"--?[\w][\w.:-]*", spec):
            notes_of[spelling] = notes
            text_of[spelling] = body[len(spec) :].strip()
    out = []
    for flag in flags:
        notes = next((notes_of[s] for s in flag.spellings if s in notes_of), None)
        if notes is None:
            out.append(flag)
            continue
        description = next((text_of[s] for s in flag.spellings if s in text_of), flag.description)
        kind = next(
            (k for k in ("boolean", "count", "string", "number", "array") if k in notes), ""
        )
        takes = kind not in ("boolean", "count")
        choices = _quoted(notes["choices"]) if "choices" in notes else ()
        default = notes.get("default")
        if default is not None:
            default = default.strip('"')
        if not takes:
            flag = replace(
                flag,
                takes_value=False,
                value_optional=False,
                value_name=None,
                type="boolean",
                choices=(),
                repeatable=flag.repeatable or kind == "count",
            )
        else:
            value_type = "enum" if choices else ("number" if kind == "number" else "string")
            flag = replace(
                flag,
                takes_value=True,
                value_name=flag.value_name or (kind or "value"),
                type=value_type,
                choices=choices,
                repeatable=flag.repeatable or kind == "array",
            )
        out.append(
            replace(
                flag,
                description=description[:500],
                default=default if takes else None,
                required="required" in notes,
                deprecated=flag.deprecated or "deprecated" in notes,
            )
        )
    return out


def _positional_notes(parts) -> dict[str, tuple[str, dict[str, str]]]:
    out: dict[str, tuple[str, dict[str, str]]] = {}
    for section in parts.sections:
        if classify(section, RULES) != "operands":
            continue
        name = None
        for line in section.lines:
            text = line.strip()
            if not text:
                continue
            match = re.match(r"^([\w.-]+)(?:\s{2,}(.*))?$", text)
            if match and indent_of(line) <= 4:
                name = match[1]
                out[name] = annotations(match[2] or "")
            elif name is not None:
                body, notes = out[name]
                more, more_notes = annotations(text)
                out[name] = ((body + " " + more).strip(), {**notes, **more_notes})
    return out


def _listing(parts, prog: tuple[str, ...]) -> list[Command]:
    """``typeorm migration:run   Runs all pending migrations.`` entries (the bin first), wrapped."""
    out: list[Command] = []
    path = tuple(prog[1:])
    for section in parts.sections:
        role = classify(section, RULES)
        if role != "listing" and not (
            role == "other" and rows_name_commands(list(section.lines), prog)
        ):
            continue
        for line in section.lines:
            text = line.strip()
            if not text:
                continue
            head, _, summary = _split_entry(text)
            words = head.split()
            if indent_of(line) <= 4 and words and words[0] == prog[0]:
                words = words[1:]
                if tuple(words[: len(path)]) == path:
                    words = words[len(path) :]
                name = words[0] if words and re.fullmatch(r"[A-Za-z0-9][\w:.-]*", words[0]) else ""
                if name:
                    summary, _ = annotations(_without_pictograph(summary))
                    out.append(stub(path + (name,), summary=summary[:300], group=section.title))
                    continue
            if out and indent_of(line) > 4:
                wrapped, _ = annotations(text)
                out[-1] = out[-1].with_changes(
                    summary=(out[-1].summary + " " + wrapped).strip()[:300]
                )
    return out


def _without_pictograph(text: str) -> str:
    """A summary without the pictograph it opens with ("🔐 Manage authentication")."""
    start = 0
    while start < len(text) and (
        unicodedata.category(text[start]) in ("So", "Sk", "Mn", "Cf") or text[start] == " "
    ):
        start += 1
    return text[start:] if start < len(text) else text


def _split_entry(text: str) -> tuple[str, str, str]:
    match = re.match(r"^(.*?)(\s{2,})(.*)$", text)
    return (match[1], match[2], match[3]) if match else (text, "", "")


@register_parser("yargs")
def parse_yargs(text: str, *, prog: tuple[str, ...]) -> Command:
    """yargs: annotated options, command-line listings, annotated ``Positionals:``."""
    parts = read_parts(text, prog=prog, rules=RULES)
    if not parts.usage:
        # "typeorm migration:run" alone atop the page is its usage line (yargs prints no label)
        first = next((line.strip() for line in text.split("\n") if line.strip()), "")
        if first.split()[:1] == [prog[0]]:
            parts.usage = [first]
            if parts.prose and parts.prose[0].startswith(first):
                parts.prose[0] = parts.prose[0][len(first) :].strip()
    listed = _listing(parts, prog)
    if listed:
        parts.subcommands = listed
    option_lines = [
        line
        for section in parts.sections
        if classify(section, RULES) in ("options", "globals", "other")
        for line in section.lines
    ]
    # yargs lists every option under a heading: a line of prose that starts with a dash
    # ("... use\n-c option.") names no option
    tabled = {s for spec, _ in _entries(option_lines) for s in re.findall(r"--?[\w][\w.:-]*", spec)}
    parts.flags = [f for f in parts.flags if set(f.spellings) & tabled]
    parts.flags = _annotated(parts.flags, option_lines)
    parts.global_flags = _annotated(parts.global_flags, option_lines)
    command = assemble(parts, prog=prog, style="yargs")
    notes = _positional_notes(parts)
    if notes:
        positionals = []
        for p in command.positionals:
            body, found = notes.get(p.name, ("", {}))
            choices = _quoted(found["choices"]) if "choices" in found else p.choices
            positionals.append(
                replace(
                    p,
                    description=body[:300] or p.description,
                    choices=choices,
                    required=p.required or "required" in found,
                )
            )
        known = {p.name for p in positionals}
        positionals += [
            Positional(name=name, required="required" in found, description=body[:300])
            for name, (body, found) in notes.items()
            if name not in known
        ]
        command = command.with_changes(positionals=tuple(positionals))
    return command
