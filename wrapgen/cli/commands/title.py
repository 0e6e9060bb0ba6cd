"""``wrapgen title PACK VERB [--done] [--result FILE|-] -- k=v ...``: print a call's declared title.

Prints nothing and exits 0 when the pack declares no title (the host then uses its own).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from wrapgen.errors import ExitStatus, UsageError
from wrapgen.runtime.main import split_call_line

__all__ = ["USAGE", "TitleCall", "parse_title_argv", "main", "add_arguments", "run"]

USAGE = """\
usage: wrapgen title PACK VERB [--done] [--result FILE|-] [-- k=v ...]

Print the declared title of one call: live (while it runs) by default, done with --done or
--result (the JSON result that {{result...}} placeholders read). Prints nothing when the pack
declares no title for that form. k=v arguments are typed like `wrapgen exec`."""

_HINT = "run `wrapgen title --help` for usage"


@dataclass(frozen=True)
class TitleCall:
    pack: str = ""
    verb: str = ""
    pairs: tuple[str, ...] = ()
    done: bool = False
    result: str | None = None  # FILE or "-"
    help: bool = False


def parse_title_argv(argv) -> TitleCall:
    """Split the command line; raises UsageError."""
    line = split_call_line(
        argv, switch="--done", value_option="--result", hint=_HINT, max_positionals=2
    )
    if line.help:
        return TitleCall(help=True)
    positionals, done, result, pairs = line.positionals, line.switched, line.value, line.pairs
    if len(positionals) != 2:
        raise UsageError(
            f"expected PACK VERB, got {' '.join(positionals) or 'nothing'}", hint=_HINT
        )
    return TitleCall(
        pack=positionals[0], verb=positionals[1], pairs=pairs, done=done, result=result
    )


def _read_result(source: str):
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
    except OSError as error:
        raise UsageError(
            f"cannot read result {source}: {error.strerror}",
            hint="pass an existing file, or - for stdin",
        ) from None
    try:
        value = json.loads(text)
    except ValueError as error:
        raise UsageError(
            f"the result in {source} is not JSON: {error}", hint="pass the JSON result of the call"
        ) from None
    # an envelope is accepted too: its result is what titles read
    if isinstance(value, dict) and value.get("ok") is True and set(value) == {"ok", "result"}:
        value = value["result"]
    return value


def main(argv: list[str]) -> int:
    from wrapgen.runtime.binding import load_binding, resolve_pack
    from wrapgen.runtime.schema import coerce_kv
    from wrapgen.runtime.titles import command_title, verb_title

    call = parse_title_argv(argv)
    if call.help:
        print(USAGE)
        return ExitStatus.OK
    binding = load_binding(resolve_pack(call.pack))
    verb_title(binding, call.verb)  # an unknown verb is an error, before the args are typed
    schema = binding["verbs"][call.verb].get("args") or {}
    args = coerce_kv(call.pairs, schema)
    result = _read_result(call.result) if call.result is not None else None
    title = command_title(
        binding, call.verb, args, result, done=call.done or call.result is not None
    )
    if title is not None:
        print(title)
    return ExitStatus.OK


def add_arguments(parser) -> None:
    import argparse

    parser.add_argument(
        "argv", nargs=argparse.REMAINDER, help="PACK VERB [--done] [--result FILE|-] -- k=v ..."
    )


def run(namespace) -> int:
    return main(list(namespace.argv))
