"""``python -m wrapgen.pack.kubeconfig [--explicit] FILE...``: the credential programs of kubeconfig files, as JSON.

The runtime's credential guard (``runtime/guard.py``) must know which program a kubectl call's
kubeconfig would run (a user's ``exec`` plugin) before the call. ``kubectl config view`` cannot tell
it: a kubectl that is Google's version dispatcher asks the cluster for its version first, which runs
the plugin. The runtime parses no YAML, so it runs this module in a separate, contained process
(as it runs ``derive.py``). It reads the files in order as kubectl's loading rules do (the first
file that names a user, a context or the current context wins; a missing file is skipped unless
``--explicit``, kubectl's ``--kubeconfig``, which must exist), and prints one JSON object:
``{"current-context": ..., "contexts": [{"name", "user"}], "users": [{"name", "exec", "auth-provider"}]}``,
without tokens, keys or passwords. It writes nothing.

A file that is not YAML, holds a duplicate key (which YAML readers resolve differently, so its
meaning to kubectl is not certain) or is larger than 4 MiB is an error: one line ``error: ...`` on
stderr and exit 1 (2 for a usage error); never a traceback. The runtime refuses the call then.
"""

from __future__ import annotations

import json
import sys

__all__ = ["read_kubeconfigs", "main"]

USAGE = "usage: python -m wrapgen.pack.kubeconfig [--explicit] FILE..."
MAX_BYTES = 4 << 20


class KubeconfigError(Exception):
    """A kubeconfig that cannot be read for certain."""


def _loader():
    import yaml

    class Strict(yaml.SafeLoader):
        """Safe YAML that refuses a mapping with the same key twice."""

    def mapping(loader, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: no kubeconfig has one
                raise KubeconfigError(
                    f"line {key_node.start_mark.line + 1}: a key that is no text"
                ) from None
            if duplicate:
                raise KubeconfigError(f"line {key_node.start_mark.line + 1}: the key {key!r} twice")
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

    Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return yaml, Strict


def _named(items, field: str) -> list[tuple[str, dict]]:
    """(name, body) of each ``{name: ..., FIELD: {...}}`` entry of a kubeconfig list."""
    out = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            body = item.get(field)
            out.append((item["name"], body if isinstance(body, dict) else {}))
    return out


def read_kubeconfigs(paths, *, explicit: bool = False) -> dict:
    """The merged credential view of ``paths`` (see the module docstring); ``KubeconfigError`` when one
    cannot be read for certain."""
    yaml, loader = _loader()
    current, contexts, users = "", {}, {}
    for path in paths:
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_BYTES + 1)
        except FileNotFoundError:
            if explicit:
                raise KubeconfigError(f"{path}: no such file") from None
            continue
        except OSError as error:
            raise KubeconfigError(f"{path}: {error.strerror}") from None
        if len(raw) > MAX_BYTES:
            raise KubeconfigError(f"{path}: larger than {MAX_BYTES >> 20} MiB")
        try:
            data = yaml.load(raw.decode("utf-8"), Loader=loader)
        except KubeconfigError as error:
            raise KubeconfigError(f"{path}: {error}") from None
        except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as error:
            raise KubeconfigError(
                f"{path}: not YAML ({str(error).splitlines()[0] if str(error) else type(error).__name__})"
            ) from None
        if data is None:
            continue
        if not isinstance(data, dict):
            raise KubeconfigError(f"{path}: not a kubeconfig (a mapping at the top)")
        if not current and isinstance(data.get("current-context"), str):
            current = data["current-context"]
        for name, body in _named(data.get("contexts"), "context"):
            contexts.setdefault(name, body.get("user") if isinstance(body.get("user"), str) else "")
        for name, body in _named(data.get("users"), "user"):
            if name not in users:
                users[name] = {key: body[key] for key in ("exec", "auth-provider") if key in body}
    return {
        "current-context": current,
        "contexts": [{"name": name, "context": {"user": user}} for name, user in contexts.items()],
        "users": [{"name": name, "user": _public(user)} for name, user in users.items()],
    }


def _public(user: dict) -> dict:
    """A user's exec entry, and of an auth-provider only its name and whether it names a command."""
    out = {}
    if "exec" in user:
        out["exec"] = user["exec"]
    provider = user.get("auth-provider")
    if provider is not None:
        config = provider.get("config") if isinstance(provider, dict) else None
        out["auth-provider"] = {
            "name": provider.get("name") if isinstance(provider, dict) else None,
            "config": {"cmd-path": config["cmd-path"]}
            if isinstance(config, dict) and "cmd-path" in config
            else {},
        }
    return out


def main(argv=None) -> int:
    from wrapgen.errors import ExitStatus

    args = list(sys.argv[1:] if argv is None else argv)
    explicit = bool(args) and args[0] == "--explicit"
    paths = args[1:] if explicit else args
    if not paths or any(p.startswith("-") for p in paths):
        print(USAGE, file=sys.stderr)
        return ExitStatus.USAGE
    try:
        view = read_kubeconfigs(paths, explicit=explicit)
    except KubeconfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return ExitStatus.FAILED
    try:
        text = json.dumps(view, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        print("error: the kubeconfig holds values that are not JSON", file=sys.stderr)
        return ExitStatus.FAILED
    print(text)
    return ExitStatus.OK


if __name__ == "__main__":
    sys.exit(main())
