"""Sections -> ``Command``: the assembly every style shares, tuned by ``Rules``.

A style module says which headings hold global flags, subcommand listings,
operands and examples; the assembly reads usage lines, option tables (wherever
they are: ``ls`` and ``curl`` print them without a heading), listings as stubs,
operands from usage lines, and the summary and description from the prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.parse.listing import form_and_help, parse_listing, path_rows, usage_list_commands
from wrapgen.parse.options import merge_flag, merge_flags, parse_options
from wrapgen.parse.sections import Section, indent_of, split_sections
from wrapgen.parse.usage import split_example, usage_flags, usage_positionals

__all__ = ["Rules", "Parts", "assemble", "read_parts", "classify", "split_usage_section"]

_MAX_EXAMPLES = 40


@dataclass(frozen=True)
class Rules:
    """What headings mean for a style; each is a regex over the folded heading."""

    usage: str = r"^usage$|^synopsis$"
    globals: str = r"global|inherited"
    listing: str = r"commands?\b|subcommands|^available"
    operands: str = r"^(?:positional arguments|arguments|args)$"
    examples: str = r"examples?\b"
    description: str = r"^description$|^about$"
    aliases: str = r"^aliases$"
    skip: str = (
        r"^(?:environment( variables)?|learn more|see also|exit status|feedback|json fields)$"
    )


@dataclass
class Parts:
    """What the sections yielded, before it becomes a ``Command``."""

    usage: list[str] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    global_flags: list[Flag] = field(default_factory=list)
    subcommands: list[Command] = field(default_factory=list)
    operand_docs: dict[str, str] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    operand_usage: list[str] | None = None  # usage lines to read operands from, when not all
    # the commands of a usage section listing one form per command, each with its help below
    usage_commands: list[Command] = field(default_factory=list)
    companions: list[Flag] = field(default_factory=list)  # "can be disabled with --no-x" switches
    global_companions: list[Flag] = field(default_factory=list)
    deprecated: bool = False  # a sentence of its prose says the command is deprecated


def classify(section: Section, rules: Rules) -> str:
    """The role of a section: usage, globals, options, listing, operands, examples, ..."""
    return _role(section.key.rstrip(":"), rules)


def _role(key: str, rules: Rules) -> str:
    if not key:
        return "preamble"
    if re.search(rules.usage, key):
        return "usage"
    if re.search(rules.examples, key):
        return "examples"
    if re.search(rules.aliases, key):
        return "aliases"
    if re.search(rules.description, key):
        return "description"
    if re.search(rules.skip, key):
        return "skip"
    if re.search(rules.globals, key) and re.search(r"flags?|options?|arguments", key):
        return "globals"
    if re.search(r"\b(?:flags?|options?)\b", key):
        return "options"
    if re.search(rules.operands, key):
        return "operands"
    if re.search(rules.listing, key):
        return "listing"
    return "other"


def split_usage_section(section: Section) -> tuple[list[str], list[str]]:
    """(usage lines, the lines after them): wrapped lines joined, git's ``or:`` unwrapped."""
    usage = [section.inline] if section.inline else []
    body = list(section.lines)
    first_indent: int | None = None
    i = 0
    while i < len(body):
        line = body[i]
        text = line.strip()
        if not text:
            if usage:
                break
            i += 1
            continue
        ind = indent_of(line)
        if ind == 0 or (text.startswith("-") and usage):
            break  # prose (tar) or the option table (curl) follows the usage line
        text = re.sub(r"^or:\s+", "", text)
        if usage and re.match(
            r"or\s+" + re.escape(usage[0].split()[0] if usage[0].split() else "") + r"\b", text
        ):
            text = text[2:].lstrip()  # java: "   or  java [options] -jar <jarfile> [args...]"
        if usage and (
            re.match(r"[A-Z][a-z]+ [a-z]+ [a-z(]", text)
            or (
                re.match(r"[A-Z][a-z]+ [a-z]+ \S+ [a-z]", text)
                and not re.search(r"[][<>{}|]|(?:^|\s)-", text)
            )
        ):
            # unzip: "  Default action is to extract files in list, ...", or a sentence with no
            # grammar in it ("Parse the XML files and output ..."): prose, not usage
            break
        if re.fullmatch(r"\((?:[a-z][\w'-]*,? ){2,}[\w'-]+\)", text):
            i += 1  # java: "(to execute a class)" under a usage line says what it is for
            continue
        head = usage[0].split()[0] if usage and usage[0].split() else ""
        starts_new = (
            not usage
            or text.split()[0] == head
            or (first_indent is not None and ind == first_indent and not section.inline)
        )
        if starts_new:
            usage.append(text)
        else:
            usage[-1] += " " + text
        if first_indent is None:
            first_indent = ind
        i += 1
    return [" ".join(u.split()) for u in usage if u.strip()][:20], body[i:]


def _usage_only_options(usage, prog, seen: set[str], docs: dict[str, str]) -> list[Flag]:
    """Long options with a value that the usage synopsis names and no option table lists (a
    checker's table lists its switches, and its ``[--standard=<standard>]`` only in the synopsis,
    with ``<standard>`` explained in a table of values): added, described by that table where it
    has the value's name. ``seen`` gains their spellings."""
    out = []
    for flag in usage_flags(_forms_of_its_own(usage, prog), prog=prog):
        if (
            not flag.long
            or flag.long.endswith("-")
            or not flag.takes_value
            or not flag.value_name
            or seen & set(flag.spellings)
        ):
            continue
        said = docs.get(flag.value_name.strip("<>").lower(), "")
        out.append(replace(flag, description=said[:300]) if said else flag)
        seen.update(flag.spellings)
    return out


_VALUE_ROW = re.compile(r"^(\s*)<([\w-]+)>\s{2,}(\S.*)$")


def _value_docs(sections) -> dict[str, str]:
    """A table of values (`` <report>   Print either the "full", "xml" ... report``, continued on
    deeper lines): the value's name (lower case) -> what the help says of it."""
    docs: dict[str, str] = {}
    for section in sections:
        name, indent = None, 0
        for line in section.lines:
            row = _VALUE_ROW.match(line)
            if row:
                name, indent = row[2].lower(), len(row[1])
                docs[name] = row[3].strip()
            elif name is not None and line.strip() and indent_of(line) > indent + 2:
                docs[name] = f"{docs[name]} {line.strip()}"[:300]
            else:
                name = None
    return docs


def _forms_of_its_own(usage, prog) -> list[str]:
    """The usage lines of the command itself, not of a subcommand it lists (``vcs remote add
    [--mirror=<fetch|push>] ...`` is ``add``'s): after the program's words, an option, a
    placeholder or nothing."""
    out = []
    for line in usage:
        words = line.split()
        at = 0
        while at < len(words) and at < len(prog) and words[at].rsplit("/", 1)[-1] == prog[at]:
            at += 1
        if at == 0 and prog:
            continue
        nxt = words[at] if at < len(words) else ""
        if not nxt or nxt[0] in "[-<(" or nxt.isupper():
            out.append(line)
    return out


def _own_usage(lines) -> list[str]:
    """The usage lines of the program itself: those that name the program the first one names (a
    wrapper that prints the help of the program it wraps after its own, the filter's usage after
    its wrapper's, gives lines that are not its operands)."""
    lines = list(lines)
    words = [line.split() for line in lines]
    first = next((w[0] for w in words if w), "")
    own = first.rsplit("/", 1)[-1]
    if not own or not _PROGRAM_WORD.fullmatch(own):
        return lines
    return [
        line
        for line, w in zip(lines, words)
        if not w
        or w[0].rsplit("/", 1)[-1] == own
        or not _PROGRAM_WORD.fullmatch(w[0].rsplit("/", 1)[-1])
    ]


_PROGRAM_WORD = re.compile(r"[A-Za-z][\w.+-]*")


def _doc_key(name: str) -> str:
    key = re.sub(r"[\s-]+", "_", name.strip("<>[]. ").lower())
    return key[:-1] if key.endswith("s") and len(key) > 3 else key


def _as_documented(positionals: list[Positional], docs: dict[str, str]) -> list[Positional]:
    """Where an operands section (argparse's "positional arguments") lists fewer operands than the
    usage names, it is the list: the usage's other names are the same operands spelled another way
    (``<filter> [input file...]`` beside ``[filter] [files ...]``). Each documented operand
    once, where the usage first names it, required if any mention requires it; a usage that
    names no documented operand is kept as it is."""
    keys = {_doc_key(name) for name in docs}
    if not keys or len(positionals) <= len(keys):
        return positionals
    kept: dict[str, Positional] = {}
    for positional in positionals:
        key = _doc_key(positional.name)
        if key not in keys:
            continue
        if key in kept:
            before = kept[key]
            kept[key] = replace(
                before,
                required=before.required or positional.required,
                variadic=before.variadic or positional.variadic,
            )
        else:
            kept[key] = positional
    return list(kept.values()) if kept else positionals


def _operand_docs(lines) -> dict[str, str]:
    docs: dict[str, str] = {}
    name = None
    for line in lines:
        text = line.strip()
        if not text:
            continue
        match = re.match(r"^([<\[]?[\w.-]+[>\]]?(?:\.\.\.)?)(?:\s{2,}(.*))?$", text)
        if match and indent_of(line) <= 6:
            name = match[1].strip("<>[].")
            docs[name.lower()] = (match[2] or "").strip()
        elif name is not None and not docs[name.lower()]:
            docs[name.lower()] = text
    return docs


def _examples(lines, prog: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for line in lines:
        text = line.strip()
        if text.startswith("$ "):
            text = text[2:].strip()
        elif not prog or not text.startswith(prog[0] + " ") and text != prog[0]:
            continue
        text = re.sub(r"\s{2,}#.*$", "", text)  # tar: "tar -xf a.tar    # Extract all files"
        if split_example(text, prog=prog[0] if prog else "") is None:
            continue
        out.append(text)
        if len(out) >= _MAX_EXAMPLES:
            break
    return out


def _prose_before_options(lines) -> str:
    """The section's text up to its first option entry."""
    kept: list[str] = []
    for line in lines:
        if line.strip().startswith("-") and indent_of(line) <= 8 and len(line.strip()) > 1:
            break
        kept.append(line.strip())
    return "\n".join(kept).strip()


def _aliases(section: Section, prog: tuple[str, ...]) -> list[str]:
    """cobra's ``Aliases:`` body: ``list, ls``, or docker's whole command lines.

    docker ps says ``docker container ls, docker container list, docker ps``: only a
    line that differs from this command in its last word names an alias of it here.
    """
    body = " ".join([section.inline] + [line.strip() for line in section.lines])
    out: list[str] = []
    for item in body.split(","):
        words = item.split()
        if (
            not words
            or not re.fullmatch(r"[\w.-]+", words[-1])
            or words[-1] == (prog[-1] if prog else "")
        ):
            continue
        if len(words) > 1 and tuple(words[:-1]) != tuple(prog[:-1]):
            continue  # another command's path ("docker container ls")
        out.append(words[-1])
    return list(dict.fromkeys(out))


# A heading over options that select what the tool does: tar's "Main operation mode:", xz's
# "Operation mode:" ("Operation modifiers:" only change how), and a heading saying one of the
# switches under it must be given ("At least one of the following switches must be given:").
_OPERATION_HEADING = re.compile(
    r"^(?:(?:main\s+)?operations?(?:\s+modes?)?"
    r"|(?:at\s+least|exactly|only)\s+one\s+of\s+the\s+following\s+(?:switches|options|flags)"
    r"\s+(?:must|should|has\s+to)\s+be\s+(?:given|specified|used|supplied|passed)):?$",
    re.IGNORECASE,
)


def rows_name_commands(lines, prog: tuple[str, ...]) -> bool:
    """Whether a section under a heading of its own words ("ACCOUNT", "COMPUTE & AI") is a
    listing: two or more indented rows, every one the program and a command word, then a summary
    after a gap ("  edgectl whoami        Retrieve your user information")."""
    if not prog or not prog[0]:
        return False
    head = re.escape(" ".join(prog))
    rows = [line for line in lines if line.strip()]
    entry = re.compile(rf"^\s{{1,8}}{head}\s+[a-z][\w-]*(?:\s\S+)*?\s{{2,}}\S")
    return len(rows) >= 2 and all(entry.match(line) for line in rows)


def read_parts(text: str, *, prog: tuple[str, ...], rules: Rules, stubs: bool = True) -> Parts:
    """Walk the sections once and sort what they hold into ``Parts``. ``stubs=False``: the listing
    sections' entries are not read as stubs, for a style that reads its commands its own way (it
    sets ``parts.subcommands`` itself); their option-like rows are still flags."""
    parts = Parts(sections=split_sections(text))
    # (flag, strong, global): flags from prose sections are weak, and give way to an option
    # table that lists the same spelling (kubectl config set-credentials shows
    # "--client-certificate=certfile --client-key=keyfile" in its prose, then each in Options).
    found: list[tuple[Flag, bool, bool]] = []
    # git --help: "These are common Git commands ...:" has no rows of its own; the titled groups
    # under it ("examine the history and state") are listings too.
    under_empty_listing = False
    for section in parts.sections:
        role = classify(section, rules)
        lines = list(section.lines)
        if role == "other" and stubs and rows_name_commands(lines, prog):
            role = "listing"  # yargs' "ACCOUNT", "COMPUTE & AI": rows of "TOOL cmd   Summary"
        if role in ("preamble", "other") and stubs and (rows := path_rows(lines, prog=prog)):
            # a partial command's page: the whole command lines it stands for, and nothing else
            parts.subcommands.extend(rows)
            continue
        if role == "listing":
            under_empty_listing = not any(line.strip() for line in lines)
        elif role == "other" and under_empty_listing:
            role = "listing"
        else:
            under_empty_listing = False
        if role not in ("listing", "options", "globals") and _DEPRECATED_SENTENCE.search(
            "\n".join(lines)
        ):
            parts.deprecated = True  # "This command is deprecated. Use the up command ..."
        if role == "usage":
            if not parts.usage_commands:
                parts.usage_commands = usage_list_commands(section.lines, prog=prog)
            usage, lines = split_usage_section(section)
            parts.usage.extend(usage)
            role = "after-usage"
        if role == "options" and len(prog) > 1 and re.search(r"^general options$", section.key):
            role = "globals"  # pip install's "General Options" are the root's, inherited
        listed = usage_list_commands(lines, prog=prog) if role == "listing" and stubs else []
        if listed:
            # each command's help over its form ("  Make bucket" / "      TOOL mb s3://BUCKET"):
            # the forms are the commands, with their operands
            parts.subcommands.extend(replace(c, group=section.title) for c in listed)
        elif role == "listing":
            if stubs:
                # "examine the history and state (see also: git help revisions)": the pointer is no group name
                group = re.sub(r"\s*\(see also:[^)]*\)$", "", section.title)
                parts.subcommands.extend(
                    parse_listing(lines, parent=tuple(prog[1:]), group=group, prog=prog)
                )
            # dpkg and gpg list their "commands" as options: -i|--install, --clear-sign.
            found.extend(
                (replace(f, operation=True), True, False)
                for f in parse_options(lines, max_first_indent=8)
            )
        elif role == "globals":
            found.extend(
                (f, True, True) for f in parse_options(lines, companions=parts.global_companions)
            )
        elif role == "options":
            operation = bool(_OPERATION_HEADING.match(section.key))
            found.extend(
                (replace(f, operation=True) if operation else f, True, False)
                for f in parse_options(lines, companions=parts.companions)
            )
        elif role == "operands":
            parts.operand_docs.update(_operand_docs(lines))
        elif role == "examples":
            parts.examples.extend(_examples(lines, prog))
        elif role == "aliases":
            parts.aliases.extend(a for a in _aliases(section, prog) if a not in parts.aliases)
        elif role in ("preamble", "description", "other", "after-usage"):
            strong = role == "other"  # tar's " Main operation mode:" is a table under a heading
            operation = strong and bool(_OPERATION_HEADING.match(section.key))
            found.extend(
                (replace(f, operation=True) if operation else f, strong, False)
                for f in parse_options(lines, max_first_indent=8, companions=parts.companions)
            )
            if role != "other" or not parts.prose:
                prose = _prose_before_options(lines)
                if prose:
                    parts.prose.append(prose)
    tabled = {s for flag, strong, _ in found if strong for s in flag.spellings}
    seen: set[str] = set()
    for flag, strong, is_global in found:
        if strong or tabled.isdisjoint(flag.spellings):
            merged = merge_flag(flag, seen)
            if merged is not None:
                (parts.global_flags if is_global else parts.flags).append(merged)
    return parts


_NOT_SUMMARY = re.compile(
    r"""
    ^\S+\s+v?\d+(?:\.\d+)+\b     # "ripgrep 13.0.0": a version banner
  | <[^>]+@[^>]+>              # "Andrew Gallant <jamslam@gmail.com>"
  | ^error:                    # flask without an app still prints help
  | ^usage:
  | ^(?:unknown|illegal|invalid|unrecognized)\ option   # ssh --help: "unknown option -- -"
  | ^(?:use|run|see)\s+["'`]    # 'Use "kubectl <command> --help" for more information'
  | ^[A-Z][\w-]*\(\d\w*\)\s   # a man page's running header: "RG(1)   RG(1)"
  | ^(?:print|show|list|display)ing\s+(?:the\s+|all\s+|basic\s+|common\s+)?
     (?:options|flags)\b                # the page on itself: "Printing options tagged with '#basic'."
    """,
    re.VERBOSE | re.IGNORECASE,
)


_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# a line that only names the program and its version, or its author: "ripgrep 13.0.0", "Andrew
# Gallant <jamslam@gmail.com>"
_BANNER_LINE = re.compile(r"^\S+\s+v?\d+(?:\.\d+)+\S*\s*$|^[^<>]{1,80}<[^>]+@[^>]+>\s*$")


def _without_banner(paragraph: str) -> str:
    """The paragraph without the banner lines heading it, where more lines follow them."""
    lines = paragraph.split("\n")
    at = 0
    while at < len(lines) - 1 and _BANNER_LINE.match(lines[at].strip()):
        at += 1
    return "\n".join(lines[at:]).strip() if at else paragraph


_SENTENCE_END = re.compile(r"(?<=\.)\s")


def _summary_and_description(prose: list[str]) -> tuple[str, str]:
    paragraphs: list[str] = []
    for block in prose:
        for para in _PARAGRAPH_BREAK.split(block) if "\n" in block else (block,):
            para = para.strip()
            if para:
                paragraphs.append(para)
    # a banner line heading the paragraph that says what the tool is ("hexyl 0.8.0", then its
    # author, then "A command-line hex viewer": clap 2 prints them with no blank line between) comes
    # off, and the rest of the paragraph is read as any other
    paragraphs = [_without_banner(p) for p in paragraphs]
    kept = [p for p in paragraphs if p and not _NOT_SUMMARY.search(p.split("\n", 1)[0].strip())]
    description = "\n\n".join(kept)[:2000]
    summary = ""
    if kept:
        first = " ".join(kept[0].split())
        summary = _SENTENCE_END.split(first, maxsplit=1)[0][:200]
    return summary, description


_DEPRECATED_COMMAND = re.compile(
    r"(?:Command \"[\w-]+\" is deprecated|\W*deprecated\b)", re.IGNORECASE
)
# A sentence of the description saying so further down ("This command is deprecated. Use the up
# command with the `--scale` flag instead."): the command, not one of its flags.
_DEPRECATED_SENTENCE = re.compile(
    r"(?:^|[.!]\s+|\n)(?:this|the)\s+(?:sub)?command\s+(?:is|has\s+been)\s+deprecated\b",
    re.IGNORECASE,
)


def _usage_table(sections, prog: tuple[str, ...]) -> list[tuple[str, str]] | None:
    """``[(form, summary)]`` when every line of the help is a form of the command, its own name
    first, then its help after a gap ("status <name>      Get status for a single process");
    None otherwise."""
    if len(sections) != 1 or sections[0].title:
        return None
    lines = [line.expandtabs(8) for line in sections[0].lines if line.strip()]
    forms = []
    for line in lines[:40]:
        if line[:1].isspace() and forms:
            form, said = forms[-1]  # the help of the form above, run on: "        Ctrl-C to exit"
            forms[-1] = (form, f"{said} {line.strip()}".strip())
            continue
        form, said = form_and_help(line)
        if form != prog[-1] and not form.startswith(f"{prog[-1]} "):
            return None
        forms.append((form, said))
    return forms if forms and any(said for _, said in forms) else None


def assemble(parts: Parts, *, prog: tuple[str, ...], style: str) -> Command:
    """The ``Command`` for these parts: stubs, operands with their docs, own and global flags."""
    if not parts.usage and parts.prose and prog and prog[0]:
        # systemctl prints its usage line first, with no "Usage:" label.
        first, _, rest = parts.prose[0].partition("\n")
        if first.startswith(prog[0] + " ") and re.search(r"[\[<]|\.\.\.", first):
            parts.usage = [first.strip()]
            parts.prose[0] = rest.strip()
    forms = (
        _usage_table(parts.sections, prog)
        if not parts.usage and not parts.flags and len(prog) > 1
        else None
    )
    if forms:
        # "status <name>\tGet status for a single process" per form: the usage lines, and the
        # first form's words the summary (Python's cmd module prints a command's help so)
        parts.usage = [" ".join((*prog[:-1], line)) for line, _ in forms]
        parts.prose = [forms[0][1]] + [f"{line}: {said}" for line, said in forms[1:] if said]
    summary, description = _summary_and_description(parts.prose)
    if prog and prog[0]:
        # "greet - fight the loneliness!", "jq - commandline JSON processor": the name is not the summary.
        if summary.startswith(prog[0]):  # (the pattern is anchored there)
            summary = re.sub(rf"^{re.escape(prog[0])}\s+[-\u2013\u2014]+\s+", "", summary)
    usage_for_operands = parts.usage if parts.operand_usage is None else parts.operand_usage
    switches = frozenset(
        s for f in parts.flags + parts.global_flags if not f.takes_value for s in f.spellings
    )
    positionals = list(
        usage_positionals(_own_usage(usage_for_operands), prog=prog, switches=switches)
    )
    docs = parts.operand_docs
    positionals = _as_documented(positionals, docs)
    positionals = [
        replace(p, description=said)
        if (said := docs.get(p.name.lower(), "")[:300]) != p.description
        else p
        for p in positionals
    ]
    seen_paths: set[tuple[str, ...]] = set()
    subcommands = []
    # a usage section that lists a form per command is the tool's listing when it has no other
    for sub in parts.subcommands or parts.usage_commands:
        if sub.path not in seen_paths:
            seen_paths.add(sub.path)
            subcommands.append(sub)
    if not parts.flags and not parts.global_flags and parts.usage:
        # No option table at all (ssh, scp, tmux print only a BSD usage synopsis):
        # the usage lines are the only place the flags are named.
        parts.flags = usage_flags(parts.usage, prog=prog)
    global_spellings = {s for f in parts.global_flags for s in f.spellings}
    flags = [f for f in parts.flags if global_spellings.isdisjoint(f.spellings)]
    seen = {s for f in flags + list(parts.global_flags) for s in f.spellings}
    flags += merge_flags(parts.companions, seen=seen)
    if parts.flags and parts.usage:
        said = {**docs, **_value_docs(parts.sections)}
        flags += _usage_only_options(parts.usage, prog, seen, said)
    global_flags = list(parts.global_flags) + merge_flags(parts.global_companions, seen=seen)
    # cobra prints 'Command "x" is deprecated, use y instead' atop a deprecated command's help.
    deprecated = parts.deprecated or bool(_DEPRECATED_COMMAND.match(description))
    return Command(
        path=tuple(prog[1:]),
        deprecated=deprecated,
        summary=summary,
        description=description,
        usage=tuple(parts.usage),
        flags=tuple(flags),
        global_flags=tuple(global_flags),
        positionals=tuple(positionals),
        subcommands=tuple(subcommands),
        aliases=tuple(parts.aliases),
        examples=tuple(dict.fromkeys(parts.examples)),
        parser=style,
    )
