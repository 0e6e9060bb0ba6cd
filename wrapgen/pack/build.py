"""pack.yaml bytes -> the derived files ``binding.json`` and ``adapter.py`` (docs/contract.md §2).

Pure: ``render_pack_files`` returns ``{relative_path: text}`` and never writes (``emit.py``
does). The output is a byte-identical function of pack.yaml's bytes and the wrapgen version:
sorted keys, LF, a final newline, no absolute paths, no timestamps. The layout of
``binding.json`` is the one in docs/architecture.md.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Mapping

from wrapgen import __version__
from wrapgen.errors import ManifestError
from wrapgen.knowledge.harden import harden_manifest
from wrapgen.knowledge.hardening import harden_cli, hardening_for
from wrapgen.pack.emit import RenderedBinding, write_files
from wrapgen.pack.manifest import (
    MANIFEST_NAME,
    Manifest,
    dump_manifest,
    load_manifest,
    parse_manifest,
)

__all__ = [
    "BINDING_NAME",
    "ADAPTER_NAME",
    "BINDING_VERSION",
    "DEFAULT_JSON",
    "DEFAULT_TIMEOUT_S",
    "DERIVED_FILES",
    "binding_data",
    "binding_text",
    "build_pack",
    "pack_files",
    "render_binding",
    "render_adapter",
    "render_pack_files",
    "render_manifest_files",
    "resolve_verb",
]

BINDING_NAME = "binding.json"
ADAPTER_NAME = "adapter.py"
DERIVED_FILES = (BINDING_NAME, ADAPTER_NAME)
BINDING_VERSION = 1
DEFAULT_JSON = ("--json",)
DEFAULT_TIMEOUT_S = 60
DEFAULT_ARGS = {"type": "object", "properties": {}, "additionalProperties": False}


def _json_selection(value) -> list[str] | bool:
    """binding.json's selection: its tokens; true for JSON with none (pack.yaml's ``json: true``);
    [] for none (``json: false``)."""
    if value is False:
        return []
    if value is True:
        return True
    return [str(token) for token in value]


def _policy(declared) -> dict:
    if not isinstance(declared, dict):
        return {"effect": "read", "confirm": False, "declared": False}
    effect = declared["effect"]
    confirm = declared.get("confirm", effect != "read")
    out = {"effect": effect, "confirm": bool(confirm), "declared": True}
    for hint in (
        "idempotent",
        "open_world",
    ):  # MCP annotations (hosts/export.py); only when declared
        if isinstance(declared.get(hint), bool):
            out[hint] = declared[hint]
    return out


def _title(declared) -> dict | None:
    if not isinstance(declared, dict):
        return None
    out = {}
    for form in ("live", "done"):
        if form in declared:
            value = declared[form]
            out[form] = [value] if isinstance(value, str) else list(value)
    return out


def _default_template(bin_name: str) -> list[str]:
    return [bin_name, "{{verb}}", "{{flags}}"]


def resolve_verb(data: Mapping[str, Any], name: str) -> dict:
    """One verb of a valid manifest, fully resolved as ``binding.json`` records it."""
    verb = data["verbs"][name]
    args = verb.get("args", DEFAULT_ARGS)
    if "cli" in verb:
        argv, argv_from = list(verb["cli"]), "cli"
    else:
        # The runtime owns docs/contract.md §6; build records its expansion so that exec never redoes it.
        from wrapgen.runtime import expand_argv_template

        template = (data.get("wrap") or {}).get("argv_template") or _default_template(data["bin"])
        argv = list(
            expand_argv_template(
                list(template),
                verb=name,
                bin=data["bin"],
                properties=args.get("properties", {}),
            )
        )
        argv_from = "argv_template"
    json_value = verb["json"] if "json" in verb else data.get("json", list(DEFAULT_JSON))
    resolved = {
        "description": verb["description"],
        "argv": argv,
        "argv_from": argv_from,
        "json": _json_selection(json_value),
        "args": args,
        "policy": _policy(verb.get("policy")),
        "timeout_s": verb.get("timeout_s", DEFAULT_TIMEOUT_S),
        "aliases": verb.get("aliases", {}),
    }
    title = _title(verb.get("title"))
    if title is not None:
        resolved["title"] = title
    if (
        "jc" in verb
    ):  # (recorded only when declared: the binding of any other verb stays byte-identical)
        resolved["jc"] = verb["jc"]
    # a verb's exit_codes replace the pack's; recorded only when some are declared, so the binding of
    # a pack without them stays byte-identical
    exit_codes = verb["exit_codes"] if "exit_codes" in verb else data.get("exit_codes") or {}
    if exit_codes:
        resolved["exit_codes"] = {code: exit_codes[code] for code in sorted(exit_codes, key=int)}
    return resolved


def _hardened(resolved: dict, entry) -> dict:
    """A verb rendered from ``wrap.argv_template`` gets the catalogue ``entry``'s flags too (a
    ``cli[]`` verb has them from ``harden_manifest`` already); ``entry`` None applies nothing."""
    if resolved["argv_from"] == "argv_template" and entry is not None:
        resolved["argv"] = harden_cli(entry, resolved["argv"])
    return resolved


def _env(declared) -> dict:
    """pack.yaml's ``env`` as the runtime applies it: names to pass (sorted), fixed values."""
    declared = declared if isinstance(declared, dict) else {}
    return {"pass": sorted(declared.get("pass") or []), "set": dict(declared.get("set") or {})}


def _limits(declared) -> dict:
    from wrapgen.runtime.execute import DEFAULT_MEMORY_MB

    declared = declared if isinstance(declared, dict) else {}
    return {"memory_mb": declared.get("memory_mb", DEFAULT_MEMORY_MB)}


def _sandbox(declared: Mapping[str, Any]) -> dict:
    """pack.yaml's ``sandbox`` as the runtime reads it (``runtime/sandbox.py``): every key present,
    lists sorted, a verb's own entry only where it says something."""
    network = declared.get("network", False)
    verbs = {}
    for name in sorted(declared.get("verbs") or {}):
        entry = declared["verbs"][name] or {}
        own = {}
        if "network" in entry:
            own["network"] = entry["network"] is True
        if entry.get("write"):
            own["write"] = sorted(entry["write"])
        if own:
            verbs[name] = own
    return {
        "fallback": declared.get("fallback") is True,
        "home": sorted(declared.get("home") or []),
        "host_processes": declared.get("host_processes") is True,
        "network": sorted(network) if isinstance(network, list) else network is True,
        "root": sorted(declared.get("root") or []),
        "sockets": sorted(declared.get("sockets") or []),
        "tree": declared.get("tree") or "",
        "verbs": verbs,
        "write": sorted(declared.get("write") or []),
    }


def binding_data(manifest: Manifest) -> dict:
    """The ``binding.json`` value of a valid manifest, with the hardened-tools catalogue applied
    whatever pack.yaml says (``knowledge/harden.py``): the runtime runs only this binding."""
    entry = hardening_for(str(manifest.data["bin"]))
    # a writes_only entry (npm, yarn) guards installs, not the repository's own scripts, which a
    # task-runner pack runs by design: such a pack stays as written
    if entry is None or entry.empty or entry.writes_only:
        entry, data = None, manifest.data
    else:
        data = harden_manifest(manifest.data, tool=str(manifest.data["bin"]))
    binding = {
        "binding_version": BINDING_VERSION,
        "pack_id": data["pack_id"],
        "description": data["description"],
        "bin": data["bin"],
        "pack_sha256": hashlib.sha256(manifest.raw).hexdigest(),
        "wrapgen_version": __version__,
        "env": _env(data.get("env")),
        "limits": _limits(data.get("limits")),
        "response_files": data.get("response_files") is True,
        "verbs": {name: _hardened(resolve_verb(data, name), entry) for name in data["verbs"]},
    }
    guard = data.get("config_guard")
    if guard:
        # only when declared, so the binding of a pack without one stays byte-identical
        binding["config_guard"] = {
            "env": guard["env"],
            "list": list(guard["list"]),
            "scopes": list(guard["scopes"]),
            "reset": [
                {"prefix": r["prefix"], "suffixes": list(r["suffixes"]), "value": r["value"]}
                for r in guard["reset"]
            ],
        }
        if guard.get("refuse"):
            binding["config_guard"]["refuse"] = list(guard["refuse"])
    credential = data.get("credential_guard")
    if credential:
        # only when declared, like config_guard
        binding["credential_guard"] = {
            "format": credential["format"],
            "allow": [dict(a) for a in credential["allow"]],
        }
    declared = data.get("sandbox")
    if declared is not None:
        # only when declared, so the binding of a pack without one stays byte-identical
        binding["sandbox"] = _sandbox(declared)
    env = data.get("env")
    if env:
        # only when declared, so the binding of a pack without env stays byte-identical
        binding["env"] = {"pass": list(env.get("pass", [])), "set": dict(env.get("set", {}))}
    return binding


def binding_text(data: Mapping[str, Any]) -> str:
    """A binding value as the bytes of ``binding.json`` (docs/architecture.md)."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_binding(manifest: Manifest) -> RenderedBinding:
    """binding.json's text for this manifest, marked as rendered here (``emit.write_files`` records
    such a text in the runtime's trusted stamps, so the pack's first call needs no derivation)."""
    data = binding_data(manifest)
    return RenderedBinding(binding_text(data), data["pack_sha256"])


_ADAPTER = '''\
#!/usr/bin/env python3
"""Adapter of the {pack_id} pack: serves its JSON face through wrapgen's runtime.

Generated from pack.yaml by `wrapgen build`; do not edit it: edit pack.yaml, then run
`wrapgen build` on this directory.

    adapter.py VERB [--json] -- k=v ...    run one command (like `wrapgen exec` on this directory)
    adapter.py [--envelope -]              read one JSON envelope on stdin
"""

import sys

# Never import from this pack's own directory: a planted wrapgen/ (or pathlib.py, ...) there must
# not stand in for the installed package. Run as a script, Python put this file's directory first
# on sys.path (unless -I or -P kept it off); nothing else was imported before this line.
if (
    __name__ == "__main__"
    and sys.argv[:1] == [__file__]
    and sys.path
    and not (sys.flags.isolated or getattr(sys.flags, "safe_path", False))
):
    del sys.path[0]

from pathlib import Path

try:
    from wrapgen.runtime import exec_exit
except ImportError:
    sys.stderr.write(
        "Error: the wrapgen package is not installed for " + sys.executable + "\\n"
        "  hint: install it (python3 -m pip install wrapgen) or run this file with that Python\\n"
    )
    sys.exit(2)

if __name__ == "__main__":
    exec_exit(sys.argv[1:], pack_dir=Path(__file__).resolve().parent)
'''


def render_adapter(manifest: Manifest) -> str:
    return _ADAPTER.format(pack_id=manifest.data["pack_id"])


def render_pack_files(pack_yaml_bytes: bytes, *, path: str = "pack.yaml") -> dict[str, str]:
    """``{"binding.json": text, "adapter.py": text}`` for pack.yaml's bytes.

    Raises ``ManifestError`` (listing each problem) when the manifest is not valid.
    """
    manifest, diagnostics = parse_manifest(pack_yaml_bytes, path=path)
    errors = tuple(d for d in diagnostics if d.level == "error")
    if manifest is None or errors:
        raise ManifestError(
            f"{path} is not a valid pack manifest",
            hint="fix the fields listed above, then run wrapgen build again",
            diagnostics=errors,
        )
    return render_manifest_files(manifest)


def pack_files(manifest: Mapping) -> dict[str, str]:
    """pack.yaml (as ``manifest`` dumps) plus its derived files, as text."""
    text = dump_manifest(manifest)
    return {MANIFEST_NAME: text, **render_pack_files(text.encode("utf-8"))}


def render_manifest_files(manifest: Manifest) -> dict[str, str]:
    """The derived files of an already parsed, valid manifest (no second YAML parse)."""
    return {BINDING_NAME: render_binding(manifest), ADAPTER_NAME: render_adapter(manifest)}


def build_pack(directory, *, check: bool = False) -> list[str]:
    """Render a pack directory's derived files and write them (``emit.write_files``); the diffs.

    No lint: ``wrapgen build`` lints first. Raises ``ManifestError`` for an invalid pack.yaml.
    """
    manifest = load_manifest(directory)
    path = Path(directory)
    pack_dir = path.parent if path.name == MANIFEST_NAME and path.is_file() else path
    return write_files(pack_dir, render_pack_files(manifest.raw, path=manifest.path), check=check)
