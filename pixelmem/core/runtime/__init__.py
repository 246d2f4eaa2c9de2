"""One vault kept current, under every entry point: the app, ``pixelmem serve``, ``pixelmem mcp``.

vault_runtime (VaultRuntime: the engine, writes, changes on disk, settings switches under one
lock, searches without it), watcher (the one VaultWatcher: watchfiles with polling, or a
signature check), index_lane (the one IndexLane: tickets, folded requests), freshness (what a
call may wait for, per adapter), tools (the MCP tools' logic) and answers (the JSON shapes MCP
and REST share). The top floor of the core: imports any floor below, never an entry point.
"""
