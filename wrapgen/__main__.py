import sys

from wrapgen.cli import main

sys.exit(main())
