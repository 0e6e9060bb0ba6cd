"""The proposal: a discovered tool (and optionally a recipe) in, a pack manifest out.

``propose(tool, recipe=None) -> Proposal`` with ``Proposal.manifest`` (a dict ready for
``wrapgen.pack.manifest.dump_manifest``) and ``Proposal.decisions`` (per candidate: chosen or not, why).
"""

from wrapgen.propose.core import Decision, Proposal, propose

__all__ = ["Decision", "Proposal", "propose"]
