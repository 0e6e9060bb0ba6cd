"""Symfony Console and cleo help (composer, artisan, poetry): ``Description:`` / ``Usage:`` /
``Arguments:`` / ``Options:`` / ``Help:`` pages, the ``TOOL list`` page, and ``list --format=json``.

Three things set these frameworks apart from the styles that look like them:

- ``TOOL --help`` prints the help of the ``list`` command (``is_list_help``): the commands come from
  ``TOOL list`` (``listed_commands``), and ``list``'s own ``--format``, ``--raw`` and ``--short`` are
  not the root's;
- command names are namespaced: Symfony's ``cache:clear`` is one word, cleo's ``cache clear`` (and
  ``self show plugins``) are paths whose first words may name no command at all (a namespace);
- ``-v|vv|vvv, --verbose`` is one switch with three spellings, not an option taking ``|vv|vvv``.

Every command page repeats the application's options (``--help``, ``--quiet``, ...) in the same
``Options:`` table as its own: ``split_inherited`` puts them apart once the root's are known.
``parse_symfony_json`` reads Symfony's ``list --format=json`` (every command with its definition)
into the whole tree at once. All functions here are pure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.facts import (
    guess_type,
)  # (what wrapgen.parse.usage.guess_type calls, imported once)
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import register_parser

__all__ = [
    "Listed",
    "is_list_help",
    "listed_commands",
    "nest",
    "parse_symfony",
    "parse_symfony_json",
    "split_inherited",
    "flag_spellings",
    "value_choices",
]

RULES = Rules(
    usage=r"^usage$",
    listing=r"^available commands",
    operands=r"^arguments$",
    description=r"^description$",
    # "Help:" is the long description; read apart so that its example lines are never flags
    skip=r"^help$",
)

# `TOOL --help` is the help of `list`: its usage line names `list` and its namespace argument.
_LIST_USAGE = re.compile(r"^Usage:\n\s+list \[options\] \[--\] \[<namespace>\]", re.MULTILINE)
# "  -v|vv|vvv, --verbose": one switch spelled three ways (cleo too)
_VERBOSITY = re.compile(r"^(?P<indent>\s+)-v\|vv\|vvv(?P<rest>,\s+--verbose\b)", re.MULTILINE)
_LISTING_HEAD = re.compile(r'^Available commands(?: for the "[^"]+" namespace)?:$', re.MULTILINE)
# "  clear-cache          [clearcache|cc] Clears composer's internal package cache"; cleo: "  cache clear  ..."
_ENTRY = re.compile(
    r"^ {2}(?P<name>[A-Za-z0-9_][\w:.-]*(?: [a-z0-9][\w:.-]*)*)"
    r"(?: {2,}(?:\[(?P<aliases>[^\]]+)\] )?(?P<summary>\S.*))?$"
)
_NAMESPACE = re.compile(r"^ (?P<name>[A-Za-z0-9_][\w.-]*)$")
# "(txt, xml, json, or md)", 'Must be "table", "plain", "json", or "summary".'
_CHOICES = re.compile(
    r"""(?:\(|[Mm]ust\ be\ |one\ of:?\ |supports:?\ )
        (?P<list>"?[\w.-]+"?(?:,\ (?:or\ )?"?[\w.-]+"?)+)
        (?:\)|\.|$)""",
    re.VERBOSE,
)
_NEGATE = re.compile(r'^Negate the "(?P<long>--[\w-]+)" option$')


@dataclass(frozen=True)
class Listed:
    """One entry of a ``TOOL list`` page: the command's words, its aliases, summary and namespace."""

    words: tuple[str, ...]
    summary: str = ""
    aliases: tuple[str, ...] = ()
    group: str = ""


def is_list_help(text: str) -> bool:
    """Whether this page is the ``list`` command's own help (what ``TOOL --help`` prints)."""
    return bool(_LIST_USAGE.search(text))


def value_choices(description: str) -> tuple[str, ...]:
    """The values a description enumerates: ``(txt, xml, json, or md)`` gives txt, xml, json, md."""
    # (every match opens with "(", "must be ", "one of" or "supports": most descriptions hold none)
    if not (
        "(" in description
        or "ust be " in description
        or "one of" in description
        or "supports" in description
    ):
        return ()
    match = _CHOICES.search(description)
    if not match:
        return ()
    items = [re.sub(r"^or ", "", item.strip()).strip('"') for item in match["list"].split(",")]
    return tuple(dict.fromkeys(i for i in items if i))


def listed_commands(text: str) -> tuple[Listed, ...]:
    """The entries of a ``TOOL list`` page, in order (namespace headings give each entry its group)."""
    head = _LISTING_HEAD.search(text)
    if not head:
        return ()
    out: list[Listed] = []
    group = ""
    for line in text[head.end() :].split("\n"):
        if not line.strip():
            continue
        namespace = _NAMESPACE.match(line)
        if namespace:
            group = namespace["name"]
            continue
        entry = _ENTRY.match(line)
        if entry is None:
            if not line.startswith(" "):
                break  # prose after the listing
            continue
        aliases = tuple(a for a in (entry["aliases"] or "").split("|") if a)
        out.append(
            Listed(tuple(entry["name"].split()), (entry["summary"] or "").strip(), aliases, group)
        )
    return tuple(out)


def _verbosity(flag: Flag) -> Flag:
    """``-v|vv|vvv, --verbose`` as one switch: ``-v`` with ``-vv`` and ``-vvv`` as aliases."""
    aliases = tuple(a for a in ("-vv", "-vvv") if a not in flag.aliases)
    return replace(
        flag,
        short="-v",
        aliases=flag.aliases + aliases,
        takes_value=False,
        value_optional=False,
        value_name=None,
        type="boolean",
        repeatable=True,
    )


def _tidy(flag: Flag) -> Flag:
    if flag.takes_value and not flag.choices:
        choices = value_choices(flag.description)
        if choices:
            flag = replace(flag, choices=choices, type="enum")
    if "(multiple values allowed)" in flag.description:
        flag = replace(flag, repeatable=True)
    return flag


@register_parser("symfony")
def parse_symfony(text: str, *, prog: tuple[str, ...]) -> Command:
    """One Symfony Console / cleo page: a command's help, or the ``TOOL list`` page at the root."""
    verbose = bool(_VERBOSITY.search(text))
    if verbose:  # (else there is nothing to rewrite)
        text = _VERBOSITY.sub(lambda m: f"{m['indent']}-v{m['rest']}", text)
    parts = read_parts(text, prog=prog, rules=RULES, stubs=False)  # (its commands are read below)
    listed = listed_commands(text)
    path = tuple(prog[1:])
    parts.subcommands = [
        stub((*path, name), summary=summary, group=group, aliases=aliases)
        for name, summary, aliases, group in _children(listed, path)
    ]
    # Usage lines name the command, not the tool ("install [options] [--] [<packages>...]").
    tool = prog[0] if prog else ""
    parts.usage = [
        u if not tool or u.startswith(tool + " ") else f"{tool} {u}" for u in parts.usage
    ]
    if listed and not path:
        parts.prose = []  # the root's page opens with a banner ("Composer version 2.5.5"), no prose
    command = assemble(parts, prog=prog, style="symfony")
    flags = tuple(
        _tidy(_verbosity(f) if verbose and f.long == "--verbose" else f) for f in command.flags
    )
    help_text = _help_section(text)
    description = "\n\n".join(p for p in (command.description, help_text) if p)[:2000]
    positionals = command.positionals
    if listed and not path:
        positionals = ()  # "command [options] [arguments]": the root takes a command
    return command.with_changes(flags=flags, description=description, positionals=positionals)


_HELP = re.compile(r"^Help:\n(?P<body>(?:[ \t].*\n?|\n)+)", re.MULTILINE)
_BLANK_RUN = re.compile(r"\n{3,}")


def _help_section(text: str) -> str:
    match = _HELP.search(text) if "Help:\n" in text else None
    if not match:
        return ""
    lines = [line.strip() for line in match["body"].split("\n")]
    return _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip()


def _children(listed, path: tuple[str, ...]):
    """(name, summary, aliases, group) of the commands directly under ``path``; a namespace that
    is no command of its own ("cache" of "cache clear") stands for the commands under it."""
    seen: dict[str, tuple] = {}
    depth = len(path)
    for entry in listed:
        if len(entry.words) <= depth or entry.words[:depth] != path:
            continue
        name = entry.words[depth]
        if len(entry.words) == depth + 1:
            seen[name] = (
                name,
                entry.summary,
                entry.aliases,
                entry.group if entry.group != name else "",
            )
        elif name not in seen:
            under = [
                " ".join(e.words[depth + 1 :])
                for e in listed
                if e.words[: depth + 1] == (*path, name) and len(e.words) > depth + 1
            ]
            seen[name] = (name, f"The {name} commands: {', '.join(under)}"[:300], (), "")
    return list(seen.values())


def nest(listed: tuple[Listed, ...]) -> dict[tuple[str, ...], tuple[Command, ...]]:
    """path -> the stubs listed directly under it, for every path of the listing that has some
    (cleo's ``self show`` is a command and the parent of ``self show plugins``)."""
    out: dict[tuple[str, ...], tuple[Command, ...]] = {}
    prefixes = {e.words[:i] for e in listed for i in range(len(e.words))}
    for prefix in sorted(prefixes, key=lambda p: (len(p), p)):
        children = _children(listed, prefix)
        if children:
            out[prefix] = tuple(
                stub((*prefix, name), summary=summary, group=group, aliases=aliases)
                for name, summary, aliases, group in children
            )
    return out


def flag_spellings(flags: tuple[Flag, ...]) -> frozenset[str]:
    """Every spelling of ``flags`` (``--verbose``, ``-v``)."""
    return frozenset(spelling for flag in flags for spelling in flag.spellings)


def split_inherited(
    command: Command, inherited: tuple[Flag, ...], *, spellings: frozenset[str] | None = None
) -> Command:
    """The page's flags that the application gives every command moved to ``global_flags``.
    ``spellings``: ``flag_spellings(inherited)``, where the caller splits many pages by the same flags."""
    spellings = flag_spellings(inherited) if spellings is None else spellings
    if not spellings:
        return command
    own: list[Flag] = []
    shared: list[Flag] = []
    for flag in command.flags:
        (shared if spellings.issuperset(flag.spellings) else own).append(flag)
    if not shared:
        return command
    return command.with_changes(flags=tuple(own), global_flags=command.global_flags + tuple(shared))


# -- list --format=json --------------------------------------------------------------------------

_FORMAT_TAG = re.compile(r"</?[\w=;-]+>")  # Symfony's "<info>", "<comment>", "</>"


def _untagged(text: str) -> str:
    """The text without its format tags (a text with no "<" has none)."""
    return _FORMAT_TAG.sub("", text) if "<" in text else text


def _json_flag(option: dict) -> Flag | None:
    long = option.get("name") or ""
    if not isinstance(long, str) or not long.startswith("--"):
        return None
    shortcut = str(option.get("shortcut") or "")
    shorts = [s if s.startswith("-") else "-" + s for s in shortcut.split("|") if s.strip("-")]
    takes = bool(option.get("accept_value"))
    description = _untagged(str(option.get("description") or ""))
    default = option.get("default")
    value_name = long[2:].upper() if takes else None
    choices = value_choices(description) if takes else ()
    flag = Flag(
        long=long,
        short=shorts[0] if shorts else None,
        aliases=tuple(shorts[1:]),
        takes_value=takes,
        value_optional=takes and not option.get("is_value_required"),
        value_name=value_name,
        type=("enum" if choices else guess_type(value_name)) if takes else "boolean",
        choices=choices,
        default=str(default)
        if isinstance(default, (str, int, float))
        and not isinstance(default, bool)
        and default != ""
        else None,
        repeatable=bool(option.get("is_multiple")) or len(shorts) > 1,
        description=description[:500],
    )
    return flag


_VARIANTS_KEPT = (
    4  # the forms of one option name remembered (composer's differ only per command: --dry-run)
)


def _json_flags(options: dict, memo: dict | None = None) -> list[Flag]:
    """The flags of one command's options, ``--no-`` negations joined to the flag they negate."""
    return _merge_negations(*_option_flags(options, {} if memo is None else memo))


def _option_flags(options: dict, memo: dict) -> tuple[list[Flag], list[str | None]]:
    """(the Flag of each option, the long each negates or None). ``memo`` (an option's name ->
    [(the option, its Flag, the long it negates)]) spares rebuilding the options every command's
    definition repeats; one is taken from it only where it equals the option remembered (a dict
    compared in C costs less than any key made of its fields)."""
    flags = []
    negates = []  # for each flag: the long its description says it negates ('Negate the "--ansi" option'), or None
    for option in options.values():
        if not isinstance(option, dict):
            continue
        name = option.get("name")
        if name.__class__ is not str:
            continue  # (_json_flag reads no option without a string name)
        seen = memo.get(name)
        known = None
        if seen is not None:
            for remembered, flag, negated in seen:
                if remembered == option:
                    known = (flag, negated)
                    break
        if known is None:
            flag = _json_flag(option)
            negated = (
                _NEGATE.match(flag.description)
                if flag is not None and not flag.takes_value
                else None
            )
            known = (flag, negated["long"] if negated else None)
            variants = memo.setdefault(name, [])
            if (
                len(variants) < _VARIANTS_KEPT
            ):  # (bounded: a hostile list of one name in 10⁵ forms stays linear)
                variants.append((option, *known))
        if known[0] is not None:
            flags.append(known[0])
            negates.append(known[1])
    return flags, negates


def _merge_negations(flags: list[Flag], negates: list[str | None]) -> list[Flag]:
    longs = {f.long for f in flags}
    # "--no-ansi": the other spelling of "--ansi", as help prints it
    merged = {
        flag.long
        for flag, negated in zip(flags, negates)
        if negated is not None and negated in longs
    }
    if not merged:
        return flags
    negating: dict[str, list[str]] = {}  # description -> the merged flags that have it, in order
    for flag in flags:
        if flag.long in merged:
            negating.setdefault(flag.description, []).append(flag.long)
    out: list[Flag] = []
    for flag in flags:
        if flag.long in merged:
            continue
        negations = tuple(negating.get(f'Negate the "{flag.long}" option', ()))
        out.append(_with_negations(flag, negations) if negations else flag)
    return out


@dataclass(frozen=True)
class _Application:
    """The application's options as the first command's definition has them, and the flags they
    gave there: a later command whose definition repeats them (the same keys in the same order,
    each option equal) has the same application flags, and only its own options are read."""

    keys: tuple[str, ...]
    options: tuple[dict, ...]
    shared: tuple[Flag, ...]
    shared_longs: frozenset
    negated: frozenset  # the longs the application's options negate
    longs: frozenset  # the application flags' longs


def _application(options: dict, common: set, shared: tuple, shared_longs: set, memo: dict):
    """The ``_Application`` of the first command, or None where its application flags depend on
    its own options (a negation across the two: then every command is read whole)."""
    keys = tuple(k for k in options if k in common)
    if not all(isinstance(options[k], dict) for k in keys):
        return None
    flags, negates = _option_flags({k: options[k] for k in keys}, memo)
    if tuple(_merge_negations(flags, negates)) != shared:
        return None
    return _Application(
        keys,
        tuple(options[k] for k in keys),
        shared,
        frozenset(shared_longs),
        frozenset(n for n in negates if n is not None),
        frozenset(f.long for f in flags),
    )


def _flags_with_application(options: dict, common: set, app: _Application, memo: dict):
    """(own flags, application flags) of a command whose definition repeats ``app``'s options,
    reading only its own; None where it does not repeat them exactly, or where a negation crosses
    between its own flags and the application's (read whole then, as the first command was)."""
    if tuple(k for k in options if k in common) != app.keys:
        return None
    for key, option in zip(app.keys, app.options):
        if options[key] != option:
            return None
    flags, negates = _option_flags({k: v for k, v in options.items() if k not in common}, memo)
    own_longs = {f.long for f in flags}
    if (
        not own_longs.isdisjoint(app.shared_longs)
        or not app.negated.isdisjoint(own_longs)
        or not app.longs.isdisjoint(n for n in negates if n is not None)
    ):
        return None
    return tuple(_merge_negations(flags, negates)), app.shared


def _with_negations(flag: Flag, negations: tuple[str, ...]) -> Flag:
    """``flag`` with its ``--no-`` spellings as aliases (the same on every command that has both)."""
    return replace(flag, aliases=flag.aliases + negations)


def parse_symfony_json(text: str, *, prog: tuple[str, ...]) -> Command | None:
    """The whole tree from ``TOOL list --format=json``: None when the text is no such document.

    The application's options are the ones every command's definition has: the root's own flags,
    and each command's ``global_flags``. Hidden commands are kept, marked hidden."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    commands = data.get("commands") if isinstance(data, dict) else None
    if not isinstance(commands, list) or not commands:
        return None
    entries = [
        c
        for c in commands
        if isinstance(c, dict) and isinstance(c.get("name"), str) and c["name"].strip()
    ]
    if not entries:
        return None
    definitions = [
        c.get("definition") if isinstance(c.get("definition"), dict) else {} for c in entries
    ]
    option_sets = [
        set((d.get("options") or {}).keys()) if isinstance(d.get("options"), dict) else set()
        for d in definitions
    ]
    common = set.intersection(*option_sets) if option_sets else set()
    names = {c["name"] for c in entries}
    alias_names = {
        n
        for ns in data.get("namespaces") or []
        if isinstance(ns, dict)
        for n in ns.get("commands") or []
        if isinstance(n, str)
    } - names
    application: list[Flag] = []
    nodes: dict[tuple[str, ...], dict] = {}  # path -> the fields of its Command
    listed: list[Listed] = []
    memo: dict = {}
    common_longs = {"--" + k for k in common}
    app: _Application | None | bool = False  # (False: not made yet; None: none to use)
    for entry, definition in zip(entries, definitions):
        options = definition.get("options") if isinstance(definition.get("options"), dict) else {}
        split = _flags_with_application(options, common, app, memo) if app else None
        if split is not None:
            own, shared = split
        else:
            flags = _json_flags(options, memo)
            shared_longs = common_longs | {
                (options.get(k) or {}).get("name")
                for k in common
                if isinstance(options.get(k), dict)
            }
            own = tuple(f for f in flags if f.long not in shared_longs)
            shared = tuple(f for f in flags if f.long in shared_longs)
            if app is False:
                app = _application(options, common, shared, shared_longs, memo)
        if not application:
            application = list(shared)
        arguments = (
            definition.get("arguments") if isinstance(definition.get("arguments"), dict) else {}
        )
        positionals = tuple(
            Positional(
                name=str(a.get("name") or key),
                required=bool(a.get("is_required")),
                variadic=bool(a.get("is_array")),
                description=_untagged(str(a.get("description") or ""))[:300],
            )
            for key, a in arguments.items()
            if isinstance(a, dict)
        )
        words = tuple(entry["name"].split())
        usage = [u for u in entry.get("usage") or [] if isinstance(u, str)]
        aliases = tuple(u for u in usage[1:] if u in alias_names)
        tool = prog[0] if prog else ""
        summary = _untagged(str(entry.get("description") or "")).strip()
        help_text = _untagged(str(entry.get("help") or "")).strip()
        nodes[words] = dict(
            path=words,
            summary=summary[:300],
            description=help_text[:2000],
            usage=tuple(f"{tool} {u}".strip() for u in usage[:1]),
            flags=own,
            global_flags=shared,
            positionals=positionals,
            aliases=aliases,
            hidden=bool(entry.get("hidden")),
            probe=("list", "--format=json"),
            parser="symfony",
        )
        listed.append(Listed(words, summary, aliases))
    children = nest(tuple(listed))

    # (each node's fields are gathered first and the node made once, with its subcommands: a
    # Command rebuilt by replace() for each costs as much as the rest of its reading)
    def build(path: tuple[str, ...], **fields) -> Command:
        node = nodes.get(path) or dict(
            path=path,
            summary=_namespace_summary(path, children),
            probe=("list", "--format=json"),
            parser="symfony",
            global_flags=tuple(application) if path else (),
        )
        subs = tuple(build(s.path, group=s.group) for s in children.get(path, ()))
        return Command(**{**node, **fields, "subcommands": subs})

    # (no entry's path is the root's: a name has a word)
    return build(
        (),
        flags=tuple(application),
        global_flags=(),
        summary="",
        usage=(),
        positionals=(),
        aliases=(),
        hidden=False,
    )


def _namespace_summary(path, children) -> str:
    under = [s.name for s in children.get(path, ())]
    return f"The {path[-1]} commands: {', '.join(under)}"[:300] if path else ""
