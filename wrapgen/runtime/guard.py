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

Fail closed: a listing that cannot run, times out or fails (any exit but 0, or 1 with no output,
git's "nothing matched") refuses the call, since its answer is what makes the call safe.
"""

from __future__ import annotations

from wrapgen.errors import WrapgenError
from wrapgen.runtime.process import run_process

__all__ = ["guarded_env", "GUARD_TIMEOUT_S", "GUARD_MAX_KEYS"]

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
        resets = [(str(r["prefix"]), tuple(str(s) for s in r["suffixes"]), str(r["value"])) for r in guard["reset"]]
    except (KeyError, TypeError):
        raise WrapgenError("the binding's config_guard is malformed", hint="run wrapgen build on the pack") from None
    if prefix != "GIT_CONFIG" or not listing or not scopes or not resets:
        raise WrapgenError("the binding's config_guard is malformed", hint="run wrapgen build on the pack")
    return prefix, listing, scopes, resets


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


def guarded_env(binding: dict, tool: str, env: dict, *, cwd=None, cancel=None, memory_mb=None, wrap=None) -> dict:
    """``env`` with the pack's config guard applied for this call (``env`` itself when it has none).

    ``tool`` is the program the call runs (its argv[0]); ``wrap`` (argv -> argv) runs the listing the
    way the call itself runs, e.g. inside the trial sandbox. Raises ``WrapgenError`` when the listing
    cannot say what to turn off: the call must not run then."""
    spec = _spec(binding)
    if spec is None:
        return env
    prefix, listing, scopes, resets = spec
    argv = [tool, *listing]
    result = run_process(argv if wrap is None else wrap(argv), timeout_s=GUARD_TIMEOUT_S, output_cap=_OUTPUT_CAP, cwd=cwd, env=env,
                         cancel=cancel, memory_mb=memory_mb)
    what = f"{tool} {' '.join(listing[:2])}"
    if result.not_found:
        raise WrapgenError(f"cannot run {tool}: {result.not_found}")
    if result.cancelled:
        raise WrapgenError("cancelled")
    if result.timed_out or result.output_capped or result.signal is not None or result.exit_code not in (0, 1) \
            or (result.exit_code == 1 and result.stdout.strip()):
        detail = result.stderr.decode("utf-8", errors="replace").strip()[-_ERROR_TAIL:]
        why = ("timed out" if result.timed_out else "printed too much" if result.output_capped
               else f"was killed by signal {result.signal}" if result.signal is not None else f"exited {result.exit_code}")
        raise WrapgenError(
            f"refused: the config guard could not list the config that could run a program ({what} {why}"
            + (f": {detail}" if detail else "") + "); nothing ran",
            hint="run the command in a directory the tool can read, or check the tool's installation",
        )
    keys = guarded_keys(result.stdout, scopes, resets)
    if not keys:
        return env
    if len(keys) > GUARD_MAX_KEYS:
        raise WrapgenError(f"refused: the content's config defines {len(keys)} keys the config guard must turn off "
                           f"(at most {GUARD_MAX_KEYS}); nothing ran")
    out = dict(env)
    count_name = f"{prefix}_COUNT"
    try:
        count = int(out.get(count_name, "0"))
    except ValueError:
        raise WrapgenError(f"the pack's env.set {count_name} is not a number", hint="run wrapgen build on the pack") from None
    for key, value in keys:
        out[f"{prefix}_KEY_{count}"] = key
        out[f"{prefix}_VALUE_{count}"] = value
        count += 1
    out[count_name] = str(count)
    return out
