"""Phrases in help text that mark a command or a flag, as data: ``data/phrases.json``.

Each table is a list of regular expressions with a reason (and, for some, a value), searched
case-insensitively in file order. The patterns that parse a sentence's structure (the leading
verbs of a summary, a title's clause, fd's list of kinds) stay beside the code that reads their
groups; what lives here is the vocabulary: which words mean interactive, deprecated, dangerous.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wrapgen.knowledge.table import Knowledge, KnowledgeError, load

__all__ = [
    "summary_out",
    "description_out",
    "group_weights",
    "summary_weights",
    "noise_help_words",
    "retired_words",
    "danger_words",
    "compiled",
    "preview_words",
    "bare_job_patterns",
    "in_place_words",
    "answer_switch_words",
    "about_the_tool",
]


def compiled(data: Knowledge, table: str) -> tuple[tuple[re.Pattern[str], object], ...]:
    """(pattern, value) for each entry of ``table``; an entry that is no regular expression is an error."""
    out = []
    for entry in data[table]:
        try:
            out.append((re.compile(entry.name, re.IGNORECASE), entry.value))
        except re.error as error:
            raise KnowledgeError(
                f"{data.source}: {table}: {entry.name!r} is not a regular expression: {error}"
            ) from None
    return tuple(out)


@lru_cache(maxsize=None)
def summary_out() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, reason shown) for summaries that keep a command out (deprecated, interactive ...)."""
    return compiled(load("phrases"), "summary_out")


@lru_cache(maxsize=None)
def description_out() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, reason shown) for descriptions that keep a command out (a local server)."""
    return compiled(load("phrases"), "description_out")


@lru_cache(maxsize=None)
def group_weights() -> tuple[tuple[re.Pattern[str], float], ...]:
    """(pattern, weight) for the help's group headings, first match wins."""
    return tuple((p, float(w)) for p, w in compiled(load("phrases"), "group_weights"))


@lru_cache(maxsize=None)
def summary_weights() -> tuple[tuple[re.Pattern[str], float], ...]:
    """(pattern, weight) for the marks of a command's standing in its own summary, first match wins."""
    return tuple((p, float(w)) for p, w in compiled(load("phrases"), "summary_weights"))


def _alternation(table: str | tuple[str, ...], template: str, flags: int) -> re.Pattern[str]:
    """One pattern of every alternative of ``table`` (or of each of several tables, in order)."""
    tables = (table,) if isinstance(table, str) else table
    for name in tables:
        compiled(load("phrases"), name)  # each alternative is checked on its own first
    names = [e.name for name in tables for e in load("phrases")[name]]
    return re.compile(template % "|".join(names), flags)


@lru_cache(maxsize=None)
def noise_help_words() -> re.Pattern[str]:
    """Words in a flag's help that mark it as interactive or presentation only."""
    return _alternation("noise_help_words", r"\b(?:%s)\b", re.IGNORECASE)


@lru_cache(maxsize=None)
def retired_words() -> re.Pattern[str]:
    """Words in a flag's help that say it is retired: deprecated, obsolete, 'Do not use'."""
    return _alternation("retired_flags", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def danger_words() -> re.Pattern[str]:
    """Words in a flag's help that mark it as dangerous in any tool."""
    return _alternation("danger_words", r"%s", re.IGNORECASE)


@lru_cache(maxsize=None)
def preview_words() -> re.Pattern[str]:
    """Words in a switch's help that say it only shows what a write would change (``--check``,
    ``--diff``), a dry run's among them (``dry_run_words``)."""
    return _alternation(("preview_flags", "dry_run_flags"), r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def dry_run_words() -> re.Pattern[str]:
    """Words in a switch's help that say it only shows what the command would do (``make -n``)."""
    return _alternation("dry_run_flags", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def in_place_words() -> re.Pattern[str]:
    """Words in a switch's help that say it rewrites the input files where they are (``sed -i``)."""
    return _alternation("in_place_flags", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def answer_switch_words() -> re.Pattern[str]:
    """Words in a quiet-named switch's help that say it changes the answer (``sed -n``), not the diagnostics."""
    return _alternation("answer_switches", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def other_output_format_words() -> re.Pattern[str]:
    """Words in a flag's help that say it prints another format than JSON (YAML, CSV, a table)."""
    return _alternation("other_output_formats", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def operand_from_file_words() -> re.Pattern[str]:
    """Words in a flag's help that say it reads from a file what an operand gives otherwise."""
    return _alternation("operand_from_file", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def json_output_switch_words() -> re.Pattern[str]:
    """The help of a switch that makes the command print JSON, opening with the verb."""
    return _alternation("json_output_switches", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def input_json_words() -> re.Pattern[str]:
    """Words in a ``--json`` flag's help that say it is about the data sent or read, not printed."""
    return _alternation("input_json_words", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def bare_job_patterns() -> tuple[re.Pattern[str], ...]:
    """Patterns over a tool's summary whose group ``verb`` names the job it does when run bare."""
    return tuple(p for p, _ in compiled(load("phrases"), "bare_job"))


@lru_cache(maxsize=None)
def mode_switch_words() -> re.Pattern[str]:
    """How a switch's help opens when the switch is a mode of its own (prints something else)."""
    return _alternation("mode_switches", r"^\s*(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def strong_mode_words() -> re.Pattern[str]:
    """Words in a switch's help that make it clearly a mode, not an output tweak."""
    return _alternation("strong_mode_words", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def form_switch_words() -> re.Pattern[str]:
    """How the help of a switch that changes what the tool's answer shows opens (``output ...``)."""
    return _alternation("form_switches", r"^\s*(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def io_mode_words() -> re.Pattern[str]:
    """How a filter's input/output switch's help opens (raw output, slurped input, null input)."""
    return _alternation("io_mode_switches", r"^\s*(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def value_mode_words(role: str) -> re.Pattern[str]:
    """How the help (or long name) of a value flag that is a mode of ``role`` reads
    (``kind_filter``, ``recent``, ``recent_name``, ``send``, ``save``, ``raw``)."""
    patterns = [p.pattern for p, value in compiled(load("phrases"), "value_modes") if value == role]
    if not patterns:
        raise KeyError(f"phrases.json: value_modes has no entry for {role!r}")
    flags = 0 if role == "send" else re.IGNORECASE  # the method in capitals
    return re.compile("|".join(f"(?:{p})" for p in patterns), flags)


@lru_cache(maxsize=None)
def code_operand_names() -> re.Pattern[str]:
    """An operand name that hands the tool code of its own language (``SQL``, ``program``)."""
    return _alternation("code_operands", r"^(?:%s)$", re.IGNORECASE)


@lru_cache(maxsize=None)
def escape_guard_words() -> re.Pattern[str]:
    """The help of a switch that keeps a tool's statements from reaching outside ("enable safe-mode")."""
    return _alternation("escape_guards", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def not_a_version() -> re.Pattern[str]:
    """A --version line that is the tool refusing the flag ("option -- unrecognized"), not a version."""
    return _alternation("not_a_version", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def program_sandbox_words() -> re.Pattern[str]:
    """The help of a switch that confines the program a tool runs for its caller to reading and
    printing (``--sandbox``: no system(), no output redirection, no extensions)."""
    return _alternation("program_sandbox", r"(?:%s)", re.IGNORECASE)


@lru_cache(maxsize=None)
def not_a_description() -> tuple[re.Pattern[str], ...]:
    """Sentences of a tool's help that say nothing of what it is for (about the help, a heading, a banner)."""
    return tuple(pattern for pattern, _ in compiled(load("phrases"), "not_a_description"))


@lru_cache(maxsize=None)
def about_the_tool(tool: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, reason shown) for summaries that describe ``tool`` itself ("information about Composer")."""
    if not tool:
        return ()
    return tuple(
        (re.compile(pattern.pattern.replace("{tool}", re.escape(tool)), re.IGNORECASE), why)
        for pattern, why in compiled(load("phrases"), "about_the_tool")
    )
