"""docopt help: the usage lines are the grammar; ``Options:`` adds values and defaults."""

from __future__ import annotations

from wrapgen.model.tool import Command
from wrapgen.parse.assemble import Rules, assemble, read_parts
from wrapgen.parse.listing import stub
from wrapgen.parse.options import merge_flags
from wrapgen.parse.registry import register_parser
from wrapgen.parse.usage import usage_flags, usage_literals

__all__ = ["parse_docopt"]

RULES = Rules()


@register_parser("docopt")
def parse_docopt(text: str, *, prog: tuple[str, ...]) -> Command:
    """Flags from ``Options:`` plus any only spelled on usage lines; literal words as subcommands."""
    parts = read_parts(text, prog=prog, rules=RULES)
    seen = {s for f in parts.flags + parts.global_flags for s in f.spellings}
    parts.flags.extend(merge_flags(usage_flags(parts.usage, prog=prog), seen=seen))
    known = {s.name for s in parts.subcommands}
    literals = usage_literals(parts.usage, prog=prog)
    for word in literals:
        if word not in known:
            parts.subcommands.append(stub(tuple(prog[1:]) + (word,)))
    # Operands of "prog ship <name> move" belong to "ship", not to the root.
    parts.operand_usage = [line for line in parts.usage if not usage_literals([line], prog=prog)]
    return assemble(parts, prog=prog, style="docopt")
