"""YAML documents checked against a JSON Schema: the one loader of packs, recipes and PATH wraps.

``load_document(raw, kind, path=...)`` reads YAML bytes (or text) into plain JSON values,
keeping the line of every node, and validates them against the schema ``kind`` names. Every
problem is a ``Diagnostic`` (``file:line: field: message``), never a traceback:

- the bytes: too large, binary (NUL), not UTF-8;
- the YAML: a syntax error (at its line), nesting or alias blow-up, a cyclic alias, empty,
  a top level that is not a mapping, a key given twice, a value JSON cannot hold;
- the schema: each jsonschema error at the line of the offending field. A ``oneOf``/``anyOf``
  failure is replaced by the errors of the one branch whose shape the value has; an unknown key
  gets "did you mean" with the closest key the schema allows there; a missing required key names a
  close misspelling present beside it.

The schema speaks for itself through two keys of wrapgen's own, read from the failing subschema:
``x-message`` (a string for any failure but ``required``/``additionalProperties``, or a mapping
from a validator name, e.g. ``{"required": ...}``), and ``x-hint`` (likewise a string or a mapping;
the innermost one on the schema path wins, ``$ref`` followed), so the hints live beside the fields
they explain.

Pure: no file access except ``read_document``, which turns ``OSError`` into a diagnostic.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

import yaml

from wrapgen.errors import Diagnostic, WrapgenError

__all__ = [
    "DocumentKind",
    "YamlDoc",
    "load_document",
    "read_document",
    "schema_diagnostics",
    "schema",
    "validator",
    "schema_keys",
    "format_field",
    "raise_for",
]

MAX_BYTES = 4 * 1024 * 1024  # our documents are a few kB; anything this big is not one
MAX_DEPTH = 64
MAX_NODES = 100_000  # after alias expansion: a few kB of YAML is a few hundred nodes


@dataclass(frozen=True)
class DocumentKind:
    """What a document is, for its messages: the schema it follows and the words it is described in.

    ``term`` is what its mapping entries are called ("field" in a pack, "key" in a recipe);
    ``expect`` completes "expected ..." for an empty file or a non-mapping, and ``start_hint`` is
    the hint given then; ``syntax`` opens the message of a YAML syntax error;
    ``quote_dots`` writes a key holding a dot as ``['pr.list']`` in field paths (a pack's paths stay
    ``verbs.pr.list``, the form ``check`` rules build); ``classify(parts, error)`` may return a
    ``(code, hint)`` pair that replaces the default for one schema error.
    """

    name: str
    schema_file: str
    code: str
    term: str = "field"
    expect: str = "a mapping"
    syntax: str = "YAML syntax error"
    start_hint: str = ""
    quote_dots: bool = False
    classify: Callable[[tuple, Any], tuple[str, str] | None] | None = None

    def field(self, parts: Iterable) -> str:
        return format_field(parts, quote_dots=self.quote_dots)


@dataclass(frozen=True)
class YamlDoc:
    """A parsed document: ``data`` as JSON values, and the 1-based line of every field.

    ``lines`` maps a field's parts (``("verbs", "find", "cli", 2)``) to the line of its key, or of
    the item for a list entry; ``()`` is the document itself.
    """

    data: Any
    kind: DocumentKind
    path: str
    lines: Mapping[tuple, int] = field(default_factory=dict)

    def line_of(self, parts: Iterable) -> int:
        """The line of ``parts``, or of its nearest ancestor that has one (1 at worst)."""
        current = tuple(parts)
        while current:
            if current in self.lines:
                return self.lines[current]
            current = current[:-1]
        return self.lines.get((), 1)

    def diagnostic(
        self, parts: Iterable, message: str, *, hint: str = "", code: str = "", level: str = "error"
    ) -> Diagnostic:
        parts = tuple(parts)
        return Diagnostic(
            level,
            code or self.kind.code,
            message,
            hint,
            self.path,
            self.line_of(parts),
            self.kind.field(parts),
        )

    def field_lines(self) -> dict[str, int]:
        """``lines`` keyed by field text (``verbs.find.cli[2]``) instead of parts."""
        out: dict[str, int] = {}
        for parts, line in self.lines.items():
            if parts:
                out.setdefault(self.kind.field(parts), line)
        return out


def format_field(parts: Iterable, *, quote_dots: bool = False) -> str:
    """``("verbs", "find", "title", "live", 1)`` -> ``verbs.find.title.live[1]``; ``()`` -> ``""``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif quote_dots and "." in str(part):
            text += f"[{str(part)!r}]"
        else:
            text += f".{part}" if text else str(part)
    return text


# -- schemas ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def schema(name: str) -> Mapping[str, Any]:
    """A JSON Schema shipped in ``wrapgen/pack/schemas/`` (read once)."""
    text = resources.files("wrapgen").joinpath(f"pack/schemas/{name}").read_text(encoding="utf-8")
    return json.loads(text)


@functools.lru_cache(maxsize=None)
def validator(name: str):
    """The checked jsonschema validator of a shipped schema (built once per process)."""
    import jsonschema

    document = schema(name)
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document)


def _resolve(root: Mapping, node: Any) -> Any:
    """Follow local ``$ref``s (``#/$defs/x``) until a node without one."""
    seen = 0
    while (
        isinstance(node, dict)
        and isinstance(node.get("$ref"), str)
        and node["$ref"].startswith("#/")
    ):
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node, seen = target, seen + 1
        if seen > 32:
            break
    return node


def _schema_chain(root: Mapping, schema_path: Iterable) -> list[Mapping]:
    """The subschemas an error's schema path passes through, root first, ``$ref`` followed.

    jsonschema leaves ``$ref`` out of the path, so a key missing from a node is looked up in the
    node its ``$ref`` points at.
    """
    node: Any = root
    chain = [node]
    for part in schema_path:
        if isinstance(node, dict) and part not in node:
            node = _resolve(root, node)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict):
            chain.append(node)
            target = _resolve(root, node)
            if target is not node and isinstance(target, dict):
                chain.append(target)
    return chain


def schema_keys(document: Mapping, pointer: str = "#") -> tuple[str, ...]:
    """The property names the schema allows at ``pointer`` (``#/$defs/override``), ``$ref`` followed.

    Where the node is a ``oneOf``/``anyOf``, the keys of its object branches, in order.
    """
    node = _resolve(document, {"$ref": pointer} if pointer not in ("", "#") else document)
    keys: list[str] = list(node.get("properties") or {}) if isinstance(node, dict) else []
    for branch in (node.get("oneOf") or node.get("anyOf") or ()) if isinstance(node, dict) else ():
        target = _resolve(document, branch)
        if isinstance(target, dict):
            keys += list(target.get("properties") or {})
    return tuple(dict.fromkeys(keys))


# -- YAML with lines ----------------------------------------------------------------------------


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader (libyaml's when present: 10x faster) without the timestamp resolver.

    ``2024-01-01`` stays a string, as JSON would have it.
    """


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _too_deep(text: str) -> bool:
    """Nesting beyond MAX_DEPTH, found with the event stream (iterative) before the recursive composer."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return False


def _shape_problem(root) -> str:
    """A reason the node graph cannot be a JSON value: a cycle of aliases, or alias blow-up."""
    count = 0
    stack = [(root, frozenset())]
    while stack:
        node, ancestors = stack.pop()
        count += 1
        if count > MAX_NODES:
            return f"more than {MAX_NODES} values once aliases are expanded"
        if id(node) in ancestors:
            return "an alias refers to a value that contains it (a cycle)"
        if isinstance(node, yaml.MappingNode):
            inner = ancestors | {id(node)}
            stack.extend((child, inner) for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            inner = ancestors | {id(node)}
            stack.extend((child, inner) for child in node.value)
    return ""


def _line_map(node, parts: tuple = (), out: dict | None = None) -> dict[tuple, int]:
    """Field parts -> 1-based line of its key (of the item, in a list), walking the node tree."""
    out = {(): node.start_mark.line + 1} if out is None else out
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            path = parts + (key_node.value,)
            out.setdefault(path, key_node.start_mark.line + 1)
            _line_map(value_node, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = parts + (index,)
            out.setdefault(path, item.start_mark.line + 1)
            _line_map(item, path, out)
    return out


def _duplicate_keys(node, parts: tuple = ()) -> list[tuple[tuple, int]]:
    """Keys given twice in one mapping: YAML keeps the last silently, which hides mistakes."""
    found: list[tuple[tuple, int]] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                path = parts + (key_node.value,)
                if key_node.value in seen:
                    found.append((path, key_node.start_mark.line + 1))
                seen.add(key_node.value)
                found += _duplicate_keys(value_node, path)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found += _duplicate_keys(item, parts + (index,))
    return found


def _not_json(value, parts: tuple = ()) -> list[tuple[tuple, str]]:
    """Values YAML can express but JSON cannot (non-string keys, bytes, sets, NaN)."""
    if isinstance(value, dict):
        found = []
        for key, item in value.items():
            if not isinstance(key, str):
                found.append((parts, f"key {key!r} is not a string: quote it"))
            else:
                found += _not_json(item, parts + (key,))
        return found
    if isinstance(value, list):
        return [
            hit for index, item in enumerate(value) for hit in _not_json(item, parts + (index,))
        ]
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return [(parts, "NaN and infinity are not JSON numbers")]
    if value is None or isinstance(value, (str, bool, int, float)):
        return []
    return [(parts, f"a {type(value).__name__} value is not JSON: use a string")]


def _kind_of(value) -> str:
    return {list: "a list", str: "a string"}.get(type(value), f"a {type(value).__name__}")


def load_document(
    raw: bytes | str, kind: DocumentKind, *, path: str
) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """Parse and validate one YAML document: (the document or None, its diagnostics).

    None when it could not be read as a mapping at all; a mapping that breaks the schema is still
    returned beside its diagnostics, so that a caller can report more than the first problem.
    Schema validation runs only when the YAML holds no duplicate key and no non-JSON value.
    """

    def fail(message: str, line: int = 1, hint: str = "") -> tuple[None, list[Diagnostic]]:
        return None, [Diagnostic("error", kind.code, message, hint, path, line, "")]

    if isinstance(raw, str):
        text = raw
    else:
        if len(raw) > MAX_BYTES:
            return fail(
                f"{len(raw)} bytes is too large for a {kind.name}", hint="is this the right file?"
            )
        if b"\x00" in raw:
            return fail(
                "binary file, not YAML text (it contains NUL bytes)",
                hint=f"point at a {kind.name} file",
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return fail(f"not UTF-8 text (byte {error.start})", hint="save the file as UTF-8")
    if len(text) > MAX_BYTES:
        return fail(
            f"{len(text)} characters is too large for a {kind.name}", hint="is this the right file?"
        )
    if "\x00" in text:
        return fail(
            "binary file, not YAML text (it contains NUL bytes)",
            hint=f"point at a {kind.name} file",
        )
    deep_hint = f"a {kind.name} is a few levels deep, not {MAX_DEPTH}"
    try:
        if _too_deep(text):
            return fail("YAML nested too deeply", hint=deep_hint)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            shape = _shape_problem(node) if node is not None else ""
            # A cyclic or exploding alias graph must not reach the constructor or the walkers below.
            data = None if shape or node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        context = getattr(error, "context", None)
        if context and problem and context not in problem:
            problem = f"{problem} ({context})"
        return fail(
            f"{kind.syntax}: {problem}",
            line,
            hint="fix the YAML syntax at this line (indentation, a missing colon or quote)",
        )
    except RecursionError:
        return fail("YAML nested too deeply", hint=deep_hint)
    if shape:
        return fail(
            f"YAML structure not allowed: {shape}", hint="write the values out instead of aliasing"
        )
    if node is None or data is None:
        return fail(f"empty file: expected {kind.expect}", hint=kind.start_hint)
    if not isinstance(data, dict):
        return fail(
            f"the top level is {_kind_of(data)}, expected {kind.expect}", hint=kind.start_hint
        )

    doc = YamlDoc(data=data, kind=kind, path=path, lines=MappingProxyType(_line_map(node)))
    diagnostics = [
        Diagnostic(
            "error",
            kind.code,
            "key given twice (YAML keeps only the last)",
            "remove one",
            path,
            line,
            kind.field(parts),
        )
        for parts, line in _duplicate_keys(node)
    ]
    diagnostics += [doc.diagnostic(parts, message) for parts, message in _not_json(data)]
    if not diagnostics:
        try:
            diagnostics += schema_diagnostics(doc)
        except RecursionError:
            return fail("YAML nested too deeply", hint=deep_hint)
    return doc, diagnostics


def read_document(
    file: str | Path, kind: DocumentKind, *, missing: str = "", missing_hint: str = "check the path"
) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """``load_document`` of a file; a file that cannot be read is one diagnostic (line 0)."""
    file = Path(file)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        return None, [
            Diagnostic(
                "error",
                kind.code,
                missing or f"{file} does not exist",
                missing_hint,
                str(file),
                0,
                "",
            )
        ]
    except IsADirectoryError:
        return None, [
            Diagnostic(
                "error",
                kind.code,
                f"{file} is a directory, not a {kind.name}",
                f"pass a {kind.name} file",
                str(file),
                0,
                "",
            )
        ]
    except OSError as error:
        return None, [
            Diagnostic(
                "error",
                kind.code,
                f"cannot read: {error.strerror}",
                "check the path and its permissions",
                str(file),
                0,
                "",
            )
        ]
    return load_document(raw, kind, path=str(file))


# -- schema errors -> diagnostics ---------------------------------------------------------------

_SHAPE = (
    "type",
    "const",
    "enum",
)  # a branch failing one of these at the value itself does not fit it


def _flatten(errors):
    """Replace a oneOf/anyOf failure by the errors of the one branch whose shape the value has.

    ``live: [ok, 3]`` fails oneOf(string, list of strings); the string branch fails on the type of
    the value itself, so the useful report is the list branch's, at ``live[1]``. When no branch
    or several fit, the failure stays as it is.
    """
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            depth = len(error.absolute_path)
            branches: dict[Any, list] = {}
            for sub in error.context:
                branches.setdefault(sub.relative_schema_path[0], []).append(sub)
            fitting = [
                subs
                for subs in branches.values()
                if not any(len(s.absolute_path) == depth and s.validator in _SHAPE for s in subs)
            ]
            if len(fitting) == 1:
                yield from _flatten(fitting[0])
                continue
        yield error


def _hint(chain: list[Mapping], validator_name: str) -> str:
    """The innermost ``x-hint`` along the chain (a mapping picks by the failing validator)."""
    for node in reversed(chain):
        hint = node.get("x-hint")
        if isinstance(hint, dict):
            hint = hint.get(validator_name)
        if isinstance(hint, str) and hint:
            return hint
    return ""


def _message(error, term: str) -> str:
    custom = error.schema.get("x-message") if isinstance(error.schema, dict) else None
    if isinstance(custom, dict):
        custom = custom.get(error.validator)
    elif error.validator in ("required", "additionalProperties"):
        custom = None
    if isinstance(custom, str):
        return custom
    if error.validator == "required":
        missing = re.search(r"'([^']+)' is a required property", error.message)
        return f"missing required {term} {missing.group(1)!r}" if missing else error.message
    if error.validator in ("oneOf", "anyOf"):
        return f"{json.dumps(error.instance, ensure_ascii=False)[:80]} is not a valid value here"
    return error.message


def _allowed(schema_node: Mapping) -> tuple[list[str], list[str]]:
    return sorted(schema_node.get("properties", {})), list(schema_node.get("patternProperties", {}))


def _unknown(key: str, allowed: list[str], patterns: list[str]) -> bool:
    return key not in allowed and not any(re.search(p, key) for p in patterns)


def schema_diagnostics(doc: YamlDoc) -> list[Diagnostic]:
    """Each schema error of ``doc`` as a diagnostic at its field's line, sorted by line."""
    kind = doc.kind
    root = schema(kind.schema_file)
    out: list[Diagnostic] = []
    errors = sorted(
        _flatten(validator(kind.schema_file).iter_errors(doc.data)),
        key=lambda e: (list(map(str, e.absolute_path)), e.message),
    )
    for error in errors:
        parts = tuple(error.absolute_path)
        chain = _schema_chain(root, error.absolute_schema_path)
        hint = _hint(chain, error.validator)
        code = kind.code
        if "propertyNames" in error.schema_path:
            # The instance of a propertyNames error is the offending key itself.
            parts = parts + (str(error.instance),)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed, patterns = _allowed(error.schema)
            for key in error.instance:
                if not _unknown(key, allowed, patterns):
                    continue
                close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.5)
                where = f"allowed here: {', '.join(allowed)}" if allowed else ""
                key_hint = f"did you mean {close[0]!r}? {where}".strip() if close else where
                out.append(
                    doc.diagnostic(parts + (key,), f"unknown {kind.term} {key!r}", hint=key_hint)
                )
            continue
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = re.search(r"'([^']+)' is a required property", error.message)
            allowed, patterns = _allowed(error.schema)
            strays = [
                k for k in error.instance if isinstance(k, str) and _unknown(k, allowed, patterns)
            ]
            close = (
                difflib.get_close_matches(missing.group(1), strays, n=1, cutoff=0.6)
                if missing
                else []
            )
            if close:
                hint = f"found {close[0]!r}: did you mean {missing.group(1)!r}?"
        if kind.classify is not None:
            override = kind.classify(parts, error)
            if override is not None:
                code, hint = override[0] or code, override[1] or hint
        out.append(doc.diagnostic(parts, _message(error, kind.term), hint=hint, code=code))
    # two schema errors can say the same of one field (minLength and pattern, both with its x-message):
    # each finding once
    return sorted(dict.fromkeys(out), key=lambda d: (d.line, d.field, d.message))


# -- diagnostics -> one exception ---------------------------------------------------------------


def raise_for(diagnostics: list[Diagnostic], error_cls: type[WrapgenError] = WrapgenError) -> None:
    """Raise ``error_cls`` for the errors among ``diagnostics``, if any; the first one is the headline.

    ``path:line: field: message (and N more)``, with the first one's hint; the others ride along as
    ``diagnostics`` for the error printer to list.
    """
    errors = [d for d in diagnostics if d.level == "error"]
    if not errors:
        return
    first = errors[0]
    where = f"{first.path}:{first.line}" if first.line else first.path
    message = (
        f"{where}: {first.field}: {first.message}" if first.field else f"{where}: {first.message}"
    )
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more)"
    raise error_cls(message, hint=first.hint, diagnostics=tuple(errors[1:]))
