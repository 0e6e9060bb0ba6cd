import sys

from wrapgen.cli.main import main

sys.exit(main())
