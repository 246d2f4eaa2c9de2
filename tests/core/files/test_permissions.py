"""Private by default and respectful of the user's permissions (core/vault/permissions.py).

- ``.pixelmem/`` (every note's text lives there: caches, chats, inbox, trash) is 0700 and its
  files 0600, also one an older version left 0755/0644;
- a new note is no more readable than its folder lets others reach;
- a read-only note is never rewritten and is trashed only when forced (the check holds for
  root too: a file without any write bit is read-only on purpose);
- backup/restore keep each note's mode.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from fakes import HashEmbedder
from permission_probe import needs_permissions

from pixelmem.core.archive.backup import create_backup, restore_backup
from pixelmem.core.errors import NoteNotWritable
from pixelmem.core.index.engine import Engine
from pixelmem.core.paths import appdata_dir
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import MemoryWrites

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="POSIX permissions"),
    pytest.mark.permissions,  # also run without CAP_DAC_OVERRIDE (dev.sh)
]


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    """The common desktop umask (022), so "world-readable" is what a default would give."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _every_app_file(vault: Path) -> list[Path]:
    return [p for p in appdata_dir(vault).rglob("*") if not p.name.endswith(".lock")]


def test_app_data_is_private(vault: Path, open_umask) -> None:
    store = MemoryStore(vault)
    memory = store.create("Diary", "something private\n")
    engine = Engine(vault, Settings(), store=store, embedder=HashEmbedder())
    engine.open()
    MemoryWrites(store).delete(memory.id)
    appdata = appdata_dir(vault)
    assert _mode(appdata) == 0o700
    files = _every_app_file(vault)
    assert any(p.name.endswith(".md") for p in files)  # the trashed note
    assert len([p for p in files if p.is_file()]) >= 3  # scan cache, vector cache, trash…
    for path in files:
        if path.is_dir():
            assert _mode(path) == 0o700, path
        else:  # the trashed note keeps its own mode; everything unreachable anyway
            assert path.suffix == ".md" or _mode(path) == 0o600, path


def test_an_older_world_readable_app_folder_is_tightened(vault: Path, open_umask) -> None:
    appdata = appdata_dir(vault)
    appdata.mkdir(mode=0o755)
    cache = appdata / "scan-cache.msgpack.zst"
    cache.write_bytes(b"old")
    cache.chmod(0o644)
    MemoryStore(vault)
    assert _mode(appdata) == 0o700
    assert _mode(cache) == 0o600


def test_a_new_note_follows_its_folder(tmp_path: Path, open_umask) -> None:
    open_vault, private_vault = tmp_path / "open", tmp_path / "private"
    open_vault.mkdir(mode=0o755)
    private_vault.mkdir(mode=0o700)
    shared = MemoryStore(open_vault).create("Shopping list")
    secret = MemoryStore(private_vault).create("Diary")
    assert shared.path is not None and secret.path is not None
    assert _mode(shared.path) == 0o644
    assert _mode(secret.path) == 0o600


def test_a_save_keeps_the_notes_own_mode(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Diary", "one\n")
    assert memory.path is not None
    memory.path.chmod(0o600)
    store.scan()
    memory = store.get(memory.id)
    memory.body = "two\n"
    store.update(memory)
    assert _mode(memory.path) == 0o600


@pytest.mark.parametrize("mode", [0o444, 0o400])
def test_a_read_only_note_is_never_rewritten(vault: Path, mode: int) -> None:
    store = MemoryStore(vault)
    memory = store.create("Contract", "signed terms\n")
    assert memory.path is not None
    before = memory.path.read_bytes()
    memory.path.chmod(mode)
    store.scan()
    memory = store.get(memory.id)
    memory.body = "altered terms\n"
    for force in (False, True):  # not even a forced save (the conflict dialog's Overwrite)
        with pytest.raises(NoteNotWritable, match=r"is read-only, so it was not saved"):
            store.update(memory, force=force)
    assert memory.path.read_bytes() == before
    assert _mode(memory.path) == mode


def test_a_read_only_note_is_trashed_only_when_forced(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Contract", "signed terms\n")
    assert memory.path is not None
    memory.path.chmod(0o444)
    writes = MemoryWrites(store)
    with pytest.raises(NoteNotWritable, match="not moved to the trash"):
        writes.delete(memory.id)
    assert memory.path.is_file() and memory.id in {m.id for m in store.list()}
    record = writes.delete(memory.id, force=True).value
    assert not memory.path.exists() and record.trashed.is_file()
    assert _mode(record.trashed) == 0o444


def test_backup_and_restore_keep_modes(vault: Path, tmp_path: Path) -> None:
    store = MemoryStore(vault)
    modes = {"Diary": 0o600, "Contract": 0o444, "Shopping": 0o644}
    paths = {}
    for title, mode in modes.items():
        memory = store.create(title, f"{title} text\n")
        assert memory.path is not None
        memory.path.chmod(mode)
        paths[title] = memory.path.name
    archive = tmp_path / "backup.tar.gz"
    create_backup(vault, archive)
    assert _mode(archive) == 0o600  # it holds every note
    restored = tmp_path / "restored"
    restore_backup(archive, restored)
    for title, mode in modes.items():
        assert _mode(restored / paths[title]) == mode, title


@needs_permissions
def test_another_accounts_note_is_left_alone(vault: Path) -> None:
    store = MemoryStore(vault)
    memory = store.create("Shared minutes", "agreed\n")
    assert memory.path is not None
    try:
        os.chown(memory.path, 65534, 65534)  # as root without CAP_DAC_OVERRIDE (.ci/run)
    except PermissionError:
        pytest.skip("cannot give a file to another account here")
    before = memory.path.read_bytes()
    store.scan()
    memory = store.get(memory.id)
    memory.body = "changed\n"
    with pytest.raises(NoteNotWritable, match="is not writable by you"):
        store.update(memory)
    assert memory.path.read_bytes() == before and memory.path.stat().st_uid == 65534
