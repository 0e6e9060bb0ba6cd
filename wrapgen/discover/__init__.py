"""Discovery: read a real tool's help, recursively, into a ``Tool`` model."""
