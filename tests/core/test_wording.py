"""Counted nouns: no "1 memories", no "file(s)"."""

from __future__ import annotations

from pixelmem.core.wording import counted


def test_singular_plural_and_thousands() -> None:
    assert counted(1, "file") == "1 file"
    assert counted(0, "file") == "0 files"
    assert counted(1, "memory", "memories") == "1 memory"
    assert counted(12_000, "memory", "memories") == "12,000 memories"
