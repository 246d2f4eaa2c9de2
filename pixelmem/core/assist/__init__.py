"""Memories in a chat: which go into the prompt, token budgets, saved conversations.

May import index and every floor below it; never insight or the runtime.
"""
