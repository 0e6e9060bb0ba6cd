"""Everything that runs a tool during discovery: the prober, the crawl, the cache, ``discover()``."""
