"""Facts about specific tools and help styles, keyed by the tool's base name: data, not ``if tool ==``.

Data: ``data/tools.json``. Each fact is one the help text does not settle:

* ``accepts_equals(tool, style)``: whether ``--flag=value`` is safe to write. getopt_long and the
  parser libraries of most help styles split it; curl's own parser does not, and its help looks
  like any getopt tool's (``--max-time <seconds>``), so reading the help cannot tell.
* ``operands_before_dash_dash(tool)``: jq 1.6 reads ``jq -- .`` as the filter ``--``; 1.7 does
  not. The help does not say which; asking the tool would mean running a filter during discovery.
* ``supports_end_of_options(tool, spellings, path)``: git takes ``--end-of-options`` (since 2.24), which
  its per-command help never lists; a command whose flags list it says so itself.
* ``revisions_before_dash_dash(tool)``: git's ``[<revision>...] [--] [<path>...]`` grammar.
"""

from __future__ import annotations

from functools import lru_cache

from wrapgen.knowledge.table import load

__all__ = [
    "base_name",
    "accepts_equals",
    "operands_before_dash_dash",
    "UNKNOWN_STYLE",
    "supports_end_of_options",
    "revisions_before_dash_dash",
    "END_OF_OPTIONS",
    "pages_repeat_root_options",
    "probe_settings",
]

END_OF_OPTIONS = "--end-of-options"

UNKNOWN_STYLE = "unknown"  # the data's name for a help whose style was not detected ("")


@lru_cache(maxsize=None)
def _probe_settings() -> tuple[tuple[str, str], ...]:
    return tuple((name, str(value)) for name, value in load("tools")["probe_env"].values().items())


def probe_settings() -> dict[str, str]:
    """The variables particular tools read that every help probe sets (table ``probe_env``): each
    makes its tool print help and nothing else (no pager, no prompt, no sleep, no update check)."""
    return dict(_probe_settings())


def base_name(tool: str) -> str:
    """``/usr/bin/curl`` -> ``curl``: the key of every per-tool fact."""
    return tool.rsplit("/", 1)[-1]


@lru_cache(maxsize=None)
def _names(table: str) -> frozenset[str]:
    return load("tools")[table].names


def accepts_equals(tool: str, *, style: str) -> bool:
    """Whether ``--flag=value`` reaches ``tool`` (of help ``style``) as a flag and its value."""
    return (style or UNKNOWN_STYLE) in _names("styles_with_equals") and base_name(
        tool
    ) not in _names("no_equals")


def operands_before_dash_dash(tool: str) -> int | None:
    """How many operands must stand before a ``--`` for ``tool``, when the tool is known to need it."""
    entry = load("tools")["dash_dash_after"].get(base_name(tool))
    return None if entry is None else int(entry.value)


def supports_end_of_options(tool: str, spellings=(), path=()) -> bool:
    """Whether ``tool`` (its command ``path``) takes ``--end-of-options``: the command's help lists it
    (``spellings``: its flag spellings), or the tool is known to (``tools.json`` ``end_of_options``)
    and the command is not known to refuse it (``end_of_options_refused``)."""
    if END_OF_OPTIONS in set(spellings):
        return True
    name = base_name(tool)
    return name in _names("end_of_options") and " ".join((name, *path)) not in _names(
        "end_of_options_refused"
    )


def revisions_before_dash_dash(tool: str) -> bool:
    """Whether ``tool`` reads operands after ``--`` as paths and the ones before it as revisions."""
    return base_name(tool) in _names("revisions_before_dash_dash")


def global_flags_follow(style: str) -> bool:
    """Whether a help style's inherited (global) flags may stand after the command (cobra's persistent flags)."""
    return style in _names("styles_global_flags_follow")


def pages_repeat_root_options(style: str) -> bool:
    """Whether a help style prints the application's options again on every command's page (yarn v1)."""
    return style in _names("styles_pages_repeat_root_options")
