"""The hardening step of a proposal: a catalogued tool's pack turns off the config that runs programs.

``harden_manifest(manifest, tool=...)`` takes the proposed manifest dict and returns a hardened
copy (the input is not changed): the catalogue's flags written into each verb's ``cli[]`` (after the
bin for curl's ``--proto =http,https``; after the subcommand for git's ``--no-ext-diff``), and its
environment (git's ``GIT_CONFIG_*`` overrides) in the pack's ``env.set``, and its config guard
(git's filter drivers, reset per call by the runtime) as the pack's ``config_guard``, and its credential
guard (kubectl's exec plugins, docker's credential helpers, allowed by name and checked per call by the
runtime) as the pack's ``credential_guard``, and the characters its args may not hold (curl's CR and
LF) as a ``pattern`` on every string arg and list item. A tool the catalogue does not know comes back
unchanged. The catalogue and the reason of each entry: ``wrapgen/knowledge/data/hardening.json``.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from wrapgen.knowledge.hardening import (
    GIT_COUNT,
    config_overrides_in,
    env_settings,
    harden_cli,
    hardening_for,
    pack_credential_guard,
    pack_guard,
    refuses,
    refusing_pattern,
)

__all__ = ["harden_manifest"]


def _merged_env(existing: Mapping[str, str], ours: Mapping[str, str]) -> dict[str, str]:
    """``existing`` with ``ours`` on top; two GIT_CONFIG_* blocks become one, ours last (so ours win)."""
    plain = {k: v for k, v in existing.items() if not k.startswith("GIT_CONFIG_")}
    config = config_overrides_in(existing)
    mine = config_overrides_in(ours)
    if not config and not mine:
        return {**plain, **ours}
    keys = {
        k.lower(): k for k in (existing.get(f"GIT_CONFIG_KEY_{i}", "") for i in range(len(config)))
    }
    keys.update(
        {k.lower(): k for k in (ours.get(f"GIT_CONFIG_KEY_{i}", "") for i in range(len(mine)))}
    )
    combined = [(key, value) for key, value in config.items() if key not in mine] + list(
        mine.items()
    )
    out = dict(plain)
    out[GIT_COUNT] = str(len(combined))
    for index, (key, value) in enumerate(combined):
        out[f"GIT_CONFIG_KEY_{index}"] = keys.get(key, key)
        out[f"GIT_CONFIG_VALUE_{index}"] = value
    out.update((k, v) for k, v in ours.items() if not k.startswith("GIT_CONFIG_"))
    return out


# The longest string a refusing pattern lets through, where the arg had no bound of its own (check's
# W053: a pattern with an unbounded repeat needs one; 1 MiB is what an MCP call may carry)
_REFUSE_MAX_LENGTH = 1 << 20


def _refuse_in_args(args: Any, chars: str) -> None:
    """Every string arg and string list item of an args schema refuses ``chars`` (in place)."""
    properties = args.get("properties") if isinstance(args, dict) else None
    for schema in (properties or {}).values():
        if not isinstance(schema, dict):
            continue
        target = schema.get("items") if schema.get("type") == "array" else schema
        if not isinstance(target, dict) or target.get("type") != "string" or "enum" in target:
            continue
        if not refuses(target.get("pattern"), chars):
            target["pattern"] = refusing_pattern(chars, target.get("pattern"))
            target.setdefault("maxLength", _REFUSE_MAX_LENGTH)


def harden_manifest(manifest: Mapping[str, Any], *, tool: str) -> dict[str, Any]:
    """A copy of ``manifest`` with ``tool``'s catalogued hardening applied (unchanged when uncatalogued)."""
    entry = hardening_for(tool)
    out = copy.deepcopy(dict(manifest))
    if entry is None or entry.empty:
        return out
    for verb in (out.get("verbs") or {}).values():
        if isinstance(verb, dict) and isinstance(verb.get("cli"), list):
            verb["cli"] = harden_cli(entry, verb["cli"])
        if isinstance(verb, dict) and entry.arg_refuse is not None:
            _refuse_in_args(verb.get("args"), entry.arg_refuse.chars)
    ours = env_settings(entry)
    if ours:
        env = dict(out.get("env") or {})
        env["set"] = _merged_env(dict(env.get("set") or {}), ours)
        # the manifest's keys keep their order; env goes where the canonical dump puts it
        out["env"] = env
    guard = pack_guard(entry)
    if guard is not None:
        out["config_guard"] = guard
    credential = pack_credential_guard(entry)
    if credential is not None:
        out["credential_guard"] = credential
    return out
