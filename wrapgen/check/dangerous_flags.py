"""Check rules over what a pack can make its tool do: W030 (a dangerous flag on a read), W031 (an
environment that loads code), W033 (a read that runs a program subcommand).

A read verb is run without a confirm gate, so it must not be able to write a file, run a program,
update the tool or send data elsewhere: ``git log --output``, ``rg --pre``, ``fd --exec``, ``curl
-o``, ``yt-dlp --update``, ``kubectl cluster-info dump --output-directory``. The catalogue is data in
``wrapgen/knowledge/data/dangerous_flags.json``, read through ``wrapgen/knowledge/dangerous_flags.py``
(the proposal never writes such a flag on a read verb; these rules catch hand edits, on a pack of any
tool). Each rule reads the class, not an example:

- W030: a literal ``cli[]`` token of a read verb in the catalogue, after the subcommand a scoped
  entry names (``rebase -x``); a short option joined with its value or bundled (``-o/f``, ``-d@/f``,
  ``-sSo/f``, ``-ccore.pager=x``) counts as that option; and a flag whose value is an arg named as a
  program (``--filter {{program}}``, ``--exec={{command}}``). Write and destructive verbs are
  confirm-gated and may use them.
- W031: an ``env.set`` name that makes a tool load code, run a program or read its configuration
  from elsewhere (``LD_PRELOAD``, ``BASH_ENV``, ``PYTHONPATH``, ``NODE_OPTIONS``,
  ``GIT_CONFIG_PARAMETERS``, ``KUBECONFIG``, ``HOME``...), on every verb, reads and writes alike; only
  what the hardened-tools catalogue itself sets there (git's ``GIT_CONFIG_*`` block, npm's
  ``NPM_CONFIG_IGNORE_SCRIPTS``), with the catalogue's value, is allowed.
- W033: a read verb whose subcommand runs a program it is given or one the content's config names
  (``git submodule foreach``, ``git difftool``, ``npm x``, ``kubectl debug``).
"""

from __future__ import annotations

from typing import Iterator

from wrapgen.check.registry import PLACEHOLDER_RE, PackContext, VerbView, rule
from wrapgen.knowledge.dangerous_flags import (
    help_danger,
    is_program_file,
    is_program_value,
    loader_env_reason,
    names_a_command,
    program_command,
    token_danger,
)
from wrapgen.knowledge.hardening import env_settings, hardening_for

__all__ = ["dangerous_flag_on_read", "loader_environment", "program_command_on_read"]

CODE = "W030"
ENV_CODE = "W031"
COMMAND_CODE = "W033"


def _words_before(verb: VerbView, index: int) -> tuple[str, ...]:
    """The literal words (no option, no placeholder) of the argv before ``index``: the subcommand."""
    return tuple(
        token
        for token in verb.argv[1:index]
        if not token.startswith("-") and "{{" not in token and token != "--"
    )


def _leading_words(verb: VerbView) -> tuple[str, ...]:
    """The verb's subcommand words: the literal words after the bin, up to its ``--`` or a placeholder."""
    out = []
    for token in verb.argv[1:]:
        if token in ("--", "--end-of-options") or "{{" in token:
            break
        if not token.startswith("-"):
            out.append(token)
    return tuple(out)


def _arg_help_danger(verb: VerbView, index: int) -> str:
    """What the help of the arg that fills (or, a boolean, switches) the flag at ``index`` says it
    does that a read must not: the description an arg carries is its flag's own help
    (``--prepipe={{prepipe}}`` "pipe each input through the given command"; ``--add-noqa
    {{add_noqa}}`` "additions of noqa directives to failing lines"), read by the same test as a
    discovered flag's (``knowledge.dangerous_flags.help_danger``)."""
    token = verb.argv[index]
    candidates = [token.partition("=")[2]] if "=" in token else []
    if not candidates and index + 1 < len(verb.argv) and "{{" in verb.argv[index + 1]:
        candidates.append(verb.argv[index + 1])  # (after --x=v the next token is no value of it)
    for text in candidates:
        for match in PLACEHOLDER_RE.finditer(text):
            name = match.group(1).strip()
            schema = verb.properties.get(name)
            if not isinstance(schema, dict):
                continue
            if schema.get("type") != "boolean" and is_program_file(token.partition("=")[0], name):
                return f"{token.partition('=')[0]} given {{{{{name}}}}}: a file of code it runs"
            why = help_danger(str(schema.get("description", "")))
            if why:
                return f"{token.partition('=')[0]} (its {{{{{name}}}}}: {why})"
    return ""


def _program_arg(verb: VerbView, index: int) -> str:
    """The arg named as a program that fills the flag at ``index`` (``--x {{cmd}}``, ``--x={{cmd}}``)."""
    token = verb.argv[index]
    candidates = [token.partition("=")[2]] if "=" in token else []
    if not candidates and index + 1 < len(verb.argv):
        candidates.append(verb.argv[index + 1])
    for text in candidates:
        for match in PLACEHOLDER_RE.finditer(text):
            name = match.group(1).strip()
            schema = verb.properties.get(name)
            if isinstance(schema, dict) and schema.get("type") == "boolean":
                continue  # (a boolean renders the flag alone: it carries no program)
            if is_program_value(name) and not names_a_command(str(schema.get("description", ""))):
                return name  # (an arg whose help says it names a command to describe is none)
    return ""


@rule(
    CODE,
    severity="error",
    summary="a read verb's cli[] holds a flag from the dangerous-flags catalogue (writes a file, runs a program, updates the tool, sends data elsewhere), joined short forms and flags given a program arg included",
)
def dangerous_flag_on_read(ctx: PackContext) -> Iterator:
    bin_name = str(ctx.manifest.data.get("bin", ""))
    for verb in ctx.verbs:
        if verb.effect != "read":
            continue
        for index, token in enumerate(verb.argv[1:], start=1):
            if token == "--":
                break  # (operands follow: the runtime refuses a dashed value there)
            if not token.startswith("-") or "{{" in token.partition("=")[0]:
                continue
            why = token_danger(token, tool=bin_name, command=_words_before(verb, index))
            joined = why is not None and " joins " in why
            program = "" if why else _program_arg(verb, index)
            if program:
                why = f"{token.partition('=')[0]} given {{{{{program}}}}}: its value is a program it runs"
            if not why:
                why = _arg_help_danger(verb, index) or None
            if why:
                yield ctx.diagnostic(
                    CODE,
                    verb.field_of(index),
                    f"read verb {verb.name!r} uses {why}",
                    hint=(
                        "write each option on its own in its long form, and drop it from a read"
                        if joined
                        else "drop the flag, or make the verb a write (policy: {effect: write}) so it is confirm-gated"
                    ),
                )


@rule(
    ENV_CODE,
    severity="error",
    summary="env.set holds a variable that makes the tool load code, run a program or read its configuration from elsewhere (LD_*, BASH_ENV, PYTHON*, NODE_OPTIONS, GIT_CONFIG_PARAMETERS, HOME, ...), beyond what the hardening catalogue sets",
)
def loader_environment(ctx: PackContext) -> Iterator:
    env = ctx.manifest.data.get("env")
    env_set = env.get("set") if isinstance(env, dict) else None
    if not isinstance(env_set, dict):
        return
    entry = hardening_for(str(ctx.manifest.data.get("bin", "")))
    allowed = env_settings(entry) if entry is not None else {}
    for name, value in env_set.items():
        why = loader_env_reason(str(name))
        if why is None or allowed.get(str(name)) == str(value):
            continue
        yield ctx.diagnostic(
            ENV_CODE,
            f"env.set.{name}",
            f"env.set sets {name}: {why}",
            hint="remove it from env.set (a pack sets only what its tool's hardening catalogue says, "
            "wrapgen/knowledge/data/hardening.json; the user's own setting can be passed with env.pass)",
        )


@rule(
    COMMAND_CODE,
    severity="error",
    summary="a read verb runs a subcommand that runs a program it is given or its configuration names (git submodule foreach, difftool, npm x, kubectl debug)",
)
def program_command_on_read(ctx: PackContext) -> Iterator:
    bin_name = str(ctx.manifest.data.get("bin", ""))
    for verb in ctx.verbs:
        if verb.effect != "read":
            continue
        why = program_command(_leading_words(verb), tool=bin_name)
        if why:
            yield ctx.diagnostic(
                COMMAND_CODE,
                verb.field,
                f"read verb {verb.name!r} runs {why}",
                hint="drop the verb, or make it a write (policy: {effect: write}) so it is confirm-gated",
            )
