"""go-task: ``task --list-all --json`` and the Taskfile's text -> tasks. Pure.

The listing gives the tasks go-task itself sees (includes resolved, internal tasks left out) with
their ``desc``, aliases and line; the Taskfile's YAML adds what the listing does not print: the
variables a task requires (``requires: {vars: [ENV]}``, passed as ``task deploy ENV=production``)
and its ``deps``. Where go-task is not installed, ``parse_taskfile`` reads the Taskfile alone
(its own tasks only: included Taskfiles are not followed, a warning says so).
"""

from __future__ import annotations

import json
from typing import Any

from wrapgen.model.tool import Command, Flag
from wrapgen.parse.runners import RunnerFileError, parser_name, usage_line

__all__ = ["parse_task_list", "parse_taskfile"]


def _yaml(text: str, source: str) -> dict:
    import yaml

    try:
        data = yaml.safe_load(text) if text else {}
    except yaml.YAMLError as error:
        raise RunnerFileError(
            f"{source} is not valid YAML: {error}",
            hint="go-task cannot read it either: fix the file",
        ) from None
    return data if isinstance(data, dict) else {}


def _task_definitions(data: dict) -> dict[str, Any]:
    tasks = data.get("tasks") or {}
    return tasks if isinstance(tasks, dict) else {}


def _required(definition: Any) -> tuple[Flag, ...]:
    if not isinstance(definition, dict):
        return ()
    requires = definition.get("requires") or {}
    names = requires.get("vars") if isinstance(requires, dict) else None
    out = []
    for entry in names or ():
        name = entry.get("name") if isinstance(entry, dict) else entry
        choices = (
            tuple(str(c) for c in (entry.get("enum") or ())) if isinstance(entry, dict) else ()
        )
        if isinstance(name, str) and name:
            out.append(
                Flag(
                    long=name,
                    takes_value=True,
                    value_name=name,
                    type="enum" if choices else "string",
                    choices=choices,
                    required=True,
                    description=f"The task variable {name}",
                )
            )
    return tuple(out)


def _deps(definition: Any) -> list[str]:
    if not isinstance(definition, dict):
        return []
    out = []
    for dep in definition.get("deps") or ():
        name = dep.get("task") if isinstance(dep, dict) else dep
        if isinstance(name, str):
            out.append(name)
    return out


def _task(name: str, summary: str, aliases, definition: Any) -> Command:
    return Command(
        path=(name,),
        summary=summary.strip(),
        usage=usage_line(name, _deps(definition)),
        flags=_required(definition),
        aliases=tuple(str(a) for a in aliases or ()),
        parser=parser_name("task"),
    )


def parse_task_list(
    listing: str, taskfile_text: str = "", *, source: str = "Taskfile.yml"
) -> tuple[Command, ...]:
    """The tasks of go-task's JSON listing, with what ``taskfile_text`` adds."""
    try:
        data = json.loads(listing)
    except ValueError as error:
        raise RunnerFileError(
            f"task --list-all --json printed no JSON ({error})",
            hint="check that `task --list-all --json` works in the repository",
        ) from None
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, list):
        raise RunnerFileError(
            "task --list-all --json printed JSON without tasks", hint="upgrade go-task"
        )
    definitions = _task_definitions(_yaml(taskfile_text, source))
    entries = [t for t in tasks if isinstance(t, dict) and isinstance(t.get("name"), str)]
    entries.sort(
        key=lambda t: (
            (t.get("location") or {}).get("taskfile", ""),
            (t.get("location") or {}).get("line", 0),
        )
    )
    return tuple(
        _task(
            t["name"],
            t.get("desc") or t.get("summary") or "",
            t.get("aliases"),
            definitions.get(t["name"]),
        )
        for t in entries
    )


def parse_taskfile(
    text: str, *, source: str = "Taskfile.yml"
) -> tuple[tuple[Command, ...], tuple[str, ...]]:
    """The tasks of a Taskfile read as YAML, without go-task: (tasks, warnings)."""
    data = _yaml(text, source)
    out = []
    for name, definition in _task_definitions(data).items():
        if isinstance(definition, dict) and definition.get("internal"):
            continue
        desc = definition.get("desc", "") if isinstance(definition, dict) else ""
        aliases = definition.get("aliases") if isinstance(definition, dict) else ()
        out.append(_task(str(name), str(desc or ""), aliases, definition))
    warnings = [
        "go-task is not installed: the Taskfile was read as YAML, without its includes"
        + (
            " (" + ", ".join(sorted(map(str, data["includes"]))) + ")"
            if isinstance(data.get("includes"), dict)
            else ""
        )
    ]
    return tuple(out), tuple(warnings)
