"""Check rule W040: a pack of a catalogued tool against the catalogue's hardening.

A read verb runs without a confirm gate, on content the agent did not write: ``git status`` in an
untrusted repository runs its ``core.fsmonitor``, ``git diff`` its external diff and textconv
drivers, ``curl get url=file:///etc/passwd`` reads a local file. The hardened-tools catalogue
(``wrapgen/knowledge/data/hardening.json``) says what turns that off per call: ``env.set``
entries (git's ``GIT_CONFIG_*`` overrides) and flags in ``cli[]`` (``--no-ext-diff``,
``--proto =http,https``), and a ``config_guard`` for config whose names are the content's own
(git's filter drivers, reset by the runtime before each call), and a ``credential_guard`` for the
programs a tool's own config names to get credentials (kubectl's exec plugins, docker's credential
helpers: the runtime reads the config before each call and refuses a program the pack does not
allow), and a ``pattern`` on every string arg that refuses the characters the catalogue names
(curl's CR and LF). The runtime applies them whatever pack.yaml says (binding.json is derived
through ``knowledge/harden.py``): this rule says, as information, what a hand-written pack.yaml leaves
out and the runtime adds, and refuses a pack.yaml whose ``env.set`` gives the catalogue's config
overrides another value (a pack trying to turn its hardening off).

Rule W032: a hardening flag contradicted later in a verb's ``cli[]`` (``--proto =all`` after
``--proto =http,https``, ``--ext-diff`` after ``--no-ext-diff``, ``--ignore-submodules=none`` after
``--ignore-submodules=dirty``): the tool reads the last one, so the hardening is undone while W040,
which sees the flag present, is satisfied. On every verb, reads and writes alike.
"""

from __future__ import annotations

from wrapgen.check.registry import PackContext, rule
from wrapgen.knowledge.harden import runtime_additions, turned_off
from wrapgen.knowledge.hardening import contradicted_flags, hardening_for

__all__ = ["unhardened_read_verb", "contradicted_hardening"]

CODE = "W040"
CONTRADICTED = "W032"
_SHOWN = 4


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


@rule(
    CODE,
    severity="error",
    summary="a pack of a catalogued tool (git, curl, sed, kubectl, docker, composer) sets the catalogue's hardening to another value (an error), or leaves some of it out, which the runtime adds (information)",
)
def unhardened_read_verb(ctx: PackContext):
    data = ctx.manifest.data
    entry = hardening_for(str(data.get("bin", "")))
    if entry is None or entry.empty or entry.writes_only:
        return  # (a task runner's npm pack runs the repository's scripts by design)
    for setting in turned_off(data):
        yield ctx.diagnostic(
            CODE,
            "env.set",
            f"env.set turns off {entry.tool}'s hardening ({setting}): the catalogue sets it so that "
            f"{entry.tool}'s config cannot run a program",
            hint="drop it: the runtime applies the catalogue's value whatever pack.yaml says "
            "(wrapgen/knowledge/data/hardening.json says why)",
        )
    added = runtime_additions(data)
    if added:
        yield ctx.diagnostic(
            CODE,
            "bin",
            f"the runtime adds {entry.tool}'s hardening that pack.yaml leaves out: {_listed(added)}",
            hint="nothing to do; copy it from wrapgen/knowledge/data/hardening.json to make it visible",
            level="info",
        )


@rule(
    CONTRADICTED,
    severity="error",
    summary="a hardening flag is contradicted later in cli[] (--proto =all after --proto =http,https, --ext-diff after --no-ext-diff): the tool reads the last one",
)
def contradicted_hardening(ctx: PackContext):
    entry = hardening_for(str(ctx.manifest.data.get("bin", "")))
    if entry is None or entry.empty:
        return
    for verb in ctx.verbs:
        for index, token, option in contradicted_flags(entry, verb.argv):
            yield ctx.diagnostic(
                CONTRADICTED,
                verb.field_of(index),
                f"verb {verb.name!r} undoes its hardening {' '.join(option)!r} with a later {token!r}",
                hint="drop the later token: wrapgen/knowledge/data/hardening.json says why the hardening is there",
            )
