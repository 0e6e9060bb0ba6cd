#!/usr/bin/env python3
"""How well discovery reads real tools, measured against each tool's own machinery.

For each tool, a reference tree (command paths, and per path the set of flag spellings) comes
from the tool itself, never from its help text:

- cobra (gh, kubectl, docker): ``TOOL __complete PATH... ''`` lists subcommands (cobra's own
  ``help`` and ``completion`` left out) and ``TOOL __complete PATH... -`` / ``--`` the flags (local
  and inherited) of a path, asked again with required flags set, since cobra offers only those until
  they are;
- clap (rg 13, fd 8.6, ruff, uv, rustup): the bash completion script (``fdfind --gen-completions
  bash``, ``ruff generate-shell-completion bash``, ``rustup completions bash``; for rg 13, which
  cannot print one, the script the Debian package ships), every command path in it (up to the
  row's depth, clap's own ``help`` tree left out) with its options. clap completes hidden arguments
  too: the ones its fish script gives no description (uv's ``--no-system``) are documented nowhere,
  so they count as valid, not as expected, and are reported apart ("undocumented"); hidden ones
  that do have a description (uv's ``--native-tls``) and hidden commands (uv's ``build-backend``)
  stay expected, and are missed by any reading of help. fd's and rg's scripts leave out the aliases
  clap hides (``--changed-after``, which fd's help names): the tool itself judges those, as git does
  below;
- git: ``git --list-cmds=list-<category>,...,others`` (its command list, guides left out) for the
  commands, ``git CMD --git-completion-helper-all`` (run in a scratch repository) for each command's
  long options (the ``--no-X`` forms it lists after ``--``, and the options git's bash completion
  script offers for the command, count as valid but not as expected). The ``-all`` form is the
  fair reference: it is git's own full list of the options a command accepts, the ones its
  completion hides (``commit --allow-empty``, documented in its man page) included; the plain
  ``--git-completion-helper`` lists only what git chooses to offer on <TAB>. Commands that are not
  parse-options programs (``rev-parse``, which echoes the argument back) have no reference; the
  first ``--no-X`` git prints last, before the ``--``, counts as a negation, and ``annotate`` (``blame
  -c``, for which git's helper answers with the diff options) takes blame's list. The revision
  and diff options of ``log``, ``show``, ``shortlog``, ``rev-list``, ``whatchanged``, ``blame``,
  ``annotate``, ``diff-files``, ``diff-index``, ``diff-tree``, ``format-patch`` and ``difftool`` are
  parsed by code no helper enumerates fully: for those commands git itself is the judge (run in a
  scratch repository with one commit, no configuration), both ways: a discovered option git does
  not refuse as unknown counts as valid, never as expected, and a listed option git refuses is no
  option (rev-list's helper lists the diff options, which ``git rev-list --stat HEAD`` refuses);
- argparse (jsonschema's CLI, httpie's ``http`` and ``httpie``, pytest-benchmark), click
  (python-dotenv, flask, black, uvicorn, hypothesis) and optparse (pip: its main parser and each
  command's, general options included): the parser objects imported in-process. pip prints only
  the first long spelling of an option (``--timeout``, never ``--default-timeout``): the others
  are missed by any reading of its help.
- Symfony Console (composer): ``TOOL list --format=json``, every command's definition; cleo (poetry):
  its ``Application``'s command objects, loaded in the tool's own interpreter (its launcher's
  shebang); kingpin (amtool): ``TOOL PATH --completion-bash`` (commands) and ``... --completion-bash
  --`` (long flags), a flag the completion leaves out settled by the tool in completion mode (no
  action runs; "unknown long flag" refuses); urfave/cli (mender-artifact):
  ``TOOL PATH --generate-bash-completion`` and ``TOOL PATH - --generate-bash-completion``, less the
  application's flags urfave 1 offers first at every level (a command refuses them).

Each row also gives discovery's own CPU (wrapgen's process, ``getrusage`` around ``discover()``
after wrapgen is imported) against the CPU of the tool's processes ("cpu%"), and the same with the
containment (spawn helper, supervisors, bwrap) added to discovery's side ("+cont%"); the tools are
measured inside the sandbox and the rest collected as bench/probe_cpu.py says. The goal (issue 25):
cpu% at most 25 % on every row; the load average at the start and at the end is printed with it.

Where the reference says whether an option takes a value (argparse's ``nargs``, click's
``is_flag``, optparse's ``takes_value()``, clap's fish script marking one with ``-r``), the
"value" column is the share of the flags found whose ``takes_value`` discovery got right.

``--explain`` runs each missed flag's ``TOOL PATH --help`` and ``TOOL help PATH`` and counts apart
the misses no help mentions at all (hidden options), listing only the others: the ones a parser
could have found; likewise the missed paths their parent's help never names (hidden commands).

Discovery runs with the cache off. Flags are compared per command path as sets of spellings
(``--all``, ``-a``); where the reference only knows long options (git), short ones are left out of
both sides, and so are ``-h``/``--help`` everywhere (every tool has them; references disagree on
listing them) and the flags of ``help``/``completion`` (discovery never reads those commands by
design). A reference path that discovery left unread counts all its flags as missed.

Usage: python bench/discover_accuracy.py [TOOL...] [--json] [--explain]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from wrapgen.probe.discover import discover  # noqa: E402

Path = tuple  # a command path: ("pr", "list")


@dataclass
class Reference:
    flags: dict = field(default_factory=dict)  # path -> set of spellings the tool advertises
    valid: dict = field(
        default_factory=dict
    )  # path -> more spellings it accepts but does not advertise
    # path -> spellings the reference lists but no help can show (clap's hidden, undocumented
    # arguments): taken out of the expected ones, counted as valid, and reported apart
    undocumented: dict = field(default_factory=dict)
    paths: set = field(default_factory=set)  # every command path (root excluded)
    # path -> {spelling: whether it takes a value}, where the reference says (scored as "value acc")
    takes_value: dict = field(default_factory=dict)
    long_only: bool = False
    source: str = ""
    # path, spellings -> those the tool itself accepts when run: for options no list enumerates
    judge: object = None


def _run(argv: list[str], *, cwd: str | None = None) -> str:
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C.UTF-8", PAGER="cat", GIT_PAGER="cat")
    done = subprocess.run(
        argv, capture_output=True, text=True, cwd=cwd, env=env, timeout=30, stdin=subprocess.DEVNULL
    )
    return done.stdout


# -- cobra ---------------------------------------------------------------------------------------


def _cobra_items(tool: str, args: list[str]) -> list[tuple[str, str]]:
    out = _run([tool, "__complete", *args])
    items = []
    for line in out.splitlines():
        if line.startswith(":") or not line.strip():
            continue
        name, _, description = line.partition("\t")
        items.append((name, description))
    return items


def _cobra_subcommands(tool: str, path: Path) -> list[str]:
    # A subcommand always comes with its one-line description; argument completions (kubectl's
    # "pods/") do not. Configured aliases ("Alias for pr checkout") are the user's, not the tool's.
    return [
        name
        for name, text in _cobra_items(tool, [*path, ""])
        if text and not name.startswith("-") and not text.startswith("Alias for")
    ]


def _cobra_flags(tool: str, path: Path) -> set[str]:
    items = _cobra_items(tool, [*path, "-"]) + _cobra_items(tool, [*path, "--"])
    names = {name for name, _ in items}
    # Without --help in the list, cobra is offering only the required flags (not always marked so).
    required = [
        name
        for name, text in items
        if name.startswith("--") and ("Required" in text or "--help" not in names)
    ]
    if required:
        # While a required flag is unset, cobra offers only the required ones: set them and ask again.
        filled = [
            token for name in required for token in (name, "1")
        ]  # "1" parses as a string or a number
        items += _cobra_items(tool, [*path, *filled, "-"]) + _cobra_items(
            tool, [*path, *filled, "--"]
        )
    return {name for name, _ in items if name.startswith("-")}


def cobra_reference(tool: str, depth: int) -> Reference:
    """Paths and flags from cobra's hidden completion command; its auto-added `help` and
    `completion` commands are left out (they describe the wrapper, not the tool)."""
    ref = Reference(source=f"{tool} __complete")
    frontier = [()]
    with ThreadPoolExecutor(8) as pool:
        while frontier:
            subs = list(pool.map(lambda p: _cobra_subcommands(tool, p), frontier))
            flags = list(pool.map(lambda p: _cobra_flags(tool, p), frontier))
            nxt = []
            for path, children, spellings in zip(frontier, subs, flags):
                ref.flags[path] = spellings
                if len(path) >= depth:
                    continue
                for child in children:
                    if child in ("help", "completion", "__complete"):
                        continue
                    ref.paths.add((*path, child))
                    nxt.append((*path, child))
            frontier = nxt
    return ref


# -- clap via bash completion scripts ------------------------------------------------------------

# clap_complete's bash script walks the words typed so far through `case "${cmd},${i}" in`, one arm
# per (command, next word) pair, naming the command reached: `ruff,check)  cmd="ruff__check"`.
_CLAP_STEP = re.compile(
    r'^\s*"?(?P<cmd>[\w-]*),(?P<word>[^")]+)"?\)\s*\n\s*cmd="(?P<next>[\w-]+)"', re.M
)
# Its second `case "${cmd}" in` has one arm per command, with the words it completes there.
_CLAP_ARM = re.compile(r'^\s*(?P<cmd>[\w-]+)\)\s*\n\s*opts="(?P<opts>[^"]*)"', re.M)
# clap's own `help` command (and the paths under it) mirror the tree; they are left out as for cobra.
_CLAP_SKIP = {"help"}


def clap_bash_reference(script: str, source: str, *, depth: int = 0) -> Reference:
    """Paths and per-path flags from a clap bash completion script.

    The first `case` names the command each typed word leads to (the names join words with `__`,
    so `build-backend` cannot be told from `build backend` by name alone: the steps are followed
    instead); the second lists each command's `opts`. Paths deeper than ``depth`` are left out.
    Older scripts (rg 13's) have no steps: only the root's options are read."""
    ref = Reference(source=source)
    head, _, arms = script.partition('case "${cmd}" in')
    paths: dict[str, Path] = {}
    for step in _CLAP_STEP.finditer(head):
        if not step["cmd"]:
            paths[step["next"]] = ()  # ",$1": the program itself
        elif step["cmd"] in paths:
            path = (*paths[step["cmd"]], step["word"])
            if not set(path) & _CLAP_SKIP and len(path) <= depth:
                paths[step["next"]] = path
    # Some clap_complete versions spell a name differently in the two cases when the program's own
    # name has a dash (ast-grep: `ast__grep__subcmd__run` there, `ast__subcmd__grep__subcmd__run` here).
    loose = {name.replace("__subcmd__", "__"): path for name, path in paths.items()}
    for arm in _CLAP_ARM.finditer(arms):
        path = paths.get(arm["cmd"], loose.get(arm["cmd"].replace("__subcmd__", "__")))
        if not paths:
            path = ()
        if path is None or path in ref.flags:
            continue
        ref.flags[path] = {w for w in arm["opts"].split() if w.startswith("-")}
        if path:
            ref.paths.add(path)
        if not paths:
            break  # no steps: the first arm is the root's
    return ref


# A fish completion line: `complete -c uv -n "CONDITION" -s r -l requirements -d 'Install ...'`.
_FISH_LINE = re.compile(r'^complete -c \S+ -n "(?P<cond>[^"]*)"(?P<rest>.*)$', re.M)


def _fish_path(condition: str) -> Path | None:
    """The command path a clap fish condition selects: `__fish_uv_needs_command` is the root,
    `__fish_uv_using_subcommand pip; and __fish_seen_subcommand_from install` is `pip install`."""
    if re.fullmatch(r"__fish_\w+_needs_command", condition):
        return ()
    match = re.fullmatch(
        r"__fish_\w+_using_subcommand ([\w-]+)"
        r"(?:; and (not )?__fish_seen_subcommand_from ([\w -]+))?",
        condition,
    )
    if match is None:
        return None
    if match[3] is None or match[2]:
        return (match[1],)
    words = match[3].split()
    return (match[1], words[0]) if len(words) == 1 else None


def clap_values(fish: str) -> dict:
    """path -> {spelling: whether it takes a value}: clap's fish script marks an option that
    needs one with `-r` (a switch has none)."""
    out: dict = {}
    for line in _FISH_LINE.finditer(fish):
        path = _fish_path(line["cond"])
        rest = line["rest"].split(" -d '", 1)[0]
        if path is None:
            continue
        spellings = ["--" + m for m in re.findall(r" -l ([\w-]+)", rest)]
        spellings += ["-" + m for m in re.findall(r" -s (\S)", rest)]
        for spelling in spellings:
            out.setdefault(path, {})[spelling] = bool(re.search(r" -r\b", line["rest"]))
    return out


def clap_undocumented(fish: str) -> dict:
    """path -> the spellings clap completes but documents nowhere: its fish script gives every
    argument its help text as `-d '...'`, and an argument without one (`hide = true`, no doc
    comment: uv's `--no-system`) appears in no help either. Real, so finding one is right; not
    advertised, so not finding one is no miss."""
    out: dict = {}
    for line in _FISH_LINE.finditer(fish):
        rest = line["rest"]
        if " -d '" in rest:
            continue
        path = _fish_path(line["cond"])
        if path is None:
            continue
        spellings = {"--" + m for m in re.findall(r" -l ([\w-]+)", rest)}
        spellings |= {"-" + m for m in re.findall(r" -s (\S)", rest)}
        out.setdefault(path, set()).update(spellings)
    return out


def clap_generated_reference(
    tool: str, depth: int, command: str = "generate-shell-completion"
) -> Reference:
    """A clap 4 tool that prints its own completion scripts (`TOOL generate-shell-completion SHELL`,
    `rustup completions SHELL`)."""
    ref = clap_bash_reference(_run([tool, command, "bash"]), f"{tool} {command} bash", depth=depth)
    fish = _run([tool, command, "fish"])
    ref.undocumented = clap_undocumented(fish)
    ref.takes_value = clap_values(fish)
    return ref


def accepted_spellings(
    spellings: set[str], argv_of, *, rejects: re.Pattern, cwd: str, env: dict | None = None
) -> set[str]:
    """The spellings a tool itself takes: neither ``argv_of("--x")`` nor the same with ``--x=1`` ends
    in an error whose words match ``rejects`` (a timeout means it ran, so the option was taken).
    Run in ``cwd``, stdin closed, four at a time."""

    def refused(argv: list[str]) -> bool:
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                errors="replace",
                cwd=cwd,
                timeout=10,
                stdin=subprocess.DEVNULL,
                env=env,
            )
        except subprocess.TimeoutExpired:
            return False
        # stdout too: rev-list takes the diff options apart, then refuses them with its usage there
        return done.returncode != 0 and bool(rejects.search(done.stderr + done.stdout))

    def accepted(spelling: str) -> bool:
        return not (refused(argv_of(spelling)) and refused(argv_of(spelling + "=1")))

    ordered = sorted(spellings)
    with ThreadPoolExecutor(4) as pool:
        return {s for s, ok in zip(ordered, pool.map(accepted, ordered)) if ok}


# clap 4 ("unexpected argument '--x' found") and clap 2/3 ("Found argument '--x' which wasn't expected").
_CLAP_REJECTS = re.compile(r"unexpected argument|wasn't expected|unrecognized (?:option|argument)")


def clap_judge(program: str):
    """The judge for a clap tool whose bash script leaves out the aliases clap hides (fd's
    `--changed-after`, which its help names as an alias): a spelling is real when neither
    `TOOL --x` nor `TOOL --x=1` is refused as an unknown argument (run in an empty scratch
    directory, stdin closed). Only for tools whose plain run reads and writes nothing (fd and rg search)."""

    def judge(path: Path, spellings: set[str]) -> set[str]:
        with tempfile.TemporaryDirectory() as scratch:
            return accepted_spellings(
                spellings, lambda s: [program, *path, s], rejects=_CLAP_REJECTS, cwd=scratch
            )

    return judge


def rg_reference() -> Reference:
    path = "/usr/share/bash-completion/completions/rg"
    with open(path, encoding="utf-8") as handle:
        ref = clap_bash_reference(handle.read(), path)
    ref.judge = clap_judge("rg")
    return ref


def fd_reference() -> Reference:
    ref = clap_bash_reference(
        _run(["fdfind", "--gen-completions", "bash"]), "fdfind --gen-completions bash"
    )
    ref.judge = clap_judge("fdfind")
    return ref


# -- git -----------------------------------------------------------------------------------------

# Every category of git's command list (command-list.txt) except the guides, plus `others`
# (git-* programs on PATH): the commands git itself knows it has.
GIT_CATEGORIES = ",".join(
    [
        "list-" + c
        for c in (
            "mainporcelain",
            "ancillarymanipulators",
            "ancillaryinterrogators",
            "foreignscminterface",
            "plumbingmanipulators",
            "plumbinginterrogators",
            "synchingrepositories",
            "synchelpers",
            "purehelpers",
        )
    ]
    + ["others"]
)


GIT_COMPLETION = "/usr/share/bash-completion/completions/git"
HELPER = "--git-completion-helper-all"  # every option the command accepts, hidden ones too
HELPER_OF = {"annotate": "blame"}


def _git_completion_options() -> dict[str, set[str]]:
    """command -> the long options git's own bash completion script offers for it: the `--x` words
    in its `_git_CMD ()` function and in the `$__git_*` option lists that function uses. The
    script adds by hand what --git-completion-helper cannot list (log's revision and diff options)."""
    try:
        with open(GIT_COMPLETION, encoding="utf-8") as handle:
            script = handle.read()
    except OSError:
        return {}
    variables = {
        m.group(1): m.group(2) for m in re.finditer(r'^(__git_\w+)="(.*?)"', script, re.S | re.M)
    }
    options = {}
    for match in re.finditer(r"^_git_([\w]+) \(\)\n\{\n(.*?)^\}", script, re.S | re.M):
        body = match.group(2)
        text = body + " ".join(variables.get(v, "") for v in re.findall(r"\$(__git_\w+)", body))
        options[match.group(1).replace("_", "-")] = {
            w.rstrip("=") for w in re.findall(r"--[a-z][\w-]*=?", text)
        }
    return options


# Commands whose revision and diff options are parsed by setup_revisions() or the diff machinery,
# which no --git-completion-helper enumerates fully: shortlog's lists only its own options, blame's
# and diff-tree's leave out the revision options they take, and rev-list's lists the diff options,
# which rev-list itself refuses (`git rev-list --stat HEAD` prints its usage).
GIT_REVISION_COMMANDS = (
    "log",
    "show",
    "shortlog",
    "rev-list",
    "whatchanged",
    "blame",
    "annotate",
    "diff-files",
    "diff-index",
    "diff-tree",
    "format-patch",
    "difftool",
)
# What git says when it refuses an option, or this form of it (a value given to a switch, or none
# to an option that needs one: the other form is tried too).
_GIT_REJECTS = re.compile(
    r"unrecognized argument|unknown option|invalid option|takes no value|requires a value"
    r"|^usage: ",
    re.M,
)
# The operands each judged command runs with: ones it accepts with no option (diff-files takes no revision).
GIT_JUDGE_OPERANDS = {"diff-files": ["--", "f"]}


def git_judge(path: Path, spellings: set[str]) -> set[str] | None:
    """The spellings git's own parser accepts for a revision-walking command (run in a scratch
    repository with one commit of one file, stdin closed, no user or system configuration): an
    option is real when neither `git CMD --x HEAD -- f` nor `git CMD --x=1 HEAD -- f` is refused.
    None for a command git is not asked about."""
    if len(path) != 1 or path[0] not in GIT_REVISION_COMMANDS:
        return None
    tail = GIT_JUDGE_OPERANDS.get(path[0], ["HEAD", "--", "f"])
    with tempfile.TemporaryDirectory() as repo:
        _run(["git", "init", "-q", repo])
        with open(os.path.join(repo, "f"), "w", encoding="utf-8") as handle:
            handle.write(
                "a\n"
            )  # blame needs a file to run at all (without one it prints its usage)
        _run(["git", "add", "f"], cwd=repo)
        _run(
            [
                "git",
                "-c",
                "user.name=bench",
                "-c",
                "user.email=bench@invalid",
                "commit",
                "-q",
                "-m",
                "bench",
            ],
            cwd=repo,
        )

        env = dict(
            os.environ,
            GIT_PAGER="cat",
            PAGER="cat",
            HOME=repo,
            GIT_CONFIG_NOSYSTEM="1",
            GIT_EDITOR="true",
            GIT_EXTERNAL_DIFF="true",
        )
        return accepted_spellings(
            spellings, lambda s: ["git", path[0], s, *tail], rejects=_GIT_REJECTS, cwd=repo, env=env
        )


def git_reference() -> Reference:
    ref = Reference(
        long_only=True,
        judge=git_judge,
        source="git --list-cmds=<command-list categories>, git CMD --git-completion-helper-all",
    )
    commands = sorted(set(_run(["git", "--list-cmds=" + GIT_CATEGORIES]).split()))
    ref.paths = {(c,) for c in commands}
    with tempfile.TemporaryDirectory() as repo:
        _run(["git", "init", "-q", repo])

        def helper(command: str):
            # `git annotate` is `git blame -c`: with -c in front of it git's helper is no longer the
            # only argument, and the diff machinery answers instead, so ask blame for annotate.
            out = _run(["git", HELPER_OF.get(command, command), HELPER], cwd=repo)
            advertised, _, negations = out.partition(" -- ")
            words = advertised.split()
            if (
                words
                and words[-1].startswith("--no-")
                and "--" + words[-1][5:] in {w.rstrip("=") for w in words}
            ):
                # git prints the first `--no-X` last, before the `--` (so that completion offers
                # "--no-"): a negation like those after it (`check-mailmap`: "--stdin --no-stdin").
                negations = words.pop() + " " + negations
            # A command that does not use parse-options prints nothing, its usage, or (rev-parse)
            # the argument itself back: none of those is a machine reference.
            if not words or not all(w.startswith("--") for w in words) or HELPER in words:
                return command, None, None
            return (
                command,
                {w.rstrip("=") for w in words},
                {w.rstrip("=") for w in negations.split()},
            )

        completion = _git_completion_options()
        with ThreadPoolExecutor(8) as pool:
            for command, spellings, negations in pool.map(helper, commands):
                if spellings is not None:
                    ref.flags[(command,)] = spellings
                    # The `--no-X` forms git completes only once `--no-` is typed, and the options its
                    # completion script adds by hand: real flags, so finding one is right, but they are
                    # not what --git-completion-helper advertises, so not finding them is no miss.
                    ref.valid[(command,)] = negations | completion.get(command, set())
    return ref


# -- GNU getopt_long, asked ---------------------------------------------------------------------

# glibc's getopt_long names what it matched in its complaints: every option a prefix could mean
# ("option '--a' is ambiguous; possibilities: '--all' '--almost-all' '--author'"), or the one it
# did mean ("option '--block-size' requires an argument", "option '--zero' doesn't allow an
# argument", ls's own "invalid argument 'x' for '--color'").
_GETOPT_AMBIGUOUS = re.compile(r"is ambiguous; possibilities:((?: '--[\w-]+')+)")
_GETOPT_NAMED = re.compile(
    r"option '(--[\w-]+)' (?:requires an argument|doesn't allow an argument)"
    r"|argument '[^'\n]*' for '(--[\w-]+)'"
)
_GETOPT_UNKNOWN = re.compile(r"unrecognized option|invalid option")
# the value a tool is given when its option is matched, so that it refuses it and names the option
_GETOPT_PROBE_VALUE = "\x01"


def getopt_reference(tool: str) -> Reference:
    """Every option of a glibc getopt_long tool, from the tool's own option parser: `TOOL --c` for
    each letter and digit gives the options that start with it (ambiguous: all listed; unique: named
    when asked again as `--c=\\x01`, or when it needs a value); `TOOL -c` is refused unless -c is an
    option. Only for tools that do nothing harmful when run with one option in an empty scratch
    directory with stdin closed (ls, grep, sort, tar, ...)."""
    import string

    ref = Reference(source=f"{tool}'s getopt_long, asked for each prefix")
    env = dict(os.environ, LC_ALL="C", LANG="C", LANGUAGE="C")
    with tempfile.TemporaryDirectory() as scratch:

        def complaint(argument: str) -> str:
            try:
                done = subprocess.run(
                    [tool, argument],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                    errors="replace",
                    cwd=scratch,
                    timeout=10,
                    stdin=subprocess.DEVNULL,
                    env=env,
                )
            except subprocess.TimeoutExpired:
                return ""
            return done.stderr

        def longs_from(letter: str) -> set[str]:
            said = complaint("--" + letter)
            listed = _GETOPT_AMBIGUOUS.search(said)
            if listed:
                return set(re.findall(r"'(--[\w-]+)'", listed.group(1)))
            if _GETOPT_UNKNOWN.search(said):
                return set()
            for text in (said, complaint(f"--{letter}={_GETOPT_PROBE_VALUE}")):
                named = _GETOPT_NAMED.search(text)
                if named:
                    return {named.group(1) or named.group(2)}
            return set()

        def short(letter: str) -> set[str]:
            return set() if _GETOPT_UNKNOWN.search(complaint("-" + letter)) else {"-" + letter}

        characters = string.ascii_letters + string.digits
        with ThreadPoolExecutor(4) as pool:
            found = set().union(
                *pool.map(longs_from, string.ascii_lowercase + string.digits),
                *pool.map(short, characters),
            )
    ref.flags[()] = found
    # glibc lists one spelling per option in its "possibilities" (grep's --fixed-strings and
    # --fixed-regexp are one option to it): a discovered alias is judged by the tool itself
    ref.judge = lambda path, spellings: _getopt_judge(tool, env, spellings)
    return ref


def _getopt_judge(tool: str, env: dict, spellings: set[str]) -> set[str]:
    with tempfile.TemporaryDirectory() as scratch:
        return accepted_spellings(
            spellings, lambda s: [tool, s], rejects=_GETOPT_UNKNOWN, cwd=scratch, env=env
        )


# -- Python parsers, introspected ----------------------------------------------------------------


def argparse_reference(parser, source: str) -> Reference:
    ref = Reference(source=source)

    def visit(p, path):
        spellings = set()
        for action in p._actions:
            if action.help == argparse.SUPPRESS:
                continue
            spellings.update(action.option_strings)
            for spelling in action.option_strings:
                ref.takes_value.setdefault(path, {})[spelling] = action.nargs != 0
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    ref.paths.add((*path, name))
                    visit(sub, (*path, name))
        ref.flags[path] = spellings

    visit(parser, ())
    return ref


def click_reference(command, name: str, source: str) -> Reference:
    import click

    ref = Reference(source=source)

    def visit(cmd, path, parent_ctx):
        ctx = click.Context(cmd, info_name=path[-1] if path else name, parent=parent_ctx)
        spellings = set()
        for param in cmd.get_params(ctx):
            if isinstance(param, click.Option) and not param.hidden:
                spellings.update(param.opts)
                spellings.update(param.secondary_opts)
                for spelling in (*param.opts, *param.secondary_opts):
                    ref.takes_value.setdefault(path, {})[spelling] = not (
                        param.is_flag or param.count
                    )
        ref.flags[path] = spellings
        if isinstance(cmd, click.Group):
            for sub_name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, sub_name)
                if sub is None or sub.hidden:
                    continue
                ref.paths.add((*path, sub_name))
                visit(sub, (*path, sub_name), ctx)

    visit(command, (), None)
    return ref


def jsonschema_reference() -> Reference:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from jsonschema.cli import parser
    return argparse_reference(parser, "jsonschema.cli.parser (argparse)")


def dotenv_reference() -> Reference:
    from dotenv.cli import cli

    return click_reference(cli, "dotenv", "dotenv.cli.cli (click)")


def flask_reference() -> Reference:
    from flask.cli import cli

    return click_reference(cli, "flask", "flask.cli.cli (click)")


def httpie_reference() -> Reference:
    from httpie.cli.definition import parser

    return argparse_reference(parser, "httpie.cli.definition.parser (argparse)")


def httpie_manager_reference() -> Reference:
    from httpie.manager.cli import parser

    return argparse_reference(parser, "httpie.manager.cli.parser (argparse)")


def pytest_benchmark_reference() -> Reference:
    from pytest_benchmark.cli import make_parser

    return argparse_reference(make_parser(), "pytest_benchmark.cli.make_parser() (argparse)")


def uvicorn_reference() -> Reference:
    from uvicorn.main import main

    return click_reference(main, "uvicorn", "uvicorn.main.main (click)")


def hypothesis_reference() -> Reference:
    from hypothesis.extra.cli import main

    return click_reference(main, "hypothesis", "hypothesis.extra.cli.main (click)")


def black_reference() -> Reference:
    from black import main

    return click_reference(main, "black", "black.main (click)")


def optparse_reference(parsers: dict, source: str) -> Reference:
    """path -> an optparse parser: every option not marked ``SUPPRESS_HELP``, in any group."""
    import optparse

    ref = Reference(source=source)
    for path, parser in parsers.items():
        spellings = set()
        for group in [parser, *parser.option_groups]:
            for option in group.option_list:
                if option.help != optparse.SUPPRESS_HELP:
                    spellings.update(option._short_opts + option._long_opts)
                    for spelling in option._short_opts + option._long_opts:
                        ref.takes_value.setdefault(path, {})[spelling] = option.takes_value()
        ref.flags[path] = spellings
        if path:
            ref.paths.add(path)
    return ref


def pip_reference() -> Reference:
    """pip's own parsers: the main one, and each command's (its general options included, as pip
    parses them for every command); pip's `help` and `completion` are left out as for cobra."""
    from pip._internal.cli.main_parser import create_main_parser
    from pip._internal.commands import commands_dict, create_command

    parsers = {(): create_main_parser()}
    for name in commands_dict:
        if name not in ("help", "completion"):
            parsers[(name,)] = create_command(name).parser
    return optparse_reference(parsers, "pip._internal parsers (optparse)")


# -- Node: commander.js, yargs, oclif, npm, yarn v1 ----------------------------------------------

NODE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "node")


def _node_modules() -> str:
    out = _run(["npm", "root", "-g"]).strip()
    return out or "/usr/lib/node_modules"


def _boxed(argv: list[str], env: dict | None = None) -> str:
    """``argv`` run in discovery's own sandbox (no network, scratch HOME, own PID namespace): loading
    pm2's CLI or asking npm to complete must not start a daemon or reach the registry."""
    from wrapgen.probe.install import program_paths
    from wrapgen.probe.sandbox import SYSTEM_DIRS, Scratch, bwrap_argv, sandbox_status

    status = sandbox_status()
    with Scratch() as scratch:
        run_env = dict(
            os.environ, HOME=scratch.home, TMPDIR=scratch.tmpdir, NO_COLOR="1", **(env or {})
        )
        if status.available:
            argv = bwrap_argv(
                argv,
                bwrap=status.bwrap,
                workdir=scratch.workdir,
                home=scratch.home,
                tmpdir=scratch.tmpdir,
                readable=[
                    NODE_DIR,
                    *program_paths(
                        argv[:1], search_path=run_env.get("PATH", ""), system=SYSTEM_DIRS
                    ),
                ],
                disable_userns=status.disable_userns,
            )
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            cwd=scratch.workdir,
            env=run_env,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    return done.stdout


def _operand_names(spec: str) -> set[str]:
    return set(re.findall(r"[<\[]([\w-]+)(?:\.\.\.)?[>\]]", spec))


def commander_reference(tool: str, commander_dir: str, script: str) -> Reference:
    """commander.js: the program object the CLI builds, dumped by bench/node/commander_tree.js
    (its parse() replaced before the CLI loads, so nothing runs); the '*' catch-all left out."""
    ref = Reference(source=f"{tool}'s commander program object")
    root = os.path.join(_node_modules(), tool)
    out = _boxed(
        [
            "node",
            os.path.join(NODE_DIR, "commander_tree.js"),
            os.path.join(root, commander_dir),
            os.path.join(root, script),
        ]
    )
    tree = json.loads(out.strip().splitlines()[-1])
    ref.flags[()] = {s for spellings in tree["options"] for s in spellings}
    for command in tree["commands"]:
        if command["name"] in ("*", "") or command["name"] in UNREAD:
            continue
        for name in [command["name"], *command["aliases"]]:
            ref.paths.add((name,))
        ref.flags[(command["name"],)] = {s for spellings in command["options"] for s in spellings}
    return ref


def yargs_reference(tool: str, commands_dir: str) -> Reference:
    """yargs: each command module the CLI registers, its builder run on a fresh yargs instance
    (bench/node/yargs_tree.js); its positionals are operands, not flags; yargs' own --version is
    valid everywhere."""
    ref = Reference(source=f"{tool}'s yargs command modules")
    root = os.path.join(_node_modules(), tool)
    out = _boxed(
        [
            "node",
            os.path.join(NODE_DIR, "yargs_tree.js"),
            os.path.join(root, "node_modules", "yargs"),
            os.path.join(root, commands_dir),
        ]
    )
    ref.flags[()] = set()
    for command in json.loads(out.strip().splitlines()[-1]):
        words = command["command"].split()
        path = (words[0],)
        operands = _operand_names(command["command"])
        ref.paths.add(path)
        ref.flags[path] = {
            s
            for spellings in command["options"]
            if spellings[0].lstrip("-") not in operands
            for s in spellings
        }
        ref.takes_value[path] = {s: s not in command["boolean"] for s in ref.flags[path]}
        ref.valid[path] = {"--version", "-v"}
    ref.valid[()] = {"--version", "-v"}
    return ref


def oclif_reference(tool: str) -> Reference:
    """oclif: the manifest the CLI ships (``oclif.manifest.json``), every command with its flags;
    a topic (``pack`` of ``pack:deb``) is a path too; hidden commands and flags are undocumented."""
    ref = Reference(source=f"{tool}'s oclif.manifest.json")
    with open(
        os.path.join(_node_modules(), tool, "oclif.manifest.json"), encoding="utf-8"
    ) as handle:
        manifest = json.load(handle)
    ref.flags[()] = set()
    for command_id, command in manifest["commands"].items():
        path = tuple(command_id.split(":"))
        if command.get("hidden") or path[0] in UNREAD:
            continue
        for depth in range(1, len(path) + 1):
            ref.paths.add(path[:depth])
        spellings, hidden, values, negated = set(), set(), {}, set()
        for name, flag in command.get("flags", {}).items():
            own = {"--" + name} | ({"-" + flag["char"]} if flag.get("char") else set())
            (hidden if flag.get("hidden") else spellings).update(own)
            for s in own:
                values[s] = flag.get("type") == "option"
            if flag.get("allowNo"):
                negated.add("--no-" + name)
        ref.flags[path] = spellings | hidden
        ref.undocumented[path] = hidden
        ref.valid[path] = negated
        ref.takes_value[path] = values
    return ref


def _npm_complete(words: list[str]) -> list[str]:
    line = " ".join(["npm", *words, ""])
    out = _boxed(
        ["npm", "completion", "--", "npm", *words, ""],
        env={"COMP_CWORD": str(len(words) + 1), "COMP_LINE": line, "COMP_POINT": str(len(line))},
    )
    return [w for w in out.split() if re.fullmatch(r"[a-z][a-z-]*", w)]


def npm_reference() -> Reference:
    """npm: its command list (lib/utils/cmd-list.js), each command class's static ``params`` with the
    config definitions' short spellings (bench/node/npm_tree.js), and the subcommands npm's own
    completion offers (``npm completion`` protocol, one level below each command); a boolean
    config's ``--no-X`` is valid, not expected."""
    ref = Reference(source="npm's command classes and `npm completion`")
    out = _boxed(
        ["node", os.path.join(NODE_DIR, "npm_tree.js"), os.path.join(_node_modules(), "npm")]
    )
    data = json.loads(out.strip().splitlines()[-1])
    commands = data["commands"]
    ref.flags[()] = set()
    ref.valid[()] = set(data["configs"])
    # operand values npm's completion offers beside subcommands; `from-git` is npm version's own
    values = set(data["values"]) | {"from-git"}
    names = [n for n in commands if n not in UNREAD]
    with ThreadPoolExecutor(4) as pool:
        subs = dict(zip(names, pool.map(lambda n: _npm_complete([n]), names)))
    for name in names:
        info = commands[name]
        flags = {s for spellings in info["flags"] for s in spellings}
        for alias in info["aliases"]:
            ref.paths.add((alias,))
        ref.paths.add((name,))
        ref.flags[(name,)] = flags
        ref.valid[(name,)] = set(info["negations"])
        # Only two levels: at the third word npm's completion offers operand values as readily as
        # subcommands (`access grant read-only`, config keys after `config delete`), so it cannot judge.
        for sub in subs[name]:
            if sub not in values:
                ref.paths.add((name, sub))
    return ref


def yarn_reference() -> Reference:
    """yarn v1: its bundled command table and commander, reached through the bundle's own module
    loader (bench/node/yarn_tree.js): per command, the flags main() registers (the global ones) and
    the command's setFlags() adds, and the subcommand names its buildSubCommands() object holds
    (which setFlags() writes into its usage); commands yarn marks ``useless`` are left out."""
    ref = Reference(source="yarn's command table and commander objects")
    script = [
        os.path.join(NODE_DIR, "yarn_tree.js"),
        os.path.join(_node_modules(), "yarn", "lib", "cli.js"),
    ]

    def dump(*words: str) -> dict:
        return json.loads(_boxed(["node", *script, *words]).strip().splitlines()[-1])

    names = [n for n in dump()["commands"] if n not in UNREAD]
    with ThreadPoolExecutor(4) as pool:
        pages = dict(zip(["help", *names], pool.map(lambda n: dump(n), ["help", *names])))
    ref.flags[()] = {s for spellings in pages["help"]["options"] for s in spellings}
    for name in names:
        ref.paths.add((name,))
        if re.sub(r"[A-Z]", lambda m: "-" + m[0].lower(), name) != name:
            continue  # the table keeps a camelCase alias beside each hyphenated name (generateLockEntry)
        ref.flags[(name,)] = {s for spellings in pages[name]["options"] for s in spellings}
        group = re.match(r"^\S+ \[(?P<subs>[\w|-]+)\] \[flags\]", pages[name]["usage"])
        for sub in group["subs"].split("|") if group and group["subs"] != "flags" else ():
            ref.paths.add((name, sub))
    return ref


# -- Symfony Console, cleo, kingpin, urfave/cli -----------------------------------------------------


def _symfony_spellings(option: dict) -> set[str]:
    spellings = {option["name"]} if option.get("name") else set()
    shortcut = option.get("shortcut") or ""
    spellings |= {s if s.startswith("-") else "-" + s for s in shortcut.split("|") if s.strip("-")}
    return spellings


def symfony_reference(tool: str) -> Reference:
    """Paths and flags from Symfony Console's own JSON descriptor (``TOOL list --format=json``): every
    command's definition, the application's options included; hidden commands left out."""
    data = json.loads(_run([tool, "list", "--format=json", "--no-interaction"]))
    ref = Reference(source=f"{tool} list --format=json")
    ref.flags[()] = set()
    for command in data["commands"]:
        if command.get("hidden"):
            continue
        path = tuple(command["name"].split())
        options = (command.get("definition") or {}).get("options") or {}
        ref.paths.add(path)
        ref.flags[path] = (
            set().union(*(_symfony_spellings(o) for o in options.values())) if options else set()
        )
        ref.takes_value[path] = {
            s: bool(o.get("accept_value")) for o in options.values() for s in _symfony_spellings(o)
        }
        if command["name"] == "list":
            app = {
                "--" + name
                for name in set.intersection(
                    *(
                        set((c.get("definition") or {}).get("options") or {})
                        for c in data["commands"]
                    )
                )
            }
            ref.flags[()] = {
                s for o in options.values() if o["name"] in app for s in _symfony_spellings(o)
            }
    return ref


# Run in poetry's own interpreter: cleo's command objects, each with the application's options.
_CLEO_SCRIPT = r"""
import json
from poetry.console.application import Application
app = Application()
def spell(o):
    out = ["--" + o.name]
    out += ["-" + s for s in (o.shortcut or "").split("|") if s]
    return out
out = {"": {s: o.accepts_value() for o in app.definition.options for s in spell(o)}}
for name, command in app.all().items():
    if getattr(command, "hidden", False):
        continue
    options = list(command.definition.options) + list(app.definition.options)
    out[name] = {s: o.accepts_value() for o in options for s in spell(o)}
print(json.dumps(out))
"""


def cleo_reference(tool: str = "poetry") -> Reference:
    """Paths and flags from poetry's cleo ``Application``, loaded in poetry's own interpreter (the
    one its launcher names); a namespace ("cache" of "cache clear") is a path too."""
    program = shutil.which(tool)
    with open(program, encoding="utf-8", errors="replace") as handle:
        shebang = handle.readline()[2:].strip().split()
    data = json.loads(_run([*shebang, "-c", _CLEO_SCRIPT]))
    ref = Reference(source=f"{tool}'s cleo Application")
    for name, options in data.items():
        path = tuple(name.split())
        ref.flags[path] = set(options)
        ref.takes_value[path] = dict(options)
        for i in range(1, len(path) + 1):
            ref.paths.add(path[:i])
    return ref


def kingpin_reference(tool: str, depth: int) -> Reference:
    """Paths and long flags from kingpin's completion protocol: ``TOOL PATH --completion-bash`` names
    the commands under PATH, ``TOOL PATH --completion-bash --`` its flags (long ones only; kingpin's
    ``help`` left out). A word counts as a command only where its own completion offers flags."""
    ref = Reference(source=f"{tool} --completion-bash", long_only=True)

    def words(args: list[str]) -> list[str]:
        return [w for w in _run([tool, *args]).split() if w]

    frontier = [()]
    with ThreadPoolExecutor(8) as pool:
        while frontier:
            flags = list(
                pool.map(
                    lambda p: {
                        w for w in words([*p, "--completion-bash", "--"]) if w.startswith("--")
                    },
                    frontier,
                )
            )
            children = list(pool.map(lambda p: words([*p, "--completion-bash"]), frontier))
            nxt = []
            for path, spellings, names in zip(frontier, flags, children):
                if not spellings:
                    continue  # not a command: an argument value the completion offered
                ref.flags[path] = spellings
                if path:
                    ref.paths.add(path)
                if len(path) < depth:
                    nxt += [(*path, n) for n in names if not n.startswith("-") and n != "help"]
            frontier = nxt
    scratch = tempfile.mkdtemp(prefix="wrapgen-bench-kingpin-")

    def judge(path: Path, spellings: set[str]) -> set[str]:
        # kingpin's completion leaves out some flags a command takes (amtool's `config routes
        # --config.file`): the tool settles them, in completion mode (no action runs), refusing
        # an unknown one with "unknown long flag"
        return accepted_spellings(
            {s for s in spellings if s.startswith("--")},
            lambda s: [tool, *path, s, "--completion-bash"],
            rejects=re.compile(r"unknown long flag"),
            cwd=scratch,
        )

    ref.judge = judge
    return ref


def urfave_reference(tool: str, depth: int) -> Reference:
    """Paths and flags from urfave/cli's completion protocol: ``TOOL PATH --generate-bash-completion``
    names the commands under PATH (its automatic ``help``/``h`` left out), ``TOOL PATH -
    --generate-bash-completion`` its flags, short ones too."""
    ref = Reference(source=f"{tool} --generate-bash-completion")

    def words(args: list[str]) -> list[str]:
        return [w for w in _run([tool, *args, "--generate-bash-completion"]).split() if w]

    # urfave/cli 1 offers the application's flags first at every level, though a command refuses
    # them (`mender-artifact cp --version`: "flag provided but not defined"): that prefix is dropped
    app = [w for w in words(["-"]) if w.startswith("-")]

    def flags_of(path: Path) -> set[str]:
        offered = [w for w in words([*path, "-"]) if w.startswith("-")]
        if path and offered[: len(app)] == app:
            offered = offered[len(app) :]
        return set(offered)

    frontier = [()]
    with ThreadPoolExecutor(8) as pool:
        while frontier:
            flags = list(pool.map(flags_of, frontier))
            children = list(pool.map(lambda p: words(list(p)), frontier))
            nxt = []
            for path, spellings, names in zip(frontier, flags, children):
                ref.flags[path] = spellings
                if path:
                    ref.paths.add(path)
                if len(path) < depth:
                    nxt += [
                        (*path, n)
                        for n in names
                        if not n.startswith("-") and n not in ("help", "h")
                    ]
            frontier = nxt
    return ref


# row -> (tool, style, discovery depth, reference builder, discover() options); rows whose name
# differs from the tool are variants, reported but left out of the overall figures.
TOOLS = {
    "gh": ("gh", "cobra", 2, lambda: cobra_reference("gh", 2), {}),
    "kubectl": ("kubectl", "cobra", 2, lambda: cobra_reference("kubectl", 2), {}),
    "docker": ("docker", "cobra", 2, lambda: cobra_reference("docker", 2), {}),
    # Cobra tools the parsers were not written against (older cobra, Debian builds): rclone keeps
    # its ~650 global flags out of every help and lists them under `rclone help flags`.
    "rclone": ("rclone", "cobra", 2, lambda: cobra_reference("rclone", 2), {}),
    "restic": ("restic", "cobra", 2, lambda: cobra_reference("restic", 2), {}),
    "hugo": ("hugo", "cobra", 2, lambda: cobra_reference("hugo", 2), {}),
    "git": ("git", "git", 1, git_reference, {}),
    "git:no-man": ("git", "git", 1, git_reference, {"man": False}),
    "rg": ("rg", "clap 2", 0, rg_reference, {}),
    "fdfind": ("fdfind", "clap 4", 0, fd_reference, {}),
    "ruff": ("ruff", "clap 4", 2, lambda: clap_generated_reference("ruff", 2), {}),
    "uv": ("uv", "clap 4", 2, lambda: clap_generated_reference("uv", 2), {}),
    "jsonschema": ("jsonschema", "argparse", 1, jsonschema_reference, {}),
    "rustup": (
        "rustup",
        "clap 4",
        2,
        lambda: clap_generated_reference("rustup", 2, "completions"),
        {},
    ),
    # clap tools shipped as Python wheels (pip install ty ast-grep-cli maturin)
    "ty": ("ty", "clap 4", 2, lambda: clap_generated_reference("ty", 2), {}),
    "ast-grep": (
        "ast-grep",
        "clap 4",
        2,
        lambda: clap_generated_reference("ast-grep", 2, "completions"),
        {},
    ),
    "maturin": (
        "maturin",
        "clap 4",
        2,
        lambda: clap_generated_reference("maturin", 2, "completions"),
        {},
    ),
    "http": ("http", "argparse", 0, httpie_reference, {}),
    "httpie": ("httpie", "argparse", 3, httpie_manager_reference, {}),
    "dotenv": ("dotenv", "click", 1, dotenv_reference, {}),
    "flask": ("flask", "click", 1, flask_reference, {}),
    "black": ("black", "click", 0, black_reference, {}),
    "uvicorn": ("uvicorn", "click", 0, uvicorn_reference, {}),
    "hypothesis": ("hypothesis", "click", 1, hypothesis_reference, {}),
    "pytest-benchmark": ("pytest-benchmark", "argparse", 1, pytest_benchmark_reference, {}),
    "pip": ("pip", "optparse", 1, pip_reference, {}),
    # Node's frameworks (npm install -g, see .ci/run)
    "pm2": (
        "pm2",
        "commander",
        1,
        lambda: commander_reference("pm2", "node_modules/commander", "lib/binaries/CLI.js"),
        {},
    ),
    "typeorm": ("typeorm", "yargs", 1, lambda: yargs_reference("typeorm", "commands"), {}),
    "oclif": ("oclif", "oclif", 2, lambda: oclif_reference("oclif"), {}),
    "npm": ("npm", "npm", 3, npm_reference, {}),
    "yarn": ("yarn", "yarn", 2, yarn_reference, {}),
    # GNU tools (coreutils, grep, sed, tar's argp, xz, gzip), whose options glibc's getopt_long knows
    **{
        name: (name, "gnu", 0, (lambda n=name: getopt_reference(n)), {})
        for name in ("ls", "grep", "sort", "du", "wc", "head", "cut", "sed", "tar", "xz", "gzip")
    },
    # Symfony Console (composer), cleo (poetry: each probe starts Python, so a longer probe timeout on
    # a loaded machine), kingpin (amtool), urfave/cli (mender-artifact; runc has no completion)
    "composer": ("composer", "symfony", 2, lambda: symfony_reference("composer"), {}),
    "poetry": ("poetry", "cleo", 3, cleo_reference, {"timeout_s": 30}),
    "amtool": ("amtool", "kingpin", 3, lambda: kingpin_reference("amtool", 3), {}),
    "mender-artifact": (
        "mender-artifact",
        "urfave",
        2,
        lambda: urfave_reference("mender-artifact", 2),
        {},
    ),
}


def _values(tool) -> dict:
    """path -> {spelling: whether discovery says it takes a value}."""
    return {
        node.path: {
            s: f.takes_value for f in (*node.flags, *node.global_flags) for s in f.spellings
        }
        for node in tool.root.walk()
        if not node.stub
    }


def _discovered(tool, *, long_only: bool) -> tuple[dict, set]:
    flags, paths = {}, set()
    for node in tool.root.walk():
        if node.path:
            paths.add(node.path)
            for alias in node.aliases:
                paths.add((*node.path[:-1], alias))
        if node.stub:
            continue
        spellings = {s for f in (*node.flags, *node.global_flags) for s in f.spellings}
        if long_only:
            spellings = {s for s in spellings if s.startswith("--")}
        flags[node.path] = spellings
    return flags, paths


# Left out of both sides: every tool has a help flag and the references disagree on listing it
# (docker's cobra hides it, kubectl's help omits it); and discovery never reads the help commands.
HELP_FLAGS = {"-h", "--help"}
UNREAD = {"help", "completion", "completions"}  # as crawl.SKIP_RECURSION


def score(ref: Reference, tool) -> dict:
    found_flags, found_paths = _discovered(tool, long_only=ref.long_only)
    tp = fp = fn = 0
    undocumented = found_hidden = 0
    values = _values(tool)
    value_checked = value_right = 0
    value_wrong: list[str] = []
    missed, extra = [], []
    for path, expected in ref.flags.items():
        if path and path[-1] in UNREAD:
            continue
        expected = expected - HELP_FLAGS
        got = found_flags.get(path, set()) - HELP_FLAGS
        if ref.long_only:
            expected = {s for s in expected if s.startswith("--")}
        hidden = ref.undocumented.get(path, set()) - HELP_FLAGS
        undocumented += len(expected & hidden)
        found_hidden += len(expected & hidden & got)
        expected = expected - hidden
        accepted = expected | hidden | ref.valid.get(path, set())
        if ref.judge is not None:
            # Where the tool itself is the judge, it settles both sides: an unlisted option it takes
            # is valid, and a listed one it refuses (rev-list's diff options) is not an option.
            accepted |= ref.judge(path, got - accepted) or set()
            missing = expected - got
            taken = ref.judge(path, missing) if missing else None
            if taken is not None:
                expected -= missing - taken
        for spelling in sorted(expected & got):
            said = ref.takes_value.get(path, {}).get(spelling)
            if said is not None:
                value_checked += 1
                if values.get(path, {}).get(spelling) == said:
                    value_right += 1
                else:
                    value_wrong.append(" ".join((*path, spelling)))
        tp += len(expected & got)
        fp += len(got - accepted)
        fn += len(expected - got)
        missed += [" ".join((*path, s)) for s in sorted(expected - got)]
        extra += [" ".join((*path, s)) for s in sorted(got - accepted)]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    path_hits = len(ref.paths & found_paths)
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "paths": len(ref.paths),
        "paths_found": path_hits,
        "path_recall": round(path_hits / len(ref.paths), 4) if ref.paths else 1.0,
        "missed_paths": sorted(" ".join(p) for p in ref.paths - found_paths),
        "missed_flags": missed,
        "extra_flags": extra,
        "warnings": len(tool.warnings),
        "undocumented": undocumented,
        "undocumented_found": found_hidden,
        # of the flags found that the reference says take a value or not, how many discovery got right
        "value_checked": value_checked,
        "value_right": value_right,
        "value_wrong": value_wrong,
        "value_accuracy": round(value_right / value_checked, 4) if value_checked else None,
    }


def unmentioned(program: str, missed: list[str]) -> list[str]:
    """The missed flags that no help of their command names at all (``TOOL PATH --help`` and
    ``TOOL help PATH``): options a tool hides from help, which no reading of help can find.
    Only sorts the misses; the score is the reference's."""
    by_path: dict[tuple, list[str]] = {}
    for item in missed:
        *path, spelling = item.split(" ")
        by_path.setdefault(tuple(path), []).append(spelling)

    def helps(path: tuple) -> str:
        return _run([program, *path, "--help"]) + _run([program, "help", *path])

    with ThreadPoolExecutor(4) as pool:
        texts = dict(zip(by_path, pool.map(helps, by_path)))
    return [
        " ".join((*path, s))
        for path, spellings in by_path.items()
        for s in spellings
        if not re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", texts[path])
    ]


def unlisted(program: str, missed_paths: list[str]) -> list[str]:
    """The missed command paths whose parent's help never names them (hidden commands: uv's
    `build-backend`); a path under a missed one counts with it."""
    missed = [tuple(p.split(" ")) for p in missed_paths]
    parents = sorted({p[:-1] for p in missed})

    def helps(path: tuple) -> str:
        return _run([program, *path, "--help"]) + _run([program, "help", *path])

    with ThreadPoolExecutor(4) as pool:
        texts = dict(zip(parents, pool.map(helps, parents)))
    hidden: set[tuple] = set()
    for path in sorted(missed, key=len):
        if path[:-1] in hidden or not re.search(
            rf"(?<![\w-]){re.escape(path[-1])}(?![\w-])", texts[path[:-1]]
        ):
            hidden.add(path)
    return [" ".join(p) for p in sorted(hidden)]


def _median_round(rounds: list):
    """The crawl whose own-CPU share is the median of ``rounds`` (the lower middle one of an even
    count): one crawl's figures, never a mix of several."""
    ranked = sorted(rounds, key=lambda r: (r.share is None, r.share or 0.0))
    return ranked[(len(ranked) - 1) // 2]


def _cpu(usage) -> float:
    return usage.ru_utime + usage.ru_stime


CPU_GOAL = 0.25  # discovery's own CPU / the tools', on every row (issue 25; 0.10 before)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tools", nargs="*", help=f"default: {' '.join(TOOLS)}")
    parser.add_argument("--json", action="store_true", help="print the full report as JSON")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="count apart the missed flags no help of their command mentions, and list only the others",
    )
    parser.add_argument(
        "--cpu-rounds",
        type=int,
        default=1,
        metavar="N",
        help="crawl each tool N times and report the median of its CPU shares, with their "
        "range (a single crawl's share moves by a few points with the machine's load)",
    )
    args = parser.parse_args(argv)
    if args.cpu_rounds < 1:
        parser.error("--cpu-rounds must be at least 1")
    load_at_start = os.getloadavg()[0]
    names = args.tools or list(TOOLS)
    unknown = [n for n in names if n not in TOOLS]
    if unknown:
        parser.error(f"no reference for {', '.join(unknown)}; known: {', '.join(TOOLS)}")
    from probe_cpu import metered, residue, warm_up

    # imported (and the sandbox asked for) once before any row: "cpu_own" is the crawl's; this once-
    # per-process cost is printed apart
    per_process = warm_up()

    report, totals = (
        {},
        {
            "tp": 0,
            "fp": 0,
            "fn": 0,
            "paths": 0,
            "paths_found": 0,
            "value_checked": 0,
            "value_right": 0,
        },
    )
    references = {}
    for name in names:
        program, style, depth, build, options = TOOLS[name]
        if shutil.which(program) is None:
            print(f"{name}: not installed, skipped", file=sys.stderr)
            continue
        if build not in references:
            try:
                references[build] = build()
            except ImportError as error:  # a reference read from a package this Python lacks
                references[build] = error
        ref = references[build]
        if isinstance(ref, ImportError):
            print(
                f"{name}: no reference here ({ref}); install it for {sys.executable} to score "
                f"{name}; skipped",
                file=sys.stderr,
            )
            continue
        started = time.monotonic()
        run = functools.partial(discover, program, depth=depth, cache=False, **options)
        tool, cpu = metered(run, shutil.which(program))
        rounds = [cpu] + [
            metered(run, shutil.which(program))[1] for _ in range(args.cpu_rounds - 1)
        ]
        cpu = _median_round(rounds)
        row = score(ref, tool)
        row.update(
            style=style,
            depth=depth,
            reference=ref.source,
            seconds=round(time.monotonic() - started, 2),
        )
        # discovery's own CPU (wrapgen's process: parsing, the crawl) against the CPU of the tool's
        # processes, measured inside the sandbox (bench/probe_cpu.py); the containment (spawn helper,
        # supervisors, bwrap) apart: the speed goal is a ratio in one run, never a timed assert
        row.update(
            cpu_own=round(cpu.own, 3),
            cpu_tools=round(cpu.tools, 3),
            cpu_containment=round(cpu.containment, 3),
            cpu_probes=cpu.probes,
            cpu_unmetered=cpu.unmetered,
            cpu_bench=round(cpu.bench, 4),
            cpu_share=round(cpu.share, 4) if cpu.share is not None else None,
            cpu_share_contained=round(cpu.share_with_containment, 4)
            if cpu.share_with_containment is not None
            else None,
            cpu_rounds=len(rounds),
            cpu_share_range=[
                round(min(r.share for r in rounds if r.share is not None), 4),
                round(max(r.share for r in rounds if r.share is not None), 4),
            ]
            if any(r.share is not None for r in rounds)
            else None,
        )
        hidden = set(unmentioned(program, row["missed_flags"])) if args.explain else set()
        if args.explain:
            row["missed_unmentioned"] = len(hidden)
            row["missed_flags"] = [m for m in row["missed_flags"] if m not in hidden]
            unlisted_paths = set(unlisted(program, row["missed_paths"]))
            row["missed_paths_unlisted"] = len(unlisted_paths)
            row["missed_paths"] = [p for p in row["missed_paths"] if p not in unlisted_paths]
        if not args.json:
            row["missed_flags"], row["extra_flags"] = (
                row["missed_flags"][:25],
                row["extra_flags"][:25],
            )
            row["missed_paths"] = row["missed_paths"][:20]
            row["value_wrong"] = row["value_wrong"][:12]
        report[name] = row
        if name == program:
            for key in totals:
                totals[key] += row[key]
    tp, fp, fn = totals["tp"], totals["fp"], totals["fn"]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    overall = {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(2 * precision * recall / (precision + recall), 4)
        if precision + recall
        else 0.0,
        "path_recall": round(totals["paths_found"] / totals["paths"], 4)
        if totals["paths"]
        else 1.0,
        "value_accuracy": round(totals["value_right"] / totals["value_checked"], 4)
        if totals["value_checked"]
        else None,
        **totals,
    }
    if args.json:
        print(
            json.dumps(
                {"tools": report, "overall": overall, "cpu_per_process": round(per_process, 3)},
                indent=2,
                sort_keys=True,
            )
        )
        return 0
    w = max([11, *map(len, report)])
    print(
        f"{'tool':<{w}} {'style':<9} {'depth':>5} {'flag P':>7} {'flag R':>7} {'flag F1':>7} "
        f"{'paths':>11} {'path R':>7} {'value':>6} {'secs':>6} {'cpu%':>6} {'+cont%':>6}"
    )

    def value(accuracy) -> str:
        return "-" if accuracy is None else f"{accuracy:.3f}"

    def share(ratio) -> str:
        return "-" if ratio is None else f"{100 * ratio:.1f}"

    for name, row in report.items():
        print(
            f"{name:<{w}} {row['style']:<9} {row['depth']:>5} {row['precision']:>7.3f} {row['recall']:>7.3f} "
            f"{row['f1']:>7.3f} {row['paths_found']:>5}/{row['paths']:<5} {row['path_recall']:>7.3f} "
            f"{value(row['value_accuracy']):>6} {row['seconds']:>6.1f} {share(row['cpu_share']):>6} "
            f"{share(row['cpu_share_contained']):>6}"
        )
    print(
        f"{'overall':<{w}} {'':<9} {'':>5} {overall['precision']:>7.3f} {overall['recall']:>7.3f} "
        f"{overall['f1']:>7.3f} {overall['paths_found']:>5}/{overall['paths']:<5} {overall['path_recall']:>7.3f} "
        f"{value(overall['value_accuracy']):>6}"
    )
    print(
        f"\ncpu%: wrapgen's own CPU / the tools' (measured in the sandbox); +cont%: with the containment "
        f"(spawn helper, supervisors, bwrap); once per process, before the rows: {per_process:.3f} s "
        f"(imports, the sandbox check, the parsers' first use on captured pages); meter residue {1000 * residue():.2f} ms a probe, taken out"
    )
    for name, row in report.items():
        spread = row["cpu_share_range"]
        print(
            f"{name}: own {row['cpu_own']:.3f} s (the meter's {row['cpu_bench']:.3f} s taken out), "
            f"containment {row['cpu_containment']:.3f} s, "
            f"tools {row['cpu_tools']:.3f} s over {row['cpu_probes']} probes"
            + (
                f"; the median of {row['cpu_rounds']} crawls, whose cpu% ranged "
                f"{100 * spread[0]:.1f}-{100 * spread[1]:.1f}"
                if row["cpu_rounds"] > 1 and spread
                else ""
            )
            + (
                f" ({row['cpu_unmetered']} cut short unmetered: their CPU is in the containment)"
                if row["cpu_unmetered"]
                else ""
            )
        )
    for name, row in report.items():
        if (
            row["missed_paths"]
            or row["missed_flags"]
            or row["extra_flags"]
            or row.get("missed_unmentioned")
            or row.get("missed_paths_unlisted")
        ):
            print(f"\n{name}: missed paths {row['missed_paths'][:8]}")
            if row.get("missed_paths_unlisted"):
                print(
                    f"{name}: {row['missed_paths_unlisted']} missed paths their parent's help never names; the others:"
                )
            if "missed_unmentioned" in row:
                print(
                    f"{name}: {row['missed_unmentioned']} missed flags no help mentions; the others:"
                )
            if row.get("undocumented"):
                print(
                    f"{name}: {row['undocumented']} undocumented (hidden) flags left out of both sides, "
                    f"{row['undocumented_found']} of them found"
                )
            print(f"{name}: missed flags {row['missed_flags'][:12]}")
            print(f"{name}: extra flags  {row['extra_flags'][:12]}")
        if row["value_wrong"]:
            print(f"{name}: takes a value or not, wrongly: {row['value_wrong'][:12]}")
    shares = {
        name: row["cpu_share"] for name, row in report.items() if row["cpu_share"] is not None
    }
    over = sorted((name for name, s in shares.items() if s > CPU_GOAL), key=lambda n: -shares[n])
    worst = max(shares, key=shares.get) if shares else None
    print(
        f"\ncpu% goal <= {100 * CPU_GOAL:.0f} % on every row: "
        + (f"highest {worst} {100 * shares[worst]:.1f} %; " if worst else "no row measured; ")
        + (f"MISSED on {', '.join(over)}" if over else "met")
        + f" (load average {load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end,"
        f" {os.cpu_count()} CPUs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
