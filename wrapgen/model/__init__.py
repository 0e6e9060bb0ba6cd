"""The values wrapgen passes between its stages: the discovered tool (``tool.py``), frozen and versioned."""

from wrapgen.model.tool import *  # noqa: F401,F403 - the model is this package's public API
from wrapgen.model.tool import __all__  # noqa: F401
