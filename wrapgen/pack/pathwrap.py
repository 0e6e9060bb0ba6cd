"""PATH wraps: the bootstrap pack ``wrapgen promote`` reads (``bin`` + ``allowedSubcommands``).

``load_path_wrap(file)`` reads and validates the file against ``schemas/pathwrap.schema.json``
through the shared loader (``wrapgen.pack.yamldoc``) and returns a frozen ``PathWrap``; every
problem is a ``PathWrapError`` naming the file, the line and the field::

    pack_id: kube                 # default: bin, when that is a valid pack id
    description: Inspect a Kubernetes cluster.
    wrap:
      bin: kubectl                # or `bin:` at the top level, as in a pack
      allowedSubcommands: [get, describe, logs, "rollout status"]
      argv_template: [kubectl, "{{verb}}", "{{flags}}"]   # optional: carried into the packs
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wrapgen.errors import RecipeError
from wrapgen.names import is_pack_id
from wrapgen.pack import yamldoc

__all__ = [
    "KIND",
    "PathWrap",
    "PathWrapError",
    "parse_path_wrap",
    "load_path_wrap",
    "pathwrap_schema",
]

SCHEMA_FILE = "pathwrap.schema.json"

KIND = yamldoc.DocumentKind(
    name="PATH wrap",
    schema_file=SCHEMA_FILE,
    code="R002",  # R001 is a recipe's
    term="key",
    expect="a mapping with pack_id and wrap",
    syntax="invalid YAML",
    start_hint='like:\npack_id: kube\nwrap:\n  bin: kubectl\n  allowedSubcommands: [get, describe, "rollout status"]',
)


class PathWrapError(RecipeError):
    """A PATH-wrap file is malformed."""


@dataclass(frozen=True)
class PathWrap:
    pack_id: str
    bin: str
    allowed: tuple[tuple[str, ...], ...]  # subcommand paths, in file order, each once
    description: str = ""
    source_path: str = ""
    argv_template: tuple[
        str, ...
    ] = ()  # the wrap's own, when it gives one: promote carries it over


def pathwrap_schema():
    """The shipped JSON Schema of PATH wraps (draft 2020-12)."""
    return yamldoc.schema(SCHEMA_FILE)


def parse_path_wrap(text: str | bytes, *, source: str = "<pathwrap>") -> PathWrap:
    """Parse and validate PATH-wrap text; raises ``PathWrapError`` with every problem found."""
    return _path_wrap(*yamldoc.load_document(text, KIND, path=source), source=source)


def load_path_wrap(path: str | Path) -> PathWrap:
    """Read, validate and return the PATH wrap at ``path``; raises ``PathWrapError``."""
    doc, diagnostics = yamldoc.read_document(
        path,
        KIND,
        missing="the file does not exist",
        missing_hint="check the path of the PATH-wrap file",
    )
    return _path_wrap(doc, diagnostics, source=str(path))


def _bin(data) -> str:
    return data["wrap"].get("bin") or data["bin"]


def _path_wrap(doc: yamldoc.YamlDoc | None, diagnostics: list, *, source: str) -> PathWrap:
    if doc is not None and not diagnostics:
        data = doc.data
        if "pack_id" not in data and not is_pack_id(_bin(data)):
            where = ("wrap", "bin") if "bin" in data["wrap"] else ("bin",)
            diagnostics = [
                doc.diagnostic(
                    where,
                    f"no pack_id, and bin {_bin(data)!r} is not a valid pack id",
                    hint="add `pack_id:` (lower-case letters, digits and dashes, starting with a letter)",
                )
            ]
    yamldoc.raise_for(diagnostics, PathWrapError)
    data = doc.data
    paths: list[tuple[str, ...]] = []
    for entry in data["wrap"]["allowedSubcommands"]:
        path = tuple(entry.split())
        if path not in paths:
            paths.append(path)
    return PathWrap(
        pack_id=data.get("pack_id") or _bin(data),
        bin=_bin(data),
        allowed=tuple(paths),
        description=data.get("description") or "",
        source_path=source if source[:1] != "<" else "",
        argv_template=tuple(data["wrap"].get("argv_template") or ()),
    )
