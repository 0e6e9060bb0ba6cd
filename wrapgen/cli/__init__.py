"""The ``wrapgen`` command line: ``main.py`` parses and prints; ``commands/`` holds one module per subcommand."""
