"""Recipes: the YAML input of batch conversion (one tool -> one pack).

``load_recipe(path)`` reads and validates a recipe against
``schemas/recipe.schema.json`` and returns a frozen ``Recipe``. Every problem
is a ``RecipeError`` naming the file, the line and the field path; an unknown
key also names the closest valid key. ``resolve_tool(recipe)`` finds the
executable the recipe names.

The shape (see docs/flows.md, section Recipes, for a full example)::

    tool: git                 # name on PATH, or a path relative to the recipe
    pack_id: git              # default: the tool's basename as a pack id
    description: ...          # default: from the help
    json: [--json] | false    # pack-level override
    search_paths: [dir, ...]  # extra dirs to find the tool in (relative to the recipe)
    runner: {dir: ../repo}    # tool is a task runner (make, npm, just, task): wrap the targets of
                              # this repository (relative to the recipe), docs/runners.md
    discover: {depth: 2, style: null, max_nodes: 300}
    commands: propose         # default; or a list of "pr list" / {path: "pr list", name: ..., ...}
    exclude: ["pr create"]    # subcommand paths never proposed
    overrides:                # per verb name (after naming), applied on top of the proposal
      pr.list: {name:, description:, policy: {effect: read, confirm: false}, json: [...] | false,
                args: {include: [...], exclude: [...]}, positional_order: [...],
                title: {live: ..., done: ...}, timeout_s: 60}
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from wrapgen.errors import RecipeError, ToolNotFoundError
from wrapgen.model.toolref import ToolRef
from wrapgen.names import segment
from wrapgen.pack import yamldoc

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

SCHEMA_FILE = "recipe.schema.json"
CODE = "R001"

KIND = yamldoc.DocumentKind(
    name="recipe",
    schema_file=SCHEMA_FILE,
    code=CODE,
    term="key",
    expect="a mapping of keys, at least `tool: NAME`",
    syntax="invalid YAML",
    start_hint="start the file with `tool: NAME`",
    quote_dots=True,  # overrides are keyed by dotted verb names: overrides['pr.list'].args
)


def recipe_schema() -> Mapping[str, Any]:
    """The shipped JSON Schema of recipes (draft 2020-12)."""
    return yamldoc.schema(SCHEMA_FILE)


# The valid keys at each kind of place in a recipe, read from the schema (the "did you mean" of an
# unknown key comes from the schema itself; this table is for callers that list them).
RECIPE_KEYS: dict[str, tuple[str, ...]] = {
    kind: yamldoc.schema_keys(recipe_schema(), pointer)
    for kind, pointer in {
        "recipe": "#",
        "discover": "#/properties/discover",
        "command": "#/$defs/command_entry",
        "override": "#/$defs/override",
        "args": "#/$defs/override_fields/properties/args",
        "title": "#/$defs/override_fields/properties/title",
        "policy": "#/$defs/policy",
    }.items()
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
    required_args: tuple[str, ...] | None = None
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
    discover_options: Mapping[str, Any] = field(
        default_factory=dict
    )  # only the keys the recipe set
    commands: tuple[CommandSpec, ...] | None = None
    exclude: tuple[tuple[str, ...], ...] = ()
    overrides: Mapping[str, CommandSpec] = field(default_factory=dict)
    source_path: str = ""  # the recipe file ("" when parsed from text)
    env: Mapping[str, Any] | None = None  # the pack's env {pass, set}, copied as given
    runner_dir: str | None = (
        None  # `runner: {dir:}`, absolute: the repository a task runner's targets come from
    )
    runner_file: str | None = (
        None  # `runner: {file:}`, relative to runner_dir: a runner file of another name
    )
    argv_template: tuple[str, ...] | None = (
        None  # wrap.argv_template to write (promote: the PATH wrap's)
    )
    usage_from: tuple[str, ...] = ()  # `usage_from:`, absolute: files and folders showing use
    sandbox: Mapping[str, Any] | None = None  # the pack's sandbox section, copied as given

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


# -- parsing -------------------------------------------------------------------------------------


def _tuple_or_none(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(str(v) for v in value)


def _json_value(value: Any) -> tuple[str, ...] | bool | None:
    if value is None or isinstance(value, bool):
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
        required_args=_tuple_or_none(args.get("required")),
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
                problems.append(
                    (
                        ("commands", i),
                        f"subcommand path {' '.join(path)!r} is listed twice "
                        f"(first at commands[{seen[path]}])",
                        "list each subcommand once",
                    )
                )
            seen.setdefault(path, i)
            if path in {_split_path(e) for e in data.get("exclude") or ()}:
                problems.append(
                    (
                        ("commands", i),
                        f"{' '.join(path)!r} is both in commands and in exclude",
                        "remove it from one of the two",
                    )
                )
            name = entry.get("name") if isinstance(entry, dict) else None
            if name:
                if name in names:
                    problems.append(
                        (
                            ("commands", i, "name"),
                            f"verb name {name!r} is used twice (also at commands[{names[name]}])",
                            "give each command its own name",
                        )
                    )
                names.setdefault(name, i)
    for name, entry in (data.get("overrides") or {}).items():
        args = (entry or {}).get("args") or {}
        both = sorted(set(args.get("include") or ()) & set(args.get("exclude") or ()))
        if both:
            problems.append(
                (
                    ("overrides", name, "args"),
                    f"args {', '.join(both)} both included and excluded",
                    "keep each arg in one of include or exclude",
                )
            )
        required = set(args.get("required") or ())
        cut = sorted(required & set(args.get("exclude") or ())) or (
            sorted(required - set(args["include"])) if args.get("include") is not None else []
        )
        if cut:
            problems.append(
                (
                    ("overrides", name, "args", "required"),
                    f"args {', '.join(cut)} are required but not offered (excluded, or not in include)",
                    "offer an arg before requiring it",
                )
            )
    if data.get("runner") and isinstance(data.get("tool"), str):
        from wrapgen.knowledge.runners import runner_kind

        if runner_kind(data["tool"]) is None:
            problems.append(
                (
                    ("runner",),
                    f"`runner:` needs a task runner as the tool (make, npm, just or task), "
                    f"not {data['tool']!r}",
                    "set `tool:` to the runner, or remove `runner:`",
                )
            )
    return problems


def parse_recipe(text: str, *, source: str = "<recipe>") -> Recipe:
    """Parse and validate recipe text; raises ``RecipeError`` with every problem found."""
    doc, diagnostics = yamldoc.load_document(text, KIND, path=source)
    if doc is not None and not diagnostics:
        diagnostics = [
            doc.diagnostic(path, message, hint=hint)
            for path, message, hint in _semantic_problems(doc.data)
        ]
    yamldoc.raise_for(diagnostics, RecipeError)
    data = doc.data

    base = Path(source).resolve().parent if source and not source.startswith("<") else Path.cwd()
    commands = data.get("commands", "propose")
    specs: tuple[CommandSpec, ...] | None = None
    if commands != "propose":
        specs = tuple(
            _spec(
                {} if isinstance(e, str) else e, _split_path(e if isinstance(e, str) else e["path"])
            )
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
        overrides={
            name: _spec(entry or {}, ()) for name, entry in (data.get("overrides") or {}).items()
        },
        source_path=source if not source.startswith("<") else "",
        env=data.get("env"),
        runner_dir=str((base / data["runner"]["dir"]).resolve()) if data.get("runner") else None,
        runner_file=data["runner"].get("file") if data.get("runner") else None,
        usage_from=tuple(str((base / p).resolve()) for p in data.get("usage_from") or ()),
        sandbox=data.get("sandbox"),
    )


def load_recipe(path: str | os.PathLike) -> Recipe:
    """Read, validate and return the recipe at ``path``; raises ``RecipeError``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecipeError(f"recipe {str(path)!r} does not exist", hint="check the path") from None
    except IsADirectoryError:
        raise RecipeError(
            f"{str(path)!r} is a directory, not a recipe",
            hint="pass a .yaml file, or use `wrapgen batch DIR` for a directory",
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecipeError(
            f"cannot read recipe {str(path)!r}: {error}", hint="check the file"
        ) from None
    return parse_recipe(text, source=str(path))


def resolve_tool(recipe: Recipe) -> ToolRef:
    """The recipe's tool, resolved once: a path relative to the recipe, else search_paths, else PATH."""
    from wrapgen.probe import prober  # (lazily: loading a recipe starts no process)

    tool = recipe.tool
    where = recipe.source_path or "<recipe>"
    if "/" in tool or tool.startswith("."):
        candidate = recipe.base_dir / tool
        try:
            return prober.resolve_tool(str(candidate))
        except ToolNotFoundError:
            reason = "is not executable" if candidate.exists() else "does not exist"
            raise ToolNotFoundError(
                f"tool {tool!r} of recipe {where} {reason} (looked at {candidate.resolve()})",
                hint="fix `tool:` (a path is relative to the recipe's directory)"
                + (", or `chmod +x` it" if candidate.exists() else ""),
            ) from None
    try:
        return prober.resolve_tool(tool, search_paths=recipe.search_paths)
    except ToolNotFoundError:
        looked = ", ".join((*recipe.search_paths, "PATH"))
        raise ToolNotFoundError(
            f"tool {tool!r} of recipe {where} is not installed (looked in {looked})",
            hint="install it, or add the directory that holds it to `search_paths:` in the recipe",
        ) from None


def discover_tool(recipe: Recipe, *, progress=None):
    """The recipe's tool as ``wrapgen wrap --recipe`` reads it: resolved, with the recipe's discover options."""
    from wrapgen.probe.discover import discover

    options = {k: v for k, v in dict(recipe.discover_options).items() if v is not None}
    return discover(resolve_tool(recipe), progress=progress, **options)
