"""pack.yaml: load, validate against ``schemas/pack.schema.json``, dump (SPEC sections 2 to 4).

Loading never raises a traceback for bad input: every problem (YAML syntax, a binary file, a
non-mapping, a schema violation) becomes a ``Diagnostic`` carrying the field path
(``verbs.find.title.live[1]``) and the line it sits on; ``load_manifest`` raises one
``ManifestError`` listing them. Line numbers come from YAML's node tree (``yaml.compose``),
so they point at the key of the offending field.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import yaml

from wrapgen.errors import Diagnostic, ManifestError

__all__ = [
    "MANIFEST_NAME",
    "SCHEMA_CODE",
    "NAME_CODE",
    "Manifest",
    "pack_schema",
    "parse_manifest",
    "read_manifest",
    "load_manifest",
    "load_pack",
    "dump_manifest",
    "format_field",
]

MANIFEST_NAME = "pack.yaml"
SCHEMA_CODE = "W001"  # the manifest is unreadable or breaks pack.schema.json
NAME_CODE = "W002"  # a pack_id or verb name that breaks SPEC 4

TOP_ORDER = ("pack_id", "description", "bin", "json", "wrap", "env", "verbs")
VERB_ORDER = ("description", "cli", "args", "policy", "json", "timeout_s", "title", "aliases")
ARGS_ORDER = ("type", "description", "properties", "required", "additionalProperties")
ARG_ORDER = (
    "type", "description", "enum", "const", "default", "items",
    "minimum", "maximum", "minLength", "maxLength", "pattern",
)
_SUBORDERS = {"policy": ("effect", "confirm"), "title": ("live", "done")}
_MAX_BYTES = 4 * 1024 * 1024  # a manifest is a few kB; anything this big is not one


@dataclass(frozen=True)
class Manifest:
    """A parsed pack.yaml: ``data`` as plain JSON values, the ``raw`` bytes, and field lines."""

    data: Mapping[str, Any]
    raw: bytes
    lines: Mapping[str, int] = field(default_factory=dict)
    path: str = MANIFEST_NAME

    def line_of(self, field_path: str) -> int:
        """The line of ``field_path``, or of its nearest ancestor that has one (1 at worst)."""
        current = field_path
        while current:
            if current in self.lines:
                return self.lines[current]
            current = _parent(current)
        return 1

    def diagnostic(self, code: str, level: str, field_path: str, message: str, *, hint: str = "") -> Diagnostic:
        return Diagnostic(
            level=level, code=code, message=message, hint=hint,
            path=self.path, line=self.line_of(field_path), field=field_path,
        )


def _parent(field_path: str) -> str:
    if field_path.endswith("]"):
        return field_path[: field_path.rindex("[")]
    return field_path.rpartition(".")[0]


def format_field(parts) -> str:
    """``("verbs", "find", "title", "live", 1)`` -> ``verbs.find.title.live[1]``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


@functools.lru_cache(maxsize=1)
def pack_schema() -> Mapping[str, Any]:
    """The shipped JSON Schema for pack.yaml (draft 2020-12)."""
    text = resources.files("wrapgen").joinpath("pack/schemas/pack.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    schema = pack_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader (libyaml's when present: 10x faster) without the timestamp resolver.

    ``2024-01-01`` stays a string, as JSON would have it.
    """


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


_MAX_DEPTH = 64


def _too_deep(text: str) -> bool:
    """Nesting beyond _MAX_DEPTH, found with the event stream (iterative) before the recursive composer."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > _MAX_DEPTH:
                return True
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return False


_MAX_NODES = 100_000  # after alias expansion: a few kB of manifest is a few hundred nodes


def _shape_problem(root) -> str:
    """A reason the node graph cannot be a JSON value: a cycle of aliases, or alias blow-up."""
    count = 0
    stack = [(root, frozenset())]
    while stack:
        node, ancestors = stack.pop()
        count += 1
        if count > _MAX_NODES:
            return f"more than {_MAX_NODES} values once aliases are expanded"
        if id(node) in ancestors:
            return "an alias refers to a value that contains it (a cycle)"
        if isinstance(node, yaml.MappingNode):
            inner = ancestors | {id(node)}
            stack.extend((child, inner) for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            inner = ancestors | {id(node)}
            stack.extend((child, inner) for child in node.value)
    return ""


def _line_map(node, parts=(), out=None) -> dict[str, int]:
    """Field path -> 1-based line, walking the composed YAML node tree."""
    out = {} if out is None else out
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            path = parts + (key_node.value,)
            out.setdefault(format_field(path), key_node.start_mark.line + 1)
            _line_map(value_node, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = parts + (index,)
            out.setdefault(format_field(path), item.start_mark.line + 1)
            _line_map(item, path, out)
    return out


def _duplicate_keys(node, parts=()) -> list[tuple[str, int]]:
    """Keys given twice in one mapping: YAML keeps the last silently, which hides mistakes."""
    found: list[tuple[str, int]] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                path = parts + (key_node.value,)
                if key_node.value in seen:
                    found.append((format_field(path), key_node.start_mark.line + 1))
                seen.add(key_node.value)
                found += _duplicate_keys(value_node, path)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found += _duplicate_keys(item, parts + (index,))
    return found


def _not_json(value, parts=()) -> list[tuple[str, str]]:
    """Values YAML can express but JSON cannot (non-string keys, bytes, sets, NaN)."""
    if isinstance(value, dict):
        found = []
        for key, item in value.items():
            if not isinstance(key, str):
                found.append((format_field(parts), f"key {key!r} is not a string: quote it"))
            else:
                found += _not_json(item, parts + (key,))
        return found
    if isinstance(value, list):
        return [hit for index, item in enumerate(value) for hit in _not_json(item, parts + (index,))]
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return [(format_field(parts), "NaN and infinity are not JSON numbers")]
    if value is None or isinstance(value, (str, bool, int, float)):
        return []
    return [(format_field(parts), f"a {type(value).__name__} value is not JSON: use a string")]


def _schema_message(error) -> str:
    custom = error.schema.get("x-message") if isinstance(error.schema, dict) else None
    if custom and error.validator not in ("required", "additionalProperties"):
        return custom
    if error.validator == "required":
        missing = re.search(r"'([^']+)' is a required property", error.message)
        return f"missing required field {missing.group(1)!r}" if missing else error.message
    return error.message


def _flatten(errors):
    """Replace a oneOf failure by the errors inside the branch that matched the value's shape.

    ``live: [ok, 3]`` fails oneOf(string, list of strings); the useful report is the one at
    ``live[1]``, found deeper in the error's context.
    """
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            depth = len(error.absolute_path)
            deeper = [sub for sub in error.context if len(sub.absolute_path) > depth]
            if deeper:
                yield from _flatten(deeper)
                continue
        yield error


def _schema_diagnostics(data, lines: Mapping[str, int], path: str) -> list[Diagnostic]:
    manifest = Manifest(data=data, raw=b"", lines=lines, path=path)
    out: list[Diagnostic] = []
    errors = sorted(_flatten(_validator().iter_errors(data)), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    for error in errors:
        parts = tuple(error.absolute_path)
        code = SCHEMA_CODE
        hint = ""
        if "propertyNames" in error.schema_path:
            # The instance of a propertyNames error is the offending key itself.
            parts = parts + (str(error.instance),)
            if parts[:1] == ("verbs",) and len(parts) == 2:
                code = NAME_CODE
                hint = "rename it, e.g. list, mail.list, pr.view"
        elif parts == ("pack_id",) and error.validator == "pattern":
            code = NAME_CODE
            hint = "use lower-case letters, digits and '-', starting with a letter"
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = sorted(error.schema.get("properties", {}))
            known = set(allowed)
            patterns = list(error.schema.get("patternProperties", {}))
            for key in error.instance:
                if key in known or any(re.search(p, key) for p in patterns):
                    continue
                field_path = format_field(parts + (key,))
                out.append(manifest.diagnostic(
                    SCHEMA_CODE, "error", field_path, f"unknown field {key!r}",
                    hint=f"allowed here: {', '.join(allowed)}" if allowed else "",
                ))
            continue
        field_path = format_field(parts)
        out.append(manifest.diagnostic(code, "error", field_path, _schema_message(error), hint=hint))
    return sorted(out, key=lambda d: (d.line, d.field, d.message))


def parse_manifest(raw: bytes, *, path: str = MANIFEST_NAME) -> tuple[Manifest | None, list[Diagnostic]]:
    """Parse and validate pack.yaml bytes; the manifest is None when it could not be parsed at all.

    Pure: no file access. A manifest with schema diagnostics is still returned so that ``check``
    can report more than the first problem.
    """

    def fail(message: str, line: int = 1, hint: str = "") -> tuple[None, list[Diagnostic]]:
        return None, [Diagnostic("error", SCHEMA_CODE, message, hint, path, line, "")]

    if len(raw) > _MAX_BYTES:
        return fail(f"{len(raw)} bytes is too large for a manifest", hint="is this the right file?")
    if b"\x00" in raw:
        return fail("binary file, not YAML text (it contains NUL bytes)", hint="point at a pack.yaml")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return fail(f"not UTF-8 text (byte {error.start})", hint="save pack.yaml as UTF-8")
    try:
        if _too_deep(text):
            return fail("YAML nested too deeply", hint=f"a manifest is a few levels deep, not {_MAX_DEPTH}")
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
        return fail(f"YAML syntax error: {problem}", line, hint="fix the YAML at this line")
    except RecursionError:
        return fail("YAML nested too deeply", hint="a manifest is a few levels deep")
    if shape:
        return fail(f"YAML structure not allowed: {shape}", hint="write the values out instead of aliasing")
    if node is None or data is None:
        return fail("empty file: expected a mapping with pack_id, description, bin and verbs")
    if not isinstance(data, dict):
        kind = {list: "a list", str: "a string"}.get(type(data), f"a {type(data).__name__}")
        return fail(f"the top level is {kind}, expected a mapping with pack_id, description, bin and verbs")

    lines = _line_map(node)
    diagnostics = [
        Diagnostic("error", SCHEMA_CODE, "key given twice (YAML keeps only the last)", "remove one",
                   path, line, field_path)
        for field_path, line in _duplicate_keys(node)
    ]
    manifest = Manifest(data=data, raw=raw, lines=MappingProxyType(lines), path=path)
    for field_path, message in _not_json(data):
        diagnostics.append(manifest.diagnostic(SCHEMA_CODE, "error", field_path, message))
    if not diagnostics:
        try:
            diagnostics += _schema_diagnostics(data, lines, path)
        except RecursionError:
            return fail("YAML nested too deeply", hint="a manifest is a few levels deep")
        if not diagnostics:  # the walk below relies on the shape the schema guarantees
            diagnostics += _pattern_diagnostics(manifest)
    return manifest, diagnostics


def _pattern_diagnostics(manifest: Manifest) -> list[Diagnostic]:
    """An arg ``pattern`` must compile, or the runtime could not check it."""
    out = []
    verbs = manifest.data.get("verbs")
    for name, verb in (verbs.items() if isinstance(verbs, dict) else ()):
        properties = ((verb or {}).get("args") or {}).get("properties") or {}
        for arg, schema in properties.items():
            for sub, prefix in ((schema, ()), ((schema or {}).get("items"), ("items",))):
                pattern = sub.get("pattern") if isinstance(sub, dict) else None
                if isinstance(pattern, str):
                    try:
                        re.compile(pattern)
                    except re.error as error:
                        field_path = format_field(("verbs", name, "args", "properties", arg) + prefix + ("pattern",))
                        out.append(manifest.diagnostic(SCHEMA_CODE, "error", field_path,
                                                       f"not a valid regular expression: {error}"))
    return out


def _manifest_path(path_or_dir) -> Path:
    path = Path(path_or_dir)
    return path / MANIFEST_NAME if path.is_dir() else path


def read_manifest(path_or_dir) -> tuple[Manifest | None, list[Diagnostic]]:
    """Read pack.yaml from a file or a pack directory: (manifest or None, diagnostics)."""
    path = _manifest_path(path_or_dir)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, [Diagnostic("error", SCHEMA_CODE, "no pack.yaml here",
                                 "pass a pack directory or a pack.yaml file", str(path), 0, "")]
    except OSError as error:
        return None, [Diagnostic("error", SCHEMA_CODE, f"cannot read: {error.strerror}",
                                 "check the path and its permissions", str(path), 0, "")]
    return parse_manifest(raw, path=str(path))


def load_manifest(path_or_dir) -> Manifest:
    """The valid manifest at a file or pack directory; raises ``ManifestError`` listing each problem."""
    manifest, diagnostics = read_manifest(path_or_dir)
    errors = tuple(d for d in diagnostics if d.level == "error")
    if manifest is None or errors:
        path = _manifest_path(path_or_dir)
        raise ManifestError(
            f"{path} is not a valid pack manifest ({len(errors)} problem{'s' * (len(errors) != 1)})",
            hint="fix the fields listed above; the format is SPEC section 3",
            diagnostics=errors,
        )
    return manifest


load_pack = load_manifest  # the name wrapgen's public API exports


# --- dumping -----------------------------------------------------------------------------------


def _ordered(mapping: Mapping[str, Any], order) -> dict:
    """Keys in ``order`` first, then the rest in their existing order."""
    out = {key: mapping[key] for key in order if key in mapping}
    out.update((key, value) for key, value in mapping.items() if key not in out)
    return out


def _order_arg(schema):
    if not isinstance(schema, dict):
        return schema
    out = _ordered(schema, ARG_ORDER)
    if isinstance(out.get("items"), dict):
        out["items"] = _ordered(out["items"], ARG_ORDER)
    return out


def _order_verb(verb):
    if not isinstance(verb, dict):
        return verb
    out = _ordered(verb, VERB_ORDER)
    for key, order in _SUBORDERS.items():
        if isinstance(out.get(key), dict):
            out[key] = _ordered(out[key], order)
    args = out.get("args")
    if isinstance(args, dict):
        args = _ordered(args, ARGS_ORDER)
        if isinstance(args.get("properties"), dict):
            args["properties"] = {name: _order_arg(s) for name, s in args["properties"].items()}
        out["args"] = args
    return out


def _canonical(data: Mapping[str, Any]) -> dict:
    out = _ordered(data, TOP_ORDER)
    if isinstance(out.get("verbs"), dict):
        out["verbs"] = {name: _order_verb(verb) for name, verb in out["verbs"].items()}
    return out


class _Dumper(yaml.SafeDumper):
    """Block mappings; short scalar lists in flow style (cli[] reads best on one line)."""

    def ignore_aliases(self, data):  # shared sub-objects are written out, never as &anchors
        return True

    def increase_indent(self, flow=False, indentless=False):
        # Indent block lists under their key ("cli:\n  - git"), which reads better than PyYAML's default.
        return super().increase_indent(flow, False)


def _represent_list(dumper, value):
    flow = bool(value) and all(isinstance(item, (str, int, float, bool)) for item in value) and (
        len(json.dumps(value, ensure_ascii=False)) <= 90
    )
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_UNICODE_BREAKS = re.compile("[\x85\u2028\u2029]")


def _represent_str(dumper, value):
    if _UNICODE_BREAKS.search(value):
        # libyaml reads NEL/LS/PS inside plain or single-quoted scalars as line breaks: escape them.
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    style = "|" if "\n" in value and not re.search(r"[ \t]\n|^\s", value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_dict(dumper, value):
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=False)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(tuple, _represent_list)
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(MappingProxyType, _represent_dict)


def dump_manifest(data: Mapping[str, Any], *, validate: bool = True) -> str:
    """Deterministic pack.yaml text: fixed key order, block style, unicode kept, LF, final newline.

    With ``validate`` (the default) the text is parsed back and checked against the schema;
    a violation raises ``ManifestError`` whose diagnostics give lines in the dumped text.
    """
    text = yaml.dump(
        _canonical(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
        default_flow_style=False, width=4096, indent=2,
    )
    if validate:
        manifest, diagnostics = parse_manifest(text.encode("utf-8"), path="pack.yaml (generated)")
        errors = tuple(d for d in diagnostics if d.level == "error")
        if manifest is None or errors:
            raise ManifestError(
                "the manifest to write breaks pack.schema.json",
                hint="this is a bug in whatever produced the manifest; the fields are listed above",
                diagnostics=errors,
            )
    return text
