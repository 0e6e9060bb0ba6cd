"""The README's table of proposals: one row per command of every pack under ``adapters/``.

Pure: pack.yaml texts in, Markdown out. ``tests/test_propose_report.py`` checks that the README's
propose section holds exactly this table, so the table never drifts from the packs.
"""

from __future__ import annotations

from typing import Mapping

import yaml

__all__ = ["proposal_table", "catalogue_table"]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def proposal_table(packs: Mapping[str, str]) -> str:
    """``packs``: pack id -> pack.yaml text, in the order to show."""
    lines = ["| pack | command | cli | effect | why |", "|---|---|---|---|---|"]
    for pack_id, text in packs.items():
        data = yaml.safe_load(text)
        for name, verb in data["verbs"].items():
            policy = verb.get("policy", {})
            effect = policy.get("effect", "read") + (" (confirm)" if policy.get("confirm") else "")
            cli = " ".join(verb.get("cli", []))
            lines.append(f"| {pack_id} | `{name}` | `{_cell(cli)}` | {effect} | {_cell(verb.get('x-why', ''))} |")
    return "\n".join(lines) + "\n"


def catalogue_table() -> str:
    """The dangerous-flags catalogue, then the value guards, as Markdown."""
    from wrapgen.knowledge.dangerous_flags import CATALOGUE, VALUE_GUARDS

    lines = ["| tool | flags | why |", "|---|---|---|"]
    for entry in CATALOGUE:
        flags = ", ".join(f"`{s}`" for s in entry.spellings)
        lines.append(f"| {entry.tool} | {flags} | {entry.why} |")
    for guard in VALUE_GUARDS:
        flags = ", ".join(f"`{s}`" for s in guard.spellings)
        lines.append(f"| {guard.tool} | values of {flags} must match `{guard.pattern}` | {guard.why} |")
    return "\n".join(lines) + "\n"


def _main() -> None:  # pragma: no cover - a maintainer's helper: rewrite the README tables
    from pathlib import Path

    readme = Path("README.md")
    text = readme.read_text(encoding="utf-8")
    start, end = text.index("<!-- section:propose -->"), text.index("<!-- /section:propose -->")
    section = text[start:end]
    packs = {p.name: (p / "pack.yaml").read_text(encoding="utf-8")
             for p in sorted(Path("adapters").iterdir()) if (p / "pack.yaml").exists()}
    order = ["git", "gh", "kubectl", "docker", "rg", "jq", "fd", "curl"]
    packs = {k: packs[k] for k in sorted(packs, key=lambda k: (order.index(k) if k in order else 99, k))}
    head, _, rest = section.partition("| pack | command | cli | effect | why |")
    tail = rest[rest.index("\n\n"):] if "\n\n" in rest else "\n"
    section = head + proposal_table(packs).rstrip() + tail
    head, _, rest = section.partition("| tool | flags | why |")
    tail = rest[rest.index("\n\n"):]
    section = head + catalogue_table().rstrip() + tail
    readme.write_text(text[:start] + section + text[end:], encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    _main()
