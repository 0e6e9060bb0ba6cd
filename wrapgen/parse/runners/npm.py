"""A ``package.json`` -> its ``scripts`` as targets. Pure.

npm declares no parameters for a script and no help either: the script's command line is the
target's ``description`` (the effect rule reads it), its ``summary`` is empty. A ``pre<name>`` or
``post<name>`` script that surrounds an existing ``<name>`` runs by itself and is no target. The
package's ``description`` describes the pack.
"""

from __future__ import annotations

import json

from wrapgen.knowledge.runners import is_hook
from wrapgen.model.tool import Command
from wrapgen.parse.runners import RunnerFileError, parser_name, usage_line

__all__ = ["parse_package_json"]


def parse_package_json(
    text: str, *, source: str = "package.json"
) -> tuple[tuple[Command, ...], str]:
    """(scripts, the package's description)."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise RunnerFileError(
            f"{source} is not JSON: {error}", hint="npm cannot read it either: fix the file"
        ) from None
    if not isinstance(data, dict):
        raise RunnerFileError(
            f"{source} is not a JSON object", hint="npm cannot read it either: fix the file"
        )
    scripts = data.get("scripts", {})
    scripts = {} if scripts is None else scripts
    if not isinstance(scripts, dict):
        raise RunnerFileError(
            f"{source}: `scripts` is not an object", hint="npm cannot read it either: fix the file"
        )
    names = [n for n, v in scripts.items() if isinstance(v, str)]
    out = []
    for name in names:
        if is_hook(name, names):
            continue
        before = [f"pre{name}"] if f"pre{name}" in names else []
        out.append(
            Command(
                path=(name,),
                description=scripts[name],
                usage=usage_line(name, before),
                parser=parser_name("npm"),
            )
        )
    about = data.get("description") if isinstance(data.get("description"), str) else ""
    return tuple(out), about.strip()
