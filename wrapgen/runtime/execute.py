"""Executing one verb: binding -> checked args -> argv -> process -> envelope (docs/contract.md §8, §9).

``execute`` never raises for anything a caller, a pack or a tool can do wrong: every outcome is
an envelope, ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "..."}``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from wrapgen.errors import WrapgenError
from wrapgen.names import is_pack_id
from wrapgen.runtime import sandbox
from wrapgen.runtime.binding import load_binding, resolve_pack
from wrapgen.runtime.process import DEFAULT_OUTPUT_CAP, ProcessResult, run_process
from wrapgen.runtime.render import render_argv
from wrapgen.runtime.schema import apply_defaults, validate_args

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "DEFAULT_MEMORY_MB",
    "TOOL_ENV",
    "ENV_ALLOWLIST",
    "tool_env",
    "memory_limit_mb",
    "ERROR_TAIL",
    "failure",
    "success",
    "answer",
    "strip_ansi",
    "envelope_from_process",
    "parse_with_jc",
    "prepare",
    "execute",
    "execute_envelope",
]

DEFAULT_TIMEOUT_S = 60
# RLIMIT_DATA of every tool unless its pack says otherwise (limits.memory_mb); gh, kubectl, node and
# java all start and work under it (they do not under 2 GiB of RLIMIT_AS: see contain.py)
DEFAULT_MEMORY_MB = 2048
TOOL_ENV = {"NO_COLOR": "1", "PAGER": "cat", "GIT_PAGER": "cat", "TERM": "dumb"}
# What a tool gets of the caller's environment without its pack naming it (docs/contract.md §8); plus LC_*
ENV_ALLOWLIST = ("PATH", "HOME", "LANG", "TZ", "TMPDIR", "USER")
ERROR_TAIL = 4000
# How often a call is planned again when a path its sandbox was to hide went away before bubblewrap
# started (another program's temporary directory, removed meanwhile): the tool had not run
_SANDBOX_ATTEMPTS = 3

_ANSI = r"""
    \x1b\[ [0-?]* [ -/]* [@-~]          # CSI: colours, cursor moves
  | \x1b\] .*? (?:\x07|\x1b\\)          # OSC: titles, hyperlinks (ended by BEL or ST)
  | \x1b [@-Z\\-_]                      # other two-byte escapes
    """
_ansi_re = None


def failure(message: str) -> dict:
    return {"ok": False, "error": message}


def success(result) -> dict:
    return {"ok": True, "result": result}


def answer(meaning: str, exit_code: int, output) -> dict:
    """A declared non-zero exit (pack.yaml ``exit_codes``, docs/contract.md §8): still ``ok: false``, the
    error says what the status means, and what the tool printed on stdout is kept as ``output``."""
    return {
        "ok": False,
        "error": f"{meaning} (exit {exit_code})",
        "exit_code": exit_code,
        "output": output,
    }


def strip_ansi(text: str) -> str:
    global _ansi_re
    if "\x1b" not in text:
        return text
    if _ansi_re is None:  # compiled on first use: most calls never see an escape
        _ansi_re = re.compile(_ANSI, re.VERBOSE | re.DOTALL)
    return _ansi_re.sub("", text)


def _error_text(error: WrapgenError) -> str:
    return f"{error.message}; {error.hint}" if error.hint else error.message


def _size(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _parse_json(text: str):
    """One JSON document, or a stream of them (JSON lines, jq-style) as a list; ValueError otherwise.
    Colour escapes inside its strings (``"\\u001b[32m"``, a tool's coloured messages) are taken out."""
    stripped = text.strip()
    if not stripped:
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        pass
    except RecursionError:
        raise _TooDeep from None
    else:
        return _plain(value) if "u001b" in stripped or "u001B" in stripped else value
    decoder = json.JSONDecoder()
    values, at = [], 0
    while at < len(stripped):
        value, at = decoder.raw_decode(stripped, at)
        values.append(value)
        while at < len(stripped) and stripped[at].isspace():
            at += 1
    return _plain(values) if "u001b" in stripped or "u001B" in stripped else values


def _plain(value):
    """``value`` (parsed JSON) with ANSI escapes taken out of every string in it."""
    if isinstance(value, str):
        return strip_ansi(value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


class _TooDeep(Exception):
    """JSON nested deeper than the decoder's recursion limit."""


TOO_DEEP = "nested too deeply (more than about 1,000 levels)"


def _declared(exit_codes, exit_code: int) -> str:
    """The meaning a verb's ``exit_codes`` gives ``exit_code``; "" when it declares none (or is malformed)."""
    meaning = exit_codes.get(str(exit_code)) if isinstance(exit_codes, dict) else None
    return meaning.strip() if isinstance(meaning, str) else ""


def _kept_output(stdout: bytes, *, json_selected: bool):
    """What the tool printed beside a declared exit: JSON when selected and it parses, else text; None when empty."""
    text = strip_ansi(stdout.decode("utf-8", errors="replace"))
    if not text.strip():
        return None
    if json_selected:
        try:
            return _parse_json(text)
        except (ValueError, RecursionError, _TooDeep):
            pass
    return text


def _jc_failure(tool: str, parser: str, why: str, text: str) -> dict:
    return {
        "ok": False,
        "error": f"could not parse {tool} output with jc.{parser}: {why}",
        "output": text,
    }


def parse_with_jc(tool: str, parser: str, text: str) -> dict:
    """The envelope of a verb that declares ``jc: PARSER``: the tool's text output as the JSON that
    jc's parser makes of it, or ``ok: false`` with the reason and the raw text kept as ``output``.

    jc (``pip install 'wrapgen[jc]'``) is imported here and only here, on the first call of such a
    verb: every other call of the runtime stays standard-library only."""
    import importlib

    try:
        # the runtime's one module outside the standard library, and optional: loaded by name, here only
        # (tests/runtime/test_runtime_jc.py pins that this is the only dynamic import of the runtime)
        jc = importlib.import_module("jc")
    except ImportError:
        return _jc_failure(
            tool, parser, "jc is not installed (install it: pip install 'wrapgen[jc]')", text
        )
    try:
        known = parser in jc.parser_mod_list()
    except Exception:  # an unusable jc install
        known = False
    if not known:
        return _jc_failure(tool, parser, f"the installed jc has no parser {parser!r}", text)
    try:
        data = jc.parse(parser, text, quiet=True)
    except (
        Exception
    ) as error:  # jc's ParseError and whatever a parser raises on text it cannot read
        detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return _jc_failure(
            tool, parser, f"{type(error).__name__}{': ' + detail if detail else ''}", text
        )
    if text.strip() and not data:
        return _jc_failure(tool, parser, "the parser found nothing in the output", text)
    return success(data)


def envelope_from_process(
    result: ProcessResult,
    *,
    json_selected: bool,
    timeout_s: float,
    output_cap: int = DEFAULT_OUTPUT_CAP,
    memory_mb: int | None = None,
    exit_codes=None,
    jc_parser: str | None = None,
) -> dict:
    """The envelope for what happened when the tool ran (docs/contract.md §8).

    ``exit_codes`` (``{"1": "no matches"}``, the verb's resolved declaration) turns a declared
    non-zero exit into ``answer(...)``; any other non-zero exit gives stderr's tail or "exit N",
    with what the tool printed on stdout as ``output`` when it printed anything.
    ``jc_parser`` (the verb's ``jc``) turns a successful call's text into jc's JSON (``parse_with_jc``)."""
    if result.not_found:
        name = result.argv[0] if result.argv else "the tool"
        return failure(f"cannot run {name}: {result.not_found}")
    if result.cancelled:
        return failure("cancelled")
    if result.output_capped:
        return failure(f"output exceeded {_size(output_cap)}")
    if result.timed_out:
        return failure(f"timed out after {_seconds(timeout_s)} s")
    if getattr(result, "memory_exceeded", False):
        limit = f" of {memory_mb} MiB" if memory_mb else ""
        return failure(
            f"exceeded the memory limit{limit}; a pack that needs more sets limits: {{memory_mb: N}} in pack.yaml"
        )
    if result.signal is not None:
        import signal as _signal  # (only here: its enums cost every call's start-up)

        try:
            name = _signal.Signals(result.signal).name
        except ValueError:
            name = "unknown"
        return failure(f"killed by signal {result.signal} ({name})")
    if result.exit_code != 0:
        meaning = _declared(exit_codes, result.exit_code)
        if meaning:
            return answer(
                meaning, result.exit_code, _kept_output(result.stdout, json_selected=json_selected)
            )
        text = strip_ansi(result.stderr.decode("utf-8", errors="replace")).strip()
        envelope = failure(text[-ERROR_TAIL:].strip() if text else f"exit {result.exit_code}")
        # the status itself, as a declared one carries it: a caller tells a linter's "findings" (1)
        # from its crash (2) without parsing the error
        envelope["exit_code"] = result.exit_code
        # what the tool printed on stdout is its answer too (a linter's findings, a test runner's
        # failures): kept whenever it printed anything
        output = _kept_output(result.stdout, json_selected=json_selected)
        if output is not None:
            envelope["output"] = output
        return envelope
    # no ANSI escape reaches a result: NO_COLOR and TERM=dumb are set, yet some tools colour anyway
    stdout = strip_ansi(result.stdout.decode("utf-8", errors="replace"))
    if jc_parser:
        tool = os.path.basename(result.argv[0]) if result.argv else "the tool"
        return parse_with_jc(tool, jc_parser, stdout)
    if not json_selected:
        return success(stdout)
    try:
        return success(_parse_json(stdout))
    except _TooDeep:
        return failure(f"output is JSON {TOO_DEEP}")
    except RecursionError:
        return failure(f"output is JSON {TOO_DEEP}")
    except ValueError:
        head = stdout.strip()[:200]
        return failure(f"output is not JSON: {head}")


def _verb_names(binding: dict) -> str:
    return ", ".join(sorted(binding.get("verbs") or {})) or "none"


def prepare(binding: dict, verb_key: str, args) -> tuple[list[str], dict, dict]:
    """(argv, verb, args with defaults) for one call, or a ``WrapgenError`` saying what to fix."""
    verbs = binding.get("verbs") or {}
    pack_id = binding.get("pack_id", "?")
    if not isinstance(verb_key, str) or verb_key not in verbs:
        import difflib

        close = difflib.get_close_matches(str(verb_key), list(verbs), n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"valid verbs: {_verb_names(binding)}"
        raise WrapgenError(f"unknown verb {verb_key!r} in pack {pack_id!r}", hint=hint)
    verb = verbs[verb_key]
    if args is None:
        args = {}
    schema = verb.get("args") or {}
    problems = validate_args(schema, args)
    if problems:
        raise WrapgenError(
            f"invalid args for {pack_id} {verb_key}: " + "; ".join(problems),
            hint=f"fix these args; `wrapgen export {pack_id}` shows every verb's schema",
        )
    policy = verb.get("policy") or {}
    # docs/contract.md §9: only the caller's own args open the gate, read before any schema default is filled
    # in (and apply_defaults never fills confirm/apply); a const only constrains what is passed
    if policy.get("confirm") and not (args.get("confirm") is True or args.get("apply") is True):
        raise WrapgenError("confirmation required: pass confirm=true")
    args = apply_defaults(schema, args)
    argv = render_argv(
        verb.get("argv") or [],
        args,
        json_selection=verb.get("json") or (),
        response_files=binding.get("response_files") is True,
    )
    return argv, verb, args


def _env_spec(binding: dict) -> tuple[list, dict]:
    """The pack's ``env: {pass, set}`` from its binding; ``WrapgenError`` when it is malformed."""
    spec = binding.get("env") or {}
    names = spec.get("pass") or [] if isinstance(spec, dict) else None
    fixed = spec.get("set") or {} if isinstance(spec, dict) else None
    if (
        not isinstance(names, list)
        or not all(isinstance(n, str) for n in names)
        or not isinstance(fixed, dict)
        or not all(isinstance(v, str) for v in fixed.values())
    ):
        raise WrapgenError("the binding's env is malformed", hint="run wrapgen build on the pack")
    return names, fixed


def tool_env(binding: dict, environ=None) -> dict:
    """The environment a pack's tool runs with (docs/contract.md §8): of ``environ`` (default ``os.environ``)
    only PATH, HOME, LANG, LC_*, TZ, TMPDIR, USER and the names the pack passes (``env.pass``),
    then the pack's fixed settings (``env.set``), then wrapgen's (``TOOL_ENV``), which always win."""
    source = os.environ if environ is None else environ
    names, fixed = _env_spec(binding)
    passed = set(ENV_ALLOWLIST).union(names)
    out = {key: value for key, value in source.items() if key in passed or key.startswith("LC_")}
    out.update(fixed)
    out.update(TOOL_ENV)
    return out


def memory_limit_mb(binding: dict) -> int:
    """The tool's memory limit in MiB: the pack's ``limits.memory_mb``, else ``DEFAULT_MEMORY_MB``."""
    limits = binding.get("limits") or {}
    value = limits.get("memory_mb") if isinstance(limits, dict) else None
    if value is None:
        return DEFAULT_MEMORY_MB
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise WrapgenError(
            "the binding's limits.memory_mb is malformed", hint="run wrapgen build on the pack"
        )
    return value


def execute(
    pack,
    verb_key,
    args=None,
    *,
    cwd=None,
    env=None,
    output_cap: int = DEFAULT_OUTPUT_CAP,
    cancel=None,
) -> dict:
    """Run one verb of a pack and return its envelope; never raises.

    ``pack`` is a pack directory, a pack_id (WRAPGEN_PATH, then ./adapters), or a loaded binding dict.
    ``env`` stands for the caller's environment (default ``os.environ``): the tool gets only
    ``tool_env(binding, env)`` of it. Every spawn is contained (nothing the tool starts outlives the
    call) and runs under ``memory_limit_mb(binding)``; setting ``cancel`` (e.g. a
    ``threading.Event``) kills everything the call started and gives ``"cancelled"``.
    """
    try:
        if isinstance(pack, dict):
            binding = pack
        else:
            binding = load_binding(resolve_pack(pack))
        argv, verb, _ = prepare(binding, verb_key, args)
        tool_environ = tool_env(binding, env)
        memory_mb = memory_limit_mb(binding)
        timeout_s = verb.get("timeout_s") or DEFAULT_TIMEOUT_S
        if (
            isinstance(timeout_s, bool)
            or not isinstance(timeout_s, (int, float))
            or not 0 < timeout_s <= 86400
        ):
            raise WrapgenError(
                f"the binding's timeout_s of {verb_key!r} is malformed",
                hint="run wrapgen build on the pack",
            )
        jc_parser = verb.get("jc")
        if jc_parser is not None and not (isinstance(jc_parser, str) and jc_parser.isidentifier()):
            raise WrapgenError(
                f"the binding's jc of {verb_key!r} is malformed",
                hint="run wrapgen build on the pack",
            )
    except WrapgenError as error:
        return failure(_error_text(error))
    except RecursionError:
        return failure(f"args are {TOO_DEEP}")
    except Exception as error:  # a broken binding must not crash the host
        return failure(
            f"cannot execute {verb_key!r}: {type(error).__name__}: {error}; run wrapgen build on the pack"
        )
    if binding.get("config_guard") is not None and argv:
        from wrapgen.runtime.guard import guarded_env  # (only packs with a guard: git's)

        try:
            tool_environ = guarded_env(
                binding, argv[0], tool_environ, cwd=cwd, cancel=cancel, memory_mb=memory_mb
            )
        except WrapgenError as error:
            return failure(_error_text(error))
    if binding.get("credential_guard") is not None and argv:
        from wrapgen.runtime.guard import (
            check_credentials,
        )  # (only packs with one: kubectl's, docker's)

        try:
            check_credentials(
                binding, argv, tool_environ, cwd=cwd, cancel=cancel, memory_mb=memory_mb
            )
        except WrapgenError as error:
            return failure(_error_text(error))
    run = _run_sandboxed(
        binding,
        verb_key,
        verb,
        argv,
        cwd=cwd,
        env=tool_environ,
        options={
            "timeout_s": timeout_s,
            "output_cap": output_cap,
            "cancel": cancel,
            "memory_mb": memory_mb,
        },
    )
    if isinstance(run, dict):
        return run
    result, plan = run
    envelope = envelope_from_process(
        result,
        json_selected=bool(verb.get("json")),
        timeout_s=timeout_s,
        output_cap=output_cap,
        memory_mb=memory_mb,
        exit_codes=verb.get("exit_codes"),
        jc_parser=jc_parser,
    )
    answered = "exit_code" in envelope and _declared(verb.get("exit_codes"), envelope["exit_code"])
    if plan is not None and not envelope["ok"] and not answered:
        found = sandbox.withheld(result, plan)
        if found is not None:
            what, key = found
            envelope["error"] += f" [the sandbox withheld {what}; {key} in pack.yaml allows it]"
            envelope["withheld"] = what
            envelope["allow"] = key
    return envelope


def _run_sandboxed(binding: dict, verb_key: str, verb: dict, argv, *, cwd, env, options):
    """Run the call in its sandbox (``runtime/sandbox.py``): ``(result, plan)``, with plan None when it
    ran with the supervisor's containment alone (the setting allowed that: bubblewrap cannot run here),
    or the failure envelope when it cannot run at all."""
    spec = binding.get("sandbox") or {}
    if not isinstance(spec, dict):
        return failure("the binding's sandbox is malformed; run wrapgen build on the pack")
    try:
        mode = sandbox.setting(spec)
    except ValueError as error:
        return failure(f"{error}; unset it to sandbox every call")
    try:
        work = os.path.abspath(cwd) if cwd is not None else os.getcwd()
    except OSError as error:
        return failure(f"cannot run {argv[0]}: no working directory ({error.strerror})")
    if not os.path.isdir(work):
        return failure(f"cannot run {argv[0]}: working directory {work} does not exist")
    bwrap = sandbox.find_bwrap()
    reason = "bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)"
    if bwrap is not None:
        effect = (verb.get("policy") or {}).get("effect") or "read"
        # the paths the verb's own words name (a script an interpreter runs), not an argument's
        fixed = tuple(
            token
            for token in verb.get("argv") or ()
            if isinstance(token, str) and token.startswith("/") and "{{" not in token
        )
        for _attempt in range(_SANDBOX_ATTEMPTS):
            try:
                plan = sandbox.plan(
                    argv,
                    sandbox=spec,
                    verb_key=verb_key,
                    effect=effect,
                    cwd=work,
                    env=env,
                    bwrap=bwrap,
                    fixed=fixed,
                )
            except FileNotFoundError:
                return ProcessResult(argv=tuple(argv), not_found="not found"), None
            result = _run_in_plan(plan, work, options)
            reason = sandbox.started(result.exit_code, result.stdout, result.stderr)
            if reason is None or not sandbox.vanished(reason):
                break  # (else a path it was to hide went away before it started: plan again)
        if reason is None:
            failed = sandbox.exec_failure(result.exit_code, result.stdout, result.stderr)
            if failed is not None:
                return ProcessResult(argv=tuple(argv), not_found=failed), None
            if result.signal is None:
                code, sig = sandbox.from_exit(result.exit_code)
                result = result._replace(exit_code=code, signal=sig)
            return result._replace(argv=tuple(argv)), plan
    if mode == "require":
        return failure(
            f"the per-call sandbox cannot run here: {reason}; nothing ran. Install bubblewrap 0.8+"
            f" where user namespaces are enabled, or set {sandbox.SETTING_ENV}=fallback to run"
            " without it (the supervisor's containment alone)"
        )
    sandbox.note_fallback(reason)
    return run_process(argv, cwd=work, env=env, **options), None


def _run_in_plan(plan, work: str, options: dict):
    """Run a sandbox plan: bubblewrap reads its seccomp program from a pipe (fd SECCOMP_FD); the
    call's processes are bounded (``sandbox.PROCESSES``) by a cgroup of its own where one can be
    made (``contain``); the staging of declared write paths ends with the call
    (``sandbox.settle``)."""
    program = ()
    try:
        if plan.seccomp:
            program = os.pipe()
            os.write(program[1], plan.seccomp)
            os.close(program[1])
        return run_process(
            plan.argv,
            cwd=work,
            env=plan.env,
            limits=plan.limits,
            pass_fds=program[:1],
            processes=sandbox.PROCESSES,
            **options,
        )
    finally:
        if program:
            os.close(program[0])
        sandbox.settle(plan)


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def execute_envelope(
    envelope, *, pack_dir=None, cwd=None, env=None, output_cap: int = DEFAULT_OUTPUT_CAP
) -> dict:
    """Run ``{"pack_id", "verb_key", "args"}``; with ``pack_dir``, the envelope must name that pack."""
    if not isinstance(envelope, dict):
        return failure(
            'an envelope is a JSON object: {"pack_id": ..., "verb_key": ..., "args": {...}}'
        )
    unknown = sorted(set(envelope) - {"pack_id", "verb_key", "args"})
    if unknown:
        return failure(
            f"unknown envelope field(s): {', '.join(unknown)}; an envelope has pack_id, verb_key and args"
        )
    pack_id, verb_key, args = (
        envelope.get("pack_id"),
        envelope.get("verb_key"),
        envelope.get("args", {}),
    )
    if not isinstance(verb_key, str) or not verb_key:
        return failure("the envelope has no verb_key; add the verb to run")
    if args is not None and not isinstance(args, dict):
        return failure("envelope args must be a JSON object")
    if pack_id is not None and not is_pack_id(pack_id):
        return failure(
            f"the envelope's pack_id {_shown(pack_id)} is not a pack id (a lower-case name such as git); "
            "an envelope names a pack by its id, never by a path"
        )
    if pack_dir is not None:
        try:
            binding = load_binding(Path(pack_dir))
        except WrapgenError as error:
            return failure(_error_text(error))
        if pack_id is not None and pack_id != binding.get("pack_id"):
            return failure(f"this adapter serves pack {binding.get('pack_id')!r}, not {pack_id!r}")
        return execute(binding, verb_key, args, cwd=cwd, env=env, output_cap=output_cap)
    if not isinstance(pack_id, str) or not pack_id:
        return failure("the envelope has no pack_id; add the pack to run")
    return execute(pack_id, verb_key, args, cwd=cwd, env=env, output_cap=output_cap)
