"""What the ``wrapgen`` command prints besides each command's own output: the one error printer.

``print_error`` is defined in ``wrapgen.runtime.output`` because adapter.py (which runs without
``wrapgen.cli``) prints errors too; every ``wrapgen`` command uses it through this module.
"""

from __future__ import annotations

from wrapgen.runtime.output import print_error

__all__ = ["print_error"]
