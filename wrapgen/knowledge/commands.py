"""What a command is, and what it is not: one definition each, for propose, check and promote.

Data: ``data/commands.json``. The questions answered here:

* ``not_command_reason(word)``: the word names a subcommand that describes the tool (help,
  completion, version) rather than doing something. Promote skips such paths; propose leaves them
  out (with ``never_reason``).
* ``never_reason(word)``: any reason a path word keeps a command out of a proposal (the above, or
  interactive, long-running, plumbing, unstable).
* ``is_mega_command(name)``: the command (or verb) name forwards an arbitrary command line (docs/contract.md §13).
  Check's W008, promote and propose all use this one list, the union of the three lists they kept
  before (so propose's ``sudo``/``env``/``xargs`` are now mega-commands for check and promote too,
  and check's and promote's ``shell`` for propose).
* ``is_mega_arg(name)``, ``forwards_command_line(command)``: an argument or operand that holds
  a forwarded command line.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wrapgen.knowledge.table import Table, load

__all__ = [
    "not_command_reason",
    "never_reason",
    "is_not_command",
    "about_its_work",
    "is_mega_command",
    "is_mega_arg",
    "mega_positional",
    "forwards_command_line",
    "runs_what_its_grammar_names",
    "forwarding_operand",
    "is_not_operand",
    "not_operands",
    "is_setup_family",
    "common_weight",
    "MEGA_REASON",
    "is_revision_operand",
    "options_after_operands",
]

MEGA_REASON = "a mega-command: forwards an arbitrary command line (docs/contract.md §13)"


def _table(name: str) -> Table:
    return load("commands")[name]


@lru_cache(maxsize=None)
def _labels(name: str) -> dict[str, str]:
    return {entry.name.lower(): entry.value for entry in _table(name)}


@lru_cache(maxsize=None)
def _names(name: str) -> frozenset[str]:
    return frozenset(entry.name.lower() for entry in _table(name))


def not_command_reason(word: str) -> str | None:
    """Why a subcommand named ``word`` describes the tool instead of doing something, or None."""
    return _labels("not_commands").get(word.lower())


def about_its_work(word: str, summary: str) -> bool:
    """Whether ``word``, which names a command describing the tool elsewhere (``version``), names
    here one about what the tool works on: its summary says so ("View or set a project's
    version"), by the pattern ``not_commands_when_about_the_tool`` holds for the word."""
    entry = _table("not_commands_when_about_the_tool").get(word.lower())
    return entry is not None and bool(re.search(entry.value, summary or "", re.IGNORECASE))


def is_not_command(word: str) -> bool:
    return not_command_reason(word) is not None


def never_reason(word: str, *, family: bool = False) -> str | None:
    """Why a command with ``word`` in its path is never proposed (not a command, interactive, ...), or
    None. ``family``: the word stands before the command's own (``server`` in ``server list``), where
    one naming a resource (``family_resources``) keeps nothing out."""
    key = word.lower()
    if family and key in _names("family_resources"):
        return None
    found = _labels("not_commands").get(key) or _labels("never_proposed").get(key)
    if found or ":" not in key:
        return found
    # a topic's command named by its whole path ("auth:login", "plugins:install"): its last word
    last = key.rsplit(":", 1)[1]
    return never_reason(last) if last else None


def is_mega_command(word: str) -> bool:
    """Whether a command named ``word`` (a path word, or the last part of a verb name: pass ``run`` for
    ``container.run``) forwards an arbitrary command line."""
    return word.lower() in _names("mega_names")


def speaks_of_running(summary: str) -> bool:
    """Whether a command's summary holds a word of running something (``running_words``: "Create
    and run a new container", "Execute a command in a container")."""
    return any(word in _names("running_words") for word in re.findall(r"[a-z]+", summary.lower()))


def is_mega_arg(name: str) -> bool:
    """Whether an argument named ``name`` conventionally holds a forwarded command line (argv, cmd, rest)."""
    return name.lower() in _names("mega_args")


@lru_cache(maxsize=None)
def mega_positional() -> re.Pattern[str]:
    """A positional's spelling that holds a forwarded command line: ``<command>``, ``[ARGS...]``."""
    words = sorted(_names("mega_args"), key=lambda w: (-len(w), w))
    return re.compile(r"^\W*(?:%s)\b" % "|".join(map(re.escape, words)), re.IGNORECASE)


@lru_cache(maxsize=None)
def _forwarding_name() -> re.Pattern[str]:
    words = sorted(_names("mega_args") | _names("forwarding_operands"), key=lambda w: (-len(w), w))
    return re.compile(r"(?:^|_)(?:%s)(?:s|_|$)" % "|".join(map(re.escape, words)))


def forwarding_operand(arg_name: str) -> bool:
    """An operand's arg name (``command``, ``x_args``, ``expression``) that hands the tool a command line
    or a program of its own: left out of a proposal's args."""
    return _forwarding_name().search(arg_name) is not None


_COMMAND_ARG_USAGE = re.compile(
    r"\bCOMMAND \[ARG"
)  # "nohup COMMAND [ARG]...": the usage of a launcher


@lru_cache(maxsize=None)
def _after_double_dash() -> re.Pattern[str]:
    """A literal ``--`` and then an operand named like a forwarded command line: npm's ``explore <pkg>
    [ -- <command>]`` (a command for the shell it spawns), ``restart [-- <args>]`` (arguments for a
    package script, which ``forwards_command_line`` lets pass as optional). Not git's ``[--]
    <path>...``: a path list is no command line. Group 1 is the operand's name."""
    words = sorted(_names("mega_args"), key=lambda w: (-len(w), w))
    return re.compile(
        r"(?:^|[\s\[(])--\s+[\[<(]*(%s)\b" % "|".join(map(re.escape, words)), re.IGNORECASE
    )


def forwards_command_line(command) -> bool:
    """Whether a discovered command forwards a command line: a variadic operand named like one, a
    usage line of the form ``COMMAND [ARG]...``, or one that hands what follows a ``--`` on as a
    command or its arguments. An optional list of arguments for the tool's own program (``cargo
    test [TESTNAME] [-- [ARGS]...]``, a package script's ``[-- <args>]``) is none: the command runs
    without it, and a proposal leaves such an operand out. (Its name is ``is_mega_command``'s
    question.)"""
    pattern = mega_positional()
    if any(
        p.variadic and pattern.match(p.name) and not _arguments_only(p.name, p.required is False)
        for p in command.positionals
    ):
        return True
    if any(
        p.variadic and {"command", "cmd"} & set(re.split(r"[-_ ]", p.name.strip("<>[]. ").lower()))
        for p in command.positionals
    ):
        return True  # "git-command-args...": a command line for another program
    return any(
        _COMMAND_ARG_USAGE.search(line) or _forwards_after_double_dash(line)
        for line in command.usage
    )


def _arguments_only(name: str, optional: bool) -> bool:
    """An optional operand named for arguments (``[ARGS]``), not for a program (``<command>``)."""
    word = re.split(r"[-_ .]", name.strip("<>[]. ").lower())[0]
    return optional and word not in _names("program_args")


def _depth(text: str) -> int:
    """How many brackets are open at the end of ``text``: above 0, what follows is optional."""
    return text.count("[") - text.count("]")


def _forwards_after_double_dash(line: str) -> bool:
    return any(
        not _arguments_only(match.group(1), _depth(line[: match.start()] + match.group(0)[:1]) > 0)
        for match in _after_double_dash().finditer(line)
    )


@lru_cache(maxsize=None)
def _forwarded_placeholder() -> re.Pattern[str]:
    """A usage line's placeholder named like a forwarded command line (``<args>...``, ``[ARGS]...``,
    ``ARGS...``, ``[COMMAND]``; a bare one only in capitals, so ``[command options]`` is none): its
    word is group ``angle``, ``square`` or ``bare``."""
    words = sorted(_names("mega_args"), key=lambda w: (-len(w), w))
    alt = "|".join(map(re.escape, words))
    dots = r"(?:\.\.\.|…)?"
    return re.compile(
        rf"(?<![\w-])(?:(?i:<(?P<angle>{alt})s?{dots}>|\[(?P<square>{alt})s?{dots}\])"
        rf"|(?P<bare>{alt.upper()})S?\b)"
    )


def runs_what_its_grammar_names(word: str, command) -> bool:
    """Whether a command named ``word`` (``run``), which some tools give a command that runs a given
    command line, is here one that runs what the tool defines: its usage is known, names no program
    to run and forwards no required list (``cargo run [ARGS]...``, ``pre-commit run [hook]``, not
    ``docker run IMAGE [COMMAND] [ARG...]``, ``uv run [COMMAND]`` or ``poetry run <args>...``)."""
    if word.lower() not in _names("mega_names_by_grammar") or not command.usage:
        return False
    if forwards_command_line(command):
        return False
    programs = _names("program_args")
    for line in command.usage:
        for match in _forwarded_placeholder().finditer(line):
            name = next(g for g in match.group("angle", "square", "bare") if g).lower()
            optional = match.group("square") is not None or _depth(line[: match.start()]) > 0
            if name in programs or not optional:
                return False
    return True


def is_not_operand(word: str) -> bool:
    """A word a usage line shows where operands go that is no operand (``[global options]``), or a
    placeholder named for a kind of options (git blame's ``[<rev-opts>]``, ``[<common-diff-options>]``)."""
    low = word.strip("<>[]. ").lower()
    return low in _names("not_operands") or re.split(r"[-_ ]", low)[-1] in _OPTION_KINDS


# the last word of a placeholder for options of a kind ("{q-opt}", "{global-d-opt}": a resolver's
# query options, listed in its help as options, not operands)
_OPTION_KINDS = frozenset({"options", "opts", "opt"})


def is_revision_operand(name: str) -> bool:
    """An operand (or arg) name that holds revisions or objects: ``<object>``, ``commits``,
    ``revision_range``, ``tree-ish``. Such an operand stands before a ``--``."""
    names = _names("revision_operands")
    for part in name.split("|"):
        word = re.sub(r"[<>\[\].]", "", part).strip().lower().replace("_", "-")
        if word in names or (word.endswith("s") and word[:-1] in names):
            return True
    return False


def options_after_operands(command) -> frozenset[str] | None:
    """The flag spellings that stand before the operands, when ``command``'s usage ends with an operand
    that stands for options written after the operands (``find [-H] [-L] [path...] [expression]``:
    ``{-H, -L}``), else None. Every other flag of such a command follows its operands."""
    names = _names("options_after_operands")
    for line in command.usage:
        for match in re.finditer(r"\[<?([A-Za-z][\w-]*)>?\]\s*$", line.strip()):
            if match.group(1).lower() not in names:
                continue
            head = line.strip()[: match.start()]
            if not any(
                p.name.strip("<>[]. ").lower() not in names
                and re.search(rf"(?<![\w-]){re.escape(p.name.strip('<>[]. '))}(?![\w-])", head)
                for p in command.positionals
            ):
                continue  # no operand before it: an ordinary trailing operand
            return frozenset(
                sp
                for f in (*command.flags, *command.global_flags)
                for sp in f.spellings
                if re.search(rf"\[{re.escape(sp)}(?![\w-])|\[{re.escape(sp)}[a-z]", head)
            )
    return None


def not_operands() -> frozenset[str]:
    """Every such word, lower-cased."""
    return _names("not_operands")


def is_family_listing(word: str) -> bool:
    """A family's listing command (``list``, ``ls``): how a person finds the items the family's
    other commands take."""
    return word.lower() in _names("family_listings")


def is_setup_family(word: str) -> bool:
    """A family that sets the tool up (auth, config, plugin) rather than uses it."""
    return word.lower() in _names("setup_families")


@lru_cache(maxsize=None)
def _weights(name: str) -> dict[str, float]:
    return {entry.name: float(entry.value) for entry in _table(name)}


def common_weight(name: str, effect: str) -> float:
    """The rank bonus of a command people use most, for its effect (0.0 for any other)."""
    return _weights("common_reads" if effect == "read" else "common_writes").get(name, 0.0)
