"""A task runner's targets -> a pack manifest: ``propose_runner(tool, request) -> Proposal``. Pure.

``propose()`` hands a tool over here when discovery read it from a runner's database
(``wrapgen.probe.runners``: the root's ``parser`` is ``runner-<kind>``). Every target is offered, in
the order the runner's file defines them, up to ``MAX_VERBS`` (a recipe's ``commands:`` picks and
orders them instead; ``exclude:`` leaves some out), because a repository's targets are its
internal tools: there is nothing to rank them against.

- ``cli[]``: the runner, the argv that runs it in the repository from anywhere (the root's
  ``probe``: ``make -C /repo``, ``just --justfile /repo/justfile --working-directory /repo``,
  ``pkgmgr --prefix /repo run``, ``task --dir /repo``), the target, then its parameters:
  ``NAME={{name}}`` for a variable, ``{{name}}`` for an operand, ``--long {{name}}`` for an option.
- args: every parameter the runner declares, each a string limited to a word no shell line can
  misread (``wrapgen.knowledge.runners.parameter_schema``); a default stays the runner's.
- policy: ``wrapgen.knowledge.runners.target_effect``: a confirm-gated write unless the target's
  name and help say it only reads; a target that depends on a writing one writes.
- JSON: none (runners print text), and ``timeout_s`` from the knowledge (builds are slow).
"""

from __future__ import annotations

from typing import Any

from wrapgen.knowledge.runners import command_line_noun, parameter_schema, target_effect
from wrapgen.model.proposal import Decision, Proposal
from wrapgen.model.recipe import ProposalRequest
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.names import proposed_pack_id, proposed_verb_name, segment, unique_names, verb_name
from wrapgen.propose.args import arg_name, positional_arg_name
from wrapgen.propose.select import MAX_VERBS
from wrapgen.propose.write import VerbDraft, write_verb

__all__ = ["is_runner_tool", "propose_runner", "RUNNER_TIMEOUT_S"]

_PREFIX = "runner-"
RUNNER_TIMEOUT_S = 600  # a build or a deploy outlasts the runtime's default of 60 s


def is_runner_tool(tool: Tool) -> bool:
    """Whether ``tool`` was read from a task runner's database rather than from its help."""
    return tool.root.parser.startswith(_PREFIX)


def _kind(tool: Tool) -> str:
    return tool.root.parser[len(_PREFIX) :]


def _prerequisites(command: Command) -> tuple[str, ...]:
    if not command.usage or ":" not in command.usage[0]:
        return ()
    return tuple(command.usage[0].split(":", 1)[1].split())


def _effects(targets: tuple[Command, ...]) -> dict[str, tuple[str, str]]:
    """(effect, reason) per target, prerequisites first (a cycle counts as a write)."""
    by_name = {c.name: c for c in targets}
    done: dict[str, tuple[str, str]] = {}
    visiting: set[str] = set()

    def effect(name: str) -> tuple[str, str]:
        if name in done:
            return done[name]
        command = by_name.get(name)
        if command is None:
            # a prerequisite that is no target of its own: a file the build makes
            return ("write", f"write: '{name}' is a file the runner makes")
        if name in visiting:
            return ("write", f"write: '{name}' depends on itself")
        visiting.add(name)
        prereqs = [(p, effect(p)[0]) for p in _prerequisites(command) if p != name]
        visiting.discard(name)
        help_text = command.summary or command.description
        done[name] = target_effect(name, help_text, prerequisites=prereqs)
        return done[name]

    for target in targets:
        effect(target.name)
    return done


def _description(command: Command, kind: str, bin_name: str) -> str:
    text = " ".join(command.summary.split()).rstrip(" .")
    if text:
        return text[0].upper() + text[1:] + "."
    noun = command_line_noun(kind)
    if command.description and noun:
        line = " ".join(command.description.split())
        line = line if len(line) <= 100 else line[:99] + "…"
        return f"Run the {kind} {noun} '{command.name}' ({line})."
    return f"Run the {kind} target '{command.name}' ({bin_name} {command.name})."


def _param_tokens(param: Flag | Positional, name: str) -> list[str]:
    placeholder = "{{%s}}" % name
    if isinstance(param, Positional):
        return [placeholder]
    if param.long and not param.long.startswith("-"):
        return [f"{param.long}={placeholder}"]  # a variable: make's and go-task's NAME=VALUE
    spelling = param.long or param.short or ""
    return [spelling, placeholder]


def _args(command: Command, settings) -> tuple[dict[str, dict], list[str], list[str], list[str]]:
    """(properties, required, cli tail, left-out notes) of one target's parameters."""
    include = None if settings.include_args is None else {a.lower() for a in settings.include_args}
    exclude = {a.lower() for a in settings.exclude_args or ()}
    properties: dict[str, dict] = {}
    required: list[str] = []
    tail: list[str] = []
    notes: list[str] = []
    params: list[Flag | Positional] = [*command.positionals, *command.flags]
    stop_operands = False
    for param in params:
        name = positional_arg_name(param) if isinstance(param, Positional) else arg_name(param)
        raw = param.name.lower()
        if (
            (include is not None and name not in include and raw not in include)
            or name in exclude
            or raw in exclude
        ):
            if isinstance(param, Positional) and param.required:
                notes.append(f"{param.name}: required by the runner, so kept")
            else:
                notes.append(f"{param.name}: left out by the recipe")
                if isinstance(param, Positional):
                    stop_operands = True  # a later operand would take this one's place
                continue
        if isinstance(param, Positional) and stop_operands:
            notes.append(f"{param.name}: left out, since an operand before it is")
            continue
        is_bool = isinstance(param, Flag) and not param.takes_value
        if is_bool:
            schema: dict[str, Any] = {
                "type": "boolean",
                "description": param.description or param.name,
            }
        else:
            default = param.default if isinstance(param, Flag) else None
            schema = parameter_schema(
                param.description, default=default, choices=param.choices if param.choices else ()
            )
            if isinstance(param, Positional) and param.variadic:
                schema = {
                    "type": "array",
                    "items": {k: v for k, v in schema.items() if k != "description"},
                    "description": schema.get("description", param.name),
                }
        properties[name] = schema
        if (param.required if isinstance(param, (Flag, Positional)) else False) and not is_bool:
            required.append(name)
        tail += _param_tokens(param, name)
    return properties, required, tail, notes


def _title(display: str, names: list[str]) -> dict[str, list[str]]:
    """``Running make deploy (env=production)``: a target's words say what it is, not what it does
    right now, so the title names the target and the parameters given (all of them, else one)."""
    shown = [", ".join(f"{n}={{{{{n}}}}}" for n in names)] if names else []
    if len(names) > 1:
        shown += [f"{n}={{{{{n}}}}}" for n in names[:3]]
    return {
        "live": [f"Running {display} ({s})" for s in shown] + [f"Running {display}"],
        "done": [f"Ran {display} ({s})" for s in shown] + [f"Ran {display}"],
    }


def propose_runner(tool: Tool, recipe=None, *, targets: tuple[Command, ...] | None = None):
    """The pack of a runner's targets (a ``Proposal``); ``targets``: the candidates the
    ``runner-targets`` source found (``wrapgen.propose.sources``), else the root's subcommands."""
    request = ProposalRequest.of(recipe)
    kind, bin_name, root = _kind(tool), tool.name, tool.root
    targets = tuple(root.subcommands) if targets is None else targets
    effects = _effects(targets)
    decisions: list[Decision] = []
    warnings: list[str] = list(tool.warnings)
    picked: list[Command] = []
    if request.commands is not None:
        by_path = {c.path: c for c in targets}
        for alias_owner in targets:
            for alias in alias_owner.aliases:
                by_path.setdefault((alias,), alias_owner)
        for entry in request.commands:
            command = by_path.get(entry.path)
            if command is None:
                warnings.append(
                    f"recipe names '{entry.path_text}', which is no target of {bin_name} here"
                )
                decisions.append(
                    Decision(entry.path_text, "", False, "", "not a target of the repository")
                )
            elif command not in picked:
                picked.append(command)
        decisions += [
            Decision(
                c.name, "", False, effects[c.name][0], "not picked (the recipe lists the targets)"
            )
            for c in targets
            if c not in picked
        ]
    else:
        for command in targets:
            if request.excludes(command.path):
                decisions.append(
                    Decision(
                        command.name, "", False, effects[command.name][0], "excluded by the recipe"
                    )
                )
            elif len(picked) >= MAX_VERBS:
                decisions.append(
                    Decision(
                        command.name,
                        "",
                        False,
                        effects[command.name][0],
                        f"not chosen: the pack already has {MAX_VERBS} targets, in the file's order",
                    )
                )
            else:
                picked.append(command)
    raw = []
    for command in picked:
        entry = request.entry_for(command.path)
        given = entry.name if entry is not None and entry.name else None
        raw.append(proposed_verb_name(given) if given else verb_name(command.path, bin=bin_name))
    names = unique_names(raw)
    warnings += [
        f"two targets are both named '{r}'; the second is '{n}'"
        for r, n in zip(raw, names)
        if r != n
    ]
    verbs: dict[str, dict] = {}
    chosen: list[Decision] = []
    prefix = list(root.probe)
    for command, name in zip(picked, names):
        settings = request.settings_for(name, command.path)
        effect, why = effects[command.name]
        properties, required, tail, notes = _args(command, settings)
        written = write_verb(
            VerbDraft(
                path_text=command.name,
                name=name,
                description=_description(command, kind, bin_name),
                cli=(bin_name, *prefix, command.name, *tail),
                properties=properties,
                required=tuple(required),
                title=_title(f"{bin_name} {command.name}", list(properties)),
                effect=effect,
                why=why,
                after=f"; args: {'; '.join(notes)}" if notes else "",
                timeout_s=RUNNER_TIMEOUT_S,
                extra={"json": list(settings.json)}
                if settings.json is not None and settings.json is not False
                else {},
            ),
            settings,
        )
        verbs[written.name] = written.body
        chosen.append(written.decision)
    default_id = f"{segment(_repo_name(root))}-{kind}"
    asked = request.pack_id
    pack_id = proposed_pack_id(
        asked if asked and asked != segment(bin_name.rsplit("/", 1)[-1]) else default_id
    )
    about = " ".join(root.summary.split()).rstrip(" .")
    description = request.description or (
        (about[0].upper() + about[1:] + ".") if about else f"The {kind} targets of a repository."
    )
    json_value: Any = (
        False
        if request.json is None
        else (request.json if request.json is False else list(request.json))
    )
    manifest: dict[str, Any] = {
        "pack_id": pack_id,
        "description": description,
        "bin": bin_name,
        "json": json_value,
        "verbs": verbs,
    }
    if request.env:
        manifest["env"] = {key: request.env[key] for key in ("pass", "set") if key in request.env}
    note = "none: a task runner prints text, so every command returns text"
    return Proposal(manifest, tuple(chosen + decisions), tuple(warnings), note)


def _repo_name(root: Command) -> str:
    """The repository's directory name: the last absolute path of the argv that runs the runner in it
    (``-C /repo``; just's ``--justfile /repo/justfile --working-directory /repo``)."""
    paths = [token.rstrip("/") for token in root.probe if token.startswith("/")]
    return paths[-1].rsplit("/", 1)[-1] if paths and paths[-1] else "repository"
