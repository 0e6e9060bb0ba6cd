"""What wrapgen knows about words, flags, commands and specific tools, as reviewable data."""
