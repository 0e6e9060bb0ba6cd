"""What an option's description says about it: choices, default, repeatable, aliases, state.

Help texts put facts about a flag in its prose: ``[possible values: a, b]``,
``(default "open")``, ``can be used multiple times``, ``DEPRECATED``, yargs's
``[number]``. ``read_description`` collects them; ``guess_type`` turns a value
name into a type guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DescriptionFacts", "read_description", "guess_type", "split_choices", "strip_quotes"]

_DEFAULT = re.compile(
    r"""
    \[default:\s*(?P<a>[^\]]*)\]            # clap, click, docopt: [default: auto]
  | \(default:\s*(?P<b>[^()]*?)\)           # argparse, git: (default: 8000), (Default: all)
  | \(default\s+"(?P<c>[^"]*)"\)            # cobra: (default "open")
  | \(default\s+(?P<d>[^\s()"]+)\)          # cobra: (default 30), (default -1)
    """,
    re.VERBOSE | re.IGNORECASE,
)
_CHOICES = re.compile(
    r"""
    \[possible\ values:\s*(?P<a>[^\]]*)\]             # clap
  | \{(?P<b>[\w.+-]+(?:\|[\w.+-]+)+)\}                # gh: {open|closed|merged|all}
  | \bone\ of:?\s*\((?P<c>[^()]*)\)                   # kubectl: One of: (json, yaml, ...)
  | \bone\ of:\s*(?P<d>[^.;()\[\]]+)                  # "one of: a, b, c."
  | \[(?:choices|values):\s*(?P<e>[^\]]*)\]           # click-like annotations
  | \((?P<f>"[^"]+"(?:,\s*"[^"]+")+)\)                # docker: ("debug", "info", "warn")
  | \bone\ of\s+(?P<g>[\w.+-]+(?:\|[\w.+-]+)+)        # pytest: "one of fd|sys|no|tee-sys"
  | \((?P<h>[\w.+-]+(?:/[\w.+-]+){2,})\)              # pytest: "(auto/long/short/line/native/no)"
    """,
    re.VERBOSE | re.IGNORECASE,
)
_REPEATABLE = re.compile(
    r"""
    (?:can|may)\s+be\s+
    (?: repeated                                         # "may be repeated"
      | (?:specified|used|given|passed|provided|supplied)\s+
        (?:multiple|several|many|more\s+than\s+once|up\s+to\s+\d+)  # "can be used multiple times"
    )
  | \bis\s+additive\b                                    # pip: "Option is additive"
  | \b(?:specify|use|given|repeat)\s+(?:it\s+)?(?:twice|multiple\s+times|several\s+times)\b
                                                         # xz: "specify twice", python3: "when given twice"
  | \(repeatable\)
    """,
    re.VERBOSE | re.IGNORECASE,
)
_DEPRECATED = re.compile(
    r"""
    ^\W*deprecated\b          # "DEPRECATED. Use --engine instead."
  | [(\[]deprecated[)\]:]     # "(deprecated)", "[deprecated]"
  | \bdeprecated:             # "Deprecated: use --x"
    """,
    re.VERBOSE | re.IGNORECASE,
)
# "This flag can be disabled with --no-hidden.", "The flag can be overridden with --ignore."
_COMPANION = re.compile(
    r"""
    \b(?:disabled|overridden|negated|reversed|turned\ off)  # what the other flag does to this one
    \s+(?:with|by)\s+(?:the\s+)?[`'"]?                     # "with the '--x' flag"
    (?P<spell>--[A-Za-z0-9][\w-]*[A-Za-z0-9])              # the other spelling
  | \bdisable\b[^.]{0,80}?\buse\s+(?:the\s+)?[`'"]?       # rg: "To completely disable context
    (?P<use>--[A-Za-z0-9][\w-]*[A-Za-z0-9])                #  separators, use the --no-context-separator flag"
  | \buse\s+[`'"]?(?P<use_to>--[A-Za-z0-9][\w-]*[A-Za-z0-9])  # ruff: "Use `--no-fix` to disable"
    [`'"]?\s+to\s+(?:disable|turn\s+(?:it\s+)?off)\b
  | (?P<will>--[A-Za-z0-9][\w-]*[A-Za-z0-9])[`'"]?\s+flag\s+will\s+disable\b  # rg: "the '--no-pre' flag will disable"
  | \buse\s+the\s+[`'"]?(?P<mention>--[A-Za-z0-9][\w-]*[A-Za-z0-9])[`'"]?\s+flag\b  # rg: "use the --trace flag"
  | (?P<alias>--[A-Za-z0-9][\w-]*[A-Za-z0-9])              # rg: "--pcre2-unicode is an alias for --unicode"
    [`'"]?\s+is\s+an\s+alias\s+(?:for|of)\b
    """,
    re.VERBOSE | re.IGNORECASE,
)
# fd: "'--change-newer-than', '--newer', or '--changed-after' can be used as aliases."
_ALIAS_LIST = re.compile(
    r"""
    (?P<list>(?:[`'"]?--[\w-]+[`'"]?,?\s+(?:or\s+)?)+)   # quoted spellings, comma / "or" separated
    can\s+be\s+used\s+as\s+(?:an\s+)?alias(?:es)?       # what the sentence says about them
  | \[(?:short\ )?aliases?:\s*(?P<clap>[^\]]*)\]       # clap: [aliases: newer, changed-after]
    """,
    re.VERBOSE | re.IGNORECASE,
)
_YARGS_TYPE = re.compile(r"\[(boolean|number|string|array|count)\](?=\s*(?:\[|$))")
_HIDDEN = re.compile(r"[(\[]hidden[)\]]", re.IGNORECASE)
_REQUIRED = re.compile(
    r"""
    [(\[]required[)\]]     # click: "[required]", "(required)"
  | ^required[.:]         # "Required. The name of ..."
  | (?<=[.;])\s+required\.?\s*$   # kubectl scale: "The new desired number of replicas. Required."
    """,
    re.VERBOSE | re.IGNORECASE,
)

_INT_NAMES = {
    "n",
    "num",
    "number",
    "count",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "integer",
    "lines",
    "depth",
    "limit",
    "port",
    "jobs",
    "level",
    "max",
    "min",
    "seconds",
    "secs",
    "ms",
    "millis",
    "bytes-count",
    "columns",
    "cols",
    "width",
    "integer range",
    "number of seconds",
    "size_in_bytes",
    "retries",
    "times",
    "threads",
}
_NUMBER_NAMES = {
    "float",
    "float32",
    "float64",
    "double",
    "fractional seconds",
    "decimal",
    "ratio",
    "float range",
}
_BOOL_NAMES = {"bool", "boolean"}
_PATH_NAMES = {
    "file",
    "path",
    "dir",
    "directory",
    "filename",
    "file name",
    "files",
    "paths",
    "dirs",
    "folder",
    "filepath",
    "file path",
    "dirname",
    "pathspec",
}

_COUNT_NAME = re.compile(r"(?:num|max|min)_?\w*|\w*_(?:num|count|n)")  # "max_depth", "retry_count"
_NAME_WORDS = re.compile(r"[\s_/|]+")
_PATH_END = re.compile(r"(?:file|path|dir)$")
_CHOICE_SEPARATOR = re.compile(r"[,|]|(?<![\w-])or(?![\w-])")
_CHOICE_ITEM = re.compile(r"[\w.+:/-]+")


@dataclass(frozen=True)
class DescriptionFacts:
    """The facts found in one option's description."""

    takes_value: bool = False  # as given, or forced by a yargs type tag or choice list
    type_hint: str | None = None
    choices: tuple[str, ...] = ()
    default: str | None = None
    repeatable: bool = False
    aliases: tuple[str, ...] = ()
    required: bool = False
    deprecated: bool = False
    hidden: bool = False


_LONG_SPELLING = re.compile(r"--[\w-]+")
_ALIAS_SEPARATOR = re.compile(r"[,\s]+")


def guess_type(value_name: str | None, choices: tuple[str, ...] = ()) -> str:
    """The type a value name suggests: N -> integer, FILE -> path, {a,b} -> enum."""
    if choices:
        return "enum"
    if not value_name or "|" in value_name:
        return "string"  # "KEY=VALUE|PATH": one of several shapes, so no narrower guess
    name = value_name.strip("<>[]=(){}. ").lower().replace("-", "_")
    spaced = name.replace("_", " ")
    if name in _INT_NAMES or spaced in _INT_NAMES or _COUNT_NAME.fullmatch(name):
        return "integer"
    if name in _NUMBER_NAMES or spaced in _NUMBER_NAMES:
        return "number"
    if name in _BOOL_NAMES:
        return "boolean"
    if ":" in name:
        return "string"  # "range:file", "user:password": structured, not a path
    last = _NAME_WORDS.split(spaced)[-1] if spaced else ""
    if (
        name in _PATH_NAMES
        or spaced in _PATH_NAMES
        or last in _PATH_NAMES
        or _PATH_END.search(name)
    ):
        return "path"
    return "string"


def split_choices(text: str) -> tuple[str, ...]:
    """Words of a choice list ("a, b", "a|b", '"a", "b"'); () when any item is not one word."""
    parts = [p.strip().strip("\"'`") for p in _CHOICE_SEPARATOR.split(text)]
    parts = [p for p in parts if p]
    if len(parts) < 2 or any(not _CHOICE_ITEM.fullmatch(p) for p in parts):
        return ()
    return tuple(dict.fromkeys(parts))


def _listed_values(lines: list[str]) -> tuple[str, ...]:
    """clap's long help: "Possible values:" then one "- name: what it does" line each."""
    out: list[str] = []
    inside = False
    for line in lines:
        if re.match(r"^possible values:$", line, re.IGNORECASE):
            inside = True
            continue
        if inside:
            match = re.match(r"^[-*]\s+([\w.+-]+)(?::|\s{2,}|$)", line)
            if not match:
                break
            out.append(match[1])
    return tuple(out) if len(out) >= 2 else ()


# One value a line, an optional bracketed shortcut first ("[j]son": json, "[ju]nit": junit), an
# optional "(default)" after: a Ruby linter's formatter list under its --format
_VALUE_LINE = re.compile(
    r"^(?:\[(?P<short>[a-z][\w-]*)\])?(?P<rest>[a-z][\w+-]*)(?P<default>\s+\(default\))?$"
)


def _values_one_per_line(lines: list[str]) -> tuple[tuple[str, ...], str | None]:
    """The longest run of three or more description lines that each hold one value, and the one
    marked "(default)"; ((), None) where there is none."""
    best: list[str] = []
    best_default: str | None = None
    run: list[str] = []
    default: str | None = None
    for line in [*lines, ""]:
        match = _VALUE_LINE.match(line.strip())
        if match:
            value = (match["short"] or "") + match["rest"]
            run.append(value)
            default = value if match["default"] else default
            continue
        if len(run) > len(best):
            best, best_default = run, default
        run, default = [], None
    return (tuple(best), best_default) if len(best) >= 3 else ((), None)


def strip_quotes(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def read_description(full: str, desc_lines: list[str], *, takes_value: bool) -> DescriptionFacts:
    """The facts of a description (``full`` is its lines joined with spaces)."""
    type_hint: str | None = None
    repeatable = False
    choices: tuple[str, ...] = ()
    default: str | None = None
    others: list[str] = []
    # yargs prints no value name but a type tag: "-p, --port  port to bind  [number] [default: 5000]"
    tag = _YARGS_TYPE.search(full) if "]" in full else None
    if not takes_value and "[choices:" in full:
        takes_value = True  # yargs: a choice list means a value
    if tag and not takes_value:
        kind_tag = tag[1].lower()
        if kind_tag == "count":
            repeatable = True
        elif kind_tag != "boolean":
            takes_value = True
            type_hint = {"number": "number", "array": "string", "string": "string"}[kind_tag]
            repeatable = repeatable or kind_tag == "array"
    # Cheap substring tests first: the regexes below cost real time on rg's long descriptions.
    low = full.lower()
    if not choices and "possible values:" in low:
        choices = _listed_values(desc_lines)
    if not choices and takes_value and len(desc_lines) >= 3:
        choices, listed_default = _values_one_per_line(desc_lines)
        default = listed_default or default
    if not choices and (
        "/" in low
        or "{" in low
        or "one of" in low
        or "choices" in low
        or "values:" in low
        or '("' in low
        or "possible values" in low
    ):
        match = _CHOICES.search(full)
        if match:
            said = next(g for g in match.groups() if g is not None)
            choices = split_choices(said.replace("/", ",") if match["h"] else said)
    if default is None and takes_value and "default" in low:
        match = _DEFAULT.search(full)
        said = strip_quotes(next(g for g in match.groups() if g is not None)) if match else ""
        # "(default: number of available CPU cores)", gh's "(default: current branch)" are prose, not a
        # value to pass: an unquoted default is one word; only cobra's quoted "(default "a b")" holds spaces
        quoted = bool(match and match["c"] is not None)
        default = said if said and (quoted or len(said.split()) == 1) else None
    if (
        " be " in low
        or " times" in low
        or "twice" in low
        or "additive" in low
        or "repeatable" in low
    ) and _REPEATABLE.search(full):
        repeatable = True
    if "alias" in low:
        for match in _ALIAS_LIST.finditer(full):
            if match["list"]:
                others.extend(_LONG_SPELLING.findall(match["list"]))
            else:
                for name in _ALIAS_SEPARATOR.split(match["clap"]):
                    name = name.strip()
                    if name:
                        others.append(
                            name
                            if name.startswith("-")
                            else ("--" if len(name) > 1 else "-") + name
                        )
    required = "required" in low and bool(_REQUIRED.search(full))
    deprecated = "deprecated" in low and bool(_DEPRECATED.search(full))
    hidden = "hidden" in low and bool(_HIDDEN.search(full))
    if not (
        type_hint
        or choices
        or default is not None
        or repeatable
        or others
        or required
        or deprecated
        or hidden
    ):
        return _NO_FACTS[takes_value]  # (most descriptions say nothing of these)
    return DescriptionFacts(
        takes_value=takes_value,
        type_hint=type_hint,
        choices=choices,
        default=default,
        repeatable=repeatable,
        aliases=tuple(others),
        required=required,
        deprecated=deprecated,
        hidden=hidden,
    )


# The facts of a description that states none, by takes_value: shared, as facts are immutable.
_NO_FACTS = {False: DescriptionFacts(takes_value=False), True: DescriptionFacts(takes_value=True)}
