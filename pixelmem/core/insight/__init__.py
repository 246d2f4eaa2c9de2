"""Seeing the vault whole: the semantic map, near-duplicates, topic suggestions.

Merging near-duplicates lives here too. May import index and every floor below it; never
assist or the runtime.
"""
