"""The hardened-tools catalogue applied to a manifest: a catalogued tool's pack turns off the config that runs programs.

The runtime applies it (docs/contract.md §8): ``pack/build.py`` derives binding.json, which is all the
runtime runs, from ``harden_manifest(pack.yaml)``, so a hand-written pack.yaml that leaves the
hardening out still gets it on every call, and pack.yaml may only add to it. A proposal applies it
too, so a generated pack.yaml shows what runs. ``runtime_additions`` says what the derivation adds
to a pack.yaml (``wrapgen build`` and check's W040 tell the author, as information), and
``turned_off`` what a pack.yaml sets against the catalogue (check's W040 refuses it).

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
    missing_flags,
    pack_credential_guard,
    pack_guard,
    refuses,
    refusing_pattern,
)

__all__ = ["harden_manifest", "guard_covers", "runtime_additions", "turned_off"]


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
    if guard is not None and not guard_covers(out.get("config_guard"), guard):
        out["config_guard"] = guard
    credential = pack_credential_guard(entry)
    declared = out.get("credential_guard")
    if credential is not None and not (
        isinstance(declared, dict) and declared.get("format") == credential["format"]
    ):
        out["credential_guard"] = (
            credential  # (a declared one of the same format may allow more plugins)
        )
    return out


def guard_covers(declared, wanted: dict) -> bool:
    """Whether a pack's ``config_guard`` does at least what the catalogue's does: the same listing and
    env block, every scope, and every reset (prefix, suffix, value) it has."""
    if not isinstance(declared, dict):
        return False
    if declared.get("env") != wanted["env"] or declared.get("list") != wanted["list"]:
        return False
    scopes = declared.get("scopes")
    if not isinstance(scopes, list) or not set(wanted["scopes"]) <= set(scopes):
        return False
    refused = declared.get("refuse") or []
    if not isinstance(refused, list) or not set(wanted.get("refuse", [])) <= set(refused):
        return False
    have = set()
    for reset in declared.get("reset") or []:
        if isinstance(reset, dict) and isinstance(reset.get("suffixes"), list):
            have.update(
                (reset.get("prefix"), suffix, reset.get("value")) for suffix in reset["suffixes"]
            )
    return all(
        (r["prefix"], suffix, r["value"]) in have
        for r in wanted["reset"]
        for suffix in r["suffixes"]
    )


def runtime_additions(manifest: Mapping[str, Any]) -> list[str]:
    """What ``harden_manifest`` adds to ``manifest`` (a pack.yaml value), in words, one item per
    kind: the catalogue's env, its guards, each verb's flags and arg patterns; [] for a pack that
    already carries all of it or a tool the catalogue does not know."""
    tool = str(manifest.get("bin", ""))
    entry = hardening_for(tool)
    hardened = harden_manifest(manifest, tool=tool)
    if hardened == dict(manifest):
        return []
    out = []
    before_env = (
        ((manifest.get("env") or {}).get("set") or {})
        if isinstance(manifest.get("env"), dict)
        else {}
    )
    after_env = (hardened.get("env") or {}).get("set") or {}
    added = sorted(k for k in after_env if before_env.get(k) != after_env[k])
    if added:
        out.append(f"env.set {', '.join(added[:3])}{' ...' if len(added) > 3 else ''}")
    for key in ("config_guard", "credential_guard"):
        if hardened.get(key) != manifest.get(key):
            out.append(f"the catalogue's {key}")
    verbs = manifest.get("verbs") or {}
    for name, verb in (hardened.get("verbs") or {}).items():
        mine = verbs.get(name) or {}
        if verb.get("cli") != mine.get("cli"):
            groups = missing_flags(entry, mine.get("cli") or []) if entry is not None else []
            flags = ", ".join(" ".join(group) for group in groups)
            out.append(f"{flags or 'its flags'} on {name}")
        if verb.get("args") != mine.get("args"):
            out.append(f"the catalogue's arg pattern on {name}")
    return out


def turned_off(manifest: Mapping[str, Any]) -> list[str]:
    """The catalogue's config overrides that ``manifest``'s ``env.set`` gives another value (a pack
    that tries to turn its hardening off), as ``key=value`` of the pack's."""
    entry = hardening_for(str(manifest.get("bin", "")))
    env = manifest.get("env")
    declared = env.get("set") if isinstance(env, dict) else None
    if entry is None or not isinstance(declared, dict):
        return []
    ours = config_overrides_in(env_settings(entry))
    theirs = config_overrides_in(declared)
    plain = {k: v for k, v in env_settings(entry).items() if not k.startswith("GIT_CONFIG_")}
    out = [
        f"{key}={theirs[key]}" for key in sorted(ours) if key in theirs and theirs[key] != ours[key]
    ]
    out += [
        f"{k}={declared[k]}" for k in sorted(plain) if k in declared and declared[k] != plain[k]
    ]
    return out
