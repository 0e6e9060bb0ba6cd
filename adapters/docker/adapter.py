#!/usr/bin/env python3
"""Adapter of the docker pack: serves its JSON face through wrapgen's runtime.

Generated from pack.yaml by `wrapgen build`; do not edit it: edit pack.yaml, then run
`wrapgen build` on this directory.

    adapter.py VERB [--json] -- k=v ...    run one command (like `wrapgen exec` on this directory)
    adapter.py [--envelope -]              read one JSON envelope on stdin
"""

import sys
from pathlib import Path

try:
    from wrapgen.runtime import exec_main
except ImportError:
    sys.stderr.write(
        "Error: the wrapgen package is not installed for " + sys.executable + "\n"
        "  hint: install it (python3 -m pip install wrapgen) or run this file with that Python\n"
    )
    sys.exit(2)

if __name__ == "__main__":
    sys.exit(exec_main(sys.argv[1:], pack_dir=Path(__file__).resolve().parent))
