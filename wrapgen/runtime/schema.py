"""Checking args against the JSON Schema subset of docs/contract.md §3, and ``k=v`` coercion (docs/contract.md §10).

Standard library only: the subset is small on purpose (type, properties, required,
additionalProperties, items, minItems, maxItems, enum, const, minimum, maximum, minLength,
maxLength, pattern, default, description), so the hot path needs no schema library.
"""

from __future__ import annotations

import math
import re

from wrapgen.errors import UsageError

__all__ = [
    "GATE_ARGS",
    "PATTERN_TIMEOUT_S",
    "validate_args",
    "apply_defaults",
    "coerce_kv",
    "pattern_search",
]

# confirm/apply are accepted by every verb (docs/contract.md §9), listed in its schema or not
GATE_ARGS = ("confirm", "apply")

# A pattern is checked inline only when it cannot backtrack badly: at most one variable-length
# repeat, nothing nested in it, no backreference, and a value of at most _INLINE_MAX characters.
# Every other check runs in a forked child that is killed after PATTERN_TIMEOUT_S (and limited to
# a little CPU, should its parent die): ``re`` holds the GIL while it matches, so in a server a
# thread cannot be stopped, and a catastrophic pattern would freeze every call; a child can be.
PATTERN_TIMEOUT_S = 1.0
_INLINE_MAX = 4096
_inline_cache: dict = {}

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
        return actual == "integer" or (
            actual == "number" and math.isfinite(value) and float(value).is_integer()
        )
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


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _simple_pattern(pattern: str) -> bool:
    """True when ``pattern`` has at most one variable-length repeat, none nested, no backreference."""
    if pattern in _inline_cache:
        return _inline_cache[pattern]
    try:
        from re import _parser as sre_parse  # 3.11+
    except ImportError:  # pragma: no cover (3.10)
        import sre_parse
    try:
        tree = sre_parse.parse(pattern)
    except Exception:
        _inline_cache[pattern] = False
        return False
    variable = 0
    simple = True

    def walk(items, inside_repeat: bool) -> None:
        nonlocal variable, simple
        for op, value in items:
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                low, high, body = value
                if high != low:
                    variable += 1
                    if inside_repeat:
                        simple = False
                walk(body, inside_repeat or high > 1)
            elif name in ("GROUPREF", "GROUPREF_EXISTS"):
                simple = False
            elif name == "SUBPATTERN":
                walk(value[-1], inside_repeat)
            elif name == "BRANCH":
                if inside_repeat:
                    simple = False
                for branch in value[1]:
                    walk(branch, inside_repeat)
            elif name in ("ASSERT", "ASSERT_NOT"):
                walk(value[1], inside_repeat)
            elif name == "ATOMIC_GROUP":
                walk(value, inside_repeat)

    try:
        walk(tree, False)
    except Exception:
        simple = False
    result = simple and variable <= 1
    if len(_inline_cache) < 256:
        _inline_cache[pattern] = result
    return result


def _search_in_child(compiled, value: str, timeout_s: float):
    """``compiled.search(value)`` in a forked child: True / False, or None when it took too long."""
    import os
    import select
    import signal

    try:
        import resource
    except ImportError:  # pragma: no cover
        resource = None
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            os.closerange(3, 1 << 20)  # hold nothing of the parent's (a server's other calls)
            if resource is not None:
                cpu = int(timeout_s) + 2
                resource.setrlimit(
                    resource.RLIMIT_CPU, (cpu, cpu)
                )  # bounded even if the parent dies
            code = 0 if compiled.search(value) is not None else 1
        finally:
            os._exit(code)
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    import time

    deadline = time.monotonic() + timeout_s
    status = None
    try:
        while True:
            got, status = os.waitpid(pid, os.WNOHANG)
            if got:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            if pidfd is not None:
                select.select([pidfd], [], [], left)
            else:
                time.sleep(min(left, 0.002))
    finally:
        if pidfd is not None:
            os.close(pidfd)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        return None
    return code == 0


def pattern_search(pattern: str, value: str, *, timeout_s: float = PATTERN_TIMEOUT_S):
    """Does ``value`` match ``pattern`` (``re.search``)? True / False, or None when the check was
    stopped after ``timeout_s`` (a pattern that backtracks catastrophically). A pattern that does
    not compile is no match (``check`` reports it)."""
    try:
        compiled = re.compile(pattern)
    except (re.error, TypeError, RecursionError, OverflowError):
        return False
    if len(value) <= _INLINE_MAX and _simple_pattern(pattern):
        return compiled.search(value) is not None
    return _search_in_child(compiled, value, timeout_s)


def _check(schema, value, path: str, errors: list[str]) -> None:
    if not isinstance(schema, dict):
        return
    types = schema.get("type")
    if types is not None:
        wanted = [types] if isinstance(types, str) else list(types)
        if not any(_is_type(value, t) for t in wanted):
            errors.append(
                f"{path}: expected {' or '.join(wanted)}, got {_type_name(value)} {_show(value)}"
            )
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
        if "pattern" in schema:
            found = pattern_search(schema["pattern"], value)
            if found is None:
                errors.append(
                    f"{path}: checking it against the pattern {schema['pattern']} took longer than "
                    f"{_seconds(PATTERN_TIMEOUT_S)} s (the pack's pattern backtracks catastrophically; "
                    "`wrapgen check` reports such patterns)"
                )
            elif not found:
                errors.append(
                    f"{path}: {_show(value)} does not match the pattern {schema['pattern']}"
                )
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: must be at least {schema['minimum']}, got {_show(value)}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: must be at most {schema['maximum']}, got {_show(value)}")
    if isinstance(value, (list, tuple)):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(
                f"{path}: must have at least {schema['minItems']} items, got {len(value)}"
            )
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: must have at most {schema['maxItems']} items, got {len(value)}")
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
                errors.append(
                    f"{prefix}{name}: expected boolean, got {_type_name(item)} {_show(item)}"
                )
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
    """``args`` with each missing property's ``default`` filled in (a new dict).

    Never ``confirm`` or ``apply``: a schema cannot give the confirmation only the caller can (docs/contract.md §9).
    """
    out = dict(args)
    for name, prop in ((schema or {}).get("properties") or {}).items():
        if name in GATE_ARGS:
            continue
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
            raise UsageError(
                f"{name}={text}: not an integer", hint=f"pass {name}=<whole number>, e.g. {name}=10"
            ) from None
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise UsageError(
                f"{name}={text}: not a number", hint=f"pass {name}=<number>, e.g. {name}=1.5"
            )
        return int(number) if re.fullmatch(r"[+-]?\d+", text.strip()) else number
    if kind == "boolean":
        lowered = text.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise UsageError(
            f"{name}={text}: not a boolean",
            hint=f"pass {name}=true or {name}=false (yes/no/1/0 work too)",
        )
    if kind in ("object", "null"):
        raise UsageError(
            f"{name}: a {kind} cannot be given as k=v",
            hint="send the whole envelope with --envelope",
        )
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
            raise UsageError(
                f"{pair!r} is not k=v", hint="write each argument as name=value after --"
            )
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
            raise UsageError(
                f"{name} is given twice",
                hint=f"{name} takes one value; only array arguments repeat",
            )
        args[name] = _coerce(name, text, kind)
    return args
