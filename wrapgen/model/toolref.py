"""``ToolRef``: a tool resolved once (by name on PATH, at a path, or in a recipe's search paths).

``wrapgen.probe.prober.resolve_tool`` (and ``wrapgen.pack.recipe.resolve_tool`` for a recipe) makes
one; discovery, the JSON field probes, the trials and the pack's ``bin`` all take it from there, so
they cannot disagree on which program they mean.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["ToolRef"]


@dataclass(frozen=True)
class ToolRef:
    """``given`` as the person or the recipe named it ("git", "./tool.sh", "/usr/bin/git"); ``path``
    the absolute path of the program that runs; ``bin`` what pack.yaml names: ``given`` where PATH
    finds this program by that name, else an absolute path."""

    given: str
    path: str
    bin: str

    @property
    def by_name(self) -> bool:
        """Found by its name on PATH: pack.yaml names it so, and its man page is looked up."""
        return self.bin == self.given and os.sep not in self.given

    @property
    def name(self) -> str:
        """The program's name: ``given`` found by name, else the basename of the path given."""
        return self.given if self.by_name else os.path.basename(self.bin.rstrip(os.sep))
