"""A pack directory: pack.yaml load/dump, recipes, the derived files (build) and writing them (emit)."""
