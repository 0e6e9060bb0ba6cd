"""GNU make's database (``make -pRrq``) and the makefiles' text -> targets. Pure.

The targets, their prerequisites, their recipes and the variables come from make's own database,
so what make itself would read is what is read (includes, conditionals, generated rules). The
makefiles' text adds what the database drops:

- the help of the common convention ``target: prerequisites ## help``;
- which variables are set with ``?=`` (``ENV ?= staging``): the ones a person overrides with
  ``make deploy ENV=production``. Such a variable becomes a parameter of every target whose recipe
  (or a prerequisite's recipe, recursively) refers to it: ``$(ENV)`` or ``${ENV}``.

A target is a verb when it is phony, or has a ``## help``, or is a name with no ``/`` or ``.``
(a file the build makes, ``dist/app.tar``, ``main.o``, is not one); special targets (``.PHONY``),
pattern rules (``%.o``) and the makefiles themselves never are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from wrapgen.model.tool import Command, Flag
from wrapgen.parse.runners import parser_name, usage_line

__all__ = ["parse_make_database", "make_help", "MakeTarget"]

_VAR_ORIGIN = re.compile(r"^# makefile \(from '(?P<file>[^']+)', line (?P<line>\d+)\)$")
_VAR_LINE = re.compile(
    r"^(?:override |export |private )*(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)\s*(?::{1,3}=|\+=|!=|\?=|=)\s?(?P<value>.*)$"
)
_RECIPE_FROM = re.compile(r"^#  recipe to execute \(from '(?P<file>[^']+)', line (?P<line>\d+)\):$")
_RULE = re.compile(r"^(?P<name>[^\s#:][^:]*?)\s*::?(?!=)\s*(?P<rest>.*)$")
# `target another: prerequisites ## help`, `target: ## help`
_HELP = re.compile(
    r"^(?P<names>[^\s:#=$][^:#=]*?)\s*::?(?!=)[^#\n]*?##\s*(?P<help>\S.*?)\s*$", re.M
)


@dataclass
class MakeTarget:
    name: str
    prerequisites: list[str] = field(default_factory=list)
    recipe: list[str] = field(default_factory=list)
    phony: bool = False
    not_a_target: bool = False
    from_makefile: bool = False


def make_help(texts: Mapping[str, str]) -> dict[str, tuple[int, int, str]]:
    """target -> (file index, line, help) from ``target: ## help`` lines, first one wins."""
    out: dict[str, tuple[int, int, str]] = {}
    for index, text in enumerate(texts.values()):
        for match in _HELP.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            for name in match.group("names").split():
                out.setdefault(name, (index, line, match.group("help")))
    return out


def _rule_lines(texts: Mapping[str, str]) -> dict[str, tuple[int, int]]:
    """target -> (file index, line) of the first rule line naming it: the order targets are shown in."""
    out: dict[str, tuple[int, int]] = {}
    for index, text in enumerate(texts.values()):
        for number, line in enumerate(text.splitlines(), 1):
            if line.startswith(("\t", " ", "#")):
                continue
            match = _RULE.match(line)
            if match and "=" not in match.group("name"):
                for name in match.group("name").split():
                    out.setdefault(name, (index, number))
    return out


def _sections(db: str) -> tuple[list[str], list[str]]:
    """(variables lines, files lines) of the database."""
    lines = db.splitlines()
    try:
        files_at = lines.index("# Files")
    except ValueError:
        return lines, []
    end = next(
        (i for i in range(files_at, len(lines)) if lines[i].startswith("# files hash-table stats")),
        len(lines),
    )
    return lines[:files_at], lines[files_at + 1 : end]


def _variables(lines: list[str]) -> dict[str, tuple[str, int, str]]:
    """Variables set in a makefile: name -> (file, line, value as the database prints it)."""
    out: dict[str, tuple[str, int, str]] = {}
    for previous, line in zip(lines, lines[1:]):
        origin = _VAR_ORIGIN.match(previous)
        if not origin:
            continue
        match = _VAR_LINE.match(line)
        if match:
            out[match.group("name")] = (
                origin.group("file"),
                int(origin.group("line")),
                match.group("value"),
            )
    return out


def _targets(lines: list[str]) -> dict[str, MakeTarget]:
    out: dict[str, MakeTarget] = {}
    current: MakeTarget | None = None
    not_a_target = False
    for line in lines:
        if not line.strip():
            current, not_a_target = None, False
            continue
        if line == "# Not a target:":
            not_a_target = True
            continue
        if current is None:
            if line.startswith("#"):
                continue
            match = _RULE.match(line)
            if not match:
                continue
            rest = match.group("rest")
            if re.match(r"^[A-Za-z_][A-Za-z0-9_.-]*\s*(?::{1,3}=|\+=|\?=|=)", rest):
                continue  # a target-specific variable (`deploy: ENV = production`), not a rule
            prereqs = [p for p in rest.split("|", 1)[0].split()]
            for name in match.group("name").split():
                target = out.setdefault(name, MakeTarget(name))
                target.prerequisites += [p for p in prereqs if p not in target.prerequisites]
                target.not_a_target = target.not_a_target or not_a_target
            current = out[match.group("name").split()[0]]
            continue
        if line.startswith("#  Phony target"):
            current.phony = True
        elif _RECIPE_FROM.match(line):
            current.from_makefile = True
        elif line.startswith("\t"):
            current.recipe.append(line[1:])
    return out


def _is_verb(target: MakeTarget, helped: bool, makefiles: set[str]) -> bool:
    name = target.name
    if target.not_a_target or name.startswith(".") or "%" in name or name in makefiles:
        return False
    if target.phony or helped:
        return True
    return (
        "/" not in name and "." not in name and (target.from_makefile or bool(target.prerequisites))
    )


def _references(text: str, name: str) -> bool:
    return re.search(r"\$[({]" + re.escape(name) + r"[)}:]", text) is not None


def _parameters(
    target: MakeTarget, targets: Mapping[str, MakeTarget], params: Mapping[str, str]
) -> list[str]:
    """The ``?=`` variables the target's recipe, or a prerequisite's (recursively), refers to."""
    seen: set[str] = set()
    recipe: list[str] = []
    stack = [target.name]
    while stack:
        name = stack.pop()
        if name in seen or name not in targets:
            continue
        seen.add(name)
        recipe += targets[name].recipe
        stack += reversed(targets[name].prerequisites)
    text = "\n".join(recipe)
    return [name for name in params if _references(text, name)]


def parse_make_database(db: str, makefiles: Mapping[str, str]) -> tuple[Command, ...]:
    """The targets of make's database ``db``; ``makefiles`` maps each makefile (as the database
    names it, in ``MAKEFILE_LIST`` order) to its text."""
    var_lines, file_lines = _sections(db)
    variables = _variables(var_lines)
    texts = dict(makefiles)
    names = list(texts)
    params: dict[str, str] = {}  # ?= variables, in definition order -> default
    for name, (file, line, value) in sorted(
        variables.items(),
        key=lambda kv: (names.index(kv[1][0]) if kv[1][0] in names else len(names), kv[1][1]),
    ):
        text_lines = texts.get(file, "").splitlines()
        source = text_lines[line - 1] if 0 < line <= len(text_lines) else ""
        if re.match(r"^\s*(?:override\s+|export\s+)*" + re.escape(name) + r"\s*\?=", source):
            params[name] = value
    targets = _targets(file_lines)
    helps = make_help(texts)
    where = _rule_lines(texts)
    makefile_names = set(names) | {n.rsplit("/", 1)[-1] for n in names}
    chosen = [t for t in targets.values() if _is_verb(t, t.name in helps, makefile_names)]
    chosen.sort(key=lambda t: (where.get(t.name, (len(names), 1 << 30)), t.name))
    out = []
    for target in chosen:
        flags = tuple(
            Flag(
                long=name,
                takes_value=True,
                value_name=name,
                type="string",
                default=params[name] or None,
                description=f"The make variable {name}",
            )
            for name in _parameters(target, targets, params)
        )
        out.append(
            Command(
                path=(target.name,),
                summary=helps.get(target.name, (0, 0, ""))[2],
                description="\n".join(target.recipe),
                usage=usage_line(target.name, target.prerequisites),
                flags=flags,
                parser=parser_name("make"),
            )
        )
    return tuple(out)
