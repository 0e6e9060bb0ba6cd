"""Help-text parsers, one module per style, behind a registry."""
