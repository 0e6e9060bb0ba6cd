"""The crawl: read the root's help, then every subcommand's, in parallel, into one tree.

Each node is read by one task (its probes tried in order until one parses into something with
content); a finished node submits its stub subcommands as new tasks, so the pool never waits for a
whole level. The tree is assembled at the end from the per-path results, in the order the help
listed the subcommands, so the outcome does not depend on which probe finished first.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable

from wrapgen.knowledge.phrases import not_a_description
from wrapgen.knowledge.table import load
from wrapgen.knowledge.tools import pages_repeat_root_options
from wrapgen.model.tool import Command, Flag
from wrapgen.parse.registry import USAGE_LISTED
from wrapgen.parse.usage import usage_positionals
from wrapgen.probe.frameworks import framework_root, root_may_wait
from wrapgen.probe.node import NodeRead
from wrapgen.probe.workers import Workers

__all__ = [
    "CrawlResult",
    "NodeRead",
    "crawl",
    "read_node",
    "with_man",
    "default_jobs",
    "SKIP_RECURSION",
    "has_content",
]

# Subcommands that describe the tool instead of doing something; probing them adds nothing
# (wrapgen/knowledge/data/commands.json, table not_crawled; matched lower-cased).
SKIP_RECURSION = load("commands")["not_crawled"].names

# A root help that lists only the common commands and points at `TOOL help -a` for the rest.
_HELP_ALL = re.compile(r"help(?<=\bhelp)\s+-a\b")  # \bhelp\s+-a\b, its word boundary
# looked for behind the literal: a pattern that opens with a literal is scanned for it in C, one that
# opens with \b is tried at every character (3 ms on a framework's 160 KB JSON listing)
# A root help that lists the common commands and ends with "...  See all commands with --list".
_LIST_ALL = re.compile(
    r"all\s+commands\s+with\s+['`\"]?--list\b|--list\s+List\s+(?:all|installed)\s+commands", re.I
)
# Some tools keep their global flags out of every help and point at a command that lists them
# ('Use "TOOL options" for a list of global command-line options', 'Use "TOOL help flags" for to
# see the global flags.').
_OPTIONS_HINT = re.compile(
    r"""
    ["'`](?P<tool>\S+)(?P<args>(?:[ ][a-z][\w-]*){1,2})["'`]  # the quoted command: "TOOL options"
    \s+(?:for\s+)?(?:a\s+list\s+of|to\s+see|to\s+list)  # "for a list of", "for to see"
    \s+(?:all\s+)?(?:the\s+)?global\s+(?:[\w-]+\s+)?(?:flags|options)\b  # "the global flags": a listing,
                                                          # never "to set global options" (an action)
    """,
    re.I | re.X,
)
# What every _OPTIONS_HINT match holds (its last line, less the \b a window's end may satisfy),
# looked for first on the whole text.
_GLOBAL_LISTING = re.compile(r"global\s+(?:[\w-]+\s+)?(?:flags|options)", re.I)
_GLOBAL_LISTING_FOLDED = re.compile(
    _GLOBAL_LISTING.pattern
)  # for a lower-cased text: scanned for "g" in C
# Every hint says "global": that word is found first (a plain substring search), and the hint is
# looked for around it only, since _OPTIONS_HINT tried at every quote of a long page backtracks
# (a framework's JSON listing, 160 KB of quotes, took 90 ms).
_HINT_REACH = 400  # characters before "global": the quoted command and the words between
_HINT_AFTER = 120  # after it: "global backend flags", "global options"
# "Use TOOL command help for information on a specific command" (its --help: "TOOL <command> help").
_SUB_HELP = r"\s+<?(?:command|cmd)>?\s+help\b"
# A root help with no listing that points at the command that lists them: "Run 'TOOL help' to see
# the list of available commands." (the quoted name may be the program's own file name).
_LISTING_POINTER = re.compile(
    r"""
    ["'`][\w.-]+(?P<args>(?:[ ][a-z-][\w-]*){1,2})["'`]   # the quoted command: "TOOL help"
    \s+(?:to\s+(?:see|get|show|list)|for)                   # "to see", "for"
    \s+(?:a\s+|the\s+)?(?:full\s+|complete\s+)?list\s+of    # "the list of"
    \s+(?:all\s+)?(?:the\s+)?(?:available\s+)?commands\b     # "available commands"
    """,
    re.I | re.X,
)
# The same pointer as a row of a help's "Further help" table, unquoted: "  TOOL help commands
#   list all 'TOOL' commands".
_LISTING_ROW = re.compile(
    r"""
    ^[ \t]*[\w.-]+(?P<args>(?:[ ][a-z-][\w-]*){1,2})      # the command: "TOOL help commands"
    [ \t]{2,}(?:lists?|shows?|prints?)                      # its help: "list"
    [ \t]+(?:all|the)[ \t]+(?:\S+[ \t]+)?(?:available[ \t]+)?commands\b  # "all 'TOOL' commands"
    """,
    re.I | re.X | re.M,
)
# "Use the action "help" to find out about available actions" (Python's cmd module, whose `help`
# lists the commands and `help CMD` gives one's help): the listing is `TOOL help`, and a command's
# help is `TOOL help CMD`.
_HELP_ACTION_POINTER = re.compile(
    r"""["'`](?P<args>help)["'`]\s+to\s+(?:find\s+out\s+about|see|get|show|list)
    \s+(?:the\s+)?(?:available\s+)?(?:actions|commands)\b""",
    re.I | re.X,
)
# "Run 'TOOL help <command>' to get help for <command>": a command's help is `help SUB`.
_HELP_FOR_COMMAND = re.compile(r"""["'`][\w.-]+\s+help\s+<(?:command|cmd|subcommand)>["'`]""", re.I)
# `TOOL help -a` may also list guides and file-format pages, which are not commands.
_GUIDE_GROUP = re.compile(r"interfaces|file formats|guides", re.I)

# How roff writes a reference to a command's own page after the tool's name: "-upload-pack(1)",
# "\-upload\-pack\fR(1)".
_PAGE_REF = r"(?:\\?-[a-z0-9]+)+(?:\\f[A-Z]|\\f\[\])?\(1\)"

Progress = Callable[[int, int, tuple], None]
ParseFn = Callable[..., Command]


@dataclass(frozen=True)
class CrawlResult:
    root: Command | None
    version: str = ""
    warnings: tuple[str, ...] = ()
    transient: bool = False
    nodes: int = 0  # nodes probed
    # the subcommands whose probes timed out, when that alone made the result transient (no deadline
    # cut, the root read): discovery caches such a result once the same ones time out twice running
    timed_out: tuple[tuple[str, ...], ...] = ()
    # the crawl read the priority paths and left the rest unread: it could not have read it within
    # its deadline (the priority reads then hold what a caller asked for; see ``crawl``)
    guided_stop: bool = False


def default_jobs() -> int:
    """Help probes mostly wait on process start-up, so twice the CPUs keeps every core busy."""
    return max(2, (os.cpu_count() or 1) * 2)


def has_content(command: Command) -> bool:
    """Whether a parse found anything a proposal could use."""
    return bool(command.flags or command.global_flags or command.subcommands or command.positionals)


def _candidates(
    path: tuple[str, ...], *, git_style: bool, sub_help: bool = False, help_first: bool = False
) -> list[tuple[str, ...]]:
    if not path:
        return [("--help",), ("-h",), ("help",)]
    if help_first:
        # the root's help says "Run 'TOOL help <command>' to get help for <command>"
        return [("help", *path), (*path, "--help"), (*path, "-h")]
    if sub_help:
        # the root's help says so ("Use TOOL <command> help"): only then is `SUB help` asked, since
        # elsewhere it may run SUB on an operand named "help"
        return [(*path, "help"), (*path, "--help"), (*path, "-h")]
    if git_style:
        # where `TOOL help -a` lists the commands, `CMD --help` renders the whole man page and
        # `CMD -h` prints the option list fast
        return [(*path, "-h"), (*path, "--help")]
    return [(*path, "--help"), ("help", *path), (*path, "-h")]


def _safe_parse(
    parse: ParseFn, text: str, *, prog: tuple[str, ...], style: str | None
) -> tuple[Command | None, str]:
    try:
        return parse(text, prog=prog, style=style), ""
    except Exception as error:  # a parser bug on one node must not lose the rest of the tree
        return None, f"{type(error).__name__}: {error}"


def _normalise(
    command: Command, path: tuple[str, ...], probe: tuple[str, ...], parser: str
) -> Command:
    """The parsed command placed at ``path``, its subcommands as stubs under it, duplicates dropped."""
    seen: set[str] = set()
    stubs = []
    for sub in command.subcommands:
        if not sub.name and not sub.path:
            continue
        name = sub.path[-1] if sub.path else sub.name
        if not name or name in seen or name.startswith("-"):
            continue
        seen.add(name)
        stubs.append(replace(sub, path=_placed(path, name), stub=True, subcommands=()))
    return replace(
        command,
        path=path,
        subcommands=tuple(stubs),
        probe=probe,
        parser=command.parser or parser,
        stub=False,
    )


def _placed(path: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Where a command listed on the page at ``path`` under ``name`` runs. A topic's page in the
    colon layout names its commands by their whole id (``accounts:current`` on the ``accounts``
    page): that command runs as ``TOOL accounts:current``, so it sits beside the topic, not under
    it (``TOOL accounts accounts:current`` runs the topic). Anywhere else, under the page."""
    if path and name.startswith(path[-1] + ":") and len(name) > len(path[-1]) + 1:
        return (*path[:-1], name)
    return (*path, name)


def _with_help_flag(command: Command) -> Command:
    """`--help` just worked, so the command has it even where its help leaves it unlisted."""
    if any("--help" in f.spellings for f in (*command.flags, *command.global_flags)):
        return command
    return replace(command, flags=command.flags + (Flag(long="--help", description="show help"),))


def _merge_man_flags(command: Command, man: Command) -> Command:
    """The man page's flags merged in: help wins where both describe a flag, and only fills gaps
    (a help that lists ``-r`` where its man page says ``-r, --raw-output``); unknown flags are added.
    The page's exit statuses win over what help says of them."""
    flags = list(command.flags)
    known = {s for f in command.global_flags for s in f.spellings}
    extra: list[Flag] = []
    for flag in man.flags:
        spellings = set(flag.spellings)
        if spellings & known:
            continue
        index = next((i for i, f in enumerate(flags) if spellings & set(f.spellings)), None)
        if index is None:
            extra.append(flag)
            known |= spellings
            continue
        mine = flags[index]
        if not mine.description and not mine.takes_value:
            # find's help names its primaries bare ("-regextype"): the man page says what they take
            mine = replace(
                mine,
                takes_value=flag.takes_value,
                value_optional=flag.value_optional,
                value_name=flag.value_name,
                type=flag.type,
                choices=flag.choices,
                default=flag.default,
                repeatable=mine.repeatable or flag.repeatable,
            )
        flags[index] = replace(
            mine,
            long=mine.long or flag.long,
            short=mine.short or flag.short,
            description=mine.description or flag.description,
            operation=mine.operation
            or flag.operation,  # a short help without the page's "Operation mode:" heading
        )
        # a page with "-c --stdout --to-stdout" where --help shows "-c, --stdout": the page's other
        # spellings are aliases of the same flag
        more = tuple(
            sp for sp in flag.spellings if sp not in flags[index].spellings and sp not in known
        )
        if more:
            flags[index] = replace(flags[index], aliases=flags[index].aliases + more)
        known |= set(flags[index].spellings)
    # the page's EXIT STATUS is fuller than help's one line ("1 if no lines were selected", not "1 otherwise")
    # the page's EXAMPLES join help's own: the flags they use are the ones people reach for first
    examples = tuple(dict.fromkeys(command.examples + man.examples))
    grammar = {}
    if _fuller_grammar(command, man):
        # a `CMD -h` run outside a repository may print only the form that needs none; the page's
        # SYNOPSIS has every form ("TOOL diff [<options>] [<commit>] [--] [<path>...]"): its operands
        # are the command's
        grammar = {"usage": man.usage, "positionals": man.positionals}
    return replace(
        command,
        summary=_summary_or_man(command.summary, man.summary),
        flags=tuple(flags) + tuple(extra),
        exit_status=man.exit_status or command.exit_status,
        # the page's SYNOPSIS may show the "--" the help's usage left out
        double_dash=command.double_dash if command.double_dash is not None else man.double_dash,
        examples=examples,
        **grammar,
    )


def _summary_or_man(help_summary: str, man_summary: str) -> str:
    """The help's summary, or the man page's NAME line ("pattern scanning and processing language")
    where the help's first line is a heading or banner ("POSIX options: GNU long options:"): the
    page's one line on what the tool is for is the one its authors wrote for that. A help with no
    summary keeps none (its main mode's name and words come from its options, as before)."""
    if help_summary and any(p.search(help_summary) for p in not_a_description()):
        return man_summary or help_summary
    return help_summary


def _fuller_grammar(command: Command, man: Command) -> bool:
    """Whether the man page's SYNOPSIS shows more forms of the command than its help did, naming
    every operand the help named and more: the help printed one mode only."""
    if not command.path or len(man.usage) <= max(1, len(command.usage)) or not man.positionals:
        return False
    mine = {p.name.lower() for p in command.positionals}
    theirs = {p.name.lower() for p in man.positionals}
    prefix = " ".join(command.path)
    return mine < theirs and all(prefix in line for line in man.usage)


def read_node(
    prober,
    parse: ParseFn,
    *,
    path: tuple[str, ...],
    style: str | None = None,
    git_style: bool = False,
    echo: frozenset[str] = frozenset(),
    use_man: bool = True,
    sub_help: bool = False,
    help_first: bool = False,
    defer_man: bool = False,
    defer_parse: Callable[[str], bool] | None = None,
    known: tuple = (),
) -> NodeRead:
    """Probe one node: the first candidate that parses into content wins (exit 0 preferred).

    ``defer_man``: a man page that would be merged into the help read is left for ``with_man``
    (``man_due``), for a root that a framework's listing may replace whole (Symfony's).
    ``defer_parse(text)``: whether a page that would be parsed now (one a candidate printed, exit 0)
    may be parsed later instead: the node then comes back unparsed (``parse_due``), and
    ``read_node(known=node.parse_due)`` finishes it, with the same answer, running no probe again."""
    problems: list[str] = []
    transient = False
    timeouts = 0
    fallback: tuple[Command, str] | None = None
    chosen: tuple[Command, str] | None = None
    ran: list[tuple] = list(known)  # (args, result) of each probe run for this node
    results = dict(known)
    for args in _candidates(path, git_style=git_style, sub_help=sub_help, help_first=help_first):
        result = results.get(args)
        if result is None:
            result = prober.run(args)
            ran.append((args, result))
            if (
                defer_parse is not None
                and result.usable
                and result.exit_code in (0, None)
                and result.text.strip() not in echo
                and defer_parse(result.text)
            ):
                return NodeRead(path, None, result.text, parse_due=tuple(ran))
        if not result.usable:
            problems.append(result.problem)
            if getattr(result, "expired", False):
                transient = True
                break  # discovery's deadline passed: no further try would run
            if result.timed_out:
                # Each further try would wait the whole timeout again: a subcommand keeps its
                # parent's listing after one, the root gives up after two (`--help` and `-h`).
                timeouts += 1
                transient = True
                if path or timeouts == 2:
                    break
            continue
        if result.text.strip() in echo:
            # The tool ignored the subcommand and printed its parent's help again.
            problems.append(f"`{prober.name} {' '.join(args)}` {_ECHOED}")
            continue
        parsed, error = _safe_parse(parse, result.text, prog=(prober.name, *path), style=style)
        if parsed is None:
            problems.append(f"could not parse `{prober.name} {' '.join(args)}`: {error}")
            continue
        if not has_content(parsed) and not parsed.usage:
            said = next((line.strip() for line in result.text.splitlines() if line.strip()), "")[
                :80
            ]
            problems.append(
                f"`{prober.name} {' '.join(args)}` printed no usage, options or commands "
                f"(it said: {said!r})"
            )
            continue
        node = _normalise(parsed, path, args, parsed.parser)
        if result.exit_code == 0 and args[-1] == "--help":
            node = _with_help_flag(node)
        if result.exit_code in (0, None) or (git_style and result.exit_code == 129):
            chosen = (node, result.text)
            break
        if fallback is None:
            fallback = (node, result.text)
    chosen = chosen or fallback
    # Help is thin when it shows no flags; where `TOOL help -a` lists the commands, `CMD -h` is a
    # deliberately brief usage, so its man page (which lists the options `-h` leaves out) is read too.
    # A tool without subcommands has one man page about exactly its flags, and its help is often a
    # digest ("Some of the options include:"), so its man page is merged too.
    thin = (
        chosen is None
        or not (chosen[0].flags or chosen[0].subcommands)
        or git_style
        or (not path and not chosen[0].subcommands)
    )
    if use_man and thin and defer_man and chosen is not None:
        return NodeRead(path, chosen[0], chosen[1], tuple(problems), transient, man_due=True)
    if use_man and thin and not _expired(prober):
        chosen = _with_man_page(prober, parse, path, chosen)
    if chosen is None:
        return NodeRead(path, None, problems=tuple(p for p in problems if p), transient=transient)
    return NodeRead(path, chosen[0], chosen[1], tuple(problems), transient)


def _with_man_page(prober, parse: ParseFn, path: tuple[str, ...], chosen):
    man = _read_man(prober, parse, path)
    if man is None:
        return chosen
    return (man, "") if chosen is None else (_merge_man_flags(chosen[0], man), chosen[1])


def with_man(prober, parse: ParseFn, node: NodeRead) -> NodeRead:
    """``node`` with the man page ``read_node(defer_man=True)`` left out merged in (as it would have
    been then); ``node`` itself when none is due."""
    if not node.man_due:
        return node
    node = replace(node, man_due=False)
    if _expired(prober):
        return node
    command, _ = _with_man_page(prober, parse, node.path, (node.command, node.text))
    return replace(node, command=command)


def _expired(prober) -> bool:
    """Whether the prober's discovery deadline has passed (a prober without one never expires)."""
    return bool(getattr(prober, "expired", False))


def _deadline_cut(node: NodeRead) -> bool:
    return node.command is None and any("deadline passed" in p for p in node.problems)


def _read_man(prober, parse: ParseFn, path: tuple[str, ...]) -> Command | None:
    source, page = prober.man_source(path)
    if not source.strip():
        return None
    parsed, _ = _safe_parse(parse, source, prog=(prober.name, *path), style="man")
    if parsed is None or not parsed.flags:
        return None
    return _normalise(replace(parsed, subcommands=()), path, (f"man:{page}",), "man")


def _carry_stub(read: Command, stub: Command, **changes) -> Command:
    """What the parent's listing knew (summary, group, aliases) kept on the probed command, with
    ``changes`` (its assembled subcommands) made in the same copy."""
    aliases = tuple(dict.fromkeys((*stub.aliases, *read.aliases)))
    return replace(
        read,
        **changes,
        summary=stub.summary or read.summary,
        group=stub.group or read.group,
        aliases=aliases,
        hidden=read.hidden or stub.hidden,
        deprecated=read.deprecated or stub.deprecated,
        common=read.common or stub.common,
        # the operands the listing spelled ("start UNIT...") when the command's own help names none
        **(
            {"positionals": stub.positionals, "usage": read.usage or stub.usage}
            if stub.positionals and not read.positionals and not read.usage
            else {}
        ),
    )


def crawl(
    prober,
    parse: ParseFn,
    *,
    depth: int = 3,
    max_nodes: int = 500,
    jobs: int | None = None,
    style: str | None = None,
    progress: Progress | None = None,
    priority_paths: tuple[tuple[str, ...], ...] = (),
    rest_by_s: float | None = None,
    rest_read: int = 0,
    rest_cpu_s: float | None = None,
    version: str | None = None,
) -> CrawlResult:
    """Discover the tree under ``prober``'s tool; whatever was read is returned with warnings.

    ``priority_paths`` (subcommand paths, most wanted first) are read before the rest: each, with
    its ancestors, wherever its parent lists it, at any depth and past ``max_nodes``, in their
    order, while the rest waits (so that on a busy machine the rest takes no CPU from them). Once
    they are read, the rest is read only if, at the pace of the reads so far, it would be read
    within the deadline and within ``rest_by_s`` seconds of the crawl's start (None: no bound of its
    own); otherwise it is left as stubs (``guided_stop``), since what a deadline would let through
    of it is an arbitrary part, the first listed. The rest is judged a generation at a time: the
    commands its pages list wait until it is read, and are judged the same way. A rest of at most
    ``rest_read`` commands in all generations, that would take at most ``rest_cpu_s`` seconds of
    CPU at the CPU the reads so far took each (None: no bound), is read whatever the pace: the pace is the machine's
    load as much as the tool's, and a tree that depends on it is a pack that does (the CPU a read
    takes hardly depends on the load).
    ``version``: the tool's ``--version``
    line when the caller has read it already (else it is read beside the root's help)."""
    jobs = jobs or default_jobs()
    wanted = _wanted(priority_paths)
    root_started = time.monotonic()
    warnings: list[str] = []
    reads: dict[tuple[str, ...], NodeRead] = {}
    transient = False
    with Workers(jobs) as pool:
        known_version = version
        version: list[str] = []  # (set by the worker that asks for it)
        if known_version is None:
            pool.submit(lambda: version.append(prober.version()))
        else:
            version.append(known_version)
        # The root's man page is merged in only once it is known that no framework listing
        # replaces the root read (Symfony's `list --format=json` does: its page was never used).
        # (Symfony's `list` help, read where its JSON listing may replace it, is parsed only if not)
        root = read_node(
            prober,
            parse,
            path=(),
            style=style,
            defer_man=depth > 0,
            defer_parse=root_may_wait if depth > 0 and style is None else None,
        )
        framework = (
            framework_root(prober, parse, root, complete=with_man, read=read_node)
            if depth > 0
            else None
        )  # Symfony's `list`, kingpin's tree
        if framework is not None:
            root = framework.root
            warnings.extend(framework.warnings)
        elif root.parse_due:  # (no framework: framework_root parsed it, but kept no Framework)
            root = read_node(
                prober, parse, path=(), style=style, defer_man=True, known=root.parse_due
            )
        transient = root.transient
        spent = [time.monotonic() - root_started, 1]  # time the reads took, how many: the pace
        if root.command is None:
            pool.wait()
            return CrawlResult(None, version[0], tuple(root.problems), transient, 1)
        root = with_man(prober, parse, root)
        root_cmd = root.command
        git_style = bool(_HELP_ALL.search(root.text))
        sub_help = bool(_literal_first(re.escape(prober.name), _SUB_HELP).search(root.text))
        pointer = (
            _LISTING_POINTER.search(root.text) or _LISTING_ROW.search(root.text)
            if not root_cmd.subcommands
            else None
        )
        action = _HELP_ACTION_POINTER.search(root.text) if not root_cmd.subcommands else None
        # a root whose commands are listed only by `TOOL help` and that says a command's help is
        # `TOOL help <command>`: each command's help is asked that way first
        help_first = (
            (pointer is not None or action is not None)
            and not sub_help
            and (action is not None or _HELP_FOR_COMMAND.search(root.text) is not None)
        )
        pointer = pointer or action
        if git_style:
            root_cmd = _git_all_commands(prober, parse, root_cmd, warnings)
        elif _found(_LIST_ALL, root.text, ("all", "--list"), folded=True):
            root_cmd = _listed_commands(prober, parse, root_cmd, warnings)
        elif pointer is not None:
            root_cmd = _listed_commands(
                prober, parse, root_cmd, warnings, args=tuple(pointer["args"].split())
            )
        if root_cmd.subcommands and not (framework is not None and framework.complete):
            root_cmd = _man_listed_commands(prober, parse, root_cmd)
        flags, listing = _global_options(prober, parse, root.text, warnings)
        shared = _Shared.of(flags) if flags else None
        if shared is not None:
            root_cmd = _with_globals(root_cmd, shared)
        reads[()] = replace(root, command=root_cmd)
        if listing is not None and listing.path in {s.path for s in root_cmd.subcommands}:
            # `TOOL options` is a command whose page was just read (its `--help` may print
            # nothing): that page is the node, not probed again.
            reads[listing.path] = listing
        echo = frozenset({root.text.strip()})
        # What the tasks share, changed only under ``lock``: each task records its node and queues
        # the node's children itself, so this thread sleeps until the whole tree is read.
        lock = threading.Lock()
        probed = 1
        skipped = 0
        late = 0  # stubs never submitted because the deadline had passed
        left = 0  # stubs left unread once the priority paths were read (``guided_stop``)
        guiding = 0  # priority nodes submitted and not yet recorded
        guided = bool(wanted)  # priority paths are still being read: the rest waits in ``held``
        stopped = False  # the rest is left unread
        # Guided, every command of the rest waits in ``held`` until its generation is judged: the
        # first rest once the priority paths are read, each later one (the commands the rest's
        # pages list) once the generation before it is read. A rest that was small can list a
        # large one (a topic's page listing its commands).
        held: list[Command] = []
        rest_released = 0  # commands of the rest released so far, every generation
        unlisted: set[tuple[str, ...]] = set()  # priority paths their parent's page does not list
        queue: list[Command] = list(root_cmd.subcommands) if depth > 0 else []
        done = 0
        running = 0  # nodes submitted and not yet recorded

        def submit_children(children, *, released: bool = False) -> None:
            nonlocal probed, skipped, late, running, left, guiding
            for stub in children:
                rank = wanted.get(stub.path)
                if stub.probe == USAGE_LISTED:
                    # `TOOL access list`, `TOOL cache list` named by the parent's usage lines: read
                    # from the parent's page, never run (a `cache list --help` may run `cache list`)
                    if len(stub.path) <= depth and stub.path not in reads:
                        _read_from_parent(prober, parse, stub, reads, depth=depth)
                    continue
                if (
                    stub.name.lower() in SKIP_RECURSION
                    or (len(stub.path) > depth and rank is None)
                    or stub.path in reads
                ):
                    continue
                if _expired(prober):
                    late += 1
                    continue
                if stopped and rank is None:
                    left += 1
                    continue
                if rank is None and wanted and not released:
                    held.append(stub)  # judged with its generation by ``release``
                    continue
                if probed >= max_nodes and rank is None:
                    skipped += 1
                    continue
                probed += 1
                running += 1
                guiding += rank is not None
                parent_text = reads.get(stub.path[:-1])
                local_echo = echo | (
                    {parent_text.text.strip()} if parent_text and parent_text.text else set()
                )
                pool.submit(
                    read_child,
                    stub.path,
                    frozenset(local_echo),
                    rank=len(wanted) if rank is None else rank,
                )

        def leaf_page(path: tuple[str, ...]) -> Callable[[str], bool]:
            # A page read where no child of it is crawled, or one that shows no listing of commands,
            # is parsed after the probes, with the other such pages (``finish_deferred``); a page
            # that lists commands is parsed at once, so that its children are probed meanwhile.
            if _leads_to(path, wanted):
                return lambda text: False  # a priority path's ancestor: its children come first
            if len(path) >= depth:
                return lambda text: True
            if framework is not None and framework.children.get(path):
                return lambda text: False
            return lambda text: not _may_list_commands(text)

        def read(path: tuple[str, ...], local_echo: frozenset[str], **options) -> NodeRead:
            try:
                return read_node(
                    prober,
                    parse,
                    path=path,
                    style=style,
                    git_style=git_style,
                    echo=local_echo,
                    sub_help=sub_help,
                    help_first=help_first,
                    **options,
                )
            except Exception as error:  # e.g. out of file descriptors: lose this node, not the tree
                return NodeRead(
                    path, None, problems=(f"the probe failed: {type(error).__name__}: {error}",)
                )

        def record(path: tuple[str, ...], node: NodeRead) -> None:
            """Keep ``node`` (grafted, once parsed) and queue its children; under ``lock``."""
            nonlocal transient
            if framework is not None and not node.parse_due:
                node = framework.graft(node)
            reads[path] = node
            transient = transient or node.transient
            if node.command is not None and (len(path) < depth or _leads_to(path, wanted)):
                submit_children(node.command.subcommands)
            if node.command is not None and wanted:
                ask_unlisted(path, node)

        def ask_unlisted(path: tuple[str, ...], node: NodeRead) -> None:
            """Probe the priority paths right below ``path`` that its page does not list (a hidden
            command, one a pick names): kept only where their own help names them; under ``lock``."""
            nonlocal probed, running, guiding
            listed = {s.path for s in node.command.subcommands}
            for child in wanted:
                if (
                    len(child) != len(path) + 1
                    or child[: len(path)] != path
                    or child in listed
                    or child in reads
                    or child in unlisted
                    or child[-1].lower() in SKIP_RECURSION
                    or _expired(prober)
                ):
                    continue
                unlisted.add(child)
                probed += 1
                running += 1
                guiding += 1
                local_echo = echo | ({node.text.strip()} if node.text else set())
                pool.submit(read_child, child, frozenset(local_echo), rank=wanted[child])

        def unlisted_read(path: tuple[str, ...], node: NodeRead) -> bool:
            """Whether an unlisted path's read is a command of its own: its help's usage names the
            path (``TOOL get pods --help`` printing ``TOOL get``'s help names no ``get pods``); then
            it is added to its parent's listing. Under ``lock``."""
            if node.command is None or not _names_path(node.command.usage, path):
                return False
            parent = reads.get(path[:-1])
            if parent is None or parent.command is None:
                return False
            stub = Command(path=path, summary=node.command.summary, stub=True)
            grown = replace(parent.command, subcommands=parent.command.subcommands + (stub,))
            reads[path[:-1]] = replace(parent, command=grown)
            return True

        def read_child(path: tuple[str, ...], local_echo: frozenset[str]) -> None:
            nonlocal done, running, guiding
            began = time.monotonic()
            node = read(path, local_echo, defer_parse=None if path in unlisted else leaf_page(path))
            with lock:
                spent[0] += time.monotonic() - began
                spent[1] += 1
                if path not in unlisted or unlisted_read(path, node):
                    record(path, node)
                done += 1
                running -= 1
                if path in wanted:
                    guiding -= 1
                    if not guiding and guided:
                        release()
                if progress is not None:
                    pool.notify((done, done + running, path))
                if node.parse_due:
                    echoes[path] = local_echo

        echoes: dict[
            tuple[str, ...], frozenset[str]
        ] = {}  # a deferred node's echo set, for its finishing

        def settle() -> bool:
            """The rest waiting released (``release``) once nothing runs: the priority paths that
            were listed were all read or cut short, or the generation of the rest before it is
            read. Whether any was."""
            with lock:
                if not guided and not held:
                    return False
                release()
                return True

        def release() -> None:
            """Once the last priority node is read, and again once each generation of the rest is:
            the rest waiting is read while the rest released in all stays within ``rest_read``
            commands and ``rest_cpu_s`` CPU seconds, or if, each read taking what the reads so far
            took on average, ``jobs`` at a time, it would be read before the deadline and by
            ``rest_by_s`` after the start; else it is left unread (``stopped``), and so is every
            later generation. Under ``lock``."""
            nonlocal guided, stopped, left, rest_released
            guided = False
            end = getattr(prober, "deadline_at", None)
            rest = held[:]
            held.clear()
            cpu = getattr(prober, "cpu_s", 0.0) / spent[1]  # each read's own CPU, load or not
            if rest_released + len(rest) > rest_read or (
                rest_cpu_s is not None and (rest_released + len(rest)) * cpu > rest_cpu_s
            ):
                done_at = time.monotonic() + spent[0] / spent[1] * len(rest) / jobs
                stopped = (end is not None and done_at > end) or (
                    rest_by_s is not None and done_at > root_started + rest_by_s
                )
            if stopped:
                left += len(rest)
            else:
                rest_released += len(rest)
                submit_children(rest, released=True)

        def finish_deferred() -> bool:
            """Parse the pages left for later, one after another (a burst of parsing costs less CPU
            than the same parses spread between probes, each after a wait); queue their children.
            Whether any was left."""
            with lock:
                due = sorted(path for path, node in reads.items() if node.parse_due)
            for path in due:
                node = read(path, echoes.pop(path, frozenset()), known=reads[path].parse_due)
                with lock:
                    record(path, node)
            return bool(due)

        with lock:
            if framework is not None:
                reads.update(framework.nodes)  # read from the framework's listing: never probed
            submit_children(queue)
            if guided and not guiding:
                release()  # no priority path is listed here: the rest is judged at once
            if framework is not None:
                for listed in framework.nodes.values():
                    submit_children(listed.command.subcommands)
        on_progress = None if progress is None else (lambda report: progress(*report))
        pool.wait(on_progress)
        while finish_deferred() or settle():
            pool.wait(on_progress)
    cut = 0
    for path in sorted(reads):
        node = reads[path]
        if node.command is None and path and _deadline_cut(node):
            cut += 1  # said once below, not once per command
        elif node.command is None and path:
            reason = node.problems[0] if node.problems else "no probe gave help"
            warnings.append(
                f"could not read `{prober.name} {' '.join(path)}`: {reason}; kept it as a stub"
            )
    if left:
        read = sum(1 for path, node in reads.items() if node.command is not None)
        bound = "its deadline" if rest_by_s is None else f"its deadline or {rest_by_s:g} s in all"
        warnings.append(
            f"discovery read the commands asked for first ({read} with their parents) and left "
            f"{left} more unread, as stubs: at the pace of its reads they would have taken longer "
            f"than {bound} (--pick a command to read it)"
        )
    if cut or late:
        transient = True
        read = sum(1 for path, node in reads.items() if node.command is not None)
        deadline = getattr(prober, "deadline_s", None)
        within = f"its {deadline:g} s deadline" if deadline is not None else "its deadline"
        warnings.append(
            f"discovery stopped at {within}: {read} command{'s' * (read != 1)} read, "
            f"{cut + late} left unread "
            "(kept as stubs; raise --deadline, or lower --timeout for a tool whose commands hang)"
        )
    if skipped:
        warnings.append(
            f"stopped after {max_nodes} commands: {skipped} more were left unread "
            "(raise --max-nodes to read them)"
        )
    tree = _assemble(reads[()].command, reads, shared)
    if pages_repeat_root_options(tree.parser):
        tree = _root_options_apart(tree)
    if framework is not None:
        tree = framework.finish(tree)
    timed_out: tuple[tuple[str, ...], ...] = ()
    if transient and not (cut or late) and not reads[()].transient:
        timed_out = tuple(sorted(path for path, node in reads.items() if node.transient))
    return CrawlResult(
        tree, version[0], tuple(warnings), transient, probed, timed_out, guided_stop=bool(left)
    )


def _wanted(paths) -> dict[tuple[str, ...], int]:
    """Each priority path and each of its ancestors (the root left out), with its rank: the
    position of the first path it leads to."""
    wanted: dict[tuple[str, ...], int] = {}
    for rank, path in enumerate(paths):
        path = tuple(path)
        for end in range(1, len(path) + 1):
            wanted.setdefault(path[:end], rank)
    return wanted


def _names_path(usage: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether a usage line names the whole subcommand path, as words of their own."""
    words = re.compile(r"(?<!\S)" + re.escape(" ".join(path)) + r"(?!\S)")
    return any(words.search(line) for line in usage)


def _leads_to(path: tuple[str, ...], wanted) -> bool:
    """Whether a priority path lies below ``path``."""
    return any(len(w) > len(path) and w[: len(path)] == path for w in wanted)


def _read_from_parent(prober, parse: ParseFn, stub: Command, reads: dict, *, depth: int) -> None:
    """Read a subcommand its parent's usage lines name from the parent's own page (the parent's
    parser at the longer path), and its usage-listed children likewise; nothing is run."""
    parent = reads.get(stub.path[:-1])
    if parent is None or parent.command is None or not parent.text:
        return
    style = parent.command.parser or None
    parsed, error = _safe_parse(parse, parent.text, prog=(prober.name, *stub.path), style=style)
    if parsed is None:
        reads[stub.path] = NodeRead(
            stub.path,
            None,
            problems=(
                f"could not read `{prober.name} "
                f"{' '.join(stub.path)}` from its parent's page: {error}",
            ),
        )
        return
    node = _normalise(parsed, stub.path, parent.command.probe, parsed.parser)
    reads[stub.path] = NodeRead(stub.path, node, parent.text)
    for child in node.subcommands:
        if child.probe == USAGE_LISTED and len(child.path) <= depth and child.path not in reads:
            _read_from_parent(prober, parse, child, reads, depth=depth)


def _git_all_commands(prober, parse: ParseFn, root: Command, warnings: list[str]) -> Command:
    """Replace the root's short list of common commands with the full one from `TOOL help -a`.

    The short list is the tool's own choice of what people use first, so a command it lists keeps
    its heading there ("examine the history and state") and is marked ``common``; the rest keep the
    group `help -a` gives them ("Ancillary Commands / Interrogators").
    """
    result = prober.run(("help", "-a"))
    if not result.usable:
        warnings.append(
            f"`{prober.name} --help` lists only common commands and `help -a` failed: {result.problem}"
        )
        return root
    parsed, error = _safe_parse(
        parse, result.text, prog=(prober.name,), style=root.parser or None
    )  # in the root's own style
    if parsed is None or not parsed.subcommands:
        parsed, error = _safe_parse(parse, result.text, prog=(prober.name,), style=None)
    if parsed is None or not parsed.subcommands:
        warnings.append(
            f"could not read the command list of `{prober.name} help -a`{': ' + error if error else ''}"
        )
        return root
    listed = _normalise(parsed, (), ("help", "-a"), parsed.parser)
    known = {s.name: s for s in root.subcommands}
    merged = [
        _as_common(s, known[s.name]) if s.name in known else s
        for s in listed.subcommands
        if not _GUIDE_GROUP.search(s.group or "")
    ]
    # a common command `help -a` happens not to list is still a command
    listed_names = {s.name for s in merged}
    merged += [_as_common(s, s) for s in root.subcommands if s.name not in listed_names]
    return replace(root, subcommands=tuple(merged))


def _as_common(full: Command, short: Command) -> Command:
    """``full`` (from the complete listing) marked as one the root's short help lists, under its heading there."""
    return replace(
        full, group=short.group or full.group, summary=full.summary or short.summary, common=True
    )


def _listed_commands(
    prober, parse: ParseFn, root: Command, warnings: list[str], *, args=("--list",)
) -> Command:
    """Add the commands `TOOL --list` (or the ``args`` the root's help points at) shows beyond the
    common ones; aliases are left out."""
    result = prober.run(args)
    parsed = (
        _safe_parse(parse, result.text, prog=(prober.name,), style=None)[0]
        if result.usable
        else None
    )
    if parsed is None or not parsed.subcommands:
        warnings.append(
            f"`{prober.name} --help` points at `{' '.join(args)}` for all commands, but it gave none that "
            f"could be read{': ' + result.problem if result.problem else ''}"
        )
        return root
    known = {s.name for s in root.subcommands}
    extra = [
        s
        for s in _normalise(parsed, (), args, parsed.parser).subcommands
        if s.name not in known and s.name != "..." and not s.summary.lower().startswith("alias:")
    ]
    if not extra:
        return root
    # `--list` adds commands: the ones `--help` showed are the tool's own pick of common ones
    common = tuple(replace(s, common=True) for s in root.subcommands)
    return replace(root, subcommands=common + tuple(extra))


def _man_listed_commands(prober, parse: ParseFn, root: Command) -> Command:
    """Add the commands the tool's man page lists that its help did not: a page may list internal
    helpers as pages of their own (``TOOL-upload-pack(1)``), which `TOOL help -a` leaves out."""
    source, page = prober.man_source(())
    # Rendering a big page costs more than its probe (one is 1.8 MB): only one that names a
    # page of the tool's own (`\fBTOOL-upload-pack\fR(1)`) is read.
    if not re.search(re.escape(prober.name) + _PAGE_REF, source):
        return root
    parsed, _ = _safe_parse(parse, source, prog=(prober.name,), style="man")
    if parsed is None:
        return root
    known = {name for s in root.subcommands for name in (s.name, *s.aliases)}
    extra = tuple(
        replace(s, path=(s.name,), stub=True, subcommands=(), probe=(f"man:{page}",))
        for s in parsed.subcommands
        if s.name and s.name not in known and not s.name.startswith("-")
    )
    return replace(root, subcommands=root.subcommands + extra) if extra else root


_ECHOED = "printed the same help as its parent"
# A usage line's slot for the command: "<command>", "COMMAND", "<subcommand>"
_COMMAND_PLACE = re.compile(r"<(?:sub)?command>|\b(?:SUB)?COMMAND\b")


def _in_parent_usage(stub: Command, parent: Command) -> Command:
    """A command whose help is its parent's: the parent's usage lines with a slot for the command
    are its own with its name in the slot (``archiver <command> ... <archive_name>`` -> ``archiver l ...
    <archive_name>``), and its operands are theirs."""
    lines = tuple(
        _COMMAND_PLACE.sub(stub.name, line, count=1)
        for line in parent.usage
        if _COMMAND_PLACE.search(line)
    )
    if not lines or stub.usage or stub.positionals:
        return stub
    prog = (lines[0].split()[0], *stub.path)
    return replace(stub, usage=lines, positionals=usage_positionals(lines, prog=prog))


def _assemble(
    command: Command, reads: dict[tuple[str, ...], NodeRead], shared: _Shared | None = None
) -> Command:
    return replace(command, subcommands=_assembled_children(command, reads, shared))


def _assembled_children(
    command: Command, reads: dict[tuple[str, ...], NodeRead], shared: _Shared | None
) -> tuple[Command, ...]:
    """``command``'s subcommands as read (each with what its stub knew), or the stub where none was;
    each read one copied once (a copy of a Command is most of what assembling costs). A command a
    child's page placed beside that child (``_placed``: a topic's ``accounts:current``) is one of
    ``command``'s own, after those it lists itself; the first of a path is kept."""
    children: list[Command] = []
    beside: list[Command] = []
    for stub in command.subcommands:
        node = reads.get(stub.path)
        if node is None or node.command is None:
            echoed = node is not None and any(_ECHOED in problem for problem in node.problems)
            children.append(_in_parent_usage(stub, command) if echoed else stub)
            continue
        child = node.command if shared is None else _with_globals(node.command, shared)
        below = _assembled_children(child, reads, shared)
        own = tuple(c for c in below if c.path[:-1] == child.path)
        beside.extend(c for c in below if c.path[:-1] != child.path)
        children.append(_carry_stub(child, stub, subcommands=own))
    placed = {c.path for c in children}
    for moved in beside:
        if moved.path not in placed:
            placed.add(moved.path)
            children.append(moved)
    return tuple(children)


def _global_options(
    prober, parse: ParseFn, root_text: str, warnings: list[str]
) -> tuple[tuple[Flag, ...], NodeRead | None]:
    """The flags `TOOL options` (or `TOOL help flags`) lists, when the root's help says that is where
    the global ones are; and that page read as the node at its own path."""
    match = _options_hint(root_text)
    if not match:
        return (), None
    args = tuple(match["args"].split())
    shown = " ".join((prober.name, *args))
    result = prober.run(args)
    if not result.usable:
        warnings.append(f"could not read the global flags from `{shown}`: {result.problem}")
        return (), None
    parsed, _ = _safe_parse(parse, result.text, prog=(prober.name, *args), style=None)
    # `TOOL help flags` may list its own -h under "Flags:", the shared ones under "Global Flags:" and
    # "Backend Flags:": every one but that page's help flag is global.
    flags = (
        tuple(f for f in (*parsed.global_flags, *parsed.flags) if "--help" not in f.spellings)
        if parsed
        else ()
    )
    if not flags:
        warnings.append(f"`{shown}` listed no flags that could be read")
        return (), None
    return flags, NodeRead(args, _normalise(parsed, args, args, parsed.parser), result.text)


# A line of a page that may head or hold a listing of commands: a heading that names commands or
# topics ("Available Commands:", "COMMANDS:", "These are common Git commands ...:"), argparse's
# "{add,remove}", "- access" bullets. Only the order of the work depends on it (a page
# without one is parsed after the probes, and its children, if it has any, probed then). Every
# repetition is bounded, so a hostile page (one 2 MiB line of "command command ...") costs linear time.
_LISTING_HINT = re.compile(
    r"(?:command|topic)[^\n:]{0,200}:[ \t]*$|^[ \t]*(?:sub)?commands?[ \t]*$"
    r"|\{[\w.-]{1,60}(?:,[\w.-]{1,60}){1,200}\}|^[ \t]+- \w",
    re.IGNORECASE | re.MULTILINE,
)


def _may_list_commands(text: str) -> bool:
    return _LISTING_HINT.search(text) is not None


def _literal_first(literal: str, rest: str) -> re.Pattern:
    """``\\b`` + ``literal`` + ``rest``, written so that ``re`` scans for the literal (see _HELP_ALL):
    the word boundary before it is asserted behind it (``literal`` is an escaped, fixed-width string)."""
    return re.compile(f"{literal}(?<=\\b{literal}){rest}")


def _found(
    pattern: re.Pattern, text: str, starts: tuple[str, ...], *, folded: bool = False
) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, where every match begins with one of the
    literal ``starts``: tried only where one occurs (lower-cased for an ``re.I`` pattern, ``folded``).
    A pattern opening with ``\\b`` is scanned by ``re`` at every character (3 ms on a framework's 160 KB
    of ``list --format=json``); ``match`` at a position still sees the characters before it."""
    if folded and not text.isascii():  # (lower() keeps every position only in ASCII)
        return bool(pattern.search(text))
    haystack = text.lower() if folded else text
    for literal in starts:
        at = haystack.find(literal)
        while at >= 0:
            if pattern.match(text, at):
                return True
            at = haystack.find(literal, at + 1)
    return False


def _options_hint(text: str):
    """The first _OPTIONS_HINT match of ``text`` (in order of the word "global" it holds), or None."""
    # (_GLOBAL_LISTING's own text is lower-case: without re.I it reads a lower-cased ASCII text alike)
    if not text.isascii():  # (lower() keeps every position only in ASCII)
        return _OPTIONS_HINT.search(text) if _GLOBAL_LISTING.search(text) else None
    lowered = text.lower()
    if not _GLOBAL_LISTING_FOLDED.search(lowered):
        return None  # every hint holds "global flags" or the like: none here (no backtracking)
    at = lowered.find("global")
    while at >= 0:
        match = _OPTIONS_HINT.search(text, max(0, at - _HINT_REACH), at + _HINT_AFTER)
        if match:
            return match
        at = lowered.find("global", at + 1)
    return None


def _root_options_apart(root: Command) -> Command:
    """Every command below ``root`` with the root's options moved from its flags to its global flags:
    for a style whose pages list the application's options again beside the command's own (47 of
    one command's 54), so that what a command adds is told apart, as other styles' headings do."""
    spellings = {s for f in root.flags for s in f.spellings}

    def apart(command: Command) -> Command:
        repeated = tuple(f for f in command.flags if f.spellings and set(f.spellings) <= spellings)
        children = tuple(apart(c) for c in command.subcommands)
        if not repeated:
            return (
                replace(command, subcommands=children)
                if children != command.subcommands
                else command
            )
        own = tuple(f for f in command.flags if f not in repeated)
        return replace(
            command, flags=own, global_flags=command.global_flags + repeated, subcommands=children
        )

    return (
        replace(root, subcommands=tuple(apart(c) for c in root.subcommands)) if spellings else root
    )


@dataclass(frozen=True)
class _Shared:
    """The flags every command shares (`TOOL options`), with each one's spellings and all of them:
    made once per crawl, not per command (~650 shared flags on each of ~80 commands)."""

    flags: tuple[Flag, ...]
    spellings: tuple[frozenset, ...]
    every: frozenset

    @classmethod
    def of(cls, flags: tuple[Flag, ...]) -> "_Shared":
        each = tuple(frozenset(f.spellings) for f in flags)
        return cls(flags, each, frozenset().union(*each))


def _with_globals(command: Command, shared: _Shared) -> Command:
    """``shared`` added to the command's global flags, skipping spellings it already has."""
    known = {s for f in (*command.flags, *command.global_flags) for s in f.spellings}
    if known.isdisjoint(shared.every):
        extra = shared.flags  # the usual case
    else:
        extra = tuple(f for f, own in zip(shared.flags, shared.spellings) if known.isdisjoint(own))
    return replace(command, global_flags=command.global_flags + extra) if extra else command
