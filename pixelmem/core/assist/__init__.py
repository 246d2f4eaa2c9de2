"""Memories in a chat: which go into the prompt, token budgets, saved conversations.

May import vault, index, providers and the core's shared modules.
"""
