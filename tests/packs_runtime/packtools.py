"""Write a pack directory (pack.yaml + binding.json) for runtime tests, without wrapgen build.

The binding has the shape docs/architecture.md gives; pack.yaml is a readable stand-in whose
sha256 the binding records, so the runtime's staleness check runs for real.

The stand-in pack.yaml does not derive to its binding (it is no valid manifest; these bindings
hold fields and values build would not write), so ``write_pack`` records the binding in the
runtime's trusted stamps itself, as ``wrapgen build`` does for the bindings it writes: the tests
using it are about what runs, not about where the binding came from. The stamp goes to the cache
directory of the moment (``WRAPGEN_CACHE_DIR`` when the test set one). The integrity check itself is
tested on real packs in tests/runtime/test_binding_integrity.py.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from wrapgen.runtime.binding import write_stamp

__all__ = ["verb", "binding_dict", "binding_of", "write_pack"]

_EMPTY_ARGS = {"type": "object", "properties": {}, "additionalProperties": False}


def verb(
    argv,
    *,
    args=None,
    json_sel=None,
    effect="read",
    confirm=None,
    timeout_s=60,
    title=None,
    description="A verb.",
):
    """One binding verb; ``json_sel`` None means the default ["--json"], [] means none."""
    data = {
        "description": description,
        "argv": list(argv),
        "argv_from": "cli",
        "json": ["--json"] if json_sel is None else list(json_sel),
        "args": args or dict(_EMPTY_ARGS),
        "policy": {
            "effect": effect,
            "confirm": (effect != "read") if confirm is None else confirm,
            "declared": True,
        },
        "timeout_s": timeout_s,
    }
    if title is not None:
        data["title"] = title
    return data


def _yaml_text(pack_id: str, bin: str, verbs: dict) -> str:
    # A faithful-enough pack.yaml: JSON is valid YAML, and only its bytes matter to the runtime.
    return (
        json.dumps(
            {"pack_id": pack_id, "description": "test pack", "bin": bin, "verbs": verbs},
            indent=2,
            sort_keys=True,
        )
        + "\n"
    )


def binding_dict(pack_id: str, bin: str, verbs: dict, *, yaml_text: str | None = None) -> dict:
    text = yaml_text if yaml_text is not None else _yaml_text(pack_id, bin, verbs)
    return {
        "binding_version": 1,
        "pack_id": pack_id,
        "description": "test pack",
        "bin": bin,
        "pack_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "wrapgen_version": "0.1.0",
        "verbs": verbs,
    }


def binding_of(verbs: dict, *, bin: str = sys.executable, pack_id: str = "t") -> dict:
    """The binding of pack ``pack_id`` (``t``) whose tool is ``bin``, this interpreter unless named."""
    return binding_dict(pack_id, bin, verbs)


def write_pack(root: Path, pack_id: str, bin: str, verbs: dict) -> Path:
    """Write ``root/pack_id/{pack.yaml,binding.json}`` and return the pack directory."""
    directory = Path(root) / pack_id
    directory.mkdir(parents=True, exist_ok=True)
    text = _yaml_text(pack_id, bin, verbs)
    (directory / "pack.yaml").write_text(text, encoding="utf-8")
    binding = binding_dict(pack_id, bin, verbs, yaml_text=text)
    binding_text = json.dumps(binding, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    (directory / "binding.json").write_text(binding_text, encoding="utf-8")
    write_stamp(binding["pack_sha256"], hashlib.sha256(binding_text.encode("utf-8")).hexdigest())
    return directory
