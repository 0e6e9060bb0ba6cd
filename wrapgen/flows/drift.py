"""Drift of the tools behind packs: record what a pack was made from, and compare it with what is installed.

``source_files`` is what ``wrap`` writes for the record (pack.yaml with ``source``, and
``source.json``); ``pack_drift`` rediscovers a pack's tool (``probe.discover``, the same discovery
options the pack was made with, from ``source.json``) and classifies every change with
``check.drift.classify``; ``version_drifts`` is the cheap comparison ``serve`` makes at start (one
``TOOL --version`` per pack, no crawl). The comparison itself is pure and lives in ``check/drift.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from wrapgen.check.drift import (
    SOURCE_FILE,
    Change,
    Drift,
    classify,
    not_found,
    snapshot,
    snapshot_text,
    version_drift,
)
from wrapgen.errors import HelpUnreadableError, ManifestError, ToolNotFoundError, WrapgenError
from wrapgen.model.tool import Command, Tool
from wrapgen.pack.build import pack_files

__all__ = [
    "source_files",
    "effect_of",
    "read_pack",
    "pack_drift",
    "drift_against",
    "version_drifts",
    "DISCOVER_KEYS",
]

# Discovery options a pack records (those that change what is read), so a rediscovery reads the same.
DISCOVER_KEYS = ("depth", "max_nodes", "style", "man")


def effect_of(command: Command, tool_name: str = "") -> str:
    """The effect the command's own name and help imply (propose's guess, before any recipe said otherwise)."""
    from wrapgen.propose.policy import classify as guess

    return guess(command, tool_name=tool_name).effect


def _effects_of(tool: Tool) -> Callable[[Command], str]:
    """``effect_of`` for the commands of ``tool``, which propose classified knowing the tool's name."""
    return lambda command: effect_of(command, tool.name)


def source_files(
    manifest: Mapping, tool: Tool, options: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """pack.yaml (with ``source``), its derived files and ``source.json``, as text."""
    data = snapshot(tool, manifest.get("verbs") or {}, effect_of=_effects_of(tool))
    recorded = dict(manifest)
    recorded["source"] = {"version": data["version"], "help_sha256": data["help_sha256"]}
    files = pack_files(recorded)
    kept = {
        k: v for k, v in sorted(dict(options or {}).items()) if k in DISCOVER_KEYS and v is not None
    }
    if kept:
        data["discover"] = kept
    files[SOURCE_FILE] = snapshot_text(data)
    return files


def read_pack(pack_dir: Path) -> tuple[dict, dict | None]:
    """(pack.yaml's data, source.json's data or None) of a pack directory; ManifestError when unreadable."""
    from wrapgen.pack.manifest import read_manifest

    manifest, diagnostics = read_manifest(pack_dir)
    errors = [d for d in diagnostics if d.level == "error"]
    if manifest is None or errors:
        first = f": {errors[0].format()}" if errors else ""
        raise ManifestError(
            f"{pack_dir} has no valid pack.yaml{first}", hint=f"run `wrapgen check {pack_dir}`"
        )
    snap = None
    path = Path(pack_dir) / SOURCE_FILE
    if path.is_file():
        try:
            snap = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ManifestError(
                f"{path} is not readable JSON ({error})",
                hint="regenerate the pack with `wrapgen wrap` (or `wrapgen batch`)",
            ) from None
        if not isinstance(snap, dict):
            raise ManifestError(
                f"{path} is not a JSON object", hint="regenerate the pack with `wrapgen wrap`"
            )
    return dict(manifest.data), snap


def drift_against(pack_dir: Path, tool: Tool) -> Drift | None:
    """The drift between the pack on disk at ``pack_dir`` and ``tool`` (already discovered); None
    when there is no readable pack there, or it records no source (batch: nothing to compare)."""
    try:
        data, snap = read_pack(pack_dir)
    except (ManifestError, OSError):
        return None
    if not data.get("source") and snap is None:
        return None
    return classify(data, snap, tool, effect_of=_effects_of(tool))


def pack_drift(pack_dir: Path, *, discover: Callable[..., Tool] | None = None) -> Drift:
    """Rediscover the tool of the pack at ``pack_dir`` and classify what changed.

    A tool that is no longer installed is ``breaking: tool not found``. Discovery uses the options the
    pack recorded (``source.json``'s ``discover``) and its cache (keyed by the binary's path, size and
    mtime, so a changed binary is read again).
    """
    data, snap = read_pack(pack_dir)
    bin_name = str(data.get("bin"))
    old_version = str((data.get("source") or {}).get("version") or "")
    if discover is None:
        from wrapgen.probe.discover import discover
    options = {k: v for k, v in ((snap or {}).get("discover") or {}).items() if k in DISCOVER_KEYS}
    try:
        tool = discover(bin_name, **options)
    except ToolNotFoundError as error:
        return not_found(str(data.get("pack_id")), bin_name, old_version, error.message)
    except HelpUnreadableError as error:
        return Drift(
            str(data.get("pack_id")),
            bin_name,
            old_version,
            "",
            (
                Change(
                    "breaking",
                    "help-unreadable",
                    f"its help can no longer be read ({error.message})",
                ),
            ),
        )
    return classify(data, snap, tool, effect_of=_effects_of(tool))


def _quick_manifest(pack_dir: Path) -> dict:
    """pack.yaml's data without schema validation (serve has validated it already), {} when unreadable:
    the schema check costs more than the rest of the start-up check."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load((pack_dir / "pack.yaml").read_bytes(), Loader=loader)
    except (OSError, yaml.YAMLError):
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("source"), dict):
        return {}
    return data


def version_drifts(pack_dirs: Sequence[Path]) -> list[tuple[Path, Drift]]:
    """For each pack that records its source: the recorded version line against ``TOOL --version`` now.

    One probe per pack (sandboxed like discovery, a few milliseconds); no crawl. A tool that is not
    found is ``breaking: tool not found``.
    """
    from wrapgen.probe.prober import Prober, resolve_tool

    out = []
    for pack_dir in pack_dirs:
        data = _quick_manifest(Path(pack_dir))
        source = data.get("source")
        if not source:
            continue
        bin_name, pack_id = str(data.get("bin")), str(data.get("pack_id"))
        try:
            path = resolve_tool(bin_name).path
            with Prober(path, name=bin_name, use_man=False) as prober:
                line = prober.version()
        except ToolNotFoundError as error:
            out.append(
                (
                    Path(pack_dir),
                    not_found(pack_id, bin_name, str(source.get("version") or ""), error.message),
                )
            )
            continue
        except WrapgenError:
            continue
        out.append((Path(pack_dir), version_drift(pack_id, bin_name, source, line)))
    return out
