"""Recipes: the YAML input of batch conversion (one tool -> one pack).

``load_recipe(path)`` reads and validates a recipe against
``schemas/recipe.schema.json`` and returns a frozen ``Recipe``. Every problem
is a ``RecipeError`` naming the file, the line and the field path; an unknown
key also names the closest valid key. ``resolve_tool(recipe)`` finds the
executable the recipe names.

The shape (see the README's batch section for a full example)::

    tool: git                 # name on PATH, or a path relative to the recipe
    pack_id: git              # default: the tool's basename as a pack id
    description: ...          # default: from the help
    json: [--json] | false    # pack-level override
    search_paths: [dir, ...]  # extra dirs to find the tool in (relative to the recipe)
    discover: {depth: 2, style: null, max_nodes: 300}
    commands: propose         # default; or a list of "pr list" / {path: "pr list", name: ..., ...}
    exclude: ["pr create"]    # subcommand paths never proposed
    overrides:                # per verb name (after naming), applied on top of the proposal
      pr.list: {name:, description:, policy: {effect: read, confirm: false}, json: [...] | false,
                args: {include: [...], exclude: [...]}, positional_order: [...],
                title: {live: ..., done: ...}, timeout_s: 60}
"""

from __future__ import annotations

import difflib
import json as _json
import os
import shutil
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import yaml

from wrapgen.errors import Diagnostic, RecipeError, ToolNotFoundError
from wrapgen.names import segment

__all__ = [
    "CommandSpec",
    "Recipe",
    "RECIPE_KEYS",
    "load_recipe",
    "parse_recipe",
    "recipe_schema",
    "resolve_tool",
    "discover_tool",
    "default_pack_id",
]

_SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "recipe.schema.json"

_SPEC_KEYS = ("name", "description", "policy", "json", "args", "positional_order", "title", "timeout_s")

# The valid keys at each kind of place in a recipe; drives the "did you mean" message, which the
# schema's own "additional properties" error cannot give.
RECIPE_KEYS: dict[str, tuple[str, ...]] = {
    "recipe": ("tool", "pack_id", "description", "json", "env", "search_paths", "discover", "commands",
               "exclude", "overrides"),
    "discover": ("depth", "style", "max_nodes"),
    "command": ("path",) + _SPEC_KEYS,
    "override": _SPEC_KEYS,
    "args": ("include", "exclude"),
    "title": ("live", "done"),
    "policy": ("effect", "confirm"),
}


@dataclass(frozen=True)
class CommandSpec:
    """One command entry or override: what a person set. ``None`` means "not set, keep the proposal's".

    ``path`` is the subcommand path (``("pr", "list")``), ``()`` for an override keyed by name.
    ``json`` is ``None`` (not set), ``False`` (no JSON) or a tuple of argv tokens.
    ``policy`` is ``None`` or a dict with ``effect`` and/or ``confirm``.
    ``title`` is ``None`` or a dict with ``live`` and/or ``done``, each a tuple of templates.
    """

    path: tuple[str, ...] = ()
    name: str | None = None
    description: str | None = None
    policy: Mapping[str, Any] | None = None
    json: tuple[str, ...] | bool | None = None
    include_args: tuple[str, ...] | None = None
    exclude_args: tuple[str, ...] | None = None
    positional_order: tuple[str, ...] | None = None
    title: Mapping[str, tuple[str, ...]] | None = None
    timeout_s: float | int | None = None

    @property
    def path_text(self) -> str:
        return " ".join(self.path)


@dataclass(frozen=True)
class Recipe:
    """A validated recipe. ``commands`` is ``None`` for "propose", else the chosen entries in order."""

    tool: str
    pack_id: str | None = None
    description: str | None = None
    json: tuple[str, ...] | bool | None = None
    search_paths: tuple[str, ...] = ()  # absolute, resolved against the recipe's directory
    discover_options: Mapping[str, Any] = field(default_factory=dict)  # only the keys the recipe set
    commands: tuple[CommandSpec, ...] | None = None
    exclude: tuple[tuple[str, ...], ...] = ()
    overrides: Mapping[str, CommandSpec] = field(default_factory=dict)
    source_path: str = ""  # the recipe file ("" when parsed from text)
    env: Mapping[str, Any] | None = None  # the pack's env {pass, set}, copied as given

    @property
    def base_dir(self) -> Path:
        return Path(self.source_path).resolve().parent if self.source_path else Path.cwd()

    @property
    def resolved_pack_id(self) -> str:
        return self.pack_id or default_pack_id(self.tool)


def default_pack_id(tool: str) -> str:
    """The tool's basename as a pack id: ``./scripts/deploy.sh`` -> ``deploy``."""
    base = os.path.basename(tool.rstrip("/")) or tool
    stem = base.rsplit(".", 1)[0] if base.endswith((".sh", ".py", ".bash")) else base
    return segment(stem)


@lru_cache(maxsize=1)
def recipe_schema() -> dict:
    return _json.loads(_SCHEMA_PATH.read_text(encoding="utf-8"))


# -- locating a field in the YAML text --------------------------------------------------------

def _line_of(node: yaml.Node | None, path: tuple, *, key: bool = False) -> int:
    """1-based line of the value (or, with ``key``, of the key) at ``path`` in a composed YAML tree."""
    best = node.start_mark.line + 1 if node is not None else 0
    for part in path:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == part:
                    best = (k if key and part == path[-1] else v).start_mark.line + 1
                    node = v
                    break
            else:
                return best
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            best = node.start_mark.line + 1
        else:
            return best
    return best


def _field_text(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif "." in str(part):
            out += f"[{part!r}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


# -- unknown keys, with the closest valid one -------------------------------------------------

def _unknown_keys(data: Any) -> list[tuple[tuple, str, str]]:
    """(path, bad key, kind) for every key not valid where it stands."""
    found: list[tuple[tuple, str, str]] = []

    def check(obj: Any, path: tuple, kind: str) -> None:
        if not isinstance(obj, dict):
            return
        for k in obj:
            if k not in RECIPE_KEYS[kind]:
                found.append((path + (k,), str(k), kind))
        for sub in ("args", "title", "policy"):
            if kind in ("command", "override") and sub in obj:
                check(obj[sub], path + (sub,), sub)

    check(data, (), "recipe")
    if not isinstance(data, dict):
        return found
    check(data.get("discover"), ("discover",), "discover")
    commands = data.get("commands")
    if isinstance(commands, list):
        for i, entry in enumerate(commands):
            check(entry, ("commands", i), "command")
    overrides = data.get("overrides")
    if isinstance(overrides, dict):
        for name, entry in overrides.items():
            check(entry, ("overrides", name), "override")
    return found


def _diagnostic(source: str, line: int, field_path: tuple, message: str, hint: str = "") -> Diagnostic:
    return Diagnostic("error", "R001", message, hint, path=source, line=line, field=_field_text(field_path))


def _schema_message(error) -> tuple[tuple, str]:
    """The most specific (path, message) of a jsonschema error; oneOf errors hide their best branch."""
    import jsonschema

    while error.validator in ("oneOf", "anyOf") and error.context:
        deeper = [e for e in error.context if len(e.absolute_path) > len(error.absolute_path)]
        if not deeper:
            break
        error = jsonschema.exceptions.best_match(deeper)
    path = tuple(error.absolute_path)
    message = error.message
    if error.validator in ("oneOf", "anyOf"):
        message = f"{_json.dumps(error.instance, ensure_ascii=False)[:80]} is not a valid value here"
    return path, message


_FIELD_HINTS = {
    "commands": "use `propose`, or a list of subcommand paths like \"pr list\" or {path: \"pr list\", name: pr.list}",
    "json": "use a list of argv tokens like [--json] or [-o, json], or false for a tool with no JSON output",
    "policy": "use read, write or destructive, or {effect: read, confirm: false}",
    "pack_id": "a pack id is lower-case letters, digits and dashes, starting with a letter",
    "name": "a verb name is lower-case words joined by dots, like pr.list",
}


def _hint_for(path: tuple) -> str:
    for part in reversed(path):
        if isinstance(part, str) and part in _FIELD_HINTS:
            return _FIELD_HINTS[part]
    return "see the recipe format in the README (section: Batch conversion)"


# -- parsing -------------------------------------------------------------------------------------

def _tuple_or_none(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(str(v) for v in value)


def _json_value(value: Any) -> tuple[str, ...] | bool | None:
    if value is None or value is False:
        return value
    return tuple(str(v) for v in value)


def _spec(entry: Mapping[str, Any], path: tuple[str, ...]) -> CommandSpec:
    args = entry.get("args") or {}
    policy = entry.get("policy")
    if isinstance(policy, str):
        policy = {"effect": policy}
    title = entry.get("title")
    if title is not None:
        title = {form: (t,) if isinstance(t, str) else tuple(t) for form, t in title.items()}
    return CommandSpec(
        path=path,
        name=entry.get("name"),
        description=entry.get("description"),
        policy=dict(policy) if policy is not None else None,
        json=_json_value(entry.get("json")),
        include_args=_tuple_or_none(args.get("include")),
        exclude_args=_tuple_or_none(args.get("exclude")),
        positional_order=_tuple_or_none(entry.get("positional_order")),
        title=title,
        timeout_s=entry.get("timeout_s"),
    )


def _split_path(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _semantic_problems(data: dict) -> list[tuple[tuple, str, str]]:
    """What the schema cannot say: duplicates and contradictions."""
    problems: list[tuple[tuple, str, str]] = []
    commands = data.get("commands")
    if isinstance(commands, list):
        seen: dict[tuple[str, ...], int] = {}
        names: dict[str, int] = {}
        for i, entry in enumerate(commands):
            path = _split_path(entry if isinstance(entry, str) else entry.get("path", ""))
            if path in seen:
                problems.append((("commands", i), f"subcommand path {' '.join(path)!r} is listed twice "
                                 f"(first at commands[{seen[path]}])", "list each subcommand once"))
            seen.setdefault(path, i)
            if path in {_split_path(e) for e in data.get("exclude") or ()}:
                problems.append((("commands", i), f"{' '.join(path)!r} is both in commands and in exclude",
                                 "remove it from one of the two"))
            name = entry.get("name") if isinstance(entry, dict) else None
            if name:
                if name in names:
                    problems.append((("commands", i, "name"), f"verb name {name!r} is used twice "
                                     f"(also at commands[{names[name]}])", "give each command its own name"))
                names.setdefault(name, i)
    for name, entry in (data.get("overrides") or {}).items():
        args = (entry or {}).get("args") or {}
        both = sorted(set(args.get("include") or ()) & set(args.get("exclude") or ()))
        if both:
            problems.append((("overrides", name, "args"), f"args {', '.join(both)} both included and excluded",
                             "keep each arg in one of include or exclude"))
    return problems


def parse_recipe(text: str, *, source: str = "<recipe>") -> Recipe:
    """Parse and validate recipe text; raises ``RecipeError`` with every problem found."""
    import jsonschema

    try:
        tree = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 0
        problem = " ".join(str(p) for p in (error.context, error.problem) if p) or "not valid YAML"
        raise RecipeError(f"{source}:{line}: invalid YAML: {problem}",
                          hint="fix the YAML syntax at that line (indentation, a missing colon or quote)") from None
    except yaml.YAMLError as error:
        raise RecipeError(f"{source}: invalid YAML: {error}", hint="fix the YAML syntax") from None
    if data is None:
        raise RecipeError(f"{source}: the recipe is empty", hint="a recipe needs at least `tool: NAME`")
    if not isinstance(data, dict):
        raise RecipeError(f"{source}:1: a recipe is a mapping of keys (tool:, pack_id:, ...), "
                          f"not a {type(data).__name__}", hint="start the file with `tool: NAME`")

    diagnostics: list[Diagnostic] = []
    for path, bad, kind in _unknown_keys(data):
        close = difflib.get_close_matches(bad, RECIPE_KEYS[kind], n=1, cutoff=0.5)
        valid = ", ".join(RECIPE_KEYS[kind])
        hint = f"did you mean {close[0]!r}?" if close else f"valid keys here: {valid}"
        where = f"in {_field_text(path[:-1])}" if len(path) > 1 else "at the top level"
        diagnostics.append(_diagnostic(source, _line_of(tree, path, key=True), path,
                                       f"unknown key {bad!r} {where}", hint))
    if not diagnostics:
        validator = jsonschema.Draft202012Validator(recipe_schema())
        for error in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
            path, message = _schema_message(error)
            diagnostics.append(_diagnostic(source, _line_of(tree, path), path, message, _hint_for(path)))
    if not diagnostics:
        for path, message, hint in _semantic_problems(data):
            diagnostics.append(_diagnostic(source, _line_of(tree, path), path, message, hint))
    if diagnostics:
        first = diagnostics[0]
        message = f"{source}:{first.line}: {first.field}: {first.message}"
        if len(diagnostics) > 1:
            message += f" (and {len(diagnostics) - 1} more)"
        raise RecipeError(message, hint=first.hint, diagnostics=tuple(diagnostics[1:]))

    base = Path(source).resolve().parent if source and not source.startswith("<") else Path.cwd()
    commands = data.get("commands", "propose")
    specs: tuple[CommandSpec, ...] | None = None
    if commands != "propose":
        specs = tuple(
            _spec({} if isinstance(e, str) else e, _split_path(e if isinstance(e, str) else e["path"]))
            for e in commands
        )
    return Recipe(
        tool=data["tool"],
        pack_id=data.get("pack_id"),
        description=data.get("description"),
        json=_json_value(data.get("json")),
        search_paths=tuple(str((base / p).resolve()) for p in data.get("search_paths") or ()),
        discover_options=dict(data.get("discover") or {}),
        commands=specs,
        exclude=tuple(_split_path(e) for e in data.get("exclude") or ()),
        overrides={name: _spec(entry or {}, ()) for name, entry in (data.get("overrides") or {}).items()},
        source_path=source if not source.startswith("<") else "",
        env=data.get("env"),
    )


def load_recipe(path: str | os.PathLike) -> Recipe:
    """Read, validate and return the recipe at ``path``; raises ``RecipeError``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecipeError(f"recipe {str(path)!r} does not exist", hint="check the path") from None
    except IsADirectoryError:
        raise RecipeError(f"{str(path)!r} is a directory, not a recipe",
                          hint="pass a .yaml file, or use `wrapgen batch DIR` for a directory") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecipeError(f"cannot read recipe {str(path)!r}: {error}", hint="check the file") from None
    return parse_recipe(text, source=str(path))


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def resolve_tool(recipe: Recipe) -> str:
    """The absolute path of the recipe's tool: a path relative to the recipe, else search_paths, else PATH."""
    tool = recipe.tool
    base = recipe.base_dir
    looked: list[str] = []
    if "/" in tool or tool.startswith("."):
        candidate = (base / tool).resolve()
        if _is_executable(candidate):
            return str(candidate)
        looked.append(str(candidate))
        reason = "is not executable" if candidate.exists() else "does not exist"
        raise ToolNotFoundError(
            f"tool {tool!r} of recipe {recipe.source_path or '<recipe>'} {reason} (looked at {candidate})",
            hint="fix `tool:` (a path is relative to the recipe's directory)"
            + (", or `chmod +x` it" if candidate.exists() else ""),
        )
    for directory in recipe.search_paths:
        candidate = Path(directory) / tool
        looked.append(str(directory))
        if _is_executable(candidate):
            return str(candidate)
    found = shutil.which(tool)
    if found:
        return str(Path(found).resolve()) if not os.path.isabs(found) else found
    looked.append("PATH")
    raise ToolNotFoundError(
        f"tool {tool!r} of recipe {recipe.source_path or '<recipe>'} is not installed "
        f"(looked in {', '.join(looked)})",
        hint="install it, or add the directory that holds it to `search_paths:` in the recipe",
    )


def discover_tool(recipe: Recipe, *, progress=None):
    """The recipe's tool as ``wrapgen wrap --recipe`` reads it: resolved, with the recipe's discover options."""
    from wrapgen.probe.discover import discover

    options = {k: v for k, v in dict(recipe.discover_options).items() if v is not None}
    return discover(resolve_tool(recipe), progress=progress, **options)
