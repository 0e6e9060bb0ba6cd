"""Check rules W090 and W091: a pack's ``sandbox:`` section (docs/contract.md §8).

The section says what the per-call sandbox lets a pack's calls have beyond a read-only file system,
a scratch HOME and no network. W090: it names a verb the pack does not have (a typo would leave the
verb it meant without what it needs). W091: a read verb asks for write access, which a read never
gets otherwise: either the verb writes (its effect is wrong) or the entry is.
"""

from __future__ import annotations

from typing import Iterator

from wrapgen.check.registry import PackContext, rule

__all__ = ["sandbox_names_no_verb", "read_asks_for_write"]


def _section(ctx: PackContext) -> dict:
    data = ctx.manifest.data
    section = data.get("sandbox") if isinstance(data, dict) else None
    return section if isinstance(section, dict) else {}


@rule("W090", severity="error", summary="the sandbox section names a verb the pack does not have")
def sandbox_names_no_verb(ctx: PackContext) -> Iterator:
    section = _section(ctx)
    known = {verb.name for verb in ctx.verbs}
    network = section.get("network")
    named = [("sandbox.network", n) for n in network] if isinstance(network, list) else []
    named += [(f"sandbox.verbs.{n}", n) for n in section.get("verbs") or {}]
    for path, name in named:
        if name not in known:
            yield ctx.diagnostic(
                "W090",
                path,
                f"{path} names {name!r}, which is no verb of this pack",
                hint=f"name one of the pack's verbs ({', '.join(sorted(known))}) or remove the entry",
            )


@rule("W091", severity="warning", summary="the sandbox section gives a read verb write access")
def read_asks_for_write(ctx: PackContext) -> Iterator:
    own = _section(ctx).get("verbs") or {}
    for verb in ctx.verbs:
        entry = own.get(verb.name)
        if verb.effect == "read" and isinstance(entry, dict) and entry.get("write"):
            yield ctx.diagnostic(
                "W091",
                f"sandbox.verbs.{verb.name}.write",
                f"read verb {verb.name!r} asks for write access to {', '.join(entry['write'])}: a read"
                " sees the file system read-only",
                hint="if the verb changes something, declare policy.effect: write (and confirm);"
                " otherwise remove the write entry",
            )
