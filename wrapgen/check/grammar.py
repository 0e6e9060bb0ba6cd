"""Grammar rules of ``wrapgen check``: operands where the tool reads them (issue 11, item 8).

Static rules, over any pack (hand-written, or from an older wrapgen), registered with ``@rule``:

* ``W071``: a revision or object slot after a literal ``--`` of a tool whose grammar is
  ``[<revision>...] [--] [<path>...]`` (git reads ``git show -- HEAD``'s HEAD as a path and answers
  with nothing, successfully);
* ``W072``: an operand slot named after a value of another arg's choices (ssh-keygen's
  ``{{ecdsa}}``, one of ``-t``'s choices): a flag's value taken for an operand;
* ``W073``: a verb's ``cli[]`` is exactly what the pack's ``wrap.argv_template`` renders for it: the
  verb relies on nothing of its own and may leave ``cli[]`` out (docs/contract.md §6).

With the tool's help at hand (``wrapgen check --probe`` reads it for every verb anyway),
``operand_diagnostics`` adds, from the usage lines that help gives (parsed here, pure):

* ``W070``: the command requires operands the verb has no slot for (systemctl ``start UNIT...``
  wrapped as ``systemctl start``: every call is a usage error);
* ``W072``: an operand slot that is no operand of the command but the value of one of its flags
  (``-t dsa | ecdsa``'s ``ecdsa``; ``-f FILENAME``'s ``filename``).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from wrapgen.check.registry import PLACEHOLDER_RE, PackContext, rule
from wrapgen.check.registry import is_flag as _is_flag
from wrapgen.errors import Diagnostic
from wrapgen.knowledge.commands import is_revision_operand
from wrapgen.knowledge.tools import END_OF_OPTIONS, revisions_before_dash_dash

__all__ = [
    "operand_slots",
    "operand_diagnostics",
    "operand_findings",
    "MISSING_OPERAND_CODE",
    "FLAG_VALUE_CODE",
]

MISSING_OPERAND_CODE = "W070"  # reported by check --probe: wrapgen.check.probe.PROBE_OPERAND_CODE
FLAG_VALUE_CODE = "W072"


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def operand_slots(argv: Sequence[str]) -> list[tuple[int, str, bool]]:
    """(index, arg name, after a literal ``--``) of each slot that stands as an operand: a whole-token
    placeholder not right after a literal flag (which would be that flag's value)."""
    out = []
    after = False
    for index, token in enumerate(argv):
        if token == "--":
            after = True
            continue
        match = PLACEHOLDER_RE.fullmatch(token)
        if index == 0 or match is None:
            continue
        previous = argv[index - 1]
        if _is_flag(previous) and previous != END_OF_OPTIONS:
            continue
        out.append((index, match.group(1).strip(), after))
    return out


@rule(
    "W071",
    severity="error",
    summary="a revision or object slot after '--' of a tool that reads what follows '--' as paths (git show -- HEAD)",
)
def _revision_after_dash_dash(ctx: PackContext):
    if not revisions_before_dash_dash(str(ctx.manifest.data.get("bin", ""))):
        return
    for verb in ctx.verbs:
        for index, name, after in operand_slots(verb.argv):
            if after and is_revision_operand(name):
                yield ctx.diagnostic(
                    "W071",
                    verb.field_of(index),
                    f"{name!r} is a revision but stands after '--', where {ctx.manifest.data['bin']} reads it as a "
                    f"path and answers with nothing{verb.where}",
                    hint="move the slot before '--' (after --end-of-options where the tool takes it)",
                )


def _choices(schema: Any) -> list[str]:
    if not isinstance(schema, Mapping):
        return []
    target = schema.get("items") if schema.get("type") == "array" else schema
    values = target.get("enum") if isinstance(target, Mapping) else None
    return [str(v) for v in values] if isinstance(values, list) else []


@rule(
    "W072",
    severity="warning",
    summary="an operand slot named after a flag's value (one of another arg's choices, or a flag's value name)",
)
def _choice_as_operand(ctx: PackContext):
    for verb in ctx.verbs:
        for index, name, _ in operand_slots(verb.argv):
            owner = next(
                (
                    other
                    for other, schema in verb.properties.items()
                    if other != name and _norm(name) in {_norm(v) for v in _choices(schema)}
                ),
                None,
            )
            if owner is not None:
                yield ctx.diagnostic(
                    "W072",
                    verb.field_of(index),
                    f"operand {name!r} is one of {owner!r}'s choices: a flag's value read as an operand{verb.where}",
                    hint=f"drop {{{{{name}}}}}; the value is passed through {owner!r}",
                )


@rule(
    "W073",
    severity="warning",
    summary="a verb's cli[] is exactly what wrap.argv_template renders for it (cli[] may be left out)",
)
def _cli_is_the_fallback(ctx: PackContext):
    from wrapgen.pack.build import _default_template
    from wrapgen.runtime import expand_argv_template

    data = ctx.manifest.data
    template = (data.get("wrap") or {}).get("argv_template") or _default_template(data["bin"])
    for verb in ctx.verbs:
        if not verb.from_cli:
            continue
        rendered = expand_argv_template(
            list(template), verb=verb.name, bin=data["bin"], properties=verb.properties
        )
        if tuple(rendered) == verb.argv:
            yield ctx.diagnostic(
                "W073",
                f"{verb.field}.cli",
                "cli[] is exactly what wrap.argv_template renders for this verb: it relies on nothing of its own",
                hint="leave cli[] out (the fallback renders the same), or keep it to pin the form",
            )


# --- with the tool's help ------------------------------------------------------------------------


def operand_diagnostics(
    manifest,
    name: str,
    verb: Mapping[str, Any],
    help_text: str,
    *,
    bin_name: str,
    path: Sequence[str],
) -> list[Diagnostic]:
    """W070 and W072 for one resolved verb (``resolve_verb``'s dict) against the help of its command."""
    missing, flag_values = operand_findings(name, verb, help_text, bin_name=bin_name, path=path)
    return [
        manifest.diagnostic(MISSING_OPERAND_CODE, "error", *f[:2], hint=f[2]) for f in missing
    ] + [manifest.diagnostic(FLAG_VALUE_CODE, "warning", *f[:2], hint=f[2]) for f in flag_values]


def operand_findings(
    name: str, verb: Mapping[str, Any], help_text: str, *, bin_name: str, path: Sequence[str]
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """(missing operands, flag values as operands) of one verb, each (field, message, hint)."""
    from wrapgen.parse import parse_help
    from wrapgen.propose.operands import operands

    try:
        command = parse_help(help_text, prog=(bin_name, *path))
    except Exception:  # a help no parser reads says nothing about operands
        return [], []
    if path:
        # a command whose own help is its parent's (systemctl start --help): the listing entry's operands
        if not command.positionals and any(s.name == path[-1] for s in command.subcommands):
            try:
                parent = parse_help(help_text, prog=(bin_name, *path[:-1]))
            except Exception:
                parent = command
            listed = next(
                (s for s in parent.subcommands if s.name == path[-1] and s.positionals), None
            )
            command = listed or command
    command = command.with_changes(path=tuple(path))
    argv = list(verb["argv"])
    mode = tuple(t.split("=", 1)[0] for t in argv[1 + len(path) :] if _is_flag(t))
    wanted = operands(command, mode=mode)
    names = {_norm(n) for p in wanted for n in p.name.split("|")}
    slots = operand_slots(argv)
    # literal operands written into cli[] (kubectl get pods) count as given
    literal = [t for t in argv[1 + len(path) :] if not _is_flag(t) and "{{" not in t and t != "--"]
    field = f"verbs.{name}"
    missing_out: list[tuple[str, str, str]] = []
    values_out: list[tuple[str, str, str]] = []
    required = [p for p in wanted if p.required]
    prefix = " ".join([bin_name.rsplit("/", 1)[-1], *path]) + " "
    if any(u.count(prefix) > 1 for u in command.usage) or len(command.usage) > 1 and required:
        # several forms run together (a man page's SYNOPSIS read as one line), or forms that differ
        # in what they need: too little to say the verb lacks an operand
        required = []
    if len(slots) + len(literal) < len(required):
        missing = ", ".join(p.name for p in required[len(slots) + len(literal) :])
        missing_out.append(
            (
                field,
                f"`{' '.join([bin_name, *path])}` requires {missing} ({command.usage[0] if command.usage else 'its usage'}), "
                "and the verb has no slot for it: every call is a usage error",
                "add an operand slot (after '--') and a required arg for it",
            )
        )
    values: dict[str, str] = {}
    for flag in (*command.flags, *command.global_flags):
        spelling = flag.spelling
        for value in (*flag.choices, flag.value_name or ""):
            if value:
                values.setdefault(_norm(value), spelling)
    for index, slot, _ in slots:
        key = _norm(slot)
        singular = key[:-1] if key.endswith("s") else key
        if key in names or singular in names:
            continue
        flag = values.get(key) or values.get(singular)
        if flag:
            values_out.append(
                (
                    f"{field}.cli[{index}]",
                    f"operand {slot!r} is no operand of `{' '.join([bin_name, *path])}` but a value of {flag}",
                    f"pass it through {flag}={{{{{slot}}}}}, or drop the slot",
                )
            )
    return missing_out, values_out
