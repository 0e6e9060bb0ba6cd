"""pack.yaml: load, validate against ``schemas/pack.schema.json``, dump (docs/contract.md §2 to §4).

Loading never raises a traceback for bad input: every problem (YAML syntax, a binary file, a
non-mapping, a schema violation) becomes a ``Diagnostic`` carrying the field path
(``verbs.find.title.live[1]``) and the line it sits on; ``load_manifest`` raises one
``ManifestError`` listing them. The reading and the schema errors are ``wrapgen.pack.yamldoc``'s,
shared with recipes and PATH wraps; what is a pack's own is here: the names code (W002), arg
patterns that must compile, and the canonical dump.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import yaml

from wrapgen.errors import Diagnostic, ManifestError
from wrapgen.pack import yamldoc

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
NAME_CODE = "W002"  # a pack_id or verb name that breaks docs/contract.md §4

TOP_ORDER = (
    "pack_id",
    "description",
    "bin",
    "source",
    "json",
    "exit_codes",
    "wrap",
    "env",
    "config_guard",
    "credential_guard",
    "sandbox",
    "verbs",
)
VERB_ORDER = (
    "description",
    "cli",
    "args",
    "policy",
    "json",
    "exit_codes",
    "timeout_s",
    "title",
    "aliases",
)
ARGS_ORDER = ("type", "description", "properties", "required", "additionalProperties")
ARG_ORDER = (
    "type",
    "description",
    "enum",
    "const",
    "default",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
)
_SUBORDERS = {"policy": ("effect", "confirm"), "title": ("live", "done")}
SCHEMA_FILE = "pack.schema.json"


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

    def diagnostic(
        self, code: str, level: str, field_path: str, message: str, *, hint: str = ""
    ) -> Diagnostic:
        return Diagnostic(
            level=level,
            code=code,
            message=message,
            hint=hint,
            path=self.path,
            line=self.line_of(field_path),
            field=field_path,
        )


def _parent(field_path: str) -> str:
    if field_path.endswith("]"):
        return field_path[: field_path.rindex("[")]
    return field_path.rpartition(".")[0]


def format_field(parts) -> str:
    """``("verbs", "find", "title", "live", 1)`` -> ``verbs.find.title.live[1]``."""
    return yamldoc.format_field(parts)


def pack_schema() -> Mapping[str, Any]:
    """The shipped JSON Schema for pack.yaml (draft 2020-12)."""
    return yamldoc.schema(SCHEMA_FILE)


def _validator():
    """The pack schema's validator (built once per process; ``batch`` builds it before forking)."""
    return yamldoc.validator(SCHEMA_FILE)


def _names(parts: tuple, error) -> tuple[str, str] | None:
    """A pack_id or verb name that breaks docs/contract.md §4 is NAME_CODE, with a hint on how to name."""
    if "propertyNames" in error.schema_path and parts[:1] == ("verbs",) and len(parts) == 2:
        return NAME_CODE, "rename it, e.g. list, mail.list, pr.view"
    if parts == ("pack_id",) and error.validator == "pattern":
        return NAME_CODE, "use lower-case letters, digits and '-', starting with a letter"
    return None


KIND = yamldoc.DocumentKind(
    name="pack manifest",
    schema_file=SCHEMA_FILE,
    code=SCHEMA_CODE,
    term="field",
    expect="a mapping with pack_id, description, bin and verbs",
    classify=_names,
)


def parse_manifest(
    raw: bytes, *, path: str = MANIFEST_NAME
) -> tuple[Manifest | None, list[Diagnostic]]:
    """Parse and validate pack.yaml bytes; the manifest is None when it could not be parsed at all.

    Pure: no file access. A manifest with schema diagnostics is still returned so that ``check``
    can report more than the first problem.
    """
    doc, diagnostics = yamldoc.load_document(raw, KIND, path=path)
    if doc is None:
        return None, diagnostics
    manifest = Manifest(
        data=doc.data, raw=raw, lines=MappingProxyType(doc.field_lines()), path=path
    )
    if not diagnostics:  # the walk below relies on the shape the schema guarantees
        diagnostics = _pattern_diagnostics(manifest)
    return manifest, diagnostics


def _pattern_diagnostics(manifest: Manifest) -> list[Diagnostic]:
    """An arg ``pattern`` must compile, or the runtime could not check it."""
    out = []
    verbs = manifest.data.get("verbs")
    for name, verb in verbs.items() if isinstance(verbs, dict) else ():
        properties = ((verb or {}).get("args") or {}).get("properties") or {}
        for arg, schema in properties.items():
            for sub, prefix in ((schema, ()), ((schema or {}).get("items"), ("items",))):
                pattern = sub.get("pattern") if isinstance(sub, dict) else None
                if isinstance(pattern, str):
                    try:
                        re.compile(pattern)
                    except re.error as error:
                        field_path = format_field(
                            ("verbs", name, "args", "properties", arg) + prefix + ("pattern",)
                        )
                        out.append(
                            manifest.diagnostic(
                                SCHEMA_CODE,
                                "error",
                                field_path,
                                f"not a valid regular expression: {error}",
                            )
                        )
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
        return None, [
            Diagnostic(
                "error",
                SCHEMA_CODE,
                "no pack.yaml here",
                "pass a pack directory or a pack.yaml file",
                str(path),
                0,
                "",
            )
        ]
    except OSError as error:
        return None, [
            Diagnostic(
                "error",
                SCHEMA_CODE,
                f"cannot read: {error.strerror}",
                "check the path and its permissions",
                str(path),
                0,
                "",
            )
        ]
    return parse_manifest(raw, path=str(path))


def load_manifest(path_or_dir) -> Manifest:
    """The valid manifest at a file or pack directory; raises ``ManifestError`` listing each problem."""
    manifest, diagnostics = read_manifest(path_or_dir)
    errors = tuple(d for d in diagnostics if d.level == "error")
    if manifest is None or errors:
        path = _manifest_path(path_or_dir)
        raise ManifestError(
            f"{path} is not a valid pack manifest ({len(errors)} problem{'s' * (len(errors) != 1)})",
            hint="fix the fields listed above; the format is docs/contract.md §3",
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
    flow = (
        bool(value)
        and all(isinstance(item, (str, int, float, bool)) for item in value)
        and (len(json.dumps(value, ensure_ascii=False)) <= 90)
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
        _canonical(data),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=4096,
        indent=2,
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
