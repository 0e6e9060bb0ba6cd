"""Check rule W035: a pack text that quotes a password or key file, or holds a credential.

Text a tool printed reaches a pack only as help: its descriptions and titles. A hostile tool's help can
echo what it read (a line of /etc/shadow, a private key, the token in a config file), and a person
editing a pack can paste one by mistake; either way it would be served to every agent the pack is
given to, in pack.yaml, binding.json and SKILL.md. Discovery already cuts such lines from the help it
reads (``probe/prober.py``); this rule refuses a pack that holds one anywhere in its text (any string
of pack.yaml but the ``source`` record). What looks like a secret is data:
``wrapgen/knowledge/data/secrets.json``.
"""

from __future__ import annotations

from typing import Any, Iterator

from wrapgen.check.registry import PackContext, rule
from wrapgen.knowledge.secrets import secret_reason

__all__ = ["secret_in_text"]

CODE = "W035"
_SKIPPED = ("source",)  # (the tool's own version line and help digest)


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")


@rule(
    CODE,
    severity="error",
    summary="a pack text (a description, a title, any string of pack.yaml) quotes a password or key file or holds a credential",
)
def secret_in_text(ctx: PackContext) -> Iterator:
    data = ctx.manifest.data
    for key in data if isinstance(data, dict) else ():
        if key in _SKIPPED:
            continue
        for path, text in _strings(data[key], str(key)):
            why = secret_reason(text)
            if why:
                yield ctx.diagnostic(
                    CODE,
                    path,
                    f"{path} looks like it holds a secret: {why}",
                    hint="remove it from pack.yaml (and rotate it if it is real), then run wrapgen build",
                )
