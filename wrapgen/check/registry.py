"""The check rule registry: ``@rule`` registers a lint rule under its code, and the values a rule
sees (``PackContext``, its verbs as ``VerbView``s). The rules live in ``check/rules.py`` and the rule
modules beside it, which all import this module; ``check/rules.py`` loads them and runs them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from wrapgen.errors import Diagnostic
from wrapgen.pack.manifest import Manifest

__all__ = [
    "ALWAYS_ACCEPTED",
    "PLACEHOLDER_RE",
    "RULES",
    "PackContext",
    "Rule",
    "VerbView",
    "is_flag",
    "rule",
]

PLACEHOLDER_RE = re.compile(r"\{\{(.*?)\}\}")
ALWAYS_ACCEPTED = (
    "confirm",
    "apply",
)  # docs/contract.md §9: accepted as args even when the schema omits them
# What is a mega-command, a shell, an interpreter or shell syntax is knowledge, shared with propose
# and promote: wrapgen/knowledge/commands.py and wrapgen/knowledge/shells.py (data/*.json).


@dataclass(frozen=True)
class Rule:
    code: str
    severity: str  # "error" | "warning"
    summary: str
    function: Callable[["PackContext"], Iterable[Diagnostic]]
    derived: bool = False  # compares with files on disk: build skips it


RULES: dict[str, Rule] = {}


def rule(code: str, *, severity: str, summary: str, derived: bool = False):
    """Register a lint rule under ``code``; codes are unique."""

    def register(function):
        if code in RULES:
            raise ValueError(f"check code {code} is registered twice")
        RULES[code] = Rule(code, severity, summary, function, derived)
        return function

    return register


def is_flag(token: str) -> bool:
    """A literal option token (``-n``, ``--max-count``): not ``--`` and not a placeholder."""
    return token.startswith("-") and token != "--" and "{{" not in token


@dataclass(frozen=True)
class VerbView:
    """One verb as the runtime will see it: the resolved argv template and its policy."""

    name: str
    argv: tuple[str, ...]
    from_cli: bool
    properties: Mapping[str, Any]
    effect: str
    confirm: bool
    policy_declared: bool
    title: Mapping[str, Any] | None
    aliases: Mapping[str, Any]
    required: tuple[str, ...] = ()

    @property
    def field(self) -> str:
        return f"verbs.{self.name}"

    def field_of(self, index: int) -> str:
        """The manifest field of argv token ``index`` (the verb itself for a template verb)."""
        return f"{self.field}.cli[{index}]" if self.from_cli else self.field

    @property
    def where(self) -> str:
        """Words for messages about a template verb, whose argv is not literally in the manifest."""
        return "" if self.from_cli else " (rendered from wrap.argv_template)"

    def placeholders(self) -> list[tuple[int, str]]:
        """(token index, placeholder name) for every ``{{name}}`` in the argv."""
        return [
            (i, m.group(1).strip())
            for i, token in enumerate(self.argv)
            for m in PLACEHOLDER_RE.finditer(token)
        ]

    def literal_flags(self) -> list[tuple[int, str, str | None]]:
        """(token index, flag, inline value or None): ``--output=x`` -> ``(i, "--output", "x")``."""
        out = []
        for i, token in enumerate(self.argv):
            if is_flag(token) or (token.startswith("-") and token != "--" and "=" in token):
                name, sep, value = token.partition("=")
                if "{{" not in name:
                    out.append((i, name, value if sep else None))
        return out

    def arg_names(self) -> set[str]:
        return set(self.properties) | set(ALWAYS_ACCEPTED)


@dataclass(frozen=True)
class PackContext:
    """What a rule sees: the manifest, its verbs resolved, and the derived files on disk."""

    directory: Path
    manifest: Manifest
    load_diagnostics: tuple[Diagnostic, ...]
    verbs: tuple[VerbView, ...]
    derived: Mapping[str, tuple[bytes, int] | None] = field(
        default_factory=dict
    )  # name -> (bytes, mode)
    trials: Mapping[str, Any] = field(
        default_factory=dict
    )  # verb -> trial Evidence (`check --try` only)

    def diagnostic(
        self, code: str, field_path: str, message: str, *, hint: str = "", level: str = ""
    ) -> Diagnostic:
        return self.manifest.diagnostic(
            code, level or RULES[code].severity, field_path, message, hint=hint
        )
