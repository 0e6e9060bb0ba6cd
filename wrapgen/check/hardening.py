"""Check rule W040: a read verb of a catalogued tool without the catalogue's hardening.

A read verb runs without a confirm gate, on content the agent did not write: ``git status`` in an
untrusted repository runs its ``core.fsmonitor``, ``git diff`` its external diff and textconv
drivers, ``curl get url=file:///etc/passwd`` reads a local file. The hardened-tools catalogue
(``wrapgen/knowledge/data/hardening.json``) says what turns that off per call: ``env.set``
entries (git's ``GIT_CONFIG_*`` overrides) and flags in ``cli[]`` (``--no-ext-diff``,
``--proto =http,https``), and a ``config_guard`` for config whose names are the content's own
(git's filter drivers, reset by the runtime before each call), and a ``credential_guard`` for the
programs a tool's own config names to get credentials (kubectl's exec plugins, docker's credential
helpers: the runtime reads the config before each call and refuses a program the pack does not
allow). Generated packs carry them
(``propose/harden.py``); this rule catches a hand-written or hand-edited pack that lacks them.
"""

from __future__ import annotations

from wrapgen.check.registry import PackContext, rule
from wrapgen.knowledge.hardening import (
    hardening_for,
    missing_env,
    missing_flags,
    pack_credential_guard,
    pack_guard,
)

__all__ = ["unhardened_read_verb"]

CODE = "W040"
_SHOWN = 4


def _copy_hint(field: str, detail: str = "") -> str:
    """How a W040 finding is mended: the catalogue's own ``field`` (wrap and batch apply it)."""
    return (
        f"regenerate the pack (wrapgen wrap/batch applies the catalogue), or copy {field} from "
        f"wrapgen/knowledge/data/hardening.json{detail}"
    )


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


@rule(
    CODE,
    severity="error",
    summary="a read verb of a catalogued tool (git, curl, sed, kubectl, docker, composer) lacks the hardening that stops its config from running programs",
)
def unhardened_read_verb(ctx: PackContext):
    bin_name = str(ctx.manifest.data.get("bin", ""))
    entry = hardening_for(bin_name)
    if entry is None or entry.empty or entry.writes_only:
        return  # (a task runner's npm pack runs the repository's scripts by design: no install, no lifecycle)
    reads = [verb for verb in ctx.verbs if verb.effect == "read"]
    if not reads:
        return
    names = ", ".join(v.name for v in reads[:_SHOWN]) + (" ..." if len(reads) > _SHOWN else "")
    env = ctx.manifest.data.get("env") or {}
    env_set = env.get("set") if isinstance(env, dict) else None
    lacking = missing_env(entry, env_set if isinstance(env_set, dict) else {})
    if lacking:
        yield ctx.diagnostic(
            CODE,
            "env.set" if env_set is not None else "bin",
            f"read verbs of {entry.tool} ({names}) run without env.set {_listed(lacking)}: "
            f"{entry.tool}'s config could run a program",
            hint=_copy_hint("env.set", " (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n)"),
        )
    wanted = pack_guard(entry)
    if wanted is not None and not _guard_covers(ctx.manifest.data.get("config_guard"), wanted):
        yield ctx.diagnostic(
            CODE,
            "config_guard" if "config_guard" in ctx.manifest.data else "bin",
            f"read verbs of {entry.tool} ({names}) run without the catalogue's config_guard: config the content "
            f"names itself ({_listed([r['prefix'] + '*' + r['suffixes'][0] for r in wanted['reset']])}) could run a program",
            hint=_copy_hint("config_guard"),
        )
    credential = pack_credential_guard(entry)
    if credential is not None:
        declared = ctx.manifest.data.get("credential_guard")
        if not isinstance(declared, dict) or declared.get("format") != credential["format"]:
            yield ctx.diagnostic(
                CODE,
                "credential_guard" if "credential_guard" in ctx.manifest.data else "bin",
                f"read verbs of {entry.tool} ({names}) run without the catalogue's credential_guard "
                f"(format {credential['format']}): a credential program the tool's config names could run",
                hint=_copy_hint("credential_guard", " (its allow list may gain your own plugins)"),
            )
    for verb in reads:
        if not verb.from_cli:
            continue
        for group in missing_flags(entry, verb.argv):
            flags = " ".join(group)
            yield ctx.diagnostic(
                CODE,
                verb.field,
                f"read verb {verb.name!r} lacks {flags!r} (or has it right before a "
                f"placeholder, which drops it when the arg is omitted)",
                hint=f"add {flags} to cli[] before its literal '--' (or at its end); "
                "wrapgen/knowledge/data/hardening.json says why",
            )


def _guard_covers(declared, wanted: dict) -> bool:
    """Whether a pack's ``config_guard`` does at least what the catalogue's does: the same listing and
    env block, every scope, and every reset (prefix, suffix, value) it has."""
    if not isinstance(declared, dict):
        return False
    if declared.get("env") != wanted["env"] or declared.get("list") != wanted["list"]:
        return False
    scopes = declared.get("scopes")
    if not isinstance(scopes, list) or not set(wanted["scopes"]) <= set(scopes):
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
