"""Check rule W030: a read verb whose ``cli[]`` holds a flag from the dangerous-flags catalogue.

A read verb is run without a confirm gate, so it must not be able to write a file or run a
program: ``git log --output``, ``rg --pre``, ``fd --exec``, ``curl -o``. The catalogue is data in
``wrapgen/knowledge/data/dangerous_flags.json``, read through ``wrapgen/knowledge/dangerous_flags.py``
(the proposal never writes such a flag on a read verb; this rule catches hand edits). Write and destructive verbs are confirm-gated and may use them.
"""

from __future__ import annotations

from wrapgen.check.registry import PackContext, rule
from wrapgen.knowledge.dangerous_flags import token_danger

__all__ = ["dangerous_flag_on_read"]

CODE = "W030"


@rule(
    CODE,
    severity="error",
    summary="a read verb's cli[] holds a flag from the dangerous-flags catalogue (writes a file or runs a program)",
)
def dangerous_flag_on_read(ctx: PackContext):
    bin_name = str(ctx.manifest.data.get("bin", ""))
    for verb in ctx.verbs:
        if verb.effect != "read":
            continue
        for index, flag, _value in verb.literal_flags():
            why = token_danger(flag, tool=bin_name)
            if why:
                yield ctx.diagnostic(
                    CODE,
                    verb.field_of(index),
                    f"read verb {verb.name!r} uses {why}",
                    hint="drop the flag, or make the verb a write (policy: {effect: write}) so it is confirm-gated",
                )
