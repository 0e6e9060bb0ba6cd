"""One help parser per style; each registers itself with ``@register_parser`` when imported."""
