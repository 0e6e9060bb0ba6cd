"""Discovery: read a real tool's help, recursively, into a ``Tool`` model.

``discover("TOOL", depth=2)`` resolves the tool (or takes the ``ToolRef`` a caller resolved), answers
from the on-disk cache when the binary is unchanged, and otherwise crawls its help (``crawl.py``)
through the probe (``probe.py``, the only place that runs the tool) and the help parsers
(``parsers/``).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from wrapgen.errors import HelpUnreadableError, UsageError
from wrapgen.model.tool import Command, Tool
from wrapgen.model.toolref import ToolRef

__all__ = ["discover", "read_stubs"]


DEFAULT_DEADLINE_S = 120.0
# How long a crawl guided by priority paths may take in all when it reads the rest of the tree too:
# once the paths asked for are read, the rest is read only if the whole crawl would end within this.
# The paths asked for are what a pack guided by use is made of; the rest only fills where use is
# silent, and a large tool's rest (hundreds of commands, each a start of the tool) would hold a
# wrap for minutes, where a wrap guided by use should answer within half a minute, trials
# included. A small tool's rest fits (150 fast commands: a few seconds), so it is still read
# whole, and cached as it always was.
GUIDED_BY_S = 20.0
# ... unless the rest is at most this many commands, all its generations counted (a topic's page
# lists the commands below it: a small first rest can lead to a large one): then it is read
# whatever the pace. The pace of the reads so far is the machine's load as much as the tool's: in a
# test suite on a loaded 2-core machine a process manager's rest (74 commands) was left unread, so
# its pack lost the operands and a verb that an idle machine's pack had (a version control tool's
# rest is 144). A rest this small is read within the discovery's deadline even at a second a read,
# 4 at a time; the deadline still bounds it. Above it (a cloud CLI's hundreds of services, a PaaS
# CLI's topics and the commands they list) the pace decides.
GUIDED_REST_READ = 200
# ... and at most this many seconds of CPU, at the CPU the reads so far took each (20 s of a 2-core
# machine): a PaaS CLI's 60 topics, at a second of CPU each for its runtime's start-up, held its wrap
# for two minutes on a loaded machine. Unlike the pace, a read's CPU hardly depends on the load: a
# process manager's rest (74 reads) costs about 16 s, a package manager's (137) about 22.
GUIDED_REST_CPU_S = 40.0


def discover(
    tool: str | ToolRef,
    *,
    depth: int = 3,
    max_nodes: int = 500,
    jobs: int | None = None,
    cache: bool = True,
    progress=None,
    style: str | None = None,
    timeout_s: float | None = None,
    man: bool = True,
    deadline_s: float | None = DEFAULT_DEADLINE_S,
    sandbox: bool | None = None,
    priority_paths=(),
) -> Tool:
    """The tool's command tree as read from its own help (and man page where help is thin).

    ``progress(done, total, path)`` is called after each command is read (``total`` grows as the
    crawl finds more). ``man=False`` reads help only; ``timeout_s`` bounds each probe (default 5 s); ``style`` forces
    one help parser (``script`` reads a shell script without running it). ``deadline_s`` bounds the
    whole crawl (default 120 s; None for none): past it what was read is returned, with a warning.
    ``sandbox=None`` runs the probes in bubblewrap where it works (False: never); every probe gets a
    scratch HOME and working directory either way.
    ``priority_paths`` (subcommand paths, most wanted first: the ones a caller's evidence names,
    the ones it was asked for) are read first, at any depth, and the rest only if it can be read
    within the deadline and ``GUIDED_BY_S`` of the start (``crawl``); a cached tree that has them unread is
    read again.

    Raises ToolNotFoundError when the tool cannot be found or run, HelpUnreadableError when not
    even its top-level help could be read; a subcommand that fails only adds to ``Tool.warnings``.
    """
    from wrapgen.probe import cache as disk
    from wrapgen.probe.crawl import crawl
    from wrapgen.probe.prober import DEFAULT_TIMEOUT_S, Prober, resolve_tool

    if depth < 0:
        raise UsageError(
            f"depth must be 0 or more, not {depth}", hint="pass --depth 0 for the top level only"
        )
    if max_nodes < 1:
        raise UsageError(
            f"max_nodes must be at least 1, not {max_nodes}", hint="pass --max-nodes 500"
        )
    if deadline_s is not None and not deadline_s > 0:
        raise UsageError(
            f"the deadline must be more than 0 seconds, not {deadline_s}",
            hint="pass --deadline 120",
        )
    import time

    end = (
        None if deadline_s is None else time.monotonic() + deadline_s
    )  # one deadline for every probe
    timeout = DEFAULT_TIMEOUT_S if timeout_s is None else float(timeout_s)
    ref = tool if isinstance(tool, ToolRef) else resolve_tool(tool)
    tool, path, name = ref.given, ref.path, ref.name
    options = {"depth": depth, "max_nodes": max_nodes, "style": style, "name": tool, "man": man}
    launcher = style is None and _is_launcher(path, sandbox=sandbox)
    answered = 0.0  # what a probe run before the crawl took (its retries scale with it)
    readable = _launched_paths(path) if launcher else ()
    if cache and launcher:
        _prestart()  # (this probe, and the crawl's if the cache misses)
        # A launcher's own bytes say nothing of the program it starts (a pyenv shim outlives every
        # upgrade of the tool behind it), so that program's --version is part of the key: one probe.
        with Prober(
            path,
            name=name,
            timeout_s=timeout,
            use_man=False,
            sandbox=sandbox,
            readable=readable,
            deadline_s=deadline_s,
            deadline_at=end,
        ) as prober:
            options["launches"] = prober.version()
            answered = prober.slowest_answer_s
    priority = tuple(dict.fromkeys(tuple(p) for p in priority_paths if p))
    key = disk.cache_key(path, options=options) if cache else None
    # a crawl that read the priority paths and left the rest is kept apart, under those paths
    guided_key = (
        disk.cache_key(path, options={**options, "priority": [list(p) for p in priority]})
        if cache and priority
        else None
    )
    for known in (key, guided_key):
        if known is not None:
            # Before any parser is imported: a cached rediscovery costs a stat and one JSON read.
            cached = disk.load(known)
            if cached is not None and not _unread(cached, priority, depth=depth):
                return cached
    script_note = ""  # a shell script read through its help, not its text: why
    static = None  # what a script's text gave, where its own help is read as well
    if style == "script" or (style is None and _has_shebang(path)):
        from wrapgen.parse.script import discover_script, is_shell_script

        # A shell script is read, never run: `SUB --help` of a script that ignores --help would run SUB.
        # One that only execs another program with "$@" (a pyenv shim) is that program: it is probed.
        if style == "script" or (is_shell_script(path) and not launcher):
            try:
                static = discover_script(path, name=tool)
                if style == "script" or not _says_nothing(static.root) or not _sandboxed(sandbox):
                    return static
                # a script whose text shows no command and no usage (it dispatches through files
                # or functions the reader cannot follow): its own help, at its top level only,
                # in the probe sandbox, whose file system is read-only
                script_note = (
                    f"{tool} is a shell script whose text shows no commands and no usage; its own "
                    "help was read instead, at its top level only, in the probe sandbox (a script "
                    "may run a subcommand it is asked the help of: only those a proposal picks "
                    "are asked theirs, in the same sandbox)"
                )
                depth = 0
            except HelpUnreadableError as error:
                if style == "script":
                    raise
                # a script the shell reader cannot take apart: its own help is read, at its top
                # level only (the subcommands it lists are never asked for theirs: a script that
                # ignores --help would run them)
                script_note = (
                    f"{error.message}; read {tool}'s own help instead, at its top level only "
                    "(the subcommands it lists were not probed: a script may run a subcommand "
                    "it is asked the help of)"
                )
                depth = 0
    else:
        _check_style(style)
    # The crawl will probe: the spawn helper boots now, while the parsers are imported and the
    # sandbox is asked for, so that no probe forks this process (runtime/contain.py).
    _prestart()
    parse = _parser()
    # A man page is looked up by name, so only for a tool found by name on PATH.
    with Prober(
        path,
        name=name,
        timeout_s=timeout,
        use_man=man and ref.by_name,
        sandbox=sandbox,
        readable=readable,
        deadline_s=deadline_s,
        deadline_at=end,
        answered_s=answered,
    ) as prober:
        result = crawl(
            prober,
            parse,
            depth=depth,
            max_nodes=max_nodes,
            jobs=jobs,
            style=style,
            progress=progress,
            priority_paths=priority,
            rest_by_s=GUIDED_BY_S,
            rest_read=GUIDED_REST_READ,
            rest_cpu_s=GUIDED_REST_CPU_S,
            version=options.get("launches"),
        )
        note = prober.sandbox_note
        if prober.withheld:
            note = "; ".join(
                filter(
                    None,
                    (
                        note,
                        f"{prober.withheld} line(s) of {name}'s help were left out: they quote a "
                        "password or key file or hold a credential, which never goes into a pack",
                    ),
                )
            )
    if static is not None and (result.root is None or _says_nothing(result.root)):
        return static  # its help said no more than its text
    if result.root is None:
        reasons = "; ".join(result.warnings) or "it printed nothing"
        raise HelpUnreadableError(
            f"could not read any help from {tool}: {reasons}",
            hint="check that it is a command-line program; pass --style to force a parser, "
            "or --timeout to wait longer",
        )
    warnings = result.warnings + tuple(filter(None, (script_note, note)))
    found = Tool(name=tool, root=result.root, path=path, version=result.version, warnings=warnings)
    if result.guided_stop and guided_key is not None and not result.transient:
        disk.store(guided_key, found)
    elif key is not None and (
        not result.transient or disk.repeated_timeouts(key, result.timed_out)
    ):
        disk.store(key, found)
    return found


def read_stubs(
    tool: Tool,
    paths,
    *,
    timeout_s: float | None = None,
    deadline_s: float | None = DEFAULT_DEADLINE_S,
    sandbox: bool | None = None,
    jobs: int | None = None,
) -> Tool:
    """``tool`` with the commands at ``paths``, stubs a crawl guided by use left unread, read now
    and put in their place, each keeping its listing's group and summary and the root's options
    it shared; the rest of the tree as it was. A path that is no stub, or whose read gives no
    help, stays as it was. For a proposal that chose a stub: a handful of reads, not a new crawl."""
    from wrapgen.probe.crawl import default_jobs, read_node
    from wrapgen.probe.prober import DEFAULT_TIMEOUT_S, Prober
    from wrapgen.probe.workers import Workers

    wanted = [
        tuple(p) for p in paths if (node := tool.root.find(tuple(p))) is not None and node.stub
    ]
    if not wanted or not tool.path:
        return tool
    _prestart()
    parse = _parser()
    read: dict[tuple[str, ...], Command] = {}
    lock = threading.Lock()
    timeout = DEFAULT_TIMEOUT_S if timeout_s is None else float(timeout_s)
    launcher = _is_launcher(tool.path, sandbox=sandbox)
    if not launcher and _is_script(tool.path) and not _sandboxed(sandbox):
        # a script may run a subcommand it is asked the help of: only the probe sandbox, whose
        # file system is read-only, asks it
        return tool
    with Prober(
        tool.path,
        name=tool.name.rsplit("/", 1)[-1],
        timeout_s=timeout,
        use_man=False,
        sandbox=sandbox,
        readable=_launched_paths(tool.path) if launcher else (),
        deadline_s=deadline_s,
    ) as prober:

        def one(path: tuple[str, ...]) -> None:
            try:
                node = read_node(prober, parse, path=path, style=None, use_man=False)
            except Exception:  # a parser bug on one command loses that command, not the others
                return
            if node.command is not None:
                with lock:
                    read[path] = node.command

        with Workers(min(len(wanted), jobs or default_jobs())) as pool:
            for path in wanted:
                pool.submit(one, path)
            pool.wait()
    root = tool.root
    for path, command in read.items():
        parent = root.find(path[:-1]) if len(path) > 1 else root
        if not (_echoes(command, root) or (parent is not None and _echoes(command, parent))):
            root = _grafted(root, path, command)
    return replace(tool, root=root)


def _echoes(command: Command, parent: Command) -> bool:
    """Whether a command's read is its parent's help printed again (a tool that answers an unknown
    word's ``--help`` with its own page): the same usage lines, or the same commands listed. The
    crawl compares the pages' text; here the parent was read before, its text not kept."""
    if command.usage and tuple(command.usage) == tuple(parent.usage):
        return True
    names = {sub.name for sub in command.subcommands}
    return bool(names) and names == {sub.name for sub in parent.subcommands}


def _grafted(node: Command, path: tuple[str, ...], command: Command) -> Command:
    """``node`` with its descendant at ``path`` replaced by ``command``, which keeps the stub's
    listing (group, summary where it has none, the family it was listed under) and shared flags."""
    subs = []
    for sub in node.subcommands:
        if sub.path == path:
            sub = command.with_changes(
                path=sub.path,
                group=sub.group,
                common=sub.common,
                summary=command.summary or sub.summary,
                global_flags=command.global_flags or sub.global_flags,
            )
        elif sub.path and any(n.path == path for n in sub.walk()):
            # (below it, or listed by it under a path of its own: an oclif topic's commands)
            sub = _grafted(sub, path, command)
        subs.append(sub)
    return node.with_changes(subcommands=tuple(subs))


def _unread(tool: Tool, paths, *, depth: int) -> bool:
    """Whether a priority path below ``depth`` is a stub in ``tool`` (listed by its parent, never
    read): a crawl that read all it could to ``depth`` has the shallower ones read."""
    for path in paths:
        if len(path) <= depth:
            continue
        command = tool.root
        for level in range(1, len(path) + 1):
            command = next((c for c in command.subcommands if c.path == path[:level]), None)
            if command is None:
                break  # not listed: nothing more to read
            if command.stub:
                return True
    return False


def _prestart() -> None:
    from wrapgen.runtime import contain

    contain.prestart()


def _launched_paths(path: str) -> tuple[str, ...]:
    from wrapgen.parse.script import launched_paths

    return launched_paths(_read_head(path))


def _has_shebang(path: str) -> bool:
    """Whether ``path`` starts with ``#!``: a binary is no script, and the script reader (whose
    import costs tens of milliseconds) is then never imported."""
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return True  # unreadable: the script reader says what it can


def _is_script(path: str) -> bool:
    """Whether ``path`` is a shell script (read, not run, outside the probe sandbox)."""
    if not _has_shebang(path):
        return False
    from wrapgen.parse.script import is_shell_script

    return is_shell_script(path)


def _says_nothing(root: Command) -> bool:
    """Whether a command read from a script's text (or help) shows no subcommand and no usage line:
    a flag or two the reader found in a loop is no model of the tool."""
    return not root.subcommands and not root.usage


def _is_launcher(path: str, *, sandbox: bool | None = False) -> bool:
    """Whether ``path`` is a shell script that only starts another program with all its arguments,
    or, where the probes run in the sandbox (``sandbox`` as ``discover`` takes it), one whose
    set-up, whatever it runs, never reads them (``hands_over``)."""
    if not _is_script(path):
        return False
    from wrapgen.parse.script import hands_over, is_launcher

    text = _read_head(path)
    return is_launcher(text, hand_over=False) or (hands_over(text) and _sandboxed(sandbox))


def _sandboxed(sandbox: bool | None) -> bool:
    """Whether the probes will run in the sandbox (read-only but for their scratch directories):
    only then is a launcher whose set-up runs any command probed."""
    import os

    if sandbox is False or (
        sandbox is None and os.environ.get("WRAPGEN_SANDBOX", "").lower() in ("off", "0", "no")
    ):
        return False
    from wrapgen.probe.sandbox import sandbox_status

    return sandbox_status().available


def _read_head(path: str) -> str:
    """The first 64 KiB of a file as text ("" when unreadable): enough for any launcher script."""
    try:
        with open(path, "rb") as handle:
            return handle.read(65_536).decode("utf-8", "replace")
    except OSError:
        return ""


def _check_style(style: str | None) -> None:
    from wrapgen.parse import style_names

    if style is not None and style not in style_names():
        raise UsageError(
            f"unknown help style {style!r}", hint=f"use one of: script, {', '.join(style_names())}"
        )


def _parser():
    from wrapgen.parse import parse_help

    return parse_help
