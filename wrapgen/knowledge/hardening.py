"""The hardened-tools catalogue: config that makes a tool run programs, and how a pack turns it off.

The data is ``knowledge/data/hardening.json``; every entry carries its ``reason``. Three kinds of
switch, applied on every call of a pack:

- ``config`` (git): config keys overridden through ``GIT_CONFIG_COUNT`` / ``GIT_CONFIG_KEY_n`` /
  ``GIT_CONFIG_VALUE_n``, which are command-line-level config and beat system, global and
  repository config. They become the pack's ``env.set`` (with the tool's ``env`` entries).
- ``verb_flags`` (git): flags a verb of that subcommand needs where no config override can reach
  (``--no-ext-diff``, ``--no-textconv``: the diff driver's name is the repository's own).
- ``flags`` (curl): flags every verb carries (``--proto =http,https``, ``--globoff``). A required
  flag contradicted later in ``cli[]`` (``--proto =all`` after it, ``--ext-diff`` after
  ``--no-ext-diff``) undoes it: check's W032 (``contradicted_flags``).
- ``arg_refuse`` (curl): characters no string arg of any verb may hold (CR and LF, which become lines
  of their own on the wire): a schema ``pattern`` on every string arg and list item
  (``refusing_pattern``), checked by the runtime before anything runs.
- ``config_guard`` (git): config whose *names* are the repository's own (a filter driver a
  ``.gitattributes`` line names), which no fixed override can reach. The pack carries the guard;
  before each call the runtime runs its ``list`` command, and every key the listing shows in one
  of ``scopes`` that a ``reset`` rule matches is overridden for that call (``pack_guard``); a key it
  shows that a ``refuse`` entry names (``core.worktree``, which no override can move back) refuses
  the call.
- ``credential_guard`` (kubectl, docker): programs the tool's own config names to get credentials
  (a kubeconfig user's ``exec`` plugin, config.json's ``credsStore``/``credHelpers``), which no flag
  turns off per call. The pack carries the guard and the plugins it allows by name; before each
  call the runtime reads the config that call would use (the kubeconfig files, through
  ``pack/kubeconfig.py`` in a process of its own; the config directory's config.json) and refuses the call when it names a program the pack
  does not allow (``pack_credential_guard``; the runtime's side is ``runtime/guard.py``).

Flags are written right before the verb's literal ``--`` (or at the end of ``cli[]``), never right
before a placeholder, whose omission would drop them with it.

``not_covered`` entries say, honestly, what cannot be turned off per call and why.
``propose/harden.py`` applies the catalogue to a proposed manifest; ``check/hardening.py`` reports
a read verb of a catalogued tool without it. The loader validates the file (a missing reason, a
duplicate key, a verb listed twice is an error) and is small on purpose: the knowledge/ loader
that validates every data file will replace it.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from wrapgen.errors import WrapgenError

__all__ = [
    "HardeningDataError",
    "ConfigOverride",
    "EnvSetting",
    "FlagGroup",
    "ToolHardening",
    "load_catalogue",
    "hardening_for",
    "tool_key",
    "env_settings",
    "config_overrides_in",
    "required_flags",
    "applied_flags",
    "missing_flags",
    "missing_env",
    "harden_cli",
    "ConfigGuard",
    "GuardReset",
    "pack_guard",
    "CredentialGuard",
    "PluginAllow",
    "CREDENTIAL_FORMATS",
    "pack_credential_guard",
    "ArgRefusal",
    "refusing_pattern",
    "refuses",
    "contradicted_flags",
]

DATA_PATH = Path(__file__).with_name("data") / "hardening.json"
GIT_COUNT = "GIT_CONFIG_COUNT"


class HardeningDataError(WrapgenError):
    """knowledge/data/hardening.json is malformed: a bug in wrapgen's own data."""


@dataclass(frozen=True)
class ConfigOverride:
    key: str
    value: str
    reason: str


@dataclass(frozen=True)
class EnvSetting:
    name: str
    value: str
    reason: str


@dataclass(frozen=True)
class FlagGroup:
    """Tokens that go together (``--proto =http,https``); ``verbs`` empty means every verb."""

    flags: tuple[str, ...]
    reason: str
    verbs: tuple[str, ...] = ()
    required: bool = True


@dataclass(frozen=True)
class GuardReset:
    """Keys ``prefix`` + NAME + one of ``suffixes`` get ``value`` for the call."""

    prefix: str
    suffixes: tuple[str, ...]
    value: str
    reason: str


@dataclass(frozen=True)
class ConfigGuard:
    """A listing run before each call (the tool's own arguments after its bin), what to reset, and
    the keys whose presence refuses the call (``refuse``: (key, reason))."""

    list: tuple[str, ...]
    scopes: tuple[str, ...]
    reset: tuple[GuardReset, ...]
    reason: str
    refuse: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ArgRefusal:
    """Characters no string arg of the tool's verbs may hold, and why."""

    chars: str
    reason: str


CREDENTIAL_FORMATS = ("kubeconfig", "docker_config")  # the config formats runtime/guard.py reads


@dataclass(frozen=True)
class PluginAllow:
    """A credential program the pack allows: ``name`` exactly (a bare name, found on PATH), with
    ``args`` (words its arguments must hold, after options only) and ``env`` (the only variables
    its config may set for it)."""

    name: str
    reason: str
    args: tuple[str, ...] = ()
    env: tuple[str, ...] = ()


@dataclass(frozen=True)
class CredentialGuard:
    """The config a call would use is read before it (``format`` says how: ``kubeconfig`` files
    through ``pack/kubeconfig.py``, a ``docker_config`` directory's config.json) and the call
    refused when it names a program not in ``allow``."""

    format: str
    reason: str
    allow: tuple[PluginAllow, ...] = ()


@dataclass(frozen=True)
class ToolHardening:
    tool: str
    reason: str
    config: tuple[ConfigOverride, ...] = ()
    env: tuple[EnvSetting, ...] = ()
    verb_flags: tuple[FlagGroup, ...] = ()  # after the subcommand, for the verbs named
    flags: tuple[FlagGroup, ...] = ()  # after the bin, for every verb
    not_covered: tuple[tuple[str, str], ...] = ()  # (what, why)
    config_guard: ConfigGuard | None = None
    credential_guard: CredentialGuard | None = None
    arg_refuse: ArgRefusal | None = None
    # what it turns off runs only from write commands (npm's lifecycle scripts, on install): generated
    # packs carry it, but a read verb without it (check's W040) runs nothing, so none is reported
    writes_only: bool = False

    @property
    def empty(self) -> bool:
        """Nothing to apply (only ``not_covered`` notes)."""
        return not (
            self.config
            or self.env
            or self.verb_flags
            or self.flags
            or self.config_guard
            or self.credential_guard
            or self.arg_refuse
        )


def _need(entry: Mapping, field: str, where: str, kind=str) -> object:
    value = entry.get(field) if isinstance(entry, Mapping) else None
    if not isinstance(value, kind) or (kind is str and field == "reason" and not value.strip()):
        raise HardeningDataError(
            f"hardening.json: {where} needs a {field!r} ({kind.__name__})",
            hint="every entry of the catalogue says what it sets and why",
        )
    return value


def _tokens(entry: Mapping, field: str, where: str) -> tuple[str, ...]:
    value = _need(entry, field, where, list)
    if not value or not all(isinstance(t, str) and t for t in value):
        raise HardeningDataError(
            f"hardening.json: {where}.{field} must be a list of non-empty strings"
        )
    return tuple(value)


def _parse_tool(tool: str, data: Mapping) -> ToolHardening:
    where = f"tools.{tool}"
    reason = _need(data, "reason", where)
    config, seen_keys = [], set()
    for i, entry in enumerate(data.get("config", [])):
        at = f"{where}.config[{i}]"
        key, value = _need(entry, "key", at), _need(entry, "value", at)
        if key.lower() in seen_keys:
            raise HardeningDataError(f"hardening.json: {at} sets {key} a second time")
        seen_keys.add(key.lower())
        config.append(ConfigOverride(key, value, _need(entry, "reason", at)))
    env, seen_env = [], set()
    for i, entry in enumerate(data.get("env", [])):
        at = f"{where}.env[{i}]"
        name, value = _need(entry, "name", at), _need(entry, "value", at)
        if name in seen_env or name.startswith("GIT_CONFIG_"):
            raise HardeningDataError(
                f"hardening.json: {at} sets {name} twice or clashes with the config overrides"
            )
        seen_env.add(name)
        env.append(EnvSetting(name, value, _need(entry, "reason", at)))
    verb_flags, seen_verbs = [], set()
    for i, entry in enumerate(data.get("verb_flags", [])):
        at = f"{where}.verb_flags[{i}]"
        verbs, group = _tokens(entry, "verbs", at), _tokens(entry, "flags", at)
        twice = seen_verbs.intersection((v, f) for v in verbs for f in group)
        if twice:
            raise HardeningDataError(
                f"hardening.json: {at} gives {', '.join(sorted(f'{v} {f}' for v, f in twice))} again"
            )
        seen_verbs.update((v, f) for v in verbs for f in group)
        verb_flags.append(FlagGroup(group, _need(entry, "reason", at), verbs=verbs))
    flags = []
    for i, entry in enumerate(data.get("flags", [])):
        at = f"{where}.flags[{i}]"
        required = entry.get("required", True)
        if not isinstance(required, bool):
            raise HardeningDataError(f"hardening.json: {at}.required must be true or false")
        flags.append(
            FlagGroup(_tokens(entry, "flags", at), _need(entry, "reason", at), required=required)
        )
    notes = []
    for i, entry in enumerate(data.get("not_covered", [])):
        at = f"{where}.not_covered[{i}]"
        notes.append((_need(entry, "key", at), _need(entry, "reason", at)))
    guard = (
        _parse_guard(data.get("config_guard"), f"{where}.config_guard")
        if "config_guard" in data
        else None
    )
    if (config or guard) and data.get("config_env") != "GIT_CONFIG":
        raise HardeningDataError(
            f'hardening.json: {where}.config needs "config_env": "GIT_CONFIG", '
            "git's GIT_CONFIG_COUNT/KEY_n/VALUE_n, the one per-call config mechanism wrapgen renders"
        )
    credential = (
        _parse_credential_guard(data.get("credential_guard"), f"{where}.credential_guard")
        if "credential_guard" in data
        else None
    )
    arg_refuse = None
    if "arg_refuse" in data:
        at = f"{where}.arg_refuse"
        arg_refuse = ArgRefusal(
            _need(data["arg_refuse"], "chars", at), _need(data["arg_refuse"], "reason", at)
        )
    writes_only = data.get("writes_only", False)
    if not isinstance(writes_only, bool):
        raise HardeningDataError(f"hardening.json: {where}.writes_only must be true or false")
    return ToolHardening(
        tool,
        reason,
        tuple(config),
        tuple(env),
        tuple(verb_flags),
        tuple(flags),
        tuple(notes),
        guard,
        credential,
        arg_refuse,
        writes_only,
    )


def _plain_name(name: str) -> bool:
    return (
        bool(name)
        and "/" not in name
        and "\x00" not in name
        and name not in (".", "..")
        and not name.startswith("-")
    )


def _parse_credential_guard(data, where: str) -> CredentialGuard:
    reason = _need(data, "reason", where)
    form = _need(data, "format", where)
    if form not in CREDENTIAL_FORMATS:
        raise HardeningDataError(
            f"hardening.json: {where}.format must be one of {', '.join(CREDENTIAL_FORMATS)}"
        )
    allow, seen = [], set()
    for i, entry in enumerate(_need(data, "allow", where, list)):
        at = f"{where}.allow[{i}]"
        name = _need(entry, "name", at)
        args = _tokens(entry, "args", at) if "args" in entry else ()
        env = _tokens(entry, "env", at) if "env" in entry else ()
        if not _plain_name(name) or (name, args) in seen:
            raise HardeningDataError(
                f"hardening.json: {at}.name {name!r} is no plain program name or is listed twice"
            )
        seen.add((name, args))
        allow.append(PluginAllow(name, _need(entry, "reason", at), args, env))
    return CredentialGuard(form, reason, tuple(allow))


def pack_credential_guard(entry: ToolHardening) -> dict | None:
    """The ``credential_guard`` a pack of this tool carries (docs/packs-and-check.md), or None."""
    guard = entry.credential_guard
    if guard is None:
        return None
    out: dict = {"format": guard.format}
    allow = []
    for item in guard.allow:
        one: dict = {"name": item.name}
        if item.args:
            one["args"] = list(item.args)
        if item.env:
            one["env"] = list(item.env)
        allow.append(one)
    out["allow"] = allow
    return out


def _parse_guard(data, where: str) -> ConfigGuard:
    reason = _need(data, "reason", where)
    resets = []
    for i, entry in enumerate(_need(data, "reset", where, list)):
        at = f"{where}.reset[{i}]"
        resets.append(
            GuardReset(
                _need(entry, "prefix", at),
                _tokens(entry, "suffixes", at),
                _need(entry, "value", at),
                _need(entry, "reason", at),
            )
        )
    if not resets:
        raise HardeningDataError(f"hardening.json: {where}.reset lists nothing to reset")
    refuse = tuple(
        (
            _need(entry, "key", f"{where}.refuse[{i}]"),
            _need(entry, "reason", f"{where}.refuse[{i}]"),
        )
        for i, entry in enumerate(data.get("refuse", []))
    )
    return ConfigGuard(
        _tokens(data, "list", where),
        _tokens(data, "scopes", where),
        tuple(resets),
        reason,
        refuse,
    )


def pack_guard(entry: ToolHardening) -> dict | None:
    """The ``config_guard`` a pack of this tool carries (docs/packs-and-check.md), or None."""
    guard = entry.config_guard
    if guard is None:
        return None
    out = {
        "env": "GIT_CONFIG",
        "list": list(guard.list),
        "scopes": list(guard.scopes),
        "reset": [
            {"prefix": r.prefix, "suffixes": list(r.suffixes), "value": r.value}
            for r in guard.reset
        ],
    }
    if guard.refuse:
        out["refuse"] = [key for key, _ in guard.refuse]
    return out


def parse_catalogue(data: Mapping) -> dict[str, ToolHardening]:
    """The catalogue from the JSON value; HardeningDataError when an entry is malformed."""
    if (
        not isinstance(data, Mapping)
        or data.get("version") != 1
        or not isinstance(data.get("tools"), Mapping)
    ):
        raise HardeningDataError(
            'hardening.json: expected {"version": 1, "reason": ..., "tools": {...}}'
        )
    _need(data, "reason", "the catalogue")
    return {tool: _parse_tool(tool, entry) for tool, entry in sorted(data["tools"].items())}


@functools.lru_cache(maxsize=1)
def load_catalogue() -> Mapping[str, ToolHardening]:
    """Every catalogued tool, read and validated once."""
    try:
        data = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise HardeningDataError(f"cannot read {DATA_PATH.name}: {error}") from None
    return parse_catalogue(data)


def tool_key(bin_name: str) -> str:
    """The catalogue key of a pack's bin: its file name (``/usr/bin/git`` is git)."""
    return os.path.basename(str(bin_name).rstrip("/"))


def hardening_for(bin_name: str) -> ToolHardening | None:
    """The catalogue entry of a tool (by bin name or path), or None when it has none."""
    return load_catalogue().get(tool_key(bin_name))


def env_settings(entry: ToolHardening) -> dict[str, str]:
    """The ``env.set`` a pack of this tool carries: GIT_CONFIG_COUNT/KEY_n/VALUE_n, then the env entries."""
    out: dict[str, str] = {}
    if entry.config:
        out[GIT_COUNT] = str(len(entry.config))
        for index, override in enumerate(entry.config):
            out[f"GIT_CONFIG_KEY_{index}"] = override.key
            out[f"GIT_CONFIG_VALUE_{index}"] = override.value
    out.update((setting.name, setting.value) for setting in entry.env)
    return out


def config_overrides_in(env_set: Mapping[str, str]) -> dict[str, str]:
    """The config a ``GIT_CONFIG_*`` block sets, key (lower-cased) -> value; the last one of a key wins."""
    try:
        count = int(str(env_set.get(GIT_COUNT, "0")))
    except ValueError:
        return {}
    out: dict[str, str] = {}
    for index in range(max(0, count)):
        key = env_set.get(f"GIT_CONFIG_KEY_{index}")
        value = env_set.get(f"GIT_CONFIG_VALUE_{index}")
        if isinstance(key, str) and isinstance(value, str):
            out[key.lower()] = value
    return out


def missing_env(entry: ToolHardening, env_set: Mapping[str, str]) -> list[str]:
    """What of the tool's env hardening ``env_set`` lacks, as ``KEY=VALUE`` texts."""
    have = config_overrides_in(env_set)
    missing = [f"{o.key}={o.value}" for o in entry.config if have.get(o.key.lower()) != o.value]
    missing += [f"{s.name}={s.value}" for s in entry.env if env_set.get(s.name) != s.value]
    return missing


def _command_index(cli: Sequence[str]) -> int | None:
    """Index of the subcommand token: the first literal word after the bin that is no option."""
    for index, token in enumerate(cli[1:], start=1):
        if not token.startswith("-") and "{{" not in token:
            return index
        if "{{" in token:
            return None
    return None


def _groups(entry: ToolHardening, cli: Sequence[str], *, required_only: bool) -> list[FlagGroup]:
    """The flag groups that apply to this cli[]: every-verb groups, then the subcommand's."""
    out = [g for g in entry.flags if g.required or not required_only]
    at = _command_index(cli)
    if at is not None:
        out += [g for g in entry.verb_flags if cli[at] in g.verbs]
    return out


def _kept_at(cli: Sequence[str], tokens: tuple[str, ...]) -> bool:
    """Whether ``tokens`` stand together in cli[] where the runtime always keeps them: not right
    before a placeholder token, whose omission would drop the flag in front of it (docs/contract.md §5 rule 3)."""
    width = len(tokens)
    for i in range(1, len(cli) - width + 1):
        if tuple(cli[i : i + width]) == tokens:
            after = cli[i + width] if i + width < len(cli) else None
            if after is None or "{{" not in after:
                return True
    return False


def _insert_at(cli: Sequence[str]) -> int:
    """Where hardening flags go: right before the first literal ``--`` or ``--end-of-options`` (a
    literal token, so they are never taken for a dropped slot's flag, and still options), else at the
    very end (nothing after them to drop them)."""
    for index, token in enumerate(cli[1:], start=1):
        if token in ("--", "--end-of-options"):
            return index
    return len(cli)


def required_flags(entry: ToolHardening, cli: Sequence[str]) -> list[tuple[str, ...]]:
    """The flag groups this cli[] must carry."""
    return [g.flags for g in _groups(entry, cli, required_only=True)]


def applied_flags(entry: ToolHardening, cli: Sequence[str]) -> list[tuple[str, ...]]:
    """The flag groups the proposal writes into this cli[] (required ones and conveniences like -sS)."""
    return [g.flags for g in _groups(entry, cli, required_only=False)]


def missing_flags(entry: ToolHardening, cli: Sequence[str]) -> list[tuple[str, ...]]:
    """The required flag groups this cli[] lacks, or holds only right before a droppable slot."""
    return [group for group in required_flags(entry, cli) if not _kept_at(cli, group)]


def harden_cli(entry: ToolHardening, cli: Sequence[str]) -> list[str]:
    """``cli`` with every applicable flag group it lacks inserted before its ``--`` (or at its end)."""
    add: list[str] = []
    for group in applied_flags(entry, cli):
        if not _kept_at(cli, group):
            add.extend(group)
    out = list(cli)
    at = _insert_at(out)
    out[at:at] = add
    return out


def refusing_pattern(chars: str, pattern: str | None = None) -> str:
    """A JSON Schema pattern (searched, as the runtime does) that a value matches only when it holds
    none of ``chars`` and, when given, also matches ``pattern``. ``\\Z``, not ``$``: Python's ``$``
    also matches before a final newline."""
    klass = "".join(_escaped(c) for c in chars)
    guard = f"(?=[^{klass}]*\\Z)"
    if not pattern:
        return f"^[^{klass}]*\\Z"
    if pattern.startswith("^"):
        return "^" + guard + pattern[1:]
    return "^" + guard + ".*?(?:" + pattern + ")"


def _escaped(char: str) -> str:
    return {
        "\r": "\\r",
        "\n": "\\n",
        "\t": "\\t",
        "\\": "\\\\",
        "]": "\\]",
        "^": "\\^",
        "-": "\\-",
    }.get(char, char)


def refuses(pattern: str | None, chars: str) -> bool:
    """Whether a string schema's ``pattern`` refuses every value holding one of ``chars`` (tried on
    the char alone and inside text, at the start, the middle and the end)."""
    if not pattern:
        return False
    try:
        compiled = re.compile(pattern)
    except re.error:
        return False
    for char in chars:
        for value in (char, f"a{char}", f"a{char}b", f"{char}b", f"GET / HTTP/1.0{char}X: y"):
            if compiled.search(value) is not None:
                return False
    return True


def _option(token: str) -> str:
    """The option a token spells, without ``no-`` or a value: ``--no-ext-diff`` -> ``--ext-diff``."""
    name = token.partition("=")[0]
    if name.startswith("--no-"):
        return "--" + name[5:]
    return name


def _units(group: Sequence[str]) -> list[tuple[str, ...]]:
    """A flag group as its options, each with the value tokens after it: (``--no-ext-diff``,),
    (``--no-textconv``,); (``--proto``, ``=http,https``)."""
    out: list[list[str]] = []
    for token in group:
        if token.startswith("-") or not out:
            out.append([token])
        else:
            out[-1].append(token)
    return [tuple(unit) for unit in out]


def contradicted_flags(
    entry: ToolHardening, cli: Sequence[str]
) -> list[tuple[int, str, tuple[str, ...]]]:
    """(index, token, option) for each token after a required hardening option that undoes it: the
    same option again with another value (``--proto =all`` after ``--proto =http,https``), its
    negation or its positive form (``--ext-diff`` after ``--no-ext-diff``, ``--no-globoff`` after
    ``--globoff``). Only tokens before the verb's ``--`` count (the runtime refuses a dashed value
    after it)."""
    end = next((i for i, t in enumerate(cli) if t == "--"), len(cli))
    out = []
    for group in required_flags(entry, cli):
        for unit in _units(group):
            start = next((i for i in range(1, end) if tuple(cli[i : i + len(unit)]) == unit), None)
            if start is None:
                continue
            option = _option(unit[0])
            for index in range(start + len(unit), end):
                token = cli[index]
                if token.startswith("-") and _option(token) == option:
                    if tuple(cli[index : index + len(unit)]) != unit:
                        out.append((index, token, unit))
    return out
