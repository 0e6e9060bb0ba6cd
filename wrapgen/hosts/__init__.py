"""Where packs meet agent hosts: the MCP server (``mcp.py``) and tool-schema export (``export.py``)."""
