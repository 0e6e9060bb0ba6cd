"""``just --dump --dump-format json`` (and the justfile's text, for order) -> recipes. Pure.

Each public recipe is a target: its doc comment is the help, its parameters are operands in order
(``deploy env version="dev"``: ``env`` required, ``version`` optional; ``+args`` / ``*args``
variadic), a parameter declared as an option (``[arg("env", long="env")]``) is a flag (one with a
``value=`` of its own takes no argument: a switch), and its dependencies are what it runs first. A
private recipe (``_helper``, ``[private]``) is not a target; the recipes of modules (``mod deploy``)
are not read (a warning says so). The pack passes a recipe's arguments after ``--``
(``wrapgen.knowledge.runners.invocation``), where just still reads the recipe's own options
(``just -- deploy --env prod 1.4``, just 1.59), so none is left out.
"""

from __future__ import annotations

import json
import re

from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.parse.runners import RunnerFileError, parser_name, usage_line

__all__ = ["parse_just_dump"]


def _default_text(value) -> str | None:
    """A parameter's default as text: a plain string as it is, an expression as ``an expression``."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return "computed by the justfile"


def _attribute_names(recipe: dict) -> set[str]:
    names: set[str] = set()
    for attribute in recipe.get("attributes") or ():
        if isinstance(attribute, str):
            names.add(attribute)
        elif isinstance(attribute, dict):
            names.update(attribute)
    return names


def _group(recipe: dict) -> str:
    for attribute in recipe.get("attributes") or ():
        if isinstance(attribute, dict) and isinstance(attribute.get("group"), str):
            return attribute["group"]
    return ""


def _parameter(param: dict):
    name = str(param.get("name", ""))
    default = _default_text(param.get("default"))
    kind = param.get("kind", "singular")
    help_text = param.get("help") or f"The recipe parameter {name}"
    long, short = param.get("long"), param.get("short")
    if long or short:
        switch = (
            bool(param.get("flag")) or param.get("value") is not None
        )  # `value="yes"`: given bare
        return Flag(
            long=f"--{long}" if long else None,
            short=f"-{short}" if short else None,
            takes_value=not switch,
            value_name=name,
            type="boolean" if switch else "string",
            default=None if switch else default,
            required=default is None and not switch,
            description=help_text
            + (f" (default: {default})" if default is not None and not switch else ""),
        )
    return Positional(
        name=name,
        required=default is None and kind != "star",
        variadic=kind in ("plus", "star"),
        description=help_text + (f" (default: {default})" if default is not None else ""),
    )


def _order(text: str, names: list[str]) -> list[str]:
    """Recipe names in the order the justfile defines them (just's dump sorts them by name)."""
    position: dict[str, int] = {}
    for number, line in enumerate(text.splitlines()):
        match = re.match(r"^@?([A-Za-z_][A-Za-z0-9_-]*)(?:\s[^:]*)?:(?!=)", line)
        if match:
            position.setdefault(match.group(1), number)
    return sorted(names, key=lambda n: (position.get(n, 1 << 30), n))


def parse_just_dump(
    dump: str, justfile_text: str = ""
) -> tuple[tuple[Command, ...], tuple[str, ...], str]:
    """(recipes, warnings, the justfile's own doc) from just's JSON dump."""
    try:
        data = json.loads(dump)
    except ValueError as error:
        raise RunnerFileError(
            f"just --dump printed no JSON ({error})",
            hint="check that `just --dump --dump-format json` works in the repository",
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("recipes"), dict):
        raise RunnerFileError(
            "just --dump printed JSON without recipes",
            hint="upgrade just (the JSON dump needs just 1.13 or later)",
        )
    recipes: dict = data["recipes"]
    aliases: dict[str, list[str]] = {}
    for alias, target in (data.get("aliases") or {}).items():
        name = target.get("target") if isinstance(target, dict) else target
        if isinstance(name, str):
            aliases.setdefault(name, []).append(alias)
    out = []
    warnings: list[str] = []
    for name in _order(justfile_text, list(recipes)):
        recipe = recipes[name]
        if (
            not isinstance(recipe, dict)
            or recipe.get("private")
            or name.startswith("_")
            or "private" in _attribute_names(recipe)
        ):
            continue
        params = [_parameter(p) for p in recipe.get("parameters") or () if isinstance(p, dict)]
        deps = [
            d.get("recipe")
            for d in recipe.get("dependencies") or ()
            if isinstance(d, dict) and d.get("recipe")
        ]
        out.append(
            Command(
                path=(name,),
                summary=(recipe.get("doc") or "").strip(),
                usage=usage_line(name, deps),
                flags=tuple(p for p in params if isinstance(p, Flag)),
                positionals=tuple(p for p in params if isinstance(p, Positional)),
                aliases=tuple(sorted(aliases.get(name, ()))),
                group=_group(recipe),
                parser=parser_name("just"),
            )
        )
    warnings += [
        f"the justfile's module '{m}' is not read: wrap it from its own directory"
        for m in sorted(data.get("modules") or {})
    ]
    return tuple(out), tuple(warnings), (data.get("doc") or "").strip()
