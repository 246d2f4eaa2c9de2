"""The vault's file rules live in one module; the one cross-process lock is filelock's."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path, PurePath

import pytest

from pixelmem.core.archive.backup import backup_sources
from pixelmem.core.files.process_lock import process_lock
from pixelmem.core.vault.signatures import vault_signatures
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_files import is_memory_relpath, iter_memory_entries, memory_folders


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "sub").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "a.md").write_text("# A\n", encoding="utf-8")
    (root / "sub" / "b.MARKDOWN").write_text("# B\n", encoding="utf-8")
    (root / ".hidden" / "c.md").write_text("# C\n", encoding="utf-8")
    (root / "notes.txt").write_text("not a memory", encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n", encoding="utf-8")
    os.symlink(outside, root / "link-out.md")
    os.symlink(root / "a.md", root / "sub" / "link-in.md")
    return root


def test_one_rule_for_which_files_are_memories(vault: Path) -> None:
    found = sorted(os.path.relpath(e.path, vault) for e in iter_memory_entries(str(vault), vault))
    assert found == ["a.md", os.path.join("sub", "b.MARKDOWN"), os.path.join("sub", "link-in.md")]
    assert sorted(vault_signatures(vault)) == sorted(str(vault / f) for f in found)
    assert len(MemoryStore(vault).scan().memories) == 3
    # (8 entries: the two folders' 7 and .pixelmem, the scan's; none below .hidden)
    assert memory_folders(vault) == ([str(vault), str(vault / "sub")], 8)
    assert is_memory_relpath(PurePath("x/y.md")) and not is_memory_relpath(PurePath(".x/y.md"))
    files, _skipped = backup_sources(vault)
    assert ".hidden/c.md" not in [rel for rel, _ in files]


def test_the_process_lock_excludes_another_thread(tmp_path: Path) -> None:
    order: list[str] = []
    inside = threading.Event()

    def other() -> None:
        inside.wait(5)
        with process_lock(tmp_path, "x.lock"):
            order.append("other")

    thread = threading.Thread(target=other)
    thread.start()
    with process_lock(tmp_path, "x.lock"):
        inside.set()
        time.sleep(0.1)
        order.append("first")
    thread.join(5)
    assert order == ["first", "other"]
