"""In and out of the vault: backup, restore, import, the review inbox.

The inbox holds drafts proposed by AI tools (MCP) until the person accepts them. May import
vault, settings, files and the shared leaves; the write gateway (core.writes) stands on it.
"""
