"""Load and validate one knowledge data file (``wrapgen/knowledge/data/<name>.json``).

The format is described in ``wrapgen/knowledge/__init__.py``. ``load(name)`` reads a file once
(``lru_cache``) and validates it; ``parse(data, source=...)`` validates an already-decoded file,
which is what the tests feed bad tables to. Every problem is a ``KnowledgeError`` naming the
file, the table and the entry: a knowledge file that breaks its own rules is a bug in wrapgen, so
it stops the program instead of being silently half-used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator, Mapping

__all__ = [
    "Entry",
    "Table",
    "Knowledge",
    "KnowledgeError",
    "load",
    "parse",
    "decode",
    "regex_names",
]

_FILE_KEYS = {"about", "tables", "exclusive"}
_TABLE_KEYS = {"about", "groups", "keyed_by_tool"}
_GROUP_KEYS = {"why", "names", "values", "value", "tool"}


class KnowledgeError(ValueError):
    """A knowledge data file is malformed, repeats an entry or contradicts itself."""


@dataclass(frozen=True)
class Entry:
    """One fact: ``name`` (a word, flag, tool ...), the reason it is known, and an optional value."""

    table: str
    name: str
    why: str
    value: Any = None
    tool: str = ""  # for tables keyed by tool ("*" = every tool); "" otherwise
    group: int = 0  # the index of its group in the table


@dataclass(frozen=True)
class Table:
    """The entries of one table, in file order."""

    name: str
    about: str
    entries: tuple[Entry, ...]

    @property
    def names(self) -> frozenset[str]:
        return frozenset(e.name for e in self.entries)

    def get(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def __contains__(self, name: object) -> bool:
        return any(e.name == name for e in self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def values(self) -> dict[str, Any]:
        """name -> value, in file order (for tables whose entries carry one)."""
        return {e.name: e.value for e in self.entries}

    def reasons(self) -> dict[str, str]:
        """name -> why, in file order."""
        return {e.name: e.why for e in self.entries}


@dataclass(frozen=True)
class Knowledge:
    """One data file: its tables by name."""

    source: str
    about: str
    tables: Mapping[str, Table]

    def __getitem__(self, name: str) -> Table:
        try:
            return self.tables[name]
        except KeyError:
            raise KnowledgeError(
                f"{self.source}: no table {name!r} (tables: {', '.join(sorted(self.tables))})"
            ) from None


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise KnowledgeError(f"key {key!r} appears twice in one JSON object")
        out[key] = value
    return out


def decode(text: str, *, source: str) -> Any:
    """JSON text -> data; a key given twice in one object is an error (json keeps the last silently)."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except KnowledgeError as error:
        raise KnowledgeError(f"{source}: {error}") from None
    except ValueError as error:
        raise KnowledgeError(f"{source}: not valid JSON: {error}") from None


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise KnowledgeError(f"{where}: must be a non-empty string")
    return value


def _group_entries(
    table: str, group: Any, where: str, *, index: int, keyed_by_tool: bool
) -> list[Entry]:
    if not isinstance(group, dict):
        raise KnowledgeError(f"{where}: a group is an object with 'why' and 'names' or 'values'")
    unknown = set(group) - _GROUP_KEYS
    if unknown:
        raise KnowledgeError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    why = _text(group.get("why"), f"{where}.why")
    tool = ""
    if keyed_by_tool:
        tool = _text(group.get("tool"), f"{where}.tool")
    elif "tool" in group:
        raise KnowledgeError(f"{where}: 'tool' is only allowed in a table keyed_by_tool")
    if ("names" in group) == ("values" in group):
        raise KnowledgeError(
            f"{where}: give exactly one of 'names' (a list) or 'values' (name -> value)"
        )
    if "values" in group:
        if "value" in group:
            raise KnowledgeError(f"{where}: 'value' applies to 'names', not to 'values'")
        if not isinstance(group["values"], dict) or not group["values"]:
            raise KnowledgeError(f"{where}.values: must be a non-empty object")
        pairs = list(group["values"].items())
    else:
        names = group["names"]
        if not isinstance(names, list) or not names:
            raise KnowledgeError(f"{where}.names: must be a non-empty list")
        pairs = [(name, group.get("value")) for name in names]
    out = []
    for name, value in pairs:
        _text(name, f"{where}: entry {name!r}")
        out.append(Entry(table, name, why, value, tool, index))
    return out


def parse(data: Any, *, source: str) -> Knowledge:
    """Validate decoded data and build its tables; any problem raises ``KnowledgeError``.

    Checked: the shape (known keys only, a non-empty ``why`` for every group), no entry twice in a
    table (per tool for a table keyed by tool), and no name in two tables that ``exclusive`` says
    exclude each other.
    """
    if not isinstance(data, dict) or not isinstance(data.get("tables"), dict):
        raise KnowledgeError(f"{source}: a knowledge file is an object with 'about' and 'tables'")
    unknown = set(data) - _FILE_KEYS
    if unknown:
        raise KnowledgeError(f"{source}: unknown key(s) {', '.join(sorted(unknown))}")
    about = _text(data.get("about"), f"{source}: about")
    tables: dict[str, Table] = {}
    for tname, tdata in data["tables"].items():
        where = f"{source}: table {tname!r}"
        if (
            not isinstance(tdata, dict)
            or not isinstance(tdata.get("groups"), list)
            or not tdata["groups"]
        ):
            raise KnowledgeError(
                f"{where}: a table is an object with 'about' and a non-empty 'groups' list"
            )
        unknown = set(tdata) - _TABLE_KEYS
        if unknown:
            raise KnowledgeError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        keyed = tdata.get("keyed_by_tool", False)
        if not isinstance(keyed, bool):
            raise KnowledgeError(f"{where}.keyed_by_tool: must be true or false")
        entries: list[Entry] = []
        seen: dict[tuple[str, str], str] = {}
        for i, group in enumerate(tdata["groups"]):
            for entry in _group_entries(
                tname, group, f"{where} group {i}", index=i, keyed_by_tool=keyed
            ):
                key = (entry.tool, entry.name)
                if key in seen:
                    scope = f" for tool {entry.tool!r}" if keyed else ""
                    raise KnowledgeError(
                        f"{where}: duplicate entry {entry.name!r}{scope} "
                        f"(first: {seen[key]!r}; again: {entry.why!r})"
                    )
                seen[key] = entry.why
                entries.append(entry)
        tables[tname] = Table(tname, _text(tdata.get("about"), f"{where}.about"), tuple(entries))
    exclusive = data.get("exclusive", [])
    if not isinstance(exclusive, list):
        raise KnowledgeError(f"{source}: 'exclusive' is a list of lists of table names")
    for names in exclusive:
        if not isinstance(names, list) or len(names) < 2:
            raise KnowledgeError(f"{source}: each 'exclusive' item lists two or more tables")
        for name in names:
            if name not in tables:
                raise KnowledgeError(f"{source}: 'exclusive' names unknown table {name!r}")
        owner: dict[tuple[str, str], str] = {}
        for name in names:
            for entry in tables[name]:
                key = (entry.tool, entry.name)
                if key in owner:
                    raise KnowledgeError(
                        f"{source}: contradiction: {entry.name!r} is in both {owner[key]!r} "
                        f"and {name!r}, which exclude each other"
                    )
                owner[key] = name
    return Knowledge(source, about, tables)


@lru_cache(maxsize=None)
def load(name: str) -> Knowledge:
    """The validated data file ``wrapgen/knowledge/data/<name>.json``, read once."""
    source = f"wrapgen/knowledge/data/{name}.json"
    try:
        text = (
            resources.files("wrapgen.knowledge")
            .joinpath("data", f"{name}.json")
            .read_text(encoding="utf-8")
        )
    except FileNotFoundError:
        raise KnowledgeError(f"{source} does not exist") from None
    return parse(decode(text, source=source), source=source)


def regex_names(data: Knowledge, table: str) -> list[str]:
    """The names of a table whose entries are regular expressions; one that does not compile is an error."""
    import re

    names = []
    for entry in data[table]:
        try:
            re.compile(entry.name)
        except re.error as error:
            raise KnowledgeError(
                f"{data.source}: {table}: {entry.name!r} is not a regular expression: {error}"
            ) from None
        names.append(entry.name)
    return names
