"""The Qt-free engine: store, chunking, embeddings, cache, index, search, settings.

Nothing in this package may import PySide6 (tests/test_architecture.py enforces it).
"""
