"""Seeing the vault whole: the semantic map, near-duplicates, topic suggestions.

Merging near-duplicates lives here too. May import vault, index and the core's shared modules.
"""
