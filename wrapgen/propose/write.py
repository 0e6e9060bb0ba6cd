"""The one verb writer: a proposed command, under what the recipe set, as a manifest verb.

Both the proposal of a tool (``wrapgen.propose.core``) and that of a task runner's targets
(``wrapgen.propose.runners``) describe a verb as a ``VerbDraft`` (what the proposal says) and call
``write_verb`` with the recipe's ``VerbSettings`` for it: the recipe's name, description, title
forms, policy, timeout and required args win over the proposal's, setting by setting, and the body
comes out in the order ``wrapgen.pack.manifest.dump_manifest`` writes. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wrapgen.model.proposal import Decision
from wrapgen.model.recipe import PolicySetting, VerbSettings
from wrapgen.names import proposed_verb_name

__all__ = ["VerbDraft", "Written", "write_verb"]


@dataclass(frozen=True)
class VerbDraft:
    """A verb as the proposal made it, before the recipe's settings."""

    path_text: str  # the candidate's words, for the decision ("pr list", "--files", a target)
    name: str  # the proposed verb name
    description: str
    cli: tuple[str, ...]
    properties: dict
    required: tuple[str, ...]
    title: dict
    effect: str
    why: str  # the reason in words (x-why); a recipe's policy replaces it
    note: str = ""  # what the candidate is, before the reason ("mode flag --files")
    after: str = ""  # what comes after the reason (a target's args left out)
    timeout_s: float | int | None = None  # the proposal's own (a runner's builds are slow)
    extra: dict = field(default_factory=dict)  # keys after ``x-why`` (none so far)


@dataclass(frozen=True)
class Written:
    """One verb as written: its final name, its manifest body, its effect and the decision."""

    name: str
    body: dict
    effect: str
    decision: Decision


def write_verb(draft: VerbDraft, settings: VerbSettings | None = None) -> Written:
    """``draft`` as a manifest verb under ``settings`` (the recipe's, for this verb; None: none)."""
    settings = settings or VerbSettings()
    name = proposed_verb_name(settings.name) if settings.name else draft.name
    policy = settings.policy or PolicySetting()
    effect = policy.effect if policy.effect is not None else draft.effect
    why = draft.why
    if policy.effect and policy.effect != draft.effect:
        why = f"{policy.effect}: set by the recipe (proposal said {draft.effect})"
    title = {form: list(value) for form, value in draft.title.items()}
    if settings.title:
        for form in ("live", "done"):
            if getattr(settings.title, form) is not None:
                title[form] = list(getattr(settings.title, form))
    body: dict[str, Any] = {
        "description": settings.description or draft.description,
        "cli": list(draft.cli),
        "args": {"type": "object", "properties": draft.properties, "additionalProperties": False},
        "title": title,
        "policy": {
            "effect": effect,
            "confirm": policy.confirm if policy.confirm is not None else effect != "read",
        },
    }
    # a recipe's args.required: what every call must give though the tool's grammar leaves it optional
    required = list(draft.required) + [
        n for n in settings.required_args or () if n in draft.properties and n not in draft.required
    ]
    if required:
        body["args"]["required"] = required
    timeout = settings.timeout_s if settings.timeout_s is not None else draft.timeout_s
    if timeout is not None:
        body["timeout_s"] = timeout
    why = (f"{draft.note}; " if draft.note else "") + why + draft.after
    body["x-why"] = why
    body.update(draft.extra)
    return Written(name, body, effect, Decision(draft.path_text, name, True, effect, why))
