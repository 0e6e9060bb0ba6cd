"""The frameworks that list their commands somewhere else than in the root's help.

- Symfony Console and cleo: ``TOOL --help`` is the ``list`` command's
  own help. The commands are read from ``TOOL list --format=json`` where the framework answers it
  (Symfony: every command with its definition, so no command needs a probe of its own; asked only
  where ``list``'s help offers json, before that help is even parsed: where the JSON reads, the page
  never is), else from ``TOOL list`` (cleo), whose namespaces ("cache" of "cache clear") are no commands and are never
  probed; cleo's ``self show plugins`` is grafted under ``self show`` once that page is read.
- kingpin: the root's ``Commands:`` tree holds every path; each page is read as
  usual and the tree's entries under it are grafted on, so no level is lost when a page lists its
  command as a child of itself.

Both repeat the application's flags on every page in one table with the command's own: those are
moved to ``global_flags`` below the root. A listing that cannot be read keeps what was found and
adds a warning naming the page. The tool runs only through ``prober.run`` (the probe's sandbox).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace

from wrapgen.model.tool import Command, Flag
from wrapgen.probe.node import NodeRead

__all__ = ["Framework", "framework_root"]


@dataclass(frozen=True)
class Framework:
    """What a framework's own listing gave, for the crawl to use."""

    root: object  # the NodeRead the crawl takes as the root
    nodes: dict = field(default_factory=dict)  # path -> NodeRead already complete: never probed
    children: dict = field(
        default_factory=dict
    )  # path -> stubs listed under it, grafted once it is read
    inherited: tuple[Flag, ...] = ()  # the application's flags, repeated on every page
    warnings: tuple[str, ...] = ()
    defaults: frozenset = frozenset()  # kingpin: the paths that are their parent's default command
    # The listing is the application's own registry (Symfony's JSON: every command, hidden ones too):
    # a man page's list of pages can add no command to it, so the man page is not read for one.
    complete: bool = False

    @functools.cached_property
    def inherited_spellings(self) -> frozenset[str]:
        """The spellings of ``inherited``, made once for all the pages ``graft`` splits (a frozen
        dataclass may cache: ``cached_property`` writes the instance's ``__dict__``, not its fields)."""
        from wrapgen.parse.styles.symfony import flag_spellings

        return flag_spellings(self.inherited)

    def graft(self, node):
        """``node`` with the listing's children under it and the application's flags put apart."""
        from wrapgen.parse.styles.symfony import split_inherited

        command = node.command
        if command is None:
            return node
        known = {s.name for s in command.subcommands}
        extra = tuple(s for s in self.children.get(node.path, ()) if s.name not in known)
        if extra:
            command = replace(command, subcommands=command.subcommands + extra)
        if self.inherited and node.path:
            command = split_inherited(command, self.inherited, spellings=self.inherited_spellings)
        return replace(node, command=command)

    def finish(self, tree: Command) -> Command:
        """The assembled tree, with what needs the whole of it: a kingpin command takes the flags
        of its default subcommand."""
        if not self.defaults:
            return tree
        from wrapgen.parse.styles.kingpin import default_flags

        return default_flags(tree, self.defaults)


def _as_read(prober, parse, node):
    return node


def root_may_wait(text: str) -> bool:
    """Whether the root's page need not be parsed before ``framework_root`` sees it: Symfony's
    ``list`` help that offers JSON, whose listing replaces the page whole when it reads (the crawl's
    ``read_node(defer_parse=...)``; ``framework_root`` parses it where it does not)."""
    from wrapgen.parse.styles.symfony import is_list_help

    return is_list_help(text) and _OFFERS_JSON.search(text) is not None


# list's own option, as its help prints it: "--format=FORMAT  The output format (txt, xml, json, or md)"
_OFFERS_JSON = re.compile(r"^ *--format[= ]\S+ +.*\bjson\b", re.MULTILINE)


def framework_root(prober, parse, root, *, read, complete=_as_read):
    """The Framework for this root read (a crawl ``NodeRead``), or None for every other style.

    ``complete(prober, parse, root)`` gives the root as the crawl keeps it (its man page merged in,
    ``crawl.with_man``): asked only where the root read is kept, or its flags are looked at. A root
    left unparsed (``parse_due``, see ``root_may_wait``) is parsed here unless the JSON listing
    replaces it, by ``read`` (the crawl's ``read_node``, passed in: the crawl imports this module)."""
    listing = None  # `list --format=json`'s result, when asked before the root was parsed
    if root.parse_due:
        if len(root.parse_due) == 1:  # (`--help` answered: no earlier try's timeout to keep)
            listing = prober.run(_JSON_ARGS)
            framework = _from_json(prober, root, listing)
            if framework is not None:
                return framework
        root = read(prober, parse, path=(), defer_man=True, known=root.parse_due)
    command = root.command
    if command is None:
        return None
    from wrapgen.parse.styles.symfony import is_list_help, listed_commands

    # Only where the page is `list`'s help or a listing: a Symfony single-command application would
    # take `list` as its operand and run
    if is_list_help(root.text) or (command.parser == "symfony" and listed_commands(root.text)):
        return _symfony(prober, parse, root, complete, listing)
    root = complete(prober, parse, root)
    command = root.command
    if command.parser == "kingpin":
        from wrapgen.parse.styles.kingpin import command_tree, default_paths, tree_children

        tree = command_tree(root.text)
        return Framework(
            root=root,
            children=tree_children(tree),
            inherited=command.flags,
            defaults=default_paths(tree),
        )
    return None


def _shown(prober, args) -> str:
    return " ".join((prober.name, *args))


_JSON_ARGS = ("list", "--format=json")


def _from_json(prober, root, result):
    """The Framework of ``TOOL list --format=json``'s ``result`` where it is a Symfony command list
    with commands, else None. The root keeps its help page (``list``'s) as its text."""
    from wrapgen.parse.styles.symfony import parse_symfony_json

    tree = parse_symfony_json(result.text, prog=(prober.name,)) if result.usable else None
    if tree is None or not tree.subcommands:
        return None
    nodes = {}
    for node in tree.walk():
        stubs = tuple(replace(s, stub=True, subcommands=()) for s in node.subcommands)
        nodes[node.path] = NodeRead(node.path, replace(node, subcommands=stubs), "")
    top = nodes.pop(())
    # (the root keeps the text of its help page, `list`'s: the crawl's tests of the root's page
    # — "help -a", "TOOL options" — are about help, and would only scan the JSON in vain)
    return Framework(
        root=replace(top, text=root.text), nodes=nodes, inherited=tree.flags, complete=True
    )


def _symfony(prober, parse, root, complete=_as_read, listing=None):
    from wrapgen.parse.styles.symfony import is_list_help, listed_commands, nest

    warnings: list[str] = []
    args = _JSON_ARGS
    # list's own help says whether it prints JSON (Symfony: "--format=FORMAT ... (txt, xml, json, or
    # md)"); cleo's list has no --format: not asked, which saves a start of the tool
    format_flag = next((f for f in root.command.flags if f.long == "--format"), None)
    if is_list_help(root.text) and (format_flag is None or not format_flag.description):
        # the man page may add the flag, or its description (help's own wins where it has one)
        root = complete(prober, parse, root)
        format_flag = next((f for f in root.command.flags if f.long == "--format"), None)
    offers_json = not is_list_help(root.text) or (
        format_flag is not None and "json" in format_flag.description
    )
    result = (listing if listing is not None else prober.run(args)) if offers_json else None
    framework = _from_json(prober, root, result) if result is not None else None
    if framework is not None:
        return framework
    if result is not None and result.usable and result.text.lstrip().startswith(("{", "[")):
        # the framework answered in JSON, but not one this reads: say so, read the text listing
        warnings.append(
            f"could not read `{_shown(prober, args)}` (not a Symfony command list); "
            f"read `{_shown(prober, ('list',))}` instead"
        )
    args = ("list",)
    result = prober.run(args)
    listed = listed_commands(result.text) if result.usable else ()
    if not listed:
        why = result.problem or "it listed no commands"
        warnings.append(
            f"could not read the command list `{_shown(prober, args)}`: {why}; "
            f"kept what `{_shown(prober, root.command.probe or ('--help',))}` showed"
        )
        return Framework(root=complete(prober, parse, root), warnings=tuple(warnings))
    parsed = parse(result.text, prog=(prober.name,), style="symfony")
    top = replace(
        parsed,
        path=(),
        probe=args,
        stub=False,
        subcommands=tuple(replace(s, stub=True, subcommands=()) for s in parsed.subcommands),
    )
    children = nest(listed)
    commands = {entry.words for entry in listed}
    nodes = {}
    for path, stubs in children.items():
        if path and path not in commands:
            # a namespace: no command of its own, its page would be an error
            namespace = Command(
                path=path,
                subcommands=stubs,
                probe=args,
                parser="symfony",
                summary=f"The {path[-1]} commands: {', '.join(s.name for s in stubs)}"[:300],
                global_flags=top.flags,
            )
            nodes[path] = NodeRead(path, namespace, "")
    return Framework(
        root=NodeRead((), top, result.text),
        nodes=nodes,
        children=children,
        inherited=top.flags,
        warnings=tuple(warnings),
    )
