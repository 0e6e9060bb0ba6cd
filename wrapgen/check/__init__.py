"""``wrapgen check``: the rule registry and rules (``rules.py`` and rule modules), and ``--probe``."""
