"""The proposal's rules: each heuristic a registered unit answering one question.

A rule is a function of the proposal registered with ``@rule("the question it answers")``; the
modules of ``propose/`` keep their rules beside the code that asks them, and this registry lists
them all (``all_rules()``), so a reader finds every heuristic of the proposal in one place and a
test can pin each one. Evidence proposes first (``wrapgen.propose.sources``); the rules decide what
evidence cannot (what a command changes, what is never proposed) and rank and fill where it is silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, TypeVar

__all__ = ["Rule", "rule", "all_rules"]

F = TypeVar("F", bound=Callable)


@dataclass(frozen=True)
class Rule:
    """One heuristic: the question it answers, and the function that answers it."""

    question: str
    name: str  # module.function
    fn: Callable


_RULES: dict[str, Rule] = {}


def rule(question: str) -> Callable[[F], F]:
    """Register the decorated function as the one rule answering ``question``."""

    def register(fn: F) -> F:
        name = f"{fn.__module__}.{fn.__qualname__}"
        known = _RULES.get(question)
        if known is not None and known.name != name:
            raise ValueError(f"two rules answer {question!r}: {known.name} and {name}")
        _RULES[question] = Rule(question, name, fn)
        return fn

    return register


def all_rules() -> Mapping[str, Rule]:
    """Every registered rule, by its question (those of the ``propose/`` modules imported so far:
    ``import wrapgen.propose`` imports them all)."""
    return dict(_RULES)
