"""Counted nouns for English messages: "1 file", "2 files", never "1 file(s)"."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the singular or plural noun, thousands separated: ``counted(1200, "file")``."""
    noun = one if n == 1 else (many or one + "s")
    return f"{n:,} {noun}"
