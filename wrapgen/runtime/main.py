"""``wrapgen exec`` and every generated ``adapter.py``: the command line of the JSON face (docs/contract.md §10, §14).

Parsed by hand rather than with argparse: ``VERB [--json] -- k=v ...`` is not a grammar argparse
expresses, and every adapter call pays for the import.
"""

from __future__ import annotations

import json
import sys
from collections import namedtuple

from wrapgen.errors import ExitStatus, UsageError, WrapgenError
from wrapgen.runtime.binding import load_binding, resolve_pack
from wrapgen.runtime.execute import execute, execute_envelope, failure
from wrapgen.runtime.output import print_error
from wrapgen.runtime.sandbox import take_notice
from wrapgen.runtime.schema import coerce_kv

__all__ = [
    "EXEC_USAGE",
    "ADAPTER_USAGE",
    "exec_main",
    "parse_exec_argv",
    "split_call_line",
    "CallLine",
    "ExecCall",
    "print_envelope",
]

EXEC_USAGE = """\
usage: wrapgen exec PACK VERB [--json] [-- k=v ...]
       wrapgen exec --envelope FILE|- [--json]

Run one command of a pack and print its envelope ({"ok": ..., "result"|"error": ...}).
PACK is a pack directory, or a pack_id found in a directory of WRAPGEN_PATH, then in ./adapters/.
Each k=v after -- is an argument, typed by the verb's schema; repeat a key for a list.
confirm=true (or apply=true) lets a confirm-gated verb run.

  --json           print the envelope as one line (default: indented)
  --envelope FILE  read a whole envelope {"pack_id", "verb_key", "args"} from FILE, or - for stdin
                   (printed as one line)
exit status: 0 when ok, 1 when not, 2 for a usage error"""

ADAPTER_USAGE = """\
usage: adapter.py VERB [--json] [-- k=v ...]
       adapter.py [--envelope FILE|-]      (no arguments: one envelope on stdin)

Run one command of this pack and print its envelope; exit 0 when ok, 1 when not, 2 for a usage error."""


# namedtuple rather than a dataclass: ``dataclasses`` imports ``inspect`` (start-up time of every call).
ExecCall = namedtuple(
    "ExecCall",
    ["pack", "verb", "pairs", "envelope", "one_line", "help", "implicit"],
    defaults=(None, None, (), None, False, False, False),
)
ExecCall.__doc__ = "One parsed exec command line (envelope is FILE or '-'; implicit: adapter.py with no arguments)."


CallLine = namedtuple("CallLine", ["positionals", "switched", "value", "pairs", "help"])
CallLine.__doc__ = "A `PACK VERB [--SWITCH] [--OPTION VALUE] -- k=v ...` command line, split."


def split_call_line(
    argv, *, switch: str, value_option: str, hint: str, max_positionals: int
) -> CallLine:
    """Split the command lines of `wrapgen exec` and `wrapgen title` (and adapter.py) alike.

    ``switch`` is their one flag (``--json``, ``--done``), ``value_option`` their one option with a
    value (``--envelope FILE``, ``--result FILE``); k=v pairs come after ``--``. Raises UsageError.
    """
    argv = list(argv)
    if "--" in argv:
        cut = argv.index("--")
        head, pairs = argv[:cut], tuple(argv[cut + 1 :])
    else:
        head, pairs = argv, ()
    positionals: list[str] = []
    value = None
    switched = False
    index = 0
    while index < len(head):
        token = head[index]
        if token in ("-h", "--help"):
            return CallLine((), False, None, (), True)
        if token == switch:
            switched = True
        elif token == value_option or token.startswith(value_option + "="):
            if "=" in token:
                value = token.split("=", 1)[1]
            elif index + 1 < len(head):
                index += 1
                value = head[index]
            else:
                raise UsageError(f"{value_option} needs a file, or - for stdin", hint=hint)
        elif token.startswith("-") and token != "-":
            raise UsageError(f"unknown option {token!r}", hint=f"{hint}; k=v arguments go after --")
        elif "=" in token and len(positionals) >= max_positionals:
            raise UsageError(f"{token!r} must come after --", hint="write: VERB -- " + token)
        else:
            positionals.append(token)
        index += 1
    return CallLine(tuple(positionals), switched, value, pairs, False)


def parse_exec_argv(argv, *, pack_given: bool) -> ExecCall:
    """Split ``[PACK] VERB [--json] [-- k=v ...]`` / ``--envelope FILE``; raises UsageError."""
    usage_hint = "run `adapter.py --help`" if pack_given else "run `wrapgen exec --help`"
    line = split_call_line(
        argv,
        switch="--json",
        value_option="--envelope",
        hint=usage_hint,
        max_positionals=1 if pack_given else 2,
    )
    if line.help:
        return ExecCall(help=True)
    positionals, one_line, envelope, pairs = (
        list(line.positionals),
        line.switched,
        line.value,
        line.pairs,
    )
    wanted = 1 if pack_given else 2
    if envelope is not None:
        if positionals or pairs:
            raise UsageError(
                "--envelope takes the whole call; give no PACK, VERB or k=v with it",
                hint=usage_hint,
            )
        return ExecCall(envelope=envelope, one_line=True)
    if pack_given and not positionals:
        if pairs:
            raise UsageError("k=v arguments need a VERB before --", hint=usage_hint)
        return ExecCall(envelope="-", one_line=True, implicit=True)
    if len(positionals) != wanted:
        what = "VERB" if pack_given else "PACK VERB"
        raise UsageError(
            f"expected {what}, got {' '.join(positionals) or 'nothing'}", hint=usage_hint
        )
    if pack_given:
        return ExecCall(verb=positionals[0], pairs=pairs, one_line=one_line)
    return ExecCall(pack=positionals[0], verb=positionals[1], pairs=pairs, one_line=one_line)


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def print_envelope(envelope: dict, *, one_line: bool, stream=None) -> None:
    stream = stream or sys.stdout
    try:
        text = json.dumps(envelope, ensure_ascii=False, indent=None if one_line else 2)
    except RecursionError:
        text = json.dumps(
            failure("the result is nested too deeply to print (more than about 1,000 levels)"),
            ensure_ascii=False,
            indent=None if one_line else 2,
        )
    stream.write(text + "\n")
    stream.flush()


# An envelope is a few kB; reading one is bounded in size and in time, so that `exec` never waits
# forever on a stdin (or a FIFO) that nobody writes to or never closes.
ENVELOPE_MAX_BYTES = 16 * 1024 * 1024
ENVELOPE_TIMEOUT_S = 30.0


def _read_bounded(fd: int, *, what: str) -> bytes:
    """All of ``fd`` until end of file, at most ENVELOPE_MAX_BYTES, within ENVELOPE_TIMEOUT_S."""
    import os
    import select
    import time

    deadline = time.monotonic() + ENVELOPE_TIMEOUT_S
    chunks, size = [], 0
    while True:
        left = deadline - time.monotonic()
        ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            raise UsageError(
                f"no complete envelope on {what} within {ENVELOPE_TIMEOUT_S:g} s",
                hint="send the whole envelope and close the stream (end of file)",
            )
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            continue
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > ENVELOPE_MAX_BYTES:
            raise UsageError(
                f"the envelope on {what} is larger than {ENVELOPE_MAX_BYTES >> 20} MiB",
                hint="an envelope is one small JSON object",
            )
        chunks.append(chunk)


def _read_source(source: str) -> bytes:
    import os

    if source == "-":
        if sys.stdin is None:  # started with fd 0 closed: nothing to read
            return b""
        try:
            fd = sys.stdin.fileno()
        except (
            AttributeError,
            ValueError,
            OSError,
        ):  # an in-memory stdin (tests, embedding): no wait
            text = sys.stdin.read(ENVELOPE_MAX_BYTES + 1)
            return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
        return _read_bounded(fd, what="stdin")
    fd = os.open(
        source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    )  # a FIFO must not block the open
    try:
        return _read_bounded(fd, what=source)
    finally:
        os.close(fd)


def _read_envelope(source: str):
    """The parsed envelope, or a failure envelope when it is not JSON; OSError -> UsageError."""
    try:
        raw = _read_source(source)
    except OSError as error:
        raise UsageError(
            f"cannot read envelope {source}: {error.strerror}",
            hint="pass an existing file, or - for stdin",
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, failure("the envelope is not UTF-8 text")
    try:
        return json.loads(text), None
    except RecursionError:
        return None, failure("the envelope is nested too deeply (more than about 1,000 levels)")
    except ValueError as error:
        return None, failure(f"the envelope is not JSON: {error}")


def _run(argv, pack_dir) -> int:
    call = parse_exec_argv(argv, pack_given=pack_dir is not None)
    if call.help:
        print(ADAPTER_USAGE if pack_dir is not None else EXEC_USAGE)
        return ExitStatus.OK
    if call.envelope is not None:
        if call.envelope == "-" and call.implicit and _stdin_is_terminal():
            raise UsageError(
                "no envelope: stdin is a terminal",
                hint=(ADAPTER_USAGE if pack_dir is not None else EXEC_USAGE).splitlines()[0],
            )
        envelope, bad = _read_envelope(call.envelope)
        result = bad or execute_envelope(envelope, pack_dir=pack_dir)
    else:
        directory = pack_dir if pack_dir is not None else resolve_pack(call.pack)
        try:
            binding = load_binding(directory)
        except WrapgenError as error:
            result = failure(f"{error.message}; {error.hint}" if error.hint else error.message)
        else:
            verb = (binding.get("verbs") or {}).get(call.verb)
            # an unknown verb is an envelope (docs/contract.md §8); the args of a known one are typed first
            args = coerce_kv(call.pairs, verb.get("args") or {}) if isinstance(verb, dict) else {}
            result = execute(binding, call.verb, args)
    print_envelope(result, one_line=call.one_line)
    notice = take_notice()  # a call that ran without the sandbox (WRAPGEN_SANDBOX=fallback)
    if notice:
        sys.stderr.write(notice + "\n")
    return ExitStatus.OK if result.get("ok") else ExitStatus.FAILED


def exec_main(argv, *, pack_dir=None) -> int:
    """``wrapgen exec ARGS`` (``pack_dir`` None) or ``adapter.py ARGS``; returns the exit status.

    Usage errors print ``Error: ...`` and a hint on stderr and return 2; everything else prints an
    envelope on stdout and returns 0 when it is ok, 1 when not.
    """
    try:
        return _run(list(argv), pack_dir)
    except WrapgenError as error:
        return print_error(error)
    except BrokenPipeError:
        return ExitStatus.FAILED


def exec_exit(argv, *, pack_dir=None):
    """``exec_main``, then the process ends at once with its status (``adapter.py``'s entry point).

    The interpreter's own teardown (finalizing every module, a last garbage collection) costs more CPU
    than a whole call's work in wrapgen (about 11 ms of CPU here for ``python -c pass`` alone), and a
    one-shot process has nothing left that needs it: the envelope is flushed, the tool and everything it
    started are gone (the supervisor swept them before the call returned)."""
    import os

    from wrapgen.runtime.contain import one_shot

    one_shot()
    code = exec_main(argv, pack_dir=pack_dir)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = code or ExitStatus.FAILED
    os._exit(int(code))
