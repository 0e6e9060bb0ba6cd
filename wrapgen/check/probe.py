"""``wrapgen check --probe`` (docs/contract.md §12): does the real tool accept every flag a verb renders?

Each verb is rendered with sample args for every property, exactly as the runtime renders it
(``wrapgen.runtime.render_argv`` with the verb's resolved JSON selection), and every flag in the
rendered argv must appear in the help of that subcommand (``TOOL SUB... --help``, and ``-h``; both
are read, since ``git log -h`` lists less than ``git log --help``; where a flag is not there, the
fuller help the short one points to, ``--help all``, and the man page are read too). The tool runs only to print
help, as discovery's probes run (``wrapgen.probe.isolated``: in the sandbox where it runs, with the
probes' environment and a scratch HOME), since a pack's bin may be any program.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable

from wrapgen.check.samples import sample_value
from wrapgen.errors import Diagnostic
from wrapgen.pack.cli_words import subcommand_path

__all__ = [
    "sample_args",
    "rendered_flags",
    "probe_pack",
    "probe_packs",
    "PROBE_CODE",
    "PROBE_HELP_CODE",
]

PROBE_CODE = "P001"  # a rendered flag the tool's help does not list
PROBE_HELP_CODE = "P002"  # the help could not be read, so the verb was not probed
PROBE_RENDER_CODE = "P003"  # the sample args do not render
PROBE_OPERAND_CODE = (
    "W070"  # wrapgen.check.grammar: the usage requires an operand the verb has no slot for
)
PROBE_DOUBLE_DASH_CODE = "P004"  # cli[] holds a "--" its tool refuses or reads as an operand
_HELP_TIMEOUT_S = 20.0
_DASH_TRIAL_TIMEOUT_S = 10.0
_HELP_ENV = {"MANPAGER": "cat", "COLUMNS": "200"}


def sample_args(args_schema: dict) -> dict:
    """One value per property: every optional flag renders, so every flag gets probed."""
    return {
        name: sample_value(schema) for name, schema in (args_schema.get("properties") or {}).items()
    }


def rendered_flags(argv: list[str]) -> list[str]:
    """The flags of a rendered argv (``--max-count=5`` -> ``--max-count``), none after ``--``."""
    out = []
    for token in argv[1:]:
        if token in ("--", "--end-of-options"):  # the end of the options: what follows is operands
            break
        if token.startswith("-") and len(token) > 1:
            out.append(token.split("=", 1)[0])
    return out


def _help_text(bin_name: str, path: list[str], cache: dict) -> str:
    from wrapgen.probe.isolated import run_isolated

    key = (bin_name, tuple(path))
    if key in cache:
        return cache[key]
    texts = []
    for ask in ("--help", "-h"):
        result = run_isolated(
            [bin_name, *path, ask],
            timeout_s=_HELP_TIMEOUT_S,
            output_cap=4 << 20,
            extra_env=_HELP_ENV,
        )
        texts.append((result.stdout + b"\n" + result.stderr).decode("utf-8", "replace"))
    text = re.sub(r".\x08", "", "\n".join(texts))  # man's overstrike bold
    cache[key] = text
    return text


def _more_help(bin_name: str, path: list[str], first: str, cache: dict) -> str:
    """The fuller help a short one points to: ``--help all`` (curl) and the man page (git-log, curl)."""
    import shutil

    from wrapgen.probe.isolated import run_isolated

    key = ("more", bin_name, tuple(path))
    if key in cache:
        return cache[key]
    asks = []
    if "--help all" in first:
        asks.append([bin_name, *path, "--help", "all"])
    if re.search(r'"[^"]*\boptions" for a list of global', first):
        asks.append([bin_name, "options"])  # kubectl: global flags live in `kubectl options`
    page = "-".join([os.path.basename(bin_name), *path])
    man = shutil.which("man")
    if man:
        asks.append([man, "-P", "cat", page])
    texts = []
    for argv in asks:
        result = run_isolated(
            argv,
            timeout_s=_HELP_TIMEOUT_S,
            output_cap=8 << 20,
            extra_env={**_HELP_ENV, "MANWIDTH": "200"},
        )
        if result.exit_code == 0:
            texts.append(result.stdout.decode("utf-8", "replace"))
    text = re.sub(r".\x08", "", "\n".join(texts))
    cache[key] = text
    return text


def _listed(flag: str, help_text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", help_text) is not None


def _hardening_flags(bin_name: str, argv: list[str]) -> frozenset[str]:
    from wrapgen.knowledge.hardening import applied_flags, hardening_for

    entry = hardening_for(bin_name)
    return (
        frozenset(t for group in applied_flags(entry, argv) for t in group)
        if entry
        else frozenset()
    )


def _runner_flags(bin_name: str, argv: list[str]) -> frozenset[str]:
    from wrapgen.knowledge.runners import invocation_flags

    flags = invocation_flags(bin_name)
    return flags if flags and any(t in flags for t in argv[1:3]) else frozenset()


def _double_dash_refused(data: dict, name: str, verb: dict, help_text: str, *, path) -> str:
    """Why a verb's literal ``--`` is one its tool does not take, or "": the command's grammar (its
    help read as discovery reads it) says nothing of ``--``, and for a read verb, the same sample
    operands with and without ``--``, run as trials run (in the sandbox, with sample files), show the
    tool refuses it or reads it as an operand."""
    from wrapgen.check.trial_evidence import (
        classify,
        double_dash_verdict,
        home_writes,
        operands_after_double_dash,
        sample_args,
        sample_inputs,
        state_roots,
    )
    from wrapgen.parse import parse_help
    from wrapgen.parse.double_dash import said_by_family_only
    from wrapgen.probe.trial import TrialSpec, run_trials
    from wrapgen.runtime import RenderError, render_argv

    argv = list(verb["argv"])
    if "--" not in argv[1:] or verb["policy"]["effect"] != "read":
        return ""
    operands = operands_after_double_dash({"cli": argv, "args": verb["args"]})
    command = parse_help(help_text, prog=(os.path.basename(data["bin"]), *path))
    if not operands or (command.double_dash is not None and not said_by_family_only(command)):
        return (
            ""  # the grammar says (a family's look alone is checked, as discovery can misread it)
        )
    args = dict(verb["args"])
    args["required"] = list(dict.fromkeys([*(args.get("required") or ()), *operands]))
    values = sample_args(
        args, context=f"{verb.get('description', '')} {data.get('description', '')}"
    )
    without = list(argv)
    del without[without.index("--", 1)]
    specs = []
    try:
        for key, template in (("with", argv), ("without", without)):
            rendered = render_argv(template, values, json_selection=verb["json"])
            specs.append(
                TrialSpec(
                    key,
                    tuple(rendered),
                    env=dict(((data.get("env") or {}).get("set")) or {}),
                    json_selected=bool(verb["json"]),
                    inputs=sample_inputs(values),
                )
            )
    except RenderError:
        return ""
    import shutil

    bin_path = shutil.which(data["bin"]) or ""
    if not bin_path:
        return ""
    run = run_trials(specs, bin_path=bin_path, timeout_s=_DASH_TRIAL_TIMEOUT_S, cache=False)
    if run.note or len(run.outcomes) != 2:
        return ""
    # what either run wrote into HOME is the tool's own state, not what tells the two apart
    with_it, without_it = (
        classify(o, state=state_roots(home_writes(o)), answers=verb.get("exit_codes") or {})
        for o in run.outcomes
    )
    if double_dash_verdict(with_it, without_it) != "dropped":
        return ""
    shown = " ".join(specs[0].argv)
    return (
        f"`{shown}` fails or answers about '--' where the same call without '--' works: "
        f"{os.path.basename(data['bin'])} refuses '--' or reads it as an operand"
    )


def probe_pack(directory, *, cache: dict | None = None) -> list[Diagnostic]:
    """Probe every verb of one pack against its tool's help."""
    from wrapgen.pack.build import resolve_verb
    from wrapgen.pack.manifest import read_manifest
    from wrapgen.runtime import RenderError, render_argv

    cache = {} if cache is None else cache
    manifest, diagnostics = read_manifest(directory)
    if manifest is None or any(d.level == "error" for d in diagnostics):
        return []  # check's own rules report a broken manifest
    data = manifest.data
    out: list[Diagnostic] = []
    for name in data["verbs"]:
        verb = resolve_verb(data, name)
        field = f"verbs.{name}"
        try:
            argv = render_argv(verb["argv"], sample_args(verb["args"]), json_selection=verb["json"])
        except RenderError as error:
            out.append(
                manifest.diagnostic(
                    PROBE_RENDER_CODE,
                    "error",
                    field,
                    f"sample args do not render: {error}",
                    hint="fix cli[] or the arg schema",
                )
            )
            continue
        path = list(subcommand_path(verb["argv"]))
        help_text = _help_text(data["bin"], path, cache)
        if not help_text.strip():
            out.append(
                manifest.diagnostic(
                    PROBE_HELP_CODE,
                    "warning",
                    field,
                    f"`{' '.join([data['bin'], *path])} --help` printed nothing; not probed",
                    hint="check that the tool is installed and prints help",
                )
            )
            continue
        from wrapgen.check.grammar import (
            FLAG_VALUE_CODE,
            operand_findings,
        )  # the operands the usage names

        missing, flag_values = operand_findings(
            name, verb, help_text, bin_name=data["bin"], path=path
        )
        for where, message, hint in missing:
            out.append(manifest.diagnostic(PROBE_OPERAND_CODE, "error", where, message, hint=hint))
        refused = _double_dash_refused(data, name, verb, help_text, path=path)
        if refused:
            out.append(
                manifest.diagnostic(
                    PROBE_DOUBLE_DASH_CODE,
                    "error",
                    f"{field}.cli",
                    refused,
                    hint="take '--' out of cli[] (a dashed operand value is then refused by the runtime)",
                )
            )
        for where, message, hint in flag_values:
            out.append(manifest.diagnostic(FLAG_VALUE_CODE, "warning", where, message, hint=hint))
        # "-e{{pattern}}" renders stuck to its value ("-esample"): the flag is the template's "-e"
        stuck = {
            t[: t.index("{{")]
            for t in verb["argv"]
            if t.startswith("-") and not t.startswith("--") and "{{" in t and t.index("{{") > 1
        }
        # the hardened-tools catalogue's flags (git blame --no-textconv, which blame's help leaves out)
        # were tried on the tool when they were catalogued
        hardened = _hardening_flags(data["bin"], verb["argv"])
        # a task runner's own invocation (`npm --prefix DIR run`): its manual has the flags (docs/runners.md)
        hardened |= _runner_flags(data["bin"], verb["argv"])
        for flag in rendered_flags(argv):
            flag = next((p for p in stuck if flag.startswith(p)), flag)
            if flag in hardened:
                continue
            if not _listed(flag, help_text) and not _listed(
                flag, _more_help(data["bin"], path, help_text, cache)
            ):
                out.append(
                    manifest.diagnostic(
                        PROBE_CODE,
                        "error",
                        field,
                        f"renders {flag}, which `{' '.join([data['bin'], *path])} --help` does not list",
                        hint="drop the flag from cli[] or fix its spelling",
                    )
                )
    return out


def probe_packs(paths: Iterable) -> list[Diagnostic]:
    """``--probe`` over several pack directories (a directory of packs is expanded)."""
    from wrapgen.check.rules import expand_pack_dirs

    cache: dict = {}
    return [d for path in expand_pack_dirs(paths) for d in probe_pack(Path(path), cache=cache)]
