"""The pack's ``wrap.argv_template`` (docs/contract.md §6): how its tool composes a command.

A verb added by hand without ``cli[]`` renders from it, so it must be the tool's own form: a tool
with subcommands takes ``bin SUBCOMMAND... --flag value`` (``[bin, "{{verb}}", "{{flags}}"]``); a
tool whose commands are the bare tool and its modes (searcher, jsonq, archiver) takes only flags and operands
(``[bin, "{{flags}}"]``), where ``{{verb}}`` would turn the verb's name into a subcommand it does
not have. A template given from outside (a PATH wrap's, carried over by promote) wins.
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["argv_template"]


def argv_template(
    bin_name: str, paths: Sequence[Sequence[str]], given: Sequence[str] | None = None
) -> list[str]:
    """The template for a pack of ``bin_name`` whose commands sit at ``paths`` (subcommand paths)."""
    if given:
        return list(given)
    if any(paths):
        return [bin_name, "{{verb}}", "{{flags}}"]
    return [bin_name, "{{flags}}"]
