"""The search index: memories into chunks, vectors and keywords, and searching them.

Owns chunking, the embedding cache, the vector and keyword sides, relevance, search and the
Engine that ties a vault to its index. May import vault, providers and the core's shared
modules.
"""
