"""The proposal's shared types: a candidate command, a decision about it, and the proposal itself.

Every source of a proposal (``wrapgen.propose.sources``: the help's listing, the usage table, the
tool's own examples, local usage, a task runner's targets) produces the same ``Candidate``; the
rules (``wrapgen.propose.rules``) decide about candidates; the verb writer
(``wrapgen.propose.write``) turns a chosen one into a manifest verb. Kept here, below ``propose/``,
so that no module of the proposal imports another back (docs/architecture.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from wrapgen.model.tool import Command
from wrapgen.model.usage import Use

__all__ = ["Candidate", "Decision", "Proposal"]


@dataclass(frozen=True)
class Candidate:
    """A command a pack could offer: a subcommand, a mode of a tool without subcommands, or a target.

    ``uses`` are the shapes of invocation evidence saw for it (folded onto the discovered model:
    the model's flag spellings), each with its count and where it was seen; ``()`` where no evidence
    names it (the help alone proposes it)."""

    path: tuple[str, ...]
    command: Command
    group: str = ""  # the help's group heading, its own or its family's
    index: int = 0  # position in the help's listings (walk order)
    fixed: tuple[str, ...] = ()  # literal mode tokens after the path (``--files``)
    name: str = ""  # a name chosen up front (modes); "" -> from the path
    summary: str = ""  # overrides command.summary (modes)
    json: object = None  # a JsonChoice forced for this candidate (modes), else detected
    note: str = ""  # why this candidate exists (modes)
    # flags a value mode requires (``--data``): kept off the other commands
    owns: tuple[str, ...] = ()
    common: bool = False  # the root's short help lists it or its family (``Command.common``)
    listing: bool = False  # the --list form of a mixed command: read by construction
    # the read form a write's dry run makes (``add --dry-run``): it shows what the write would do
    dry_run: bool = False
    # the main mode with an everyday switch fixed (``propose/forms.py``): unlike a mode's, its switch
    # stays offered on the other commands
    form: bool = False
    # how deep it stands, counting only the levels that are commands of their own: ``top pod`` is as
    # shallow as ``top`` when bare ``kubectl top`` does nothing (0: the path's length)
    depth: int = 0
    uses: tuple[Use, ...] = ()  # the evidence for it, most used first
    source: str = "help"  # the source that produced it (``wrapgen.propose.sources``)

    @property
    def text(self) -> str:
        return " ".join(self.path + (self.fixed or self.owns[:1]))

    @property
    def effective_summary(self) -> str:
        return self.summary or self.command.summary

    @property
    def use_count(self) -> int:
        """How many uses the evidence counts for it (0: none names it)."""
        return sum(use.count for use in self.uses)


@dataclass(frozen=True)
class Decision:
    """One candidate command: chosen or not, and why, in words."""

    path: str  # "pr list", "--files" for a mode, "" for the tool itself
    name: str  # the verb name ("" when not chosen)
    chosen: bool
    effect: str
    reason: str


@dataclass(frozen=True)
class Proposal:
    manifest: dict
    decisions: tuple[Decision, ...]
    warnings: tuple[str, ...] = ()
    json_note: str = ""  # how the pack selects JSON, or that it has none
    split_hint: str = ""  # that `wrap --split` would help (propose/split.py), or ""
    # what evidence the proposal stood on ("12 uses from tldr-pages, 3 from the tool's examples"),
    # or that none named the tool and the help alone proposed it
    usage_note: str = ""

    @property
    def chosen(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.chosen)
