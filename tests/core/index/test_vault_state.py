"""The quick check that a vault's files are those a saved index was made from."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pixelmem.core.index import vault_state
from pixelmem.core.index.vault_state import FileTable, file_table, unchanged
from pixelmem.core.vault import scan_cache
from pixelmem.core.vault.store import MemoryStore


def _table(vault: Path) -> FileTable:
    store = MemoryStore(vault)
    store.scan()
    table = file_table(vault, store.list(), [s.path for s in store.skipped], store.last_scan_cache)
    assert table is not None
    return table


@pytest.fixture
def notes(vault: Path) -> Path:
    store = MemoryStore(vault)
    for i in range(5):
        store.create(f"Note {i}", f"Body {i}.")
    (vault / "sub").mkdir()
    (vault / "sub" / "foreign.md").write_text("# Foreign\n\nwritten by another app\n")
    (vault / "broken.md").write_bytes(b"\0binary")
    return vault


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan_cache, "RACY_WINDOW_NS", 0)
    monkeypatch.setattr(scan_cache, "FINE_RACY_WINDOW_NS", 0)


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    read: list[Path] = []
    real = vault_state._file_hash

    def counting(path: Path) -> str | None:
        read.append(path)
        return real(path)

    monkeypatch.setattr(vault_state, "_file_hash", counting)
    return read


def test_an_untouched_vault_is_unchanged_without_reading_a_file(
    notes: Path, settled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(notes)
    assert len(table.paths) == 7  # 6 memories and the skipped file
    read = _reads(monkeypatch)
    assert unchanged(notes, table)
    assert read == []


def test_files_the_scan_cache_cannot_vouch_for_are_read_and_compared(
    notes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scan_cache, "FINE_RACY_WINDOW_NS", 60_000_000_000)  # all racy
    table = _table(notes)
    read = _reads(monkeypatch)
    assert not unchanged(notes, table)  # the skipped file: no hash to compare, no signature
    (notes / "broken.md").unlink()
    table = _table(notes)
    read.clear()
    assert unchanged(notes, table)
    assert len(read) == 6  # every memory file, read and hashed
    monkeypatch.setattr(vault_state, "MAX_READS", 3)
    assert not unchanged(notes, table)


def test_a_rewrite_with_the_same_bytes_is_unchanged(notes: Path, settled: None) -> None:
    table = _table(notes)
    path = notes / "sub" / "foreign.md"
    path.write_bytes(path.read_bytes())  # another mtime, the same text
    assert unchanged(notes, table)


@pytest.mark.parametrize("change", ["edit", "same size", "new", "new folder", "gone", "skipped"])
def test_any_change_is_seen(notes: Path, settled: None, change: str) -> None:
    table = _table(notes)
    foreign = notes / "sub" / "foreign.md"
    if change == "edit":
        foreign.write_text("# Foreign\n\nchanged\n")
    elif change == "same size":
        text = foreign.read_text()
        foreign.write_text(text.replace("another", "ANOTHER"))
        os.utime(foreign, ns=(foreign.stat().st_atime_ns, foreign.stat().st_mtime_ns))
    elif change == "new":
        (notes / "new.md").write_text("# New\n")
    elif change == "new folder":
        (notes / "deep" / "er").mkdir(parents=True)
        (notes / "deep" / "er" / "x.md").write_text("# X\n")
    elif change == "gone":
        foreign.unlink()
    else:
        (notes / "broken.md").write_text("# Fixed\n\nreadable now\n")
    assert not unchanged(notes, table)


def test_hidden_files_and_other_files_do_not_count(notes: Path, settled: None) -> None:
    table = _table(notes)
    (notes / ".obsidian").mkdir()
    (notes / ".obsidian" / "workspace.md").write_text("# not a memory\n")
    (notes / "picture.png").write_bytes(b"png")
    assert unchanged(notes, table)


def test_a_memory_without_a_file_hash_gives_no_table(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("One", "Body.")
    memory.disk_hash = None
    assert file_table(vault, [memory], [], None) is None
