"""Embedding providers behind one narrow interface (:class:`Embedder`)."""

from pixelmem.core.providers.embeddings.base import Embedder, normalise_rows, validate_vectors

__all__ = ["Embedder", "normalise_rows", "validate_vectors"]
