"""Usage evidence: how people actually call a tool, the first source of a proposal (issue 26).

One model for every source of evidence: the usage table distilled from tldr-pages and shipped in the
package (``wrapgen/knowledge/data/usage.json``), a tool's own EXAMPLES sections, and local usage read
out of a repository's scripts, Makefiles, CI workflows and shell history (``--usage-from``). Each
source yields ``UsageEvidence``: the distinct shapes of invocation it saw (``Use``) with a count.

Facts only: the subcommand path, the flag spellings, which flags took a value, and each operand's
*kind* (read from a placeholder or from the value's look). A value itself is never kept, so nothing a
script holds (a token, a host name) can travel from evidence into a pack.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["UsedOperand", "Use", "UsageEvidence"]


@dataclass(frozen=True)
class UsedOperand:
    """One operand of a use: its ``kind`` ("file", "directory", "url", "branch", "package", "pid",
    "pattern", "number", "text", ...) and a snake_case ``name`` read from the placeholder
    ("path/to/file" -> "file", "branch_name" -> "branch_name"); ``name`` is "" for a bare value."""

    kind: str
    name: str = ""
    repeated: bool = False  # the placeholder stands for several ("path/to/file1 path/to/file2 ...")


@dataclass(frozen=True)
class Use:
    """One shape of invocation and how often it was seen.

    ``path``: subcommand words after the program's name, ``()`` for none. ``flags``: the flag
    spellings written (sorted, deduplicated; ``-x`` and ``--long`` as written, folded into one
    spelling by the discovered model where there is one). ``valued``: those of ``flags`` that took a
    value. ``operands``: the positional operands in order. ``count``: how many examples or
    invocations had exactly this shape. ``where``: up to a few sources, for ``x-why`` ("tldr-pages",
    "scripts/deploy.sh:12"). ``values``: what each flag of ``valued`` took (its kind), in the same
    order; a reader without the tool's model guesses which flags take a value (a flag followed by
    a word, unless another use shows it bare), so a consumer that knows a flag takes none moves its
    "value" back to the operands."""

    path: tuple[str, ...]
    flags: tuple[str, ...] = ()
    valued: tuple[str, ...] = ()
    operands: tuple[UsedOperand, ...] = ()
    count: int = 1
    where: tuple[str, ...] = ()
    values: tuple[UsedOperand, ...] = ()  # the kind of each of ``valued``'s values, in its order


@dataclass(frozen=True)
class UsageEvidence:
    """What one source says about one tool. ``source`` names it ("tldr-pages", "examples",
    "local"); ``uses`` is sorted by count, most used first, then by path."""

    tool: str
    source: str
    uses: tuple[Use, ...] = ()

    def path_counts(self) -> dict[tuple[str, ...], int]:
        """How many uses each subcommand path has, summed over its shapes."""
        counts: dict[tuple[str, ...], int] = {}
        for use in self.uses:
            counts[use.path] = counts.get(use.path, 0) + use.count
        return counts
