"""What of the file system a program needs to run: moved to ``wrapgen.runtime.install`` (the runtime's
per-call sandbox binds the same things back); this name stays for discovery's modules."""

from wrapgen.runtime.install import BIN_DIRS, INSTALL_MARKS, PROGRAM_PARTS, program_paths

__all__ = ["program_paths", "BIN_DIRS", "INSTALL_MARKS", "PROGRAM_PARTS"]
