"""Lint rules that live outside ``wrapgen/check.py``; ``check._load_plugins`` imports each module here."""
