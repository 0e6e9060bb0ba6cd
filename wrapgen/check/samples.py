"""A sample value for an arg, from its JSON Schema: what ``check --probe`` and the trials render verbs with.

Both want a value the schema accepts (its default, else its first choice, else one of its type);
for a string they differ on purpose. ``check --probe`` only needs every flag to render, so any word
does ("sample"); a trial runs the tool, so a required string gets a value that tool would take by
the arg's name and description (a revision ``HEAD``, a path ``.``: ``knowledge/data/trials.json``'s
``samples``), which ``realistic=True`` asks for.
"""

from __future__ import annotations

from typing import Any, Mapping

from wrapgen.knowledge.trials import sample_for

__all__ = ["sample_value"]


def sample_value(
    schema: Mapping[str, Any], *, name: str = "", realistic: bool = False, context: str = ""
) -> Any:
    """A value ``schema`` accepts; a string is ``sample_for(name, description, context)`` when
    ``realistic`` (``context``: the verb's and the pack's descriptions), else "sample"."""
    if "default" in schema:
        return schema["default"]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type", "string")
    if kind == "boolean":
        return True
    if kind in ("integer", "number"):
        low = schema.get("minimum", 1)
        return max(1, int(low)) if kind == "integer" else max(1, low)
    if kind == "array":
        items = schema.get("items", {"type": "string"})
        if realistic:  # the array's own description says what its items are ("paths to read")
            items = items | {"description": schema.get("description", "")}
        value = sample_value(items, name=name, realistic=realistic, context=context)
        return [value] * max(1, int(schema.get("minItems", 1)))
    if not realistic:
        return "sample"
    return sample_for(name, str(schema.get("description", "")), context)
