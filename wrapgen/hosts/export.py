"""A pack's binding as tool definitions for agent hosts: MCP tools and OpenAI function tools.

Pure: every function takes loaded ``binding.json`` dicts and returns plain data. The MCP
server (``serve.py``) lists exactly what ``mcp_tools`` returns, so ``wrapgen export --format
mcp`` shows what a host will see. This module must not import ``mcp``: export works on the
core install.

Tool names (one mapping, reversible, tested both ways):

- one pack served or exported: the verb name itself (``log``, ``pr.view``); MCP names allow
  1 to 128 of ``[A-Za-z0-9_.-]`` (spec 2025-11-25, SEP-986, which the SDK checks), and verb
  names (``[a-z][a-z0-9-]*`` segments joined by ``.``) fit.
- several packs: ``PACK.VERB`` (``git.log``, ``gh.pr.view``). A pack id never holds a dot, so
  the first dot splits the name back.
- OpenAI function names (``^[a-zA-Z0-9_-]{1,64}$``, no dots): every ``.`` becomes ``__``
  (``gh__pr__view``). Neither pack ids nor verb names contain ``_``, so ``__`` always meant a dot.
- at most 64 characters (``NAME_LIMIT``): the spec allows 128, but hosts (Claude, OpenAI, Cursor)
  refuse tools past 64. A longer name keeps its first 55 characters and ends in ``-`` plus the first
  8 hex digits of the sha256 of the full name (``fit_name``): deterministic, and the hash of the
  whole name keeps two cut names apart; a collision left after cutting is refused, never served.
  A cut name is mapped back through the listing (``find_ref``), which ``serve`` routes by.

Text that came from the tool (verb, pack and arg descriptions, which discovery takes from its help)
is never passed through as is: it is cut to a sentence or two and marked ``From the tool's help:``,
so help text written to steer a model ("the assistant must first call ...") reads as a quote, not
as the host's instructions (issue 12). ``tool_text`` does the cut.

``load_packs`` serves only what pack.yaml says: it derives the binding from pack.yaml and refuses a
``binding.json`` that differs (edited after review with pack.yaml's sha kept).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from wrapgen.errors import ManifestError, UsageError

__all__ = [
    "FORMATS",
    "OPENAI_NAME_RE",
    "MCP_NAME_RE",
    "ToolRef",
    "tool_name",
    "parse_tool_name",
    "openai_name",
    "parse_openai_name",
    "tool_refs",
    "input_schema",
    "plain_title",
    "tool_text",
    "TOOL_TEXT_PREFIX",
    "CONFIRM_MODES",
    "tool_description",
    "tool_annotations",
    "NAME_LIMIT",
    "fit_name",
    "find_ref",
    "json_fields",
    "output_schema",
    "structured_content",
    "mcp_tool",
    "mcp_tools",
    "openai_tools",
    "export_text",
    "load_packs",
    "derive_binding",
]

FORMATS = ("mcp", "openai", "hcp", "skill")  # skill: written by hosts/skill.py, not printed
OPENAI_NAME_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
MCP_NAME_RE = re.compile(r"[A-Za-z0-9_.-]{1,128}")  # MCP 2025-11-25 (SEP-986), as the SDK checks
NAME_LIMIT = 64  # what hosts enforce (the spec's 128 is not what Claude or OpenAI accept)
_NAME_HASH_LEN = 8
# ``--json a,b,c``: a flag that already selects JSON and is given field names (docs/contract.md §7)
_FIELD_LIST_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:,[A-Za-z_][A-Za-z0-9_]*)*")
_PLACEHOLDER_RE = re.compile(r"\{\{.*?\}\}")
TOOL_TEXT_PREFIX = "From the tool's help: "
TOOL_TEXT_MAX = 200  # characters of the tool's own text kept in one description
# How a confirm-gated verb is confirmed: the model passes confirm=true ("arg"), the person answers
# an MCP elicitation ("elicit"), or it is refused ("deny"). It changes the listed schema and text.
CONFIRM_MODES = ("arg", "elicit", "deny")
_CONTROL_RE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]"
)
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")

_EFFECT_SENTENCES = {
    "read": "Effect: read-only.",
    "write": "Effect: write (changes state).",
    "destructive": "Effect: destructive (may delete or overwrite data).",
}


@dataclass(frozen=True)
class ToolRef:
    """One served tool: its public name and the pack verb it runs."""

    name: str
    pack_id: str
    verb_key: str
    binding_index: int  # which of the bindings passed in holds the verb


def tool_name(pack_id: str, verb_key: str, *, prefix: bool) -> str:
    """The MCP tool name of a verb: ``log``, or ``git.log`` when packs share one server."""
    return f"{pack_id}.{verb_key}" if prefix else verb_key


def parse_tool_name(name: str, *, prefix: bool) -> tuple[str | None, str]:
    """The inverse of ``tool_name``: ``(pack_id or None, verb_key)``; raises UsageError when malformed."""
    if not prefix:
        return None, name
    pack_id, dot, verb_key = name.partition(".")
    if not dot or not pack_id or not verb_key:
        raise UsageError(
            f"tool name {name!r} has no pack prefix",
            hint="with several packs, tool names are PACK.VERB, e.g. git.log",
        )
    return pack_id, verb_key


def fit_name(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` itself when it has at most ``limit`` characters; else its head, ``-`` and a hash of it all."""
    if len(name) <= limit:
        return name
    import hashlib

    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:_NAME_HASH_LEN]
    return f"{name[: limit - _NAME_HASH_LEN - 1]}-{digest}"


def find_ref(refs: Iterable[ToolRef], name: str) -> ToolRef | None:
    """The listed tool called ``name`` (a cut name included), or None: the inverse of ``tool_refs``."""
    for ref in refs:
        if ref.name == name:
            return ref
    return None


def openai_name(mcp_name: str) -> str:
    """An MCP tool name as an OpenAI function name: dots become ``__``; raises when too long."""
    name = mcp_name.replace(".", "__")
    if not OPENAI_NAME_RE.fullmatch(name):
        raise ManifestError(
            f"tool {mcp_name!r} has no valid OpenAI function name ({name!r} is over 64 characters"
            " or holds a character OpenAI refuses)",
            hint="shorten the verb name or the pack id in pack.yaml, then run `wrapgen build`",
        )
    return name


def parse_openai_name(name: str) -> str:
    """The inverse of ``openai_name``: ``gh__pr__view`` -> ``gh.pr.view``."""
    return name.replace("__", ".")


def tool_refs(bindings: Iterable[Mapping], *, prefix: bool | None = None) -> list[ToolRef]:
    """Every verb of every binding as a ToolRef, in pack order then verb-name order.

    ``prefix=None`` prefixes only when there are several packs. Two packs with one pack id are
    refused: their tool names would collide.
    """
    bindings = list(bindings)
    if prefix is None:
        prefix = len(bindings) > 1
    seen: dict[str, int] = {}
    names: dict[str, str] = {}  # listed name -> the full name it stands for
    refs: list[ToolRef] = []
    for index, binding in enumerate(bindings):
        pack_id = binding["pack_id"]
        if pack_id in seen:
            raise UsageError(
                f"pack {pack_id!r} is given twice",
                hint="name each pack once; tool names are PACK.VERB and would collide",
            )
        seen[pack_id] = index
        for verb_key in sorted(binding["verbs"]):
            full = tool_name(pack_id, verb_key, prefix=prefix)
            if not MCP_NAME_RE.fullmatch(full[:128]):
                raise ManifestError(
                    f"tool {full!r} is not a valid MCP tool name (A-Z a-z 0-9 _ . -)",
                    hint="rename the verb in pack.yaml, then run `wrapgen build`",
                )
            name = fit_name(full)
            if name in names:
                raise ManifestError(
                    f"tools {names[name]!r} and {full!r} both get the name {name!r} (cut to {NAME_LIMIT} characters)",
                    hint="shorten one verb name in pack.yaml, then run `wrapgen build`",
                )
            names[name] = full
            refs.append(ToolRef(name, pack_id, verb_key, index))
    return refs


def _confirm_gated(verb: Mapping) -> bool:
    return bool(verb.get("policy", {}).get("confirm", False))


def _effect(verb: Mapping) -> str | None:
    """The declared effect, or None when the manifest declared no policy."""
    policy = verb.get("policy") or {}
    if not policy.get("declared", True):
        return None
    return policy.get("effect")


def _mark_descriptions(schema):
    """A copy of an arg schema whose ``description``s are cut and marked as the tool's text."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if isinstance(out.get("description"), str):
        marked = tool_text(out["description"], sentences=1)
        if marked:
            out["description"] = marked
        else:
            del out["description"]
    if isinstance(out.get("properties"), dict):
        out["properties"] = {
            name: _mark_descriptions(sub) for name, sub in out["properties"].items()
        }
    for key in ("items", "additionalProperties"):
        if isinstance(out.get(key), dict):
            out[key] = _mark_descriptions(out[key])
    return out


def input_schema(verb: Mapping, *, confirm: str = "arg") -> dict:
    """The verb's args schema, plus a ``confirm`` boolean when the verb is confirm-gated.

    The runtime always accepts ``confirm``; listing it tells the model the switch exists and
    what it does, so a host's own argument check does not drop it either. With ``confirm="elicit"``
    or ``"deny"`` the model's confirm decides nothing, so it is not offered. Descriptions are
    the tool's text, cut and marked (``tool_text``).
    """
    schema = _mark_descriptions(copy.deepcopy(dict(verb.get("args") or {})))
    schema.setdefault("type", "object")
    properties = dict(schema.get("properties") or {})
    if _confirm_gated(verb) and "confirm" not in properties and confirm == "arg":
        effect = _effect(verb) or "write"
        properties["confirm"] = {
            "type": "boolean",
            "description": (
                f"Set to true to really run this {effect} command. Without it the call is refused"
                " and nothing runs; ask the user first."
            ),
        }
    schema["properties"] = properties
    return schema


def plain_title(verb: Mapping) -> str | None:
    """The declared live title's plain fallback: its first template without placeholders.

    A tool list is shown before any call, so only a title with no ``{{...}}`` slot fits; the done
    form is used when no live form is declared.
    """
    title = verb.get("title") or {}
    for form in ("live", "done"):
        templates = title.get(form)
        if isinstance(templates, str):
            templates = [templates]
        for template in templates or ():
            if (
                isinstance(template, str)
                and template.strip()
                and not _PLACEHOLDER_RE.search(template)
            ):
                return template.strip()
    return None


def tool_text(text, *, sentences: int = 2, limit: int = TOOL_TEXT_MAX) -> str:
    """Text that came from the tool, made safe to show a model: one line, at most ``sentences``
    sentences and ``limit`` characters, prefixed ``From the tool's help:``; "" when empty.

    Control and invisible formatting characters are dropped and whitespace runs become one space,
    so the text cannot fake a new paragraph or a message boundary.
    """
    flat = " ".join(_CONTROL_RE.sub(" ", str(text or "")).split())
    if not flat:
        return ""
    cut = " ".join(_SENTENCE_END_RE.split(flat)[:sentences])
    if len(cut) > limit:
        cut = cut[: limit - 1].rstrip() + "…"
    return TOOL_TEXT_PREFIX + cut


def tool_description(verb: Mapping, *, confirm: str = "arg") -> str:
    """The verb's description (cut and marked as the tool's text) followed by its policy.

    ``confirm`` is how a gated verb is confirmed on this host (``CONFIRM_MODES``); the policy
    sentence says it, so the model knows whether it can pass confirm=true itself.
    """
    text = tool_text(verb.get("description", ""))
    effect = _effect(verb)
    if effect is None:
        policy = "Effect: not declared (run as read-only)."
    else:
        policy = _EFFECT_SENTENCES.get(effect, f"Effect: {effect}.")
    if _confirm_gated(verb):
        policy += {
            "arg": " Confirm-gated: runs only with confirm=true; otherwise it is refused and nothing runs.",
            "elicit": " Confirm-gated: the person is asked to approve the exact command before it runs;"
            " a confirm argument is ignored.",
            "deny": " Refused by this server (confirm-gated commands are turned off); nothing runs.",
        }[confirm]
    return f"{text}\n\n{policy}" if text else policy


def tool_annotations(verb: Mapping) -> dict:
    """MCP annotations from the verb's policy: title, readOnlyHint, destructiveHint, idempotentHint,
    openWorldHint.

    A verb with no declared policy gets no hints: hosts may auto-approve a read-only tool, and we
    do not know that it is one. ``idempotentHint`` and ``openWorldHint`` come only from the policy's
    ``idempotent`` and ``open_world`` (pack.yaml): wrapgen cannot tell from help whether a tool
    reaches outside systems (``gh`` does, ``git log`` does not), and left out, the protocol's
    defaults (not idempotent, open world) are the cautious reading. ``idempotentHint`` is only
    meaningful for a tool that writes, so a read verb never carries it.
    """
    annotations: dict = {}
    title = plain_title(verb)
    if title:
        annotations["title"] = title
    effect = _effect(verb)
    if effect == "read":
        annotations["readOnlyHint"] = True
    elif effect in ("write", "destructive"):
        annotations["readOnlyHint"] = False
        annotations["destructiveHint"] = effect == "destructive"
    policy = verb.get("policy") or {}
    if effect in ("write", "destructive") and isinstance(policy.get("idempotent"), bool):
        annotations["idempotentHint"] = policy["idempotent"]
    if effect is not None and isinstance(policy.get("open_world"), bool):
        annotations["openWorldHint"] = policy["open_world"]
    return annotations


def json_fields(verb: Mapping) -> tuple[str, ...]:
    """The fields a verb's JSON selection names (``--json number,title,url``), or ().

    ``--json`` already selects JSON, so a value given to it can only say what goes in it: the
    tool prints those fields, and no others, of each object. Any other selection (``-o json``,
    ``--format json``) says nothing of the shape.
    """
    selection = verb.get("json")
    selection = [str(token) for token in selection] if isinstance(selection, list) else []
    value = None
    if len(selection) == 2 and selection[0] == "--json":
        value = selection[1]
    elif len(selection) == 1 and selection[0].startswith("--json="):
        value = selection[0][len("--json=") :]
    if value is None or not _FIELD_LIST_RE.fullmatch(value):
        return ()
    return tuple(dict.fromkeys(value.split(",")))


def output_schema(verb: Mapping) -> dict | None:
    """The MCP ``outputSchema`` of a verb whose JSON shape is known (``json_fields``), else None.

    Such a tool prints one object with those fields (``view``) or a list of them (``list``), so
    ``structuredContent`` is ``{"result": ...}``, the envelope's own field: an object at the top,
    as every protocol version wants.
    """
    fields = json_fields(verb)
    if not fields:
        return None
    row = {"type": "object", "properties": {name: {} for name in fields}, "required": list(fields)}
    return {
        "type": "object",
        "properties": {"result": {"anyOf": [row, {"type": "array", "items": row}]}},
        "required": ["result"],
    }


def structured_content(verb: Mapping, value):
    """``{"result": value}`` when ``value`` has the shape ``output_schema(verb)`` declares, else None."""
    fields = json_fields(verb)
    if not fields:
        return None
    rows = value if isinstance(value, list) else [value]
    for row in rows:
        if not isinstance(row, dict) or any(name not in row for name in fields):
            return None
    return {"result": value}


def mcp_tool(name: str, verb: Mapping, *, confirm: str = "arg") -> dict:
    """One MCP tool definition: ``{name, title?, description, inputSchema, outputSchema?, annotations}``."""
    tool: dict = {"name": name}
    title = plain_title(verb)
    if title:
        tool["title"] = title
    tool["description"] = tool_description(verb, confirm=confirm)
    tool["inputSchema"] = input_schema(verb, confirm=confirm)
    schema = output_schema(verb)
    if schema is not None:
        tool["outputSchema"] = schema
    tool["annotations"] = tool_annotations(verb)
    return tool


def mcp_tools(
    bindings: Iterable[Mapping], *, prefix: bool | None = None, confirm: str = "arg"
) -> list[dict]:
    """The MCP tool list for these packs (what ``wrapgen serve`` lists; ``confirm`` as in ``tool_description``)."""
    bindings = list(bindings)
    return [
        mcp_tool(ref.name, bindings[ref.binding_index]["verbs"][ref.verb_key], confirm=confirm)
        for ref in tool_refs(bindings, prefix=prefix)
    ]


def openai_tools(bindings: Iterable[Mapping], *, prefix: bool | None = None) -> list[dict]:
    """OpenAI function-tool definitions: ``{"type": "function", "function": {...}}``.

    ``strict`` is left out (false): strict mode needs every property required, and pack args
    are mostly optional.
    """
    out = []
    for tool in mcp_tools(bindings, prefix=prefix):
        out.append(
            {
                "type": "function",
                "function": {
                    "name": openai_name(fit_name(tool["name"].replace(".", "__"))),
                    "description": tool["description"],
                    "parameters": tool["inputSchema"],
                },
            }
        )
    return out


def export_text(bindings: Iterable[Mapping], *, format: str, prefix: bool | None = None) -> str:
    """The text ``wrapgen export`` prints: deterministic JSON with a final newline."""
    bindings = list(bindings)
    if format == "mcp":
        data: object = mcp_tools(bindings, prefix=prefix)
    elif format == "openai":
        data = openai_tools(bindings, prefix=prefix)
    elif format == "hcp":
        if len(bindings) != 1:
            raise UsageError(
                "--format hcp prints one pack's binding",
                hint="run `wrapgen export PACK --format hcp` once per pack",
            )
        return json.dumps(bindings[0], indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    else:
        raise UsageError(f"unknown format {format!r}", hint=f"use one of: {', '.join(FORMATS)}")
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def derive_binding(pack_dir: Path) -> dict:
    """The binding pack.yaml in ``pack_dir`` gives, built in memory; ``ManifestError`` when invalid."""
    from wrapgen.pack.derive import derived_binding

    return derived_binding(pack_dir)


def _differences(stored: Mapping, derived: Mapping) -> list[str]:
    """What differs between two bindings, in words (wrapgen_version aside), for the refusal message."""
    out = []
    for key in sorted(set(stored) | set(derived)):
        if key in ("wrapgen_version", "verbs") or stored.get(key) == derived.get(key):
            continue
        out.append(key)
    stored_verbs, derived_verbs = stored.get("verbs") or {}, derived.get("verbs") or {}
    for name in sorted(set(stored_verbs) | set(derived_verbs)):
        if name not in derived_verbs:
            out.append(f"verb {name!r} (not in pack.yaml)")
        elif name not in stored_verbs:
            out.append(f"verb {name!r} (missing)")
        elif stored_verbs[name] != derived_verbs[name]:
            fields = sorted(
                k
                for k in set(stored_verbs[name]) | set(derived_verbs[name])
                if stored_verbs[name].get(k) != derived_verbs[name].get(k)
            )
            out.append(f"verb {name!r} ({', '.join(fields)})")
    return out


def load_packs(packs: Sequence[str], *, cwd: Path | None = None) -> list[tuple[Path, dict]]:
    """Resolve each PACK (a directory or a pack id) and load its binding: ``[(pack_dir, binding)]``.

    The runtime resolves and loads, so serve and export refuse exactly the packs ``wrapgen exec``
    refuses (a missing or stale ``binding.json`` says to run ``wrapgen build``). Then the binding
    is derived again from pack.yaml, and a ``binding.json`` that says anything else (a hand edit
    that kept pack.yaml's sha) is refused; the derived binding is what is returned and served.
    """
    from wrapgen import runtime
    from wrapgen.runtime import BindingError

    loaded = []
    for pack in packs:
        pack_dir = Path(runtime.resolve_pack(pack, cwd=cwd))
        stored = runtime.load_binding(pack_dir, verify=False)  # derived just below, in this process
        derived = derive_binding(pack_dir)
        differences = _differences(stored, derived)
        if differences:
            raise BindingError(
                f"{pack_dir / 'binding.json'} does not match {pack_dir / 'pack.yaml'}: "
                f"{'; '.join(differences)} differ (edited after it was built?)",
                hint=f"review pack.yaml, then run `wrapgen build {pack_dir}`; only what pack.yaml says is served",
            )
        loaded.append((pack_dir, derived))
    return loaded
