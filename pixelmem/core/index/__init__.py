"""The search index: memories into chunks, vectors and keywords, and searching them.

Owns chunking, the embedding cache, the vector and keyword sides, relevance, search and the
Engine that ties a vault to its index. May import the write gateway (core.writes), archive,
providers, vault, settings, files and the shared leaves; never insight, assist or runtime.
"""
