"""What ``propose`` takes from a recipe: frozen, typed, with no YAML in sight.

``wrapgen.pack.recipe.Recipe`` is the recipe *file* (the tool to find, where to look, how to
discover it). ``ProposalRequest`` is the part of it that steers the proposal: which commands, which
to leave out, and what a person set per command. ``ProposalRequest.of(recipe)`` converts at the
boundary, so ``propose(tool, recipe)`` takes a ``Recipe``, a ``ProposalRequest`` or ``None`` alike.

Every setting is ``None`` when not set ("keep the proposal's"). ``json`` is ``None`` (not set),
``False`` (no JSON) or a tuple of argv tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping

__all__ = ["PolicySetting", "TitleSetting", "VerbSettings", "ProposalRequest"]


@dataclass(frozen=True)
class PolicySetting:
    """A command's policy as a person set it; either part may be left to the proposal."""

    effect: str | None = None  # read, write or destructive
    confirm: bool | None = None

    @classmethod
    def of(cls, value: Any) -> "PolicySetting | None":
        """From a recipe's ``policy`` (``None``, ``"write"`` or ``{effect:, confirm:}``)."""
        if value is None or isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls(effect=value)
        return cls(effect=value.get("effect"), confirm=value.get("confirm"))


@dataclass(frozen=True)
class TitleSetting:
    """The title templates a person set; a form left ``None`` keeps the proposed one."""

    live: tuple[str, ...] | None = None
    done: tuple[str, ...] | None = None

    @classmethod
    def of(cls, value: Any) -> "TitleSetting | None":
        """From a recipe's ``title`` (``None`` or ``{live:, done:}``, each a string or a list).

        ``{}`` gives an empty setting, not ``None``: set, so it hides an entry's title, and empty, so
        it changes nothing (as the recipe said).
        """
        if value is None or isinstance(value, cls):
            return value
        forms = {
            form: (v,) if isinstance(v, str) else tuple(v)
            for form, v in value.items()
            if v is not None
        }
        unknown = sorted(set(forms) - {"live", "done"})
        if unknown:
            raise ValueError(f"title forms are live and done, not {', '.join(unknown)}")
        return cls(**forms)

    def __bool__(self) -> bool:
        return self.live is not None or self.done is not None


def _tuple(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(str(v) for v in value)


def _json(value: Any) -> tuple[str, ...] | bool | None:
    return value if value is None or value is False else tuple(str(v) for v in value)


@dataclass(frozen=True)
class VerbSettings:
    """One command as a person set it: a ``commands:`` entry (with its ``path``) or an override."""

    path: tuple[str, ...] = ()  # the subcommand path; () for an override, which is keyed by name
    name: str | None = None
    description: str | None = None
    policy: PolicySetting | None = None
    json: tuple[str, ...] | bool | None = None
    include_args: tuple[str, ...] | None = None
    exclude_args: tuple[str, ...] | None = None
    required_args: tuple[str, ...] | None = None
    positional_order: tuple[str, ...] | None = None
    title: TitleSetting | None = None
    timeout_s: float | int | None = None

    @property
    def path_text(self) -> str:
        return " ".join(self.path)

    @classmethod
    def of(cls, spec: Any) -> "VerbSettings | None":
        """From a ``wrapgen.pack.recipe.CommandSpec`` (or anything with its attributes)."""
        if spec is None or isinstance(spec, cls):
            return spec
        return cls(
            path=tuple(spec.path),
            name=spec.name,
            description=spec.description,
            policy=PolicySetting.of(spec.policy),
            json=_json(spec.json),
            include_args=_tuple(spec.include_args),
            exclude_args=_tuple(spec.exclude_args),
            required_args=_tuple(getattr(spec, "required_args", None)),
            positional_order=_tuple(spec.positional_order),
            title=TitleSetting.of(spec.title),
            timeout_s=spec.timeout_s,
        )

    def over(self, other: "VerbSettings | None") -> "VerbSettings":
        """These settings, each one left unset taken from ``other`` (an override over its command entry).

        A setting is taken whole: an override's ``policy: {confirm: true}`` replaces the entry's
        policy, it is not merged with it. The name is never inherited: the entry's name is the
        command's proposed name, the override's its rename.
        """
        if other is None:
            return self
        taken = {
            f.name: getattr(other, f.name)
            for f in fields(self)
            if f.name not in ("path", "name") and getattr(self, f.name) is None
        }
        return type(self)(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **taken})


@dataclass(frozen=True)
class ProposalRequest:
    """What steers a proposal. ``commands`` is ``None`` for "propose", else the listed entries in order."""

    pack_id: str | None = None  # None: the tool's name as a pack id
    description: str | None = None
    json: tuple[str, ...] | bool | None = (
        None  # the pack-level JSON selection, over the detected one
    )
    commands: tuple[VerbSettings, ...] | None = None
    exclude: tuple[
        tuple[str, ...], ...
    ] = ()  # subcommand paths (and their families) never proposed
    overrides: Mapping[str, VerbSettings] = field(default_factory=dict)  # by proposed verb name
    env: Mapping[str, Any] | None = (
        None  # the pack's env {pass, set}, copied into the manifest as given
    )
    argv_template: tuple[str, ...] | None = (
        None  # wrap.argv_template as given (a PATH wrap's), else composed
    )
    # files and folders whose scripts show how the tool is used (`usage_from:`, --usage-from):
    # read by wrapgen.usage.evidence_for; nothing of their values reaches the pack
    usage_from: tuple[str, ...] = ()

    @classmethod
    def of(cls, recipe: Any) -> "ProposalRequest":
        """From ``None``, a ``ProposalRequest``, or a ``wrapgen.pack.recipe.Recipe`` (converted here)."""
        if recipe is None:
            return cls()
        if isinstance(recipe, cls):
            return recipe
        if isinstance(recipe, Mapping):
            raise TypeError(
                "propose() takes a Recipe (wrapgen.pack.recipe.parse_recipe) or a ProposalRequest, "
                "not a mapping"
            )
        commands = recipe.commands
        return cls(
            pack_id=recipe.resolved_pack_id,
            description=recipe.description,
            json=_json(recipe.json),
            commands=None if commands is None else tuple(VerbSettings.of(c) for c in commands),
            exclude=tuple(tuple(e) for e in recipe.exclude),
            overrides={name: VerbSettings.of(spec) for name, spec in recipe.overrides.items()},
            env=getattr(recipe, "env", None),
            argv_template=getattr(recipe, "argv_template", None),
            usage_from=tuple(getattr(recipe, "usage_from", ()) or ()),
        )

    def entry_for(self, path: tuple[str, ...]) -> VerbSettings | None:
        """The ``commands:`` entry listing ``path``, or None."""
        if self.commands is None:
            return None
        return next((c for c in self.commands if c.path == path), None)

    def excludes(self, path: tuple[str, ...]) -> bool:
        """Whether ``path`` is, or is under, a path the request excludes."""
        return any(path[: len(e)] == e for e in self.exclude if e)

    def settings_for(self, name: str, path: tuple[str, ...]) -> VerbSettings:
        """What a person set for the command at ``path`` proposed as ``name``: its override over its entry."""
        override = self.overrides.get(name)
        entry = self.entry_for(path)
        if override is None:
            return VerbSettings(path=path).over(entry)
        return override.over(entry)
