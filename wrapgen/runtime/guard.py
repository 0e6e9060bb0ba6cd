"""The config guard: config whose names are the content's own, turned off for each call (docs/contract.md §8).

A repository's ``.gitattributes`` can name a filter driver (``*.txt filter=evil``) that its
``.git/config`` defines (``filter.evil.clean = ./run-me``); ``git diff`` and ``git status`` then run
it on worktree files. The driver's name is the repository's own, so no fixed ``GIT_CONFIG_*``
override in ``env.set`` can reach it. A pack's ``config_guard`` says how to find such keys; before
each call ``guarded_env`` runs the tool's own listing (``git config --show-scope --name-only
--get-regexp ...``, contained like every spawn, in the call's cwd and environment), keeps each
``SCOPE<TAB>KEY`` line whose scope is listed and whose key a reset rule matches, and sets those
keys for the call through the environment's ``COUNT``/``KEY_n``/``VALUE_n`` block, which git reads
as command-line config and lets beat every config file. The listing runs no program of the
repository: ``git config`` reads config files, it never refreshes the index or runs a filter.

A key the listing shows whose name the guard's ``refuse`` holds (git's ``core.worktree``: a
repository's config can move its work tree anywhere, HOME included, and no command-line config moves
it back) refuses the call: a read must not show files of a place it was not given.

Fail closed: a listing that cannot run, times out or fails (any exit but 0, or 1 with no output,
git's "nothing matched") refuses the call, since its answer is what makes the call safe.

The credential guard (``check_credentials``) is the other half: a pack's ``credential_guard`` names
the programs a tool's own config may run to get credentials (a kubeconfig user's ``exec`` plugin,
a docker config.json's ``credsStore``/``credHelpers``), which no flag turns off per call. Before
each call it reads the config that call would use (the kubeconfig files, parsed by
``pack/kubeconfig.py`` in a contained process of its own, since ``kubectl config view`` can itself run
the plugin; a docker config.json, as a file) and refuses the call when that config
names a program the pack does not allow. It fails closed the same way.
"""

from __future__ import annotations

import json
import os

from wrapgen.errors import WrapgenError
from wrapgen.runtime.process import run_process

__all__ = [
    "guarded_env",
    "refused_keys",
    "check_credentials",
    "plugin_refusal",
    "docker_config_refusal",
    "GUARD_TIMEOUT_S",
    "GUARD_MAX_KEYS",
]

GUARD_TIMEOUT_S = 10.0
GUARD_MAX_KEYS = 256
_OUTPUT_CAP = 1 << 20
_ERROR_TAIL = 300


def _spec(binding: dict):
    guard = binding.get("config_guard")
    if guard is None:
        return None
    try:
        prefix = guard["env"]
        listing = [str(token) for token in guard["list"]]
        scopes = {str(scope) for scope in guard["scopes"]}
        resets = [
            (str(r["prefix"]), tuple(str(s) for s in r["suffixes"]), str(r["value"]))
            for r in guard["reset"]
        ]
        refuse = frozenset(str(key).lower() for key in guard.get("refuse") or ())
    except (KeyError, TypeError, AttributeError):
        raise WrapgenError(
            "the binding's config_guard is malformed", hint="run wrapgen build on the pack"
        ) from None
    if prefix != "GIT_CONFIG" or not listing or not scopes or not resets:
        raise WrapgenError(
            "the binding's config_guard is malformed", hint="run wrapgen build on the pack"
        )
    return prefix, listing, scopes, resets, refuse


def _reset_value(key: str, resets) -> str | None:
    for prefix, suffixes, value in resets:
        if key.startswith(prefix):
            for suffix in suffixes:
                if key.endswith(suffix) and len(key) > len(prefix) + len(suffix):
                    return value
    return None


def guarded_keys(stdout: bytes, scopes, resets) -> list[tuple[str, str]]:
    """(key, value) for each listed ``SCOPE<TAB>KEY`` line to reset, in listing order, once each (pure)."""
    out, seen = [], set()
    for raw in stdout.decode("utf-8", errors="surrogateescape").splitlines():
        scope, tab, key = raw.partition("\t")
        if not tab or scope not in scopes or "\x00" in key or key in seen:
            continue
        value = _reset_value(key, resets)
        if value is not None:
            seen.add(key)
            out.append((key, value))
    return out


def refused_keys(stdout: bytes, scopes, refuse) -> list[str]:
    """The listed ``SCOPE<TAB>KEY`` keys in ``scopes`` that ``refuse`` names (lower-cased: git's
    section and variable names are case-blind), once each, in listing order (pure)."""
    out: list[str] = []
    for raw in stdout.decode("utf-8", errors="surrogateescape").splitlines():
        scope, tab, key = raw.partition("\t")
        if tab and scope in scopes and key.lower() in refuse and key not in out:
            out.append(key)
    return out


def guarded_env(
    binding: dict, tool: str, env: dict, *, cwd=None, cancel=None, memory_mb=None, wrap=None
) -> dict:
    """``env`` with the pack's config guard applied for this call (``env`` itself when it has none).

    ``tool`` is the program the call runs (its argv[0]); ``wrap`` (argv -> argv) runs the listing the
    way the call itself runs, e.g. inside the trial sandbox. Raises ``WrapgenError`` when the listing
    cannot say what to turn off: the call must not run then."""
    spec = _spec(binding)
    if spec is None:
        return env
    prefix, listing, scopes, resets, refuse = spec
    argv = [tool, *listing]
    result = run_process(
        argv if wrap is None else wrap(argv),
        timeout_s=GUARD_TIMEOUT_S,
        output_cap=_OUTPUT_CAP,
        cwd=cwd,
        env=env,
        cancel=cancel,
        memory_mb=memory_mb,
    )
    what = f"{tool} {' '.join(listing[:2])}"
    if result.not_found:
        raise WrapgenError(f"cannot run {tool}: {result.not_found}")
    if result.cancelled:
        raise WrapgenError("cancelled")
    if (
        result.timed_out
        or result.output_capped
        or result.signal is not None
        or result.exit_code not in (0, 1)
        or (result.exit_code == 1 and result.stdout.strip())
    ):
        detail = result.stderr.decode("utf-8", errors="replace").strip()[-_ERROR_TAIL:]
        why = (
            "timed out"
            if result.timed_out
            else "printed too much"
            if result.output_capped
            else f"was killed by signal {result.signal}"
            if result.signal is not None
            else f"exited {result.exit_code}"
        )
        raise WrapgenError(
            f"refused: the config guard could not list the config that could run a program ({what} {why}"
            + (f": {detail}" if detail else "")
            + "); nothing ran",
            hint="run the command in a directory the tool can read, or check the tool's installation",
        )
    refused = refused_keys(result.stdout, scopes, refuse)
    if refused:
        raise WrapgenError(
            f"refused: the content's own config sets {', '.join(refused)} ({tool} would read or run "
            "what that names, outside what the call was given); nothing ran",
            hint="run the command in a repository whose config does not set it, or unset it there",
        )
    keys = guarded_keys(result.stdout, scopes, resets)
    if not keys:
        return env
    if len(keys) > GUARD_MAX_KEYS:
        raise WrapgenError(
            f"refused: the content's config defines {len(keys)} keys the config guard must turn off "
            f"(at most {GUARD_MAX_KEYS}); nothing ran"
        )
    out = dict(env)
    count_name = f"{prefix}_COUNT"
    try:
        count = int(out.get(count_name, "0"))
    except ValueError:
        raise WrapgenError(
            f"the pack's env.set {count_name} is not a number", hint="run wrapgen build on the pack"
        ) from None
    for key, value in keys:
        out[f"{prefix}_KEY_{count}"] = key
        out[f"{prefix}_VALUE_{count}"] = value
        count += 1
    out[count_name] = str(count)
    return out


# --- the credential guard: programs the tool's own config names to get credentials ---------------

_CONFIG_CAP = 1 << 20  # a docker config.json larger than this is refused unread
_KUBE_SELECTORS = ("--kubeconfig", "--context", "--user")


def _options(argv, names) -> dict:
    """``{name: value}`` of the ``--name=value`` / ``--name value`` options in argv before its ``--`` (the first one of each)."""
    out: dict = {}
    tokens = list(argv[1:])
    for index, token in enumerate(tokens):
        if token == "--":
            break
        name, eq, value = token.partition("=")
        if name in names and name not in out:
            if eq:
                out[name] = value
            elif index + 1 < len(tokens):
                out[name] = tokens[index + 1]
    return out


def _credential_spec(binding: dict):
    guard = binding.get("credential_guard")
    try:
        form = guard["format"]
        allow = [
            (
                str(a["name"]),
                tuple(str(w) for w in a.get("args") or ()),
                frozenset(str(n) for n in a.get("env") or ()),
            )
            for a in guard["allow"]
        ]
    except (KeyError, TypeError, AttributeError):
        raise WrapgenError(
            "the binding's credential_guard is malformed", hint="run wrapgen build on the pack"
        ) from None
    if form not in ("kubeconfig", "docker_config"):
        raise WrapgenError(
            "the binding's credential_guard is malformed", hint="run wrapgen build on the pack"
        )
    return form, allow


def _after_options(args, words) -> bool:
    """Whether ``words`` stand together in ``args`` with only options (and an option's value) before them:
    ``--region R eks get-token ...`` holds ``eks get-token``; ``s3 rm x eks get-token`` does not (pure)."""
    width = len(words)
    for start in range(len(args) - width + 1):
        if tuple(args[start : start + width]) != words:
            continue
        value_may_follow = False
        for token in args[:start]:
            if token.startswith("-"):
                value_may_follow = token.startswith("--") and "=" not in token
            elif value_may_follow:
                value_may_follow = False
            else:
                break
        else:
            return True
    return False


def plugin_refusal(command, args, env_names, allow) -> str | None:
    """Why a credential program may not run (``None`` when an allow entry covers it): the command is
    the entry's bare name exactly, its args hold the entry's words after options only, and every
    variable its config sets is one the entry names (pure)."""
    if not isinstance(command, str) or not command:
        return "names a credential plugin without a command"
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return f"names the credential plugin {command!r} with malformed args"
    for name, words, names in allow:
        if (
            command == name
            and (not words or _after_options(args, words))
            and set(env_names) <= names
        ):
            return None
    shown = " ".join([command, *args])
    shown = shown if len(shown) <= 120 else shown[:119] + "…"
    return f"runs the credential plugin {shown!r}, which the pack does not allow"


def _refused(where: str, why: str, what: str | None = None) -> WrapgenError:
    if what is None:
        hint = "review that config and point the tool at your own"
    else:
        hint = (
            f"review that config: if it is your own, add {what} to credential_guard.allow in the pack's pack.yaml "
            "and run wrapgen build; otherwise point the tool at your own config"
        )
    return WrapgenError(f"refused: {where} {why}; nothing ran", hint=hint)


def _kubeconfig_refusal(document, selected: dict, allow) -> None:
    """Raise when the user a call selects in this ``kubectl config view -o json`` document names a program
    that is not allowed (pure)."""
    if not isinstance(document, dict):
        raise WrapgenError(
            "refused: the credential guard could not read the kubeconfig listing; nothing ran"
        )
    context_name = selected.get("--context") or document.get("current-context") or ""
    user_name = selected.get("--user")
    if not user_name:
        for entry in document.get("contexts") or []:
            if isinstance(entry, dict) and entry.get("name") == context_name:
                user_name = (
                    (entry.get("context") or {}).get("user")
                    if isinstance(entry.get("context"), dict)
                    else None
                )
                break
    if not user_name:
        return  # no user: kubectl runs no plugin
    for entry in document.get("users") or []:
        if not (isinstance(entry, dict) and entry.get("name") == user_name):
            continue
        user = entry.get("user") if isinstance(entry.get("user"), dict) else {}
        plugin = user.get("exec")
        if plugin is not None:
            if not isinstance(plugin, dict):
                raise _refused(f"the kubeconfig's user {user_name!r}", "has a malformed exec entry")
            env = plugin.get("env") or []
            names = (
                [e.get("name") for e in env if isinstance(e, dict)]
                if isinstance(env, list)
                else [None]
            )
            why = plugin_refusal(plugin.get("command"), plugin.get("args") or [], names, allow)
            if why:
                raise _refused(
                    f"the kubeconfig's user {user_name!r}",
                    why,
                    f"{{name: {plugin.get('command')}}} (with its args and env)",
                )
        provider = user.get("auth-provider")
        if (
            isinstance(provider, dict)
            and isinstance(provider.get("config"), dict)
            and "cmd-path" in provider["config"]
        ):
            raise _refused(
                f"the kubeconfig's user {user_name!r}",
                f"names an auth-provider command ({provider['config'].get('cmd-path')!r})",
            )
        return


class _Pairs(dict):
    """A JSON object that also keeps every (key, value) pair it was read from, duplicates included."""

    __slots__ = ("pairs",)


def _pairs_hook(pairs) -> _Pairs:
    obj = _Pairs(pairs)
    obj.pairs = list(pairs)
    return obj


def _every(obj: dict, key: str) -> list:
    """Every value ``obj`` gives ``key`` as docker's JSON reader sees keys: in any letter case, each
    duplicate (Go's encoding/json matches field names case-insensitively; the last one wins)."""
    pairs = obj.pairs if isinstance(obj, _Pairs) else list(obj.items())
    return [value for name, value in pairs if isinstance(name, str) and name.lower() == key.lower()]


def docker_config_refusal(document, path: str, cwd: str, allow) -> None:
    """Raise when a docker config.json names a helper or plugin directory that is not allowed (pure).
    Every spelling of a key counts (``CREDSSTORE`` is credsStore to docker), and every duplicate."""
    where = f"the docker config {path}"
    if not isinstance(document, dict):
        raise _refused(where, "is no JSON object")
    names = {name for name, _, _ in allow}
    helpers = [store for store in _every(document, "credsStore") if store not in (None, "")]
    for per_registry in _every(document, "credHelpers"):
        if per_registry is None:
            continue
        if not isinstance(per_registry, dict):
            raise _refused(where, "has a malformed credHelpers")
        pairs = (
            per_registry.pairs if isinstance(per_registry, _Pairs) else sorted(per_registry.items())
        )
        helpers.extend(value for _key, value in pairs)
    for helper in helpers:
        if not isinstance(helper, str) or helper not in names:
            raise _refused(
                where,
                f"names the credential helper docker-credential-{helper}, which the pack does not allow",
                f"{{name: {helper}}}",
            )
    extra = []
    for value in _every(document, "cliPluginsExtraDirs"):
        if value is None:
            continue
        if not isinstance(value, list):
            raise _refused(where, "has a malformed cliPluginsExtraDirs")
        extra.extend(value)
    top = os.path.realpath(cwd)
    for directory in extra:
        if not isinstance(directory, str) or not os.path.isabs(directory):
            raise _refused(
                where, f"names the plugin directory {directory!r}, which is not an absolute path"
            )
        real = os.path.realpath(directory)
        if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
            raise _refused(
                where, f"names the plugin directory {directory!r}, inside the working directory"
            )


def _docker_config_path(argv, env: dict, cwd: str) -> str:
    directory = _options(argv, ("--config",)).get("--config") or env.get("DOCKER_CONFIG")
    if not directory:
        directory = os.path.join(env.get("HOME") or os.path.expanduser("~"), ".docker")
    # (no ~ expansion: docker reads DOCKER_CONFIG=~/x and --config ~/x as ./~/x, relative to its cwd)
    return os.path.join(cwd, directory, "config.json")


def check_credentials(
    binding: dict, argv, env: dict, *, cwd=None, cancel=None, memory_mb=None
) -> None:
    """Refuse (``WrapgenError``) a call whose tool config names a credential program the pack's
    ``credential_guard`` does not allow; return quietly otherwise, and when the pack has no guard.

    The kubeconfig files are read by ``pack/kubeconfig.py`` in a contained process of its own (the
    runtime parses no YAML; kubectl itself may run the plugin to list them); a docker config.json
    is read as a file."""
    if binding.get("credential_guard") is None or not argv:
        return
    form, allow = _credential_spec(binding)
    here = os.fspath(cwd) if cwd is not None else os.getcwd()
    if form == "docker_config":
        path = _docker_config_path(argv, env, here)
        try:
            with open(path, "rb") as handle:
                data = handle.read(_CONFIG_CAP + 1)
        except FileNotFoundError:
            return  # no config: no helper
        except OSError as error:
            raise WrapgenError(
                f"refused: the credential guard cannot read {path}: {error.strerror}; nothing ran"
            ) from None
        if len(data) > _CONFIG_CAP:
            raise _refused(f"the docker config {path}", f"is larger than {_CONFIG_CAP >> 20} MiB")
        try:
            document = json.loads(data.decode("utf-8"), object_pairs_hook=_pairs_hook)
        except (ValueError, RecursionError):
            raise _refused(f"the docker config {path}", "is not JSON") from None
        docker_config_refusal(document, path, here, allow)
        return
    selected = _options(argv, _KUBE_SELECTORS)
    _kubeconfig_refusal(
        _kubeconfig_view(
            _kubeconfig_paths(selected, env, here), "--kubeconfig" in selected, cancel=cancel
        ),
        selected,
        allow,
    )


def _kubeconfig_paths(selected: dict, env: dict, cwd: str) -> list[str]:
    """The files a kubectl call loads, absolute: its ``--kubeconfig``, else KUBECONFIG's list, else ~/.kube/config."""
    if "--kubeconfig" in selected:
        paths = [selected["--kubeconfig"]]
    elif env.get("KUBECONFIG"):
        paths = list(dict.fromkeys(p for p in env["KUBECONFIG"].split(os.pathsep) if p))
    else:
        paths = [os.path.join(env.get("HOME") or os.path.expanduser("~"), ".kube", "config")]
    return [os.path.join(cwd, p) for p in paths]  # (no ~ expansion: kubectl reads ~/x as ./~/x)


KUBECONFIG_MODULE = "wrapgen.pack.kubeconfig"
_KUBECONFIG_TIMEOUT_S = 10.0
_KUBECONFIG_MEMORY_MB = 512
_views: dict = {}  # (explicit, (path, stat)...) -> the view: a long-lived caller (serve) reads unchanged files once


def _stat_key(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return (path, None)
    return (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _kubeconfig_view(paths: list[str], explicit: bool, *, cancel=None) -> dict:
    """The merged credential view of the kubeconfig files (``pack/kubeconfig.py``, run as a process: the
    runtime parses no YAML); ``WrapgenError`` when they cannot be read for certain."""
    import sys

    key = (explicit, tuple(_stat_key(p) for p in paths))
    if key in _views:
        return _views[key]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    child_env = {
        k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "TZ") or k.startswith("LC_")
    }
    child_env["PYTHONPATH"] = root  # the wrapgen this process runs
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    argv = [
        sys.executable,
        *safe,
        "-m",
        KUBECONFIG_MODULE,
        *(["--explicit"] if explicit else []),
        *paths,
    ]
    result = run_process(
        argv,
        timeout_s=_KUBECONFIG_TIMEOUT_S,
        output_cap=_OUTPUT_CAP,
        cwd="/",
        env=child_env,
        cancel=cancel,
        memory_mb=_KUBECONFIG_MEMORY_MB,
    )
    if result.cancelled:
        raise WrapgenError("cancelled")
    detail = result.stderr.decode("utf-8", errors="replace").strip()[-_ERROR_TAIL:]
    if result.exit_code != 0 or result.timed_out or result.not_found or result.signal is not None:
        why = (
            f"{sys.executable} could not start: {result.not_found}"
            if result.not_found
            else "timed out"
            if result.timed_out
            else detail.removeprefix("error: ") or f"exit {result.exit_code}"
        )
        raise WrapgenError(
            f"refused: the credential guard could not read the kubeconfig ({why}); nothing ran",
            hint="check KUBECONFIG and the kubeconfig files it names",
        )
    try:
        view = json.loads(result.stdout.decode("utf-8"))
    except (ValueError, RecursionError):
        raise WrapgenError(
            "refused: the credential guard could not read the kubeconfig; nothing ran"
        ) from None
    if len(_views) >= 64:
        _views.clear()
    _views[key] = view
    return view
