"""Checking args against the JSON Schema subset of docs/contract.md §3, and ``k=v`` coercion (docs/contract.md §10).

Standard library only: the subset is small on purpose (type, properties, required,
additionalProperties, items, enum, const, minimum, maximum, minLength, maxLength, pattern,
default, description), so the hot path needs no schema library.
"""

from __future__ import annotations

import math
import re

from wrapgen.errors import UsageError

__all__ = ["GATE_ARGS", "validate_args", "apply_defaults", "coerce_kv"]

# confirm/apply are accepted by every verb (docs/contract.md §9), listed in its schema or not
GATE_ARGS = ("confirm", "apply")

_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


def _type_name(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _is_type(value, expected: str) -> bool:
    actual = _type_name(value)
    if expected == "number":
        return actual in ("integer", "number") and math.isfinite(value)
    if expected == "integer":
        return actual == "integer" or (actual == "number" and math.isfinite(value) and float(value).is_integer())
    return actual == expected


def _same(a, b) -> bool:
    """JSON equality: true is not 1, 1 equals 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _show(value) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


def _check(schema, value, path: str, errors: list[str]) -> None:
    if not isinstance(schema, dict):
        return
    types = schema.get("type")
    if types is not None:
        wanted = [types] if isinstance(types, str) else list(types)
        if not any(_is_type(value, t) for t in wanted):
            errors.append(f"{path}: expected {' or '.join(wanted)}, got {_type_name(value)} {_show(value)}")
            return
    if "const" in schema and not _same(value, schema["const"]):
        errors.append(f"{path}: must be {_show(schema['const'])}, got {_show(value)}")
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        options = ", ".join(_show(option) for option in schema["enum"])
        errors.append(f"{path}: must be one of {options}, got {_show(value)}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append(f"{path}: must be at least {schema['minLength']} characters long")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: must be at most {schema['maxLength']} characters long")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            errors.append(f"{path}: {_show(value)} does not match the pattern {schema['pattern']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: must be at least {schema['minimum']}, got {_show(value)}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: must be at most {schema['maximum']}, got {_show(value)}")
    if isinstance(value, (list, tuple)) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            _check(schema["items"], item, f"{path}[{index}]", errors)
    if isinstance(value, dict):
        _check_object(schema, value, path, errors, gate=False)


def _check_object(schema, value: dict, path: str, errors: list[str], *, gate: bool) -> None:
    properties = schema.get("properties") or {}
    prefix = f"{path}." if path else ""
    for name in schema.get("required") or ():
        if name not in value:
            errors.append(f"{prefix}{name}: required but missing")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            _check(properties[name], item, f"{prefix}{name}", errors)
        elif gate and name in GATE_ARGS:
            if not isinstance(item, bool):
                errors.append(f"{prefix}{name}: expected boolean, got {_type_name(item)} {_show(item)}")
        elif extra is False:
            valid = sorted(set(properties) | (set(GATE_ARGS) if gate else set()))
            errors.append(f"{prefix}{name}: unknown argument (valid: {', '.join(valid) or 'none'})")
        elif isinstance(extra, dict):
            _check(extra, item, f"{prefix}{name}", errors)


def validate_args(schema, args) -> list[str]:
    """Every way ``args`` breaks ``schema``, one message each (``name: what is wrong``); [] when valid.

    ``confirm`` and ``apply`` are always accepted (as booleans) even when the schema omits them.
    """
    schema = schema or {"type": "object", "properties": {}, "additionalProperties": False}
    if not isinstance(args, dict):
        return [f"args: expected an object, got {_type_name(args)}"]
    errors: list[str] = []
    _check_object(schema, args, "", errors, gate=True)
    return errors


def apply_defaults(schema, args: dict) -> dict:
    """``args`` with each missing property's ``default`` filled in (a new dict)."""
    out = dict(args)
    for name, prop in ((schema or {}).get("properties") or {}).items():
        if name not in out and isinstance(prop, dict) and "default" in prop:
            out[name] = prop["default"]
    return out


def _first_type(schema) -> str:
    types = (schema or {}).get("type", "string")
    if isinstance(types, list):
        types = next((t for t in types if t != "null"), "string")
    return types


def _coerce(name: str, text: str, kind: str):
    if kind == "integer":
        try:
            return int(text, 10)
        except ValueError:
            raise UsageError(f"{name}={text}: not an integer", hint=f"pass {name}=<whole number>, e.g. {name}=10") from None
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise UsageError(f"{name}={text}: not a number", hint=f"pass {name}=<number>, e.g. {name}=1.5")
        return int(number) if re.fullmatch(r"[+-]?\d+", text.strip()) else number
    if kind == "boolean":
        lowered = text.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise UsageError(f"{name}={text}: not a boolean", hint=f"pass {name}=true or {name}=false (yes/no/1/0 work too)")
    if kind in ("object", "null"):
        raise UsageError(f"{name}: a {kind} cannot be given as k=v", hint="send the whole envelope with --envelope")
    return text


def coerce_kv(pairs, schema) -> dict:
    """Turn ``["k=v", ...]`` into args, typed by ``schema`` (docs/contract.md §10); repeating a key builds an array.

    Raises ``UsageError`` naming the key and the valid keys for an unknown key, a bad value, a
    missing ``=`` or a non-array key given twice.
    """
    schema = schema or {}
    properties = schema.get("properties") or {}
    closed = schema.get("additionalProperties", True) is False
    args: dict = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"{pair!r} is not k=v", hint="write each argument as name=value after --")
        if name in properties:
            prop = properties[name]
        elif name in GATE_ARGS:
            prop = {"type": "boolean"}
        elif closed:
            valid = ", ".join(sorted(set(properties) | set(GATE_ARGS)))
            raise UsageError(f"unknown argument {name!r}", hint=f"valid arguments: {valid}")
        else:
            prop = {"type": "string"}
        kind = _first_type(prop)
        if kind == "array":
            item_kind = _first_type(prop.get("items") or {"type": "string"})
            args.setdefault(name, []).append(_coerce(name, text, item_kind))
            continue
        if name in args:
            raise UsageError(f"{name} is given twice", hint=f"{name} takes one value; only array arguments repeat")
        args[name] = _coerce(name, text, kind)
    return args
