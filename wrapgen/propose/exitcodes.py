"""Which documented exit statuses a pack declares as answers (pack.yaml ``exit_codes``, docs/contract.md §8).

Discovery records what each status means in the tool's words (``Command.exit_status``, read by
``wrapgen.parse.exit_status``). Only a non-zero status whose meaning is an answer ("no lines were
selected", "different", "lint errors were found", "some files would be reformatted", "some tests
failed") is declared, with the short meaning of the knowledge entry it matches ("no matches",
"differences found", "findings reported", "changes needed", "tests failed"); an error ("trouble",
"an error occurred", "there was an internal error") stays an error. Trials declare more: a status a
verb's trial showed to be an answer (``wrapgen.check.trial_evidence``). The
words and the reason of each: ``wrapgen/knowledge/data/exit_codes.json``. Pure.
"""

from __future__ import annotations

from functools import lru_cache

from wrapgen.knowledge.phrases import compiled
from wrapgen.knowledge.table import load
from wrapgen.model.tool import Command
from wrapgen.propose.rules import rule

__all__ = ["answer_codes", "exit_codes_why", "inverts_answers", "inverted_codes"]


@lru_cache(maxsize=None)
def _tables():
    data = load("exit_codes")
    return compiled(data, "findings"), compiled(data, "errors"), compiled(data, "answers")


def _answer(meaning: str) -> str:
    """The short meaning a status declares when ``meaning`` is an answer; "" when it is an error or
    unknown. A linter's findings, failed tests and a formatter's changes are answers although their
    words say "errors" or "failed" (checked first); then any error word makes it an error."""
    findings, errors, answers = _tables()
    found = next((str(value) for pattern, value in findings if pattern.search(meaning)), "")
    if found:
        return found
    if any(pattern.search(meaning) for pattern, _ in errors):
        return ""
    return next((str(value) for pattern, value in answers if pattern.search(meaning)), "")


@rule("which documented exit statuses are answers?")
def answer_codes(command: Command) -> dict[str, str]:
    """``{"1": "no matches"}``: the command's documented non-zero statuses that are answers, by code."""
    out: dict[str, str] = {}
    for code, meaning in command.exit_status:
        short = _answer(meaning) if 0 < code < 256 else ""
        if short:
            out[str(code)] = short
    return out


def inverts_answers(fixed) -> bool:
    """Whether a command fixed to these mode flags (``("--files-without-match",)``) turns the answers around."""
    return bool(set(fixed) & load("exit_codes")["inverted_by"].names)


def inverted_codes(fixed, declared: dict[str, str]) -> dict[str, str]:
    """The answer statuses of a command fixed to a mode that turns them around: the same codes, each
    with the mode's own meaning (``{"1": "every file matched"}`` for ``--files-without-match``)."""
    table = load("exit_codes")["inverted_by"]
    meaning = next((str(table.get(f).value) for f in fixed if table.get(f) is not None), "")
    return {code: meaning for code in declared} if meaning else {}


def exit_codes_why(command: Command) -> str:
    """Why the pack declares its exit codes, quoting the tool's own words ("" when it declares none)."""
    declared = answer_codes(command)
    words = dict(command.exit_status)
    return "; ".join(
        f"exit {code}: the tool documents it as '{words[int(code)]}', an answer (declared '{short}')"
        for code, short in declared.items()
    )
