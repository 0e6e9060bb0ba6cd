"""Check rules W080-W083: text a person and a model cannot read.

- ``W080`` warning: the pack's, a verb's or an arg's description is usage syntax (``Where OBJECT :=
  { address | link }``), a row of an option table, a copyright or a version line rather than a
  sentence saying what the command or the arg is.
- ``W081`` warning: a title template holds placeholder-like text that is not a ``{{arg}}``
  template (``<revision>``, ``{OBJECT}``, ``[FILE]``, ``a|b``): a host shows it literally. M026
  covers ``{{name}}`` templates naming an unknown arg.
- ``W082`` warning: an arg's description says no more than its name (``paths: "paths"``): a model
  choosing a value learns nothing from it.
- ``W083`` warning: a title is no sentence though it shows no placeholder: a banner, usage syntax, a
  negation turned into a gerund ("Doing not write ..."), a verb repeated as its own object
  ("Listing openssl list", "Verifying Certificate to verify"), or cut off mid-phrase.

What counts as each is ``wrapgen.knowledge.text`` (data in ``knowledge/data/phrases.json``), the
same test propose applies before it writes a description, so a fresh pack is clean by construction.
``text_findings(manifest)`` is the same test over a manifest dict, for the wizard.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from wrapgen.check.registry import PackContext, rule
from wrapgen.knowledge.text import (
    names_only,
    title_placeholder,
    title_problem,
    unreadable_reason,
)

__all__ = ["text_findings"]


def _titles(title: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(title, Mapping):
        return
    for form in ("live", "done"):
        value = title.get(form)
        items = [value] if isinstance(value, str) else list(value or [])
        for index, template in enumerate(items):
            if isinstance(template, str):
                yield (
                    (f"title.{form}" if isinstance(value, str) else f"title.{form}[{index}]"),
                    template,
                )


def text_findings(manifest: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(code, field path, message) for every unreadable text in a manifest dict."""
    out: list[tuple[str, str, str]] = []
    why = unreadable_reason(str(manifest.get("description") or ""))
    if why:
        out.append(("W080", "description", f"the pack's description is {why}, not a sentence"))
    for name, verb in (manifest.get("verbs") or {}).items():
        if not isinstance(verb, Mapping):
            continue
        where = f"verbs.{name}"
        why = unreadable_reason(str(verb.get("description") or ""))
        if why:
            out.append(
                ("W080", f"{where}.description", f"{name}'s description is {why}, not a sentence")
            )
        properties = ((verb.get("args") or {}).get("properties")) or {}
        for arg, schema in properties.items() if isinstance(properties, Mapping) else ():
            text = (
                str((schema or {}).get("description") or "") if isinstance(schema, Mapping) else ""
            )
            why = unreadable_reason(text)
            if why:
                out.append(
                    (
                        "W080",
                        f"{where}.args.properties.{arg}.description",
                        f"arg {arg}'s description is {why}, not a sentence",
                    )
                )
            elif text and names_only(text, arg):
                out.append(
                    (
                        "W082",
                        f"{where}.args.properties.{arg}.description",
                        f"arg {arg}'s description {text!r} only repeats its name",
                    )
                )
        for field, template in _titles(verb.get("title")):
            found = title_placeholder(template)
            if found:
                out.append(
                    (
                        "W081",
                        f"{where}.{field}",
                        f"title {template!r} shows {found!r} literally: it is no {{{{arg}}}} template",
                    )
                )
                continue
            why = unreadable_reason(template) or title_problem(template)
            if why:
                out.append(
                    ("W083", f"{where}.{field}", f"title {template!r} is {why}, not a sentence")
                )
    return out


_HINTS = {
    "W080": "say in a sentence what it does (description: in pack.yaml), then run `wrapgen build`",
    "W081": "name an arg as {{arg}} or write the words out, then run `wrapgen build`",
    "W082": "say what the value is and what form it takes (a path, a revision, a pattern ...)",
    "W083": "write what the command is doing as a person would say it (title: in pack.yaml), then "
    "run `wrapgen build`",
}


def _rule(code: str):
    def run(ctx: PackContext):
        for found, field, message in text_findings(ctx.manifest.data):
            if found == code:
                yield ctx.diagnostic(code, field, message, hint=_HINTS[code])

    return run


rule(
    "W080",
    severity="warning",
    summary="a description is usage syntax, an option table, a copyright or a version line",
)(_rule("W080"))
rule(
    "W081",
    severity="warning",
    summary="a title holds placeholder-like text (<rev>, {OBJECT}, [FILE], a|b) that is no {{arg}} template",
)(_rule("W081"))
rule("W082", severity="warning", summary="an arg's description only repeats the arg's name")(
    _rule("W082")
)
rule(
    "W083",
    severity="warning",
    summary="a title is no sentence: a banner or usage syntax, a negation turned into a gerund, "
    "a verb repeated as its own object, or cut off mid-phrase",
)(_rule("W083"))
