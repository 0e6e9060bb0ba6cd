"""Command titles (docs/contract.md §11): the words a host shows for a step, live and done. Stdlib only.

``command_title`` picks the first template whose placeholders all have a value, so a title never
shows an empty slot; ``title_findings`` is the M026 lint that ``check`` reports.
"""

from __future__ import annotations

import json
import re

from wrapgen.errors import WrapgenError

__all__ = [
    "TITLE_VALUE_MAX",
    "command_title",
    "render_title",
    "title_value",
    "title_findings",
    "verb_title",
]

TITLE_VALUE_MAX = 60
_PLACEHOLDER_RE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}")
_FORMS = ("live", "done")
# confirm/apply are accepted by every verb, listed in its schema or not
_ALWAYS_ARGS = ("confirm", "apply")


def _flatten(text: str) -> str:
    return " ".join(text.split())


def _cut(text: str) -> str:
    return text if len(text) <= TITLE_VALUE_MAX else text[: TITLE_VALUE_MAX - 1] + "…"


def _scalar(value) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return _flatten(value) or None
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return None


def title_value(value) -> str | None:
    """How one value shows in a title, or None when it counts as no value (docs/contract.md §11)."""
    if isinstance(value, (list, tuple)):
        parts = [text for text in (_scalar(item) for item in value) if text]
        return _cut(", ".join(parts)) if parts else None
    text = _scalar(value)
    return _cut(text) if text else None


def _is_result(name: str) -> bool:
    return name == "result" or name.startswith("result.")


def _lookup_result(result, name: str):
    value = result
    for part in name.split(".")[1:]:
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def render_title(templates, args, result=None, *, done: bool) -> str | None:
    """The first template of ``templates`` (a string or a list) whose placeholders all have a value."""
    if isinstance(templates, str):
        templates = [templates]
    args = args or {}
    for template in templates or ():
        if not isinstance(template, str):
            continue
        values: dict[str, str] = {}
        for name in _PLACEHOLDER_RE.findall(template):
            if _is_result(name):
                raw = _lookup_result(result, name) if done else None
            else:
                raw = args.get(name)
            text = title_value(raw)
            if text is None:
                break
            values[name] = text
        else:
            return _PLACEHOLDER_RE.sub(lambda match: values[match.group(1)], template)  # noqa: B023 (used at once)
    return None


def verb_title(pack, verb_key: str) -> dict | None:
    """The verb's declared ``title`` ({"live": ..., "done": ...}) from a binding, manifest or pack."""
    if isinstance(pack, dict):
        binding = pack
    else:
        from wrapgen.runtime.binding import load_binding, resolve_pack

        binding = load_binding(resolve_pack(pack))
    verbs = binding.get("verbs") or {}
    if verb_key not in verbs:
        valid = ", ".join(sorted(verbs)) or "none"
        raise WrapgenError(
            f"unknown verb {verb_key!r} in pack {binding.get('pack_id', '?')!r}",
            hint=f"valid verbs: {valid}",
        )
    title = (verbs[verb_key] or {}).get("title")
    return title if isinstance(title, dict) else None


def command_title(
    pack, verb_key: str, args, result=None, *, done: bool | None = None
) -> str | None:
    """The title of one call (the note's ``commandTitle``): ``live`` while it runs, ``done`` after.

    ``pack`` is a pack directory, a pack_id, or a binding / manifest dict. ``done`` defaults to
    ``result is not None``. None when the verb declares no title, or not the form asked for.
    Raises ``WrapgenError`` for an unknown verb or a pack that cannot be loaded.
    """
    if done is None:
        done = result is not None
    title = verb_title(pack, verb_key)
    if title is None:
        return None
    form = title.get("done" if done else "live")
    if form is None:
        return None
    return render_title(form, args, result, done=done)


def title_findings(title, arg_names) -> list[tuple[str, str]]:
    """M026 problems in one verb's ``title``: (field path like ``title.live[1]``, message).

    A template naming an unknown argument, ``{{result...}}`` in ``live``, a form without a plain
    (placeholder-free) last template.
    """
    if title is None:
        return []
    if not isinstance(title, dict):
        return [("title", "a title is a mapping with live and/or done")]
    known = set(arg_names) | set(_ALWAYS_ARGS)
    findings: list[tuple[str, str]] = []
    for form in _FORMS:
        if form not in title:
            continue
        templates = title[form]
        single = isinstance(templates, str)
        items = [templates] if single else templates
        if not isinstance(items, list) or not items:
            findings.append((f"title.{form}", "give one template or a non-empty list of templates"))
            continue
        for index, template in enumerate(items):
            where = f"title.{form}" if single else f"title.{form}[{index}]"
            if not isinstance(template, str):
                findings.append((where, "a template is a string"))
                continue
            for name in _PLACEHOLDER_RE.findall(template):
                if _is_result(name):
                    if form == "live":
                        findings.append(
                            (
                                where,
                                f"uses {{{{{name}}}}} in live: a result exists only once the command is done; move it to done",
                            )
                        )
                elif name not in known:
                    valid = ", ".join(sorted(arg_names)) or "none"
                    findings.append(
                        (where, f"names unknown argument {{{{{name}}}}} (arguments: {valid})")
                    )
        last = items[-1]
        if isinstance(last, str) and _PLACEHOLDER_RE.search(last):
            where = f"title.{form}" if single else f"title.{form}[{len(items) - 1}]"
            findings.append(
                (
                    where,
                    f"no plain fallback: end {form} with a template without placeholders, so a title always shows",
                )
            )
    return findings
