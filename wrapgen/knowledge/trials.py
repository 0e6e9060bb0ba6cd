"""What a trial's output means, and the sample values a trial gives required args: ``data/trials.json``.

``wrapgen.check.trial_evidence`` asks ``phrase(table, text)`` which phrase of a table (``writes``,
``interactive``, ``unreachable``, ``context``, ``usage``) a tool's output matches, ``ignored_path``
whether a path a trial created is a cache rather than a write, ``sample_for(name, description)``
the sample value of a required string arg, and ``trial_env()`` the variables a trial's sandbox sets
(a language runtime's start-up settings, ``GOGC``). Every pattern is compiled when the table is first read;
one that is no regular expression is a ``KnowledgeError``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wrapgen.knowledge.phrases import compiled
from wrapgen.knowledge.table import load

__all__ = [
    "PHRASE_TABLES",
    "phrase",
    "ignored_path",
    "cache_markers",
    "answer_phrase",
    "sample_for",
    "fixture_kind",
    "fixture_kinds",
    "fixture_file",
    "fixture_of",
    "context_fixture",
    "streaming_flags",
    "print_once_flags",
    "format_flag_names",
    "trial_env",
]

PHRASE_TABLES = (
    "state_root",
    "writes",
    "interactive",
    "unreachable",
    "context",
    "usage",
    "crashed",
    "answer_noise",
    "sample_refused",
)


@lru_cache(maxsize=None)
def _table(name: str) -> tuple[tuple[re.Pattern[str], object], ...]:
    return tuple(
        (re.compile(p.pattern, re.IGNORECASE | re.MULTILINE), v)
        for p, v in compiled(load("trials"), name)
    )


def phrase(table: str, text: str) -> str:
    """The text the first matching phrase of ``table`` found in ``text`` (lower-cased), or ""."""
    for pattern, _value in _table(table):
        match = pattern.search(text)
        if match:
            return re.sub(r"\s+", " ", match.group(0)).strip().lower()
    return ""


def answer_phrase(text: str) -> str:
    """The meaning a status takes when a tool printed ``text`` on stdout with it: the value of the
    first ``answer_output`` entry that matches ("findings reported"), or ""."""
    return _first("answer_output", text)


def ignored_path(path: str) -> bool:
    """Whether a path a trial created (``home/.cache/x``) is a cache, not a write."""
    return any(pattern.search(path) for pattern, _ in _table("ignored_paths"))


@lru_cache(maxsize=None)
def cache_markers() -> frozenset[str]:
    """The names of files that mark the folder holding them as a cache (``CACHEDIR.TAG``)."""
    return frozenset(entry.name for entry in load("trials")["cache_markers"])


def _said(table: str, text: str) -> bool:
    return any(pattern.search(text) for pattern, _ in _table(table))


def _first(table: str, text: str) -> str:
    return next((str(value) for pattern, value in _table(table) if pattern.search(text)), "")


def fixture_kind(name: str, description: str = "", context: str = "") -> str:
    """The kind of sample file an arg takes (``sqlite``, ``json``, ``text``, ...), or "" for none.

    A kind the name or description names outright (a database, a repository, a certificate, an
    archive: ``fixture_kinds``); else, for an arg that is a file (``file_words`` in its name, or in
    the description of an arg named like a path), the format its description names, else the one
    ``context`` (its verb's and its pack's descriptions) names, else text."""
    spoken = name.replace("_", " ")
    kind = _first("fixture_kinds", spoken)
    if kind:
        return kind
    # a name that says what else it is (a revision, a pattern, a URL) takes that sample, whatever
    # its description says; one that says nothing else or names a path reads as its description does
    open_name = (not _first("samples", spoken) or _said("path_words", spoken)) and not _said(
        "file_words", spoken
    )
    kind = _first("fixture_kinds", description) if open_name else ""
    if kind:
        return kind
    if _said("dir_words", description) and not _said("file_words", spoken):
        return ""  # a path that may be a directory: the working directory (sample_for)
    if _said("file_words", spoken) or (open_name and _said("file_words", description)):
        return (
            _first("fixture_formats", description) or _first("fixture_formats", context) or "text"
        )
    return ""


def sample_for(name: str, description: str = "", context: str = "") -> str:
    """A plausible value for a required string arg, by its name (``_`` read as a word break) and
    description: a sample file's name where it reads a file (``fixture_kind``), else a value of
    ``samples`` (``HEAD``, ``.``, ``1d``, ...), else "sample"."""
    kind = fixture_kind(name, description, context)
    if kind:
        return fixture_file(kind)
    spoken = name.replace("_", " ")
    if _said("dir_words", description) and _said("path_words", spoken):
        return "."  # "File or directory paths": the working directory, with its sample files
    words = f"{name.replace('_', ' ')} {description}"
    for pattern, value in _table("samples"):
        if pattern.search(name.replace("_", " ")):
            return str(value)
    for pattern, value in _table("samples"):
        if pattern.search(words):
            return str(value)
    return "sample"


@lru_cache(maxsize=None)
def _fixture_files() -> dict[str, str]:
    return {entry.name: str(entry.value) for entry in load("trials")["fixture_files"]}


def fixture_kinds() -> frozenset[str]:
    """Every kind of sample file a trial can be given."""
    return frozenset(_fixture_files())


def fixture_file(kind: str) -> str:
    """The name of ``kind``'s sample file in a trial's working directory (``sample.json``)."""
    return _fixture_files()[kind]


def fixture_of(value: str) -> str:
    """The kind whose sample file ``value`` names, or ""."""
    return next((kind for kind, file in _fixture_files().items() if file == value), "")


def context_fixture(text: str) -> str:
    """The kind the working directory is made into for a read whose output says it needs one
    (``git`` for "not a git repository"), or ""."""
    return _first("context_fixtures", text)


@lru_cache(maxsize=None)
def streaming_flags() -> frozenset[str]:
    """Literal flags that make a read stream (``--follow``, ``-f``, ``--watch``): exact tokens."""
    return load("trials")["streaming_flags"].names


@lru_cache(maxsize=None)
def format_flag_names() -> frozenset[str]:
    """Names (no dashes) of flags that choose an output format (``format``, ``output``, ``of``)."""
    return load("trials")["format_flags"].names


@lru_cache(maxsize=None)
def print_once_flags() -> frozenset[str]:
    """Switches that make a streaming read print once and exit (``--nostream``, ``--no-stream``)."""
    return load("trials")["print_once_flags"].names


@lru_cache(maxsize=None)
def _trial_env() -> tuple[tuple[str, str], ...]:
    return tuple((name, str(value)) for name, value in load("trials")["trial_env"].values().items())


def trial_env() -> dict[str, str]:
    """The variables a trial's sandbox sets over the probe environment (the pack's ``env.set`` wins over them)."""
    return dict(_trial_env())
