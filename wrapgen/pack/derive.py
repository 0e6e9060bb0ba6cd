"""``python -m wrapgen.pack.derive PACK_DIR [--wrapgen-version V]``: the sha256 of the derived binding.json.

The runtime cannot parse YAML on its hot path, so when it meets a binding.json it has no stamp for
(``runtime/binding.py``) it runs this module in a separate, contained process. It reads pack.yaml in
PACK_DIR, renders the binding.json ``wrapgen build`` would write (``build.binding_data``), and prints
its sha256 hex and a newline on stdout; exit 0. ``--wrapgen-version V`` renders it as if built by
wrapgen V (only the ``wrapgen_version`` field changes), so that a binding built by another version
with the same content still matches. It writes nothing: the runtime writes the stamp.

When it cannot (no or invalid pack.yaml, a bad argument) it prints one line ``error: ...`` on
stderr and exits 1 (2 for a usage error); never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["derived_binding", "derived_binding_sha256", "main"]

USAGE = "usage: python -m wrapgen.pack.derive PACK_DIR [--wrapgen-version V]"


def derived_binding(pack_dir) -> dict:
    """The binding pack.yaml in ``pack_dir`` gives, built in memory; ``ManifestError`` (with every
    error diagnostic) when it cannot be read or is invalid. ``wrapgen serve`` and ``export`` use it too."""
    from wrapgen.errors import ManifestError
    from wrapgen.pack.build import binding_data
    from wrapgen.pack.manifest import MANIFEST_NAME, parse_manifest

    path = Path(pack_dir) / MANIFEST_NAME
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ManifestError(
            f"cannot read {path}: {error.strerror}", hint="check the file's permissions"
        ) from None
    manifest, diagnostics = parse_manifest(raw, path=str(path))
    errors = tuple(d for d in diagnostics if d.level == "error")
    if manifest is None or errors:
        raise ManifestError(
            f"{path} is not a valid pack manifest",
            hint=f"run `wrapgen check {pack_dir}` and fix what it lists",
            diagnostics=errors,
        )
    return binding_data(manifest)


def derived_binding_sha256(pack_dir, *, wrapgen_version: str | None = None) -> str:
    """The sha256 hex of the binding.json pack.yaml in ``pack_dir`` derives to; ``ManifestError`` when
    invalid, its message naming the first problem (the runtime shows it on one line)."""
    import hashlib

    from wrapgen.errors import ManifestError
    from wrapgen.pack.build import binding_text

    try:
        data = derived_binding(pack_dir)
    except ManifestError as error:
        errors = error.diagnostics
        if not errors:
            raise
        first = f" ({errors[0].message})" if getattr(errors[0], "message", None) else ""
        more = f" and {len(errors) - 1} more" if len(errors) > 1 else ""
        raise ManifestError(
            f"{error.message}{first}{more}", hint=f"run `wrapgen check {pack_dir}`"
        ) from None
    if wrapgen_version is not None:
        data["wrapgen_version"] = wrapgen_version
    return hashlib.sha256(binding_text(data).encode("utf-8")).hexdigest()


def _parse(argv: list[str]) -> tuple[str, str | None] | None:
    if len(argv) == 1 and not argv[0].startswith("-"):
        return argv[0], None
    if (
        len(argv) == 3
        and argv[1] == "--wrapgen-version"
        and not argv[0].startswith("-")
        and argv[2]
    ):
        return argv[0], argv[2]
    return None


def main(argv=None) -> int:
    from wrapgen.errors import ExitStatus

    parsed = _parse(list(sys.argv[1:] if argv is None else argv))
    if parsed is None:
        sys.stderr.write(f"error: {USAGE}\n")
        return ExitStatus.USAGE
    pack_dir, version = parsed
    try:
        digest = derived_binding_sha256(pack_dir, wrapgen_version=version)
    except RecursionError:
        sys.stderr.write(f"error: {pack_dir}/pack.yaml is nested too deeply\n")
        return ExitStatus.FAILED
    except (
        Exception
    ) as error:  # a hostile or broken pack.yaml must give one line, never a traceback
        from wrapgen.errors import WrapgenError

        text = (
            error.message if isinstance(error, WrapgenError) else f"{type(error).__name__}: {error}"
        )
        sys.stderr.write("error: " + " ".join(str(text).split()) + "\n")
        return ExitStatus.FAILED
    sys.stdout.write(digest + "\n")
    return ExitStatus.OK


if __name__ == "__main__":
    sys.exit(main())
