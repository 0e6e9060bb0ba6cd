"""The jc step of a proposal: a read verb whose command form a jc parser reads gets ``jc: PARSER``.

``propose_jc(manifest, tool=...)`` returns a copy of the proposed manifest in which every verb whose
``cli[]`` has one of the tool's forms of ``wrapgen/knowledge/data/jc.json`` (the tool, then the
form's tokens as literals, in order), none of the tool's layout options (literal or a placeholder's
flag), and no JSON selection of its own or from the pack, carries ``jc: PARSER`` right after its
``cli``. The runtime then answers with jc's JSON of the text (``runtime.execute.parse_with_jc``);
jc itself is an optional extra (``wrapgen[jc]``) that only the call of such a verb imports.
Nothing else changes; a tool the table does not name comes back unchanged.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from wrapgen.knowledge.table import load

__all__ = ["jc_parser_for", "propose_jc"]


def _is_layout_option(token: str, options: Sequence[str]) -> bool:
    for option in options:
        if token == option or token.startswith(option + "="):
            return True
        if len(option) == 2 and option[0] == "-" and option[1] != "-" and token.startswith(option):
            return True  # -oFORMAT
    return False


def _has_in_order(tokens: Sequence[str], wanted: Sequence[str]) -> bool:
    it = iter(tokens)
    return all(any(token == word for token in it) for word in wanted)


def jc_parser_for(tool: str, cli: Sequence[str]) -> str | None:
    """The jc parser that reads the output of ``cli`` (a verb's cli[] of ``tool``), or None."""
    name = tool.rsplit("/", 1)[-1]
    if not cli or not isinstance(cli[0], str) or cli[0].rsplit("/", 1)[-1] != name:
        return None
    knowledge = load("jc")
    options = [entry.name for entry in knowledge["layout_options"] if entry.tool == name]
    tokens = [token for token in cli[1:] if isinstance(token, str)]
    literals = [token for token in tokens if "{{" not in token]
    for entry in knowledge["forms"]:
        if entry.tool != name:
            continue
        form = entry.name.split()[1:]
        if form and not form[0].startswith("-") and (not literals or literals[0] != form[0]):
            continue  # a subcommand form: the verb must be that subcommand
        if not _has_in_order(literals, form):
            continue
        rest = list(tokens)
        for word in form:
            rest.remove(word)
        if any(_is_layout_option(token, options) for token in rest):
            continue
        return entry.value
    return None


def _selects_json(verb: Mapping[str, Any], pack_json) -> bool:
    value = verb["json"] if "json" in verb else pack_json
    return bool(value)


def propose_jc(manifest: Mapping[str, Any], *, tool: str) -> dict[str, Any]:
    """A copy of ``manifest`` with ``jc: PARSER`` on every read verb a jc parser reads (see the module doc)."""
    out = copy.deepcopy(dict(manifest))
    pack_json = out.get("json")
    verbs = out.get("verbs") or {}
    for name, verb in list(verbs.items()):
        if not isinstance(verb, dict) or "jc" in verb or not isinstance(verb.get("cli"), list):
            continue
        if (verb.get("policy") or {}).get("effect") != "read" or _selects_json(verb, pack_json):
            continue
        parser = jc_parser_for(tool, verb["cli"])
        if parser is None:
            continue
        rebuilt = {}
        for key, value in verb.items():
            rebuilt[key] = value
            if key == "cli":
                rebuilt["jc"] = parser
        verbs[name] = rebuilt
    return out
