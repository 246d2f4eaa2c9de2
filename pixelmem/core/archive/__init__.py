"""In and out of the vault: backup, restore, import, the review inbox.

The inbox holds drafts proposed by AI tools (MCP) until the person accepts them. May import
vault and the core's shared modules.
"""
