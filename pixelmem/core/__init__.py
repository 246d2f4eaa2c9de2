"""The Qt-free engine, in packages by concern; the CLI, MCP server and app share it.

vault: the Markdown files (rules, scan, store, the one write gateway, watching). index: chunks,
embedding cache, vector and keyword sides, search, the engine. providers: embedding models,
HTTP servers, reranker, chat clients. assist: memories into a chat prompt, conversations, token
budgets. archive: backup, restore, import, the review inbox. insight: the semantic map, near-
duplicates, topic suggestions. Here: errors, paths, settings, wording, render_limits (used by
all). Nothing here imports PySide6, pixelmem.gui or an entry point (CLI, commands, MCP);
tests/test_architecture.py enforces it.
"""
