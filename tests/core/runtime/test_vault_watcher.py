"""The vault watcher follows each folder of the vault, not the tree below it, where the folders
are few against the files: set up in a time that grows with the folders, not the files, and
set up again when folders come or go. Many folders of few files: one watch of the tree."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from pixelmem.core.runtime import watcher as watcher_module
from pixelmem.core.runtime.watcher import VaultWatcher

NOTE = "---\ntitle: {title}\n---\nbody\n"


class Heard:
    def __init__(self) -> None:
        self.calls: list[tuple[list[Path], bool]] = []
        self._lock = threading.Lock()

    def __call__(self, paths: list[Path], rescan: bool) -> None:
        with self._lock:
            self.calls.append((list(paths), rescan))

    def files(self) -> set[str]:
        with self._lock:
            return {p.name for paths, _ in self.calls for p in paths}

    def rescans(self) -> int:
        with self._lock:
            return sum(rescan for _, rescan in self.calls)


def _wait(probe, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not probe():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


@pytest.fixture
def watched(tmp_path: Path):
    vault = tmp_path / "vault"
    _notes(vault / "notes", 200)  # enough files per folder for a watch per folder
    (vault / ".obsidian").mkdir()
    heard = Heard()
    watcher = VaultWatcher(vault, heard)
    watcher.start()
    yield vault, heard, watcher
    watcher.stop()


def _notes(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"note {i}.md").write_text(NOTE.format(title=f"Note {i}"))


def _watched_as(vault: Path, monkeypatch) -> tuple[tuple[str, ...], bool]:
    """(the paths watched, recursively?) when a watcher starts on ``vault``."""
    seen: dict = {}
    real_watch = watcher_module.watchfiles.watch

    def spy(*paths, **options):
        seen.setdefault("paths", paths)
        seen.setdefault("recursive", options.get("recursive", True))
        return real_watch(*paths, **options)

    monkeypatch.setattr(watcher_module.watchfiles, "watch", spy)
    watcher = VaultWatcher(vault, Heard())
    watcher.start()
    watcher.stop()
    return seen["paths"], seen["recursive"]


def test_a_vault_of_few_folders_is_watched_per_folder_with_no_file_walk(tmp_path, monkeypatch):
    vault = tmp_path / "vault"
    for folder in ("a/b", ".trash/old"):
        (vault / folder).mkdir(parents=True)
    _notes(vault / "c", 100)  # 4 folders, 103 entries
    paths, recursive = _watched_as(vault, monkeypatch)
    root = vault.resolve()
    assert recursive is False
    assert sorted(paths) == sorted(str(root / f) for f in ("", "a", "a/b", "c"))


def test_a_vault_of_many_folders_of_few_files_is_watched_as_a_tree(tmp_path, monkeypatch):
    vault = tmp_path / "vault"
    for i in range(30):
        _notes(vault / f"day {i}", 2)  # a folder per day: 31 folders, 90 entries
    paths, recursive = _watched_as(vault, monkeypatch)
    assert recursive is True
    assert paths == (str(vault.resolve()),)


def test_a_note_in_a_folder_made_after_the_start_is_followed(watched) -> None:
    vault, heard, _ = watched
    (vault / "projects" / "lighthouse").mkdir(parents=True)
    _wait(lambda: heard.rescans() >= 2)  # the folder came; the new watch's re-read
    (vault / "projects" / "lighthouse" / "keeper.md").write_text(NOTE.format(title="Keeper"))
    _wait(lambda: "keeper.md" in heard.files())  # by its own event, not a re-read


def test_a_folder_moved_in_is_followed_and_one_moved_out_is_not(watched, tmp_path) -> None:
    vault, heard, _ = watched
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "old.md").write_text(NOTE.format(title="Old"))
    (outside).rename(vault / "moved")
    _wait(lambda: heard.rescans() >= 2)
    (vault / "moved" / "old.md").write_text(NOTE.format(title="Old, edited"))
    _wait(lambda: "old.md" in heard.files())
    rescans = heard.rescans()
    (vault / "notes").rename(tmp_path / "gone")
    _wait(lambda: heard.rescans() > rescans)
    (tmp_path / "gone" / "later.md").write_text(NOTE.format(title="Later"))
    (vault / "moved" / "after.md").write_text(NOTE.format(title="After"))
    _wait(lambda: "after.md" in heard.files())
    assert "later.md" not in heard.files()
