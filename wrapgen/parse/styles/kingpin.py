"""kingpin help (amtool, promtool, many Prometheus-era Go tools): ``usage: TOOL [<flags>] <command>``,
``Flags:``, ``Args:`` and a ``Commands:`` tree.

kingpin prints the command tree in one of two templates:

- the compact one (amtool) nests it by indentation, starting from the command being shown, so
  ``amtool alert --help`` lists ``alert`` and under it ``query*`` and ``add`` (``*`` marks the
  default command): the command appears as a child of itself to a reader of flat listings;
- the default one (promtool) lists every command path in full (``check config <config-files>...``)
  with its help indented below, blank lines between.

Either way the paths are absolute: ``command_tree`` reads them all, and a page's subcommands are
the entries directly under its own path. A flag's placeholder is its default when it is not a
placeholder (``--output=simple``, ``--timeout=30s``); descriptions that name another spelling
("Use --no-version-check to disable") add no flag. All functions here are pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wrapgen.model.tool import Command, Flag
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.listing import stub
from wrapgen.parse.registry import register_parser
from wrapgen.parse.styles.symfony import Listed, value_choices

__all__ = ["command_tree", "default_flags", "default_paths", "parse_kingpin", "tree_children"]

RULES = Rules(usage=r"^usage$", operands=r"^args$", listing=r"^commands$")

_COMMANDS = re.compile(r"^Commands:\n(?P<body>(?:[ \t].*\n?|\n)*)", re.MULTILINE)
# a tree line: its words (a name may end in "*": the default command), then its arguments
_LINE = re.compile(
    r"^(?P<indent> +)(?P<words>[A-Za-z0-9][\w.-]*\*?(?: [A-Za-z0-9][\w.-]*\*?)*)(?P<args>(?: \S.*)?)$"
)
# "  -o, --output=simple  ", '--date.format="2006-01-02 15:04:05 MST"': the value after "=" on a flag line
_FLAG_VALUE = re.compile(r'^(?P<head> +(?:-\w, )?--[\w.-]+)=(?P<value>"[^"]*"|\S+)', re.MULTILINE)
_PLACEHOLDER = re.compile(r"^(?:<[^>]+>|[A-Z][A-Z0-9_.-]*)$")
# newer kingpin: "--[no-]version-check"
_NEGATABLE = re.compile(r"--\[no-\](?P<name>[\w.-]+)")
_INTEGER = re.compile(r"-?\d+")


_CAPITALISED = re.compile(r"^ +[A-Z]")


def _default_template(lines: list[str]) -> bool:
    """Whether the tree is the default template: blank lines between entries, each entry's help
    (a sentence, capitalised) below it; the compact tree has neither."""
    return any(not line.strip() for line in lines) and any(
        _CAPITALISED.match(line) for line in lines
    )


def command_tree(text: str) -> tuple[Listed, ...]:
    """Every command path the ``Commands:`` section shows, in order, with its summary where the
    template prints one."""
    match = _COMMANDS.search(text)
    if not match:
        return ()
    lines = match["body"].rstrip("\n").split("\n")
    out: list[Listed] = []
    if _default_template(lines):
        entries = [line for line in lines if line.strip()]
        base = min(len(line) - len(line.lstrip()) for line in entries)
        current: list = []
        for line in entries:
            indent = len(line) - len(line.lstrip())
            parsed = _LINE.match(line.rstrip())
            if indent == base and parsed:
                current = [tuple(w.rstrip("*") for w in parsed["words"].split()), []]
                out.append(Listed(current[0]))
            elif current:
                current[1].append(line.strip())
                out[-1] = Listed(current[0], " ".join(current[1])[:300])
        return tuple(out)
    stack: list[tuple[int, tuple[str, ...]]] = []
    for line in lines:
        parsed = _LINE.match(line.rstrip())
        if not parsed:
            continue
        indent = len(parsed["indent"])
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ()
        path = (*parent, *(w.rstrip("*") for w in parsed["words"].split()))
        stack.append((indent, path))
        default = any(w.endswith("*") for w in parsed["words"].split())
        out.append(Listed(path, "", (), "default" if default else ""))
    return tuple(out)


def tree_children(tree: tuple[Listed, ...]) -> dict[tuple[str, ...], tuple[Command, ...]]:
    """path -> stubs of the commands directly under it, for every path with children."""
    out: dict[tuple[str, ...], list[Command]] = {}
    known: set[tuple[str, ...]] = set()
    for entry in tree:
        for depth in range(1, len(entry.words) + 1):
            path = entry.words[:depth]
            if path in known:
                continue
            known.add(path)
            last = depth == len(entry.words)
            out.setdefault(path[:-1], []).append(
                stub(path, summary=entry.summary if last else "", group="")
            )
    return {path: tuple(children) for path, children in out.items()}


def _children_of(tree: tuple[Listed, ...], path: tuple[str, ...]) -> tuple[Command, ...]:
    """``tree_children(tree).get(path, ())``, without making the stubs of every other path (a page
    shows the whole tree; it needs its own children only)."""
    depth = len(path) + 1
    known: set[tuple[str, ...]] = set()
    out: list[Command] = []
    for entry in tree:
        child = entry.words[:depth]
        if len(child) == depth and child[:-1] == path and child not in known:
            known.add(child)
            out.append(
                stub(child, summary=entry.summary if len(entry.words) == depth else "", group="")
            )
    return tuple(out)


@register_parser("kingpin")
def parse_kingpin(text: str, *, prog: tuple[str, ...]) -> Command:
    """One kingpin page: own flags (the application's are put apart by the crawl, which knows the
    root's), operands from ``Args:``, and the commands directly under this one."""
    defaults: dict[str, str] = {}

    def placeholder(match: re.Match) -> str:
        value = match["value"]
        if _PLACEHOLDER.match(value):
            return match[0]
        defaults[match["head"].split()[-1]] = value.strip('"')
        return f"{match['head']}=VALUE"

    text = _FLAG_VALUE.sub(placeholder, text)
    negatable = {f"--{m['name']}" for m in _NEGATABLE.finditer(text)}
    text = _NEGATABLE.sub(lambda m: f"--{m['name']}", text)
    parts = read_parts(text, prog=prog, rules=RULES, stubs=False)  # (its commands are read below)
    parts.companions, parts.global_companions = (
        [],
        [],
    )  # "Use --no-x to disable" names no flag of its own
    path = tuple(prog[1:])
    children = _children_of(command_tree(text), path)
    parts.subcommands = list(children)
    command = assemble(parts, prog=prog, style="kingpin")
    flags = []
    for flag in command.flags:
        value, negated = defaults.get(flag.long), flag.long in negatable
        flags.append(_page_flag(flag, value, negated) if value is not None or negated else flag)
    positionals = () if children else command.positionals  # "<command> [<args> ...]"
    return command.with_changes(flags=tuple(flags), positionals=positionals)


def _page_flag(flag: Flag, value: str | None, negated: bool) -> Flag:
    """``flag`` with the default its spec shows (``--timeout=30s``) and its ``--no-`` spelling."""
    if value is not None:
        choices = flag.choices or value_choices(flag.description)
        flag = replace(
            flag,
            default=value,
            value_name=None,
            choices=choices,
            type="enum" if choices else ("integer" if _INTEGER.fullmatch(value) else "string"),
        )
    if negated:
        flag = replace(flag, aliases=flag.aliases + (f"--no-{flag.long[2:]}",))
    return flag


def default_paths(tree: tuple[Listed, ...]) -> frozenset:
    """The paths the tree marks as their parent's default command (``query*``)."""
    return frozenset(entry.words for entry in tree if entry.group == "default")


def default_flags(command: Command, defaults: frozenset) -> Command:
    """The tree with each command that has a default subcommand (``query*``) taking that
    subcommand's own flags too, as kingpin does (``amtool alert --active`` runs ``alert query``)."""
    subcommands = tuple(default_flags(s, defaults) for s in command.subcommands)
    chosen = next((s for s in subcommands if s.path in defaults and not s.stub), None)
    flags = command.flags
    if chosen is not None:
        known = {sp for f in (*command.flags, *command.global_flags) for sp in f.spellings}
        flags += tuple(f for f in chosen.flags if known.isdisjoint(f.spellings))
    return replace(command, subcommands=subcommands, flags=flags)
