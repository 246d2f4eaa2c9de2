"""Any valid note name works: 84 CJK characters + ``.md`` is 255 bytes, the most a name holds.

Everything pixelmem derives from a name (the temp file of a save, ``name (2)`` in the trash,
``name (conflict …)``, a restore's temp file) is shortened to fit (core/vault/file_names.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pixelmem.core.archive.backup import create_backup, restore_backup
from pixelmem.core.files.file_names import NAME_MAX, fitted, temp_prefix, truncated
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import MemoryWrites

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)

LONGEST_CJK = "长" * 84 + ".md"  # 252 + 3 bytes
LONGEST_LATIN = "n" * 252 + ".md"


def _bytes(name: str) -> int:
    return len(os.fsencode(name))


def test_the_names_are_as_long_as_a_name_can_be() -> None:
    assert _bytes(LONGEST_CJK) == NAME_MAX == _bytes(LONGEST_LATIN)


def test_shortening_never_splits_a_character() -> None:
    assert truncated("长长长", 7) == "长长"
    assert fitted("长" * 84, " (2)", ".md").endswith("长 (2).md")
    assert _bytes(fitted("长" * 84, " (2)", ".md")) <= NAME_MAX
    assert _bytes(temp_prefix(LONGEST_CJK) + "abcdefgh.tmp") < 100


def _long_note(folder: Path, name: str, body: str = "text\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"---\ntitle: Long\n---\n{body}", "utf-8")
    return path


@pytest.mark.parametrize("name", [LONGEST_CJK, LONGEST_LATIN])
def test_a_note_with_the_longest_name_is_saved_trashed_and_copied(vault: Path, name: str) -> None:
    first = _long_note(vault / "a", name, "first\n")
    second = _long_note(vault / "b", name, "second\n")
    store = MemoryStore(vault)
    by_path = {m.path: m for m in store.scan().memories}
    memory = by_path[first]
    memory.body = "edited\n"
    saved = store.update(memory)
    assert first.read_text("utf-8").endswith("edited\n") and saved.path == first

    copy = store.save_conflict_copy(saved)
    assert copy.path is not None and copy.path.is_file() and _bytes(copy.path.name) <= NAME_MAX

    writes = MemoryWrites(store)
    one = writes.delete(by_path[first].id).value
    two = writes.delete(by_path[second].id).value  # the same name: the trash numbers it
    assert one.trashed.is_file() and two.trashed.is_file() and one.trashed != two.trashed
    assert _bytes(two.trashed.name) <= NAME_MAX
    restored = writes.restore(two).value
    assert restored.path == second and second.read_text("utf-8").endswith("second\n")


def test_backup_and_restore_round_trip_the_longest_names(vault: Path, tmp_path: Path) -> None:
    names = [LONGEST_CJK, LONGEST_LATIN, "短.md"]
    for name in names:
        _long_note(vault / "notes", name, f"{name[:3]}\n")
    archive = tmp_path / ("备份" * 20 + ".tar.gz")
    create_backup(vault, archive)
    target = tmp_path / "restored"
    report = restore_backup(archive, target)
    for name in names:
        assert (target / "notes" / name).read_bytes() == (vault / "notes" / name).read_bytes()
    assert len(report.restored) >= len(names)
