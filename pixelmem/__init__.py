"""pixelmem: local-first knowledge memory."""

__version__ = "0.1.0"  # the only place: pyproject.toml, the CLI and the MCP server read it
