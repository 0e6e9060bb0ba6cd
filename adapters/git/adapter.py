#!/usr/bin/env python3
"""Adapter of the git pack: serves its JSON face through wrapgen's runtime.

Generated from pack.yaml by `wrapgen build`; do not edit it: edit pack.yaml, then run
`wrapgen build` on this directory.

    adapter.py VERB [--json] -- k=v ...    run one command (like `wrapgen exec` on this directory)
    adapter.py [--envelope -]              read one JSON envelope on stdin
"""

import sys

# Never import from this pack's own directory: a planted wrapgen/ (or pathlib.py, ...) there must
# not stand in for the installed package. Run as a script, Python put this file's directory first
# on sys.path (unless -I or -P kept it off); nothing else was imported before this line.
if (
    __name__ == "__main__"
    and sys.argv[:1] == [__file__]
    and sys.path
    and not (sys.flags.isolated or getattr(sys.flags, "safe_path", False))
):
    del sys.path[0]

from pathlib import Path

try:
    from wrapgen.runtime import exec_exit
except ImportError:
    sys.stderr.write(
        "Error: the wrapgen package is not installed for " + sys.executable + "\n"
        "  hint: install it (python3 -m pip install wrapgen) or run this file with that Python\n"
    )
    sys.exit(2)

if __name__ == "__main__":
    exec_exit(sys.argv[1:], pack_dir=Path(__file__).resolve().parent)
