"""The vault watcher follows each folder of the vault, not the tree below it: set up in a time
that grows with the folders, not the files, and set up again when folders come or go."""

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
    (vault / "notes").mkdir(parents=True)
    (vault / ".obsidian").mkdir()
    heard = Heard()
    watcher = VaultWatcher(vault, heard)
    watcher.start()
    yield vault, heard, watcher
    watcher.stop()


def test_the_watch_covers_each_memory_folder_and_no_file_walk(tmp_path: Path, monkeypatch):
    vault = tmp_path / "vault"
    for folder in ("a/b", "c", ".trash/old"):
        (vault / folder).mkdir(parents=True)
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
    root = vault.resolve()
    assert seen["recursive"] is False
    assert sorted(seen["paths"]) == sorted(str(root / f) for f in ("", "a", "a/b", "c"))


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
