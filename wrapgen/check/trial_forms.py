"""The forms of a verb's cli[] and args a trial tries besides the verb's own: pure.

A streaming read is tried without its streaming flags, or with a print-once switch turned on; a
read that exits with its usage is tried with its optional operands filled, one that failed on its
sample operands without them; a ``--`` the grammar says nothing of is tried away. Each is a
function of a verb as pack.yaml holds it (``wrapgen.check.trial_evidence.apply_evidence`` applies
the same ones once a trial showed them).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from wrapgen.knowledge.trials import fixture_kind, print_once_flags, streaming_flags

__all__ = [
    "optional_file_flags",
    "without_streaming_flags",
    "with_print_once_flags",
    "without_double_dash",
    "operands_after_double_dash",
    "optional_operands",
    "required_operands",
]


def without_streaming_flags(
    cli: Iterable[str], args: Mapping[str, Any] | None = None
) -> tuple[list[str], tuple[str, ...]]:
    """``cli`` without its literal streaming flags (``--follow``, ``-f``, ``--watch``), and the flags taken out.

    A flag is taken out only where no literal value follows it (``-f FILE`` keeps its ``-f``), and
    not where its own switch slot does (``--follow {{follow}}`` with ``follow`` a boolean of ``args``,
    the verb's args schema): that flag streams only when the caller asks, and taking it out would
    leave the slot bare.
    """
    properties = (args or {}).get("properties") or {}
    switches = {
        f"{{{{{name}}}}}"
        for name, schema in properties.items()
        if isinstance(schema, Mapping) and schema.get("type") == "boolean"
    }
    tokens = list(cli)
    out, dropped = [], []
    for i, token in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else "--"
        takes_literal = not after.startswith("-") and "{{" not in after
        if i > 0 and token in streaming_flags() and not takes_literal and after not in switches:
            dropped.append(token)
            continue
        out.append(token)
    return out, tuple(dropped)


def with_print_once_flags(
    cli: Iterable[str], args: Mapping[str, Any] | None = None
) -> tuple[list[str], dict, tuple[str, ...]]:
    """``cli`` and ``args`` with each print-once switch of the args turned on for good, and the switches.

    ``--nostream {{nostream}}`` with ``nostream`` a boolean of ``args`` becomes the literal ``--nostream``
    and ``nostream`` leaves the schema: a read that streams until stopped (pm2 logs) becomes the one
    snapshot of it an agent can use (``knowledge/data/trials.json``'s ``print_once_flags``)."""
    schema = dict(args or {})
    properties = dict(schema.get("properties") or {})
    tokens = list(cli)
    out, fixed, taken = [], [], []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        name = after[2:-2] if after.startswith("{{") and after.endswith("}}") else ""
        if (
            token in print_once_flags()
            and isinstance(properties.get(name), Mapping)
            and properties[name].get("type") == "boolean"
        ):
            out.append(token)
            fixed.append(token)
            taken.append(name)
            i += 2
            continue
        out.append(token)
        i += 1
    if not fixed:
        return list(cli), dict(args or {}), ()
    for name in taken:
        properties.pop(name, None)
    schema["properties"] = properties
    if "required" in schema:
        schema["required"] = [n for n in schema["required"] if n not in taken]
    return out, schema, tuple(fixed)


def without_double_dash(cli: Iterable[str]) -> list[str]:
    """``cli`` without its literal ``--`` (the first one: what stands after it are operands)."""
    tokens = list(cli)
    if "--" in tokens[1:]:
        del tokens[tokens.index("--", 1)]
    return tokens


def operands_after_double_dash(verb: Mapping[str, Any]) -> tuple[str, ...]:
    """The args filling the bare slots after a verb's literal ``--`` (what a ``--`` trial gives a value)."""
    cli = list(verb.get("cli") or ())
    if "--" not in cli[1:]:
        return ()
    after = cli[cli.index("--", 1) + 1 :]
    properties = (verb.get("args") or {}).get("properties") or {}
    return tuple(
        t[2:-2] for t in after if t.startswith("{{") and t.endswith("}}") and t[2:-2] in properties
    )


def _operand_slots(verb: Mapping[str, Any], *, required: bool) -> tuple[str, ...]:
    schema = verb.get("args") or {}
    properties = schema.get("properties") or {}
    asked = set(schema.get("required") or ())
    cli = list(verb.get("cli") or ())
    out = []
    for i, token in enumerate(cli):
        if not (token.startswith("{{") and token.endswith("}}")):
            continue
        name = token[2:-2]
        before = cli[i - 1] if i > 0 else ""
        after_flag = before.startswith("-") and before not in ("--", "--end-of-options")
        if (
            name in properties
            and (name in asked) == required
            and not after_flag
            and properties[name].get("type", "string") != "boolean"
            and name not in out
        ):
            out.append(name)
    return tuple(out)


def optional_file_flags(verb: Mapping[str, Any]) -> tuple[str, ...]:
    """The optional string args of a verb that are a flag's value (``--file={{file}}``, ``-f
    {{file}}``) whose name says they name a file (``fixture_kind`` of the name alone: ``file``,
    ``input``, ``archive``; an ``--exclude`` pattern described as files is none), or, for a
    one-letter name, whose description says so (``-f``: "the filename of the key file"): a read
    that fails without them may need its input there (an archiver's ``--list`` reads the archive
    from stdin without ``--file``; a key tool asks on its terminal for the key file)."""
    schema = verb.get("args") or {}
    properties = schema.get("properties") or {}
    asked = set(schema.get("required") or ())
    cli = [str(t) for t in verb.get("cli") or ()]
    out = []
    for i, token in enumerate(cli):
        joined = _JOINED.match(token)
        if joined:
            name = joined.group(2)[2:-2]
        elif token.startswith("{{") and token.endswith("}}") and i > 0:
            before = cli[i - 1]
            if not before.startswith("-") or before in ("--", "--end-of-options"):
                continue
            name = token[2:-2]
        else:
            continue
        prop = properties.get(name) or {}
        # its name says it is a file (its description, which kind); a letter's name says nothing,
        # so there its description decides ("-f: the filename of the key file")
        said = fixture_kind(name) or (
            len(name) == 1 and fixture_kind(name, prop.get("description", ""))
        )
        if (
            name not in asked
            and prop.get("type", "string") == "string"
            and said
            and name not in out
        ):
            out.append(name)
    return tuple(out)


def optional_operands(verb: Mapping[str, Any]) -> tuple[str, ...]:
    """The args of a verb (as pack.yaml holds it) that fill a bare operand slot of its ``cli[]`` and are
    not required: what a trial that ends in the tool's usage tries once more with a value (``rg``'s
    ``{{pattern}}``, optional because ``rg --files`` needs none, is what ``rg PATTERN`` cannot do without).
    A slot right after a flag is that flag's value or switch, never an operand."""
    return _operand_slots(verb, required=False)


def required_operands(verb: Mapping[str, Any]) -> tuple[str, ...]:
    """The required args of a verb that fill a bare operand slot of its ``cli[]``: what a trial that
    failed on their sample values tries once more without (npm's usage writes ``npm ls <package-spec>``
    although bare ``npm ls`` lists the whole tree)."""
    return _operand_slots(verb, required=True)


# a long flag and its value in one token: ``--xpath={{xpath}}``
_JOINED = re.compile(r"^(--[A-Za-z0-9][\w-]*)=(\{\{\w+\}\})$")


def joined_value_flags(verb: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """(flag, arg name) of each ``--flag={{arg}}`` token of a verb's cli[] whose arg takes one
    string or number (never a boolean or a list): the forms a trial can try split as well."""
    properties = ((verb.get("args") or {}).get("properties")) or {}
    out = []
    for token in list(verb.get("cli") or ())[1:]:
        match = _JOINED.match(str(token))
        if match:
            name = match.group(2)[2:-2]
            kind = (properties.get(name) or {}).get("type")
            if kind in ("string", "integer", "number"):
                out.append((match.group(1), name))
    return tuple(out)


def with_split_values(cli: Iterable[str]) -> list[str]:
    """``cli`` with every ``--flag={{arg}}`` token written as two, ``--flag`` and ``{{arg}}``: for a
    tool whose own option parser reads ``--flag=value`` as one unknown option."""
    out: list[str] = []
    for token in cli:
        match = _JOINED.match(str(token))
        out.extend((match.group(1), match.group(2)) if match else (token,))
    return out
