"""A folder the destination lacks goes into place whole (one rename that never replaces, from
the staging tree) instead of a link per file: the same files, modes, times and folders as a
restore file by file; a folder that appears meanwhile makes it fall back to linking, theirs
kept. Failures and kills part-way: tests/core/archive/test_restore_all_or_nothing.py."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pixelmem.core.archive import restore as restore_module
from pixelmem.core.archive.backup import create_backup, restore_backup
from pixelmem.core.archive.restore_staging import STAGING_PREFIX, Staging, can_rename_no_replace
from pixelmem.core.files.permissions import umask

pytestmark = [
    pytest.mark.permissions,
    pytest.mark.skipif(not can_rename_no_replace(), reason="no renameat2 here: links only"),
]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    for number in range(12):
        folder = root / f"topic {number % 3}" / "deeper"
        folder.mkdir(parents=True, exist_ok=True)
        note = folder / f"note {number}.md"
        note.write_text(f"# Note {number}\n")
        os.utime(note, ns=(1_600_000_000_123_456_789 + number, 1_600_000_000_123_456_789 + number))
    (root / "top.md").write_text("at the top\n")
    os.chmod(root / "topic 1" / "deeper" / "note 1.md", 0o600)
    inbox = root / ".pixelmem" / "inbox"
    inbox.mkdir(parents=True)
    (inbox / "draft.md").write_text("a draft\n")
    return root


@pytest.fixture
def archive(vault: Path, tmp_path: Path) -> Path:
    made = tmp_path / "b.tar.gz"
    create_backup(vault, made)
    return made


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    real = getattr(restore_module, name)
    calls = [0]

    def counted(*args: object) -> object:
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(restore_module, name, counted)
    return calls


def _files(root: Path) -> dict[str, tuple[bytes, int, int]]:
    return {
        p.relative_to(root).as_posix(): (
            p.read_bytes(), stat.S_IMODE(p.stat().st_mode), p.stat().st_mtime_ns
        )
        for p in sorted(root.rglob("*"))
        if p.is_file() and STAGING_PREFIX not in p.as_posix()
    }


def test_a_new_destination_gets_whole_folders_with_every_mode_and_time(
    vault: Path, archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = _counting(monkeypatch, "_link_no_clobber")
    renames = _counting(monkeypatch, "_rename_no_replace")
    dest = tmp_path / "new" / "dest"

    report = restore_backup(archive, dest)

    assert renames[0] == 4  # topic 0, 1, 2 and .pixelmem/inbox
    assert links[0] == 1  # top.md: its folder (the destination) is there
    assert len(report.restored) == 14
    assert _files(dest) == _files(vault)
    assert stat.S_IMODE((dest / ".pixelmem" / "inbox").stat().st_mode) == 0o700
    for folder in (dest / "topic 2", dest / "topic 2" / "deeper"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~umask()
    assert not list((dest / ".pixelmem").glob(STAGING_PREFIX + "*"))


def test_a_folder_partly_there_is_filled_file_by_file(
    vault: Path, archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "dest"
    kept = dest / "topic 0" / "deeper" / "note 0.md"
    kept.parent.mkdir(parents=True)
    kept.write_bytes((vault / "topic 0" / "deeper" / "note 0.md").read_bytes())
    (dest / "topic 0" / "mine.md").write_text("mine\n")
    links = _counting(monkeypatch, "_link_no_clobber")
    renames = _counting(monkeypatch, "_rename_no_replace")

    report = restore_backup(archive, dest)

    assert renames[0] == 3  # topic 1, 2 and .pixelmem/inbox; topic 0 is there
    assert links[0] == 1 + 3  # top.md, and topic 0's three missing notes
    assert report.identical == ["topic 0/deeper/note 0.md"]
    assert (dest / "topic 0" / "mine.md").read_text() == "mine\n"
    restored = {k: v for k, v in _files(dest).items() if k != "topic 0/mine.md"}
    assert {k: v[0] for k, v in restored.items()} == {k: v[0] for k, v in _files(vault).items()}


def test_a_folder_made_by_someone_else_meanwhile_is_filled_file_by_file_theirs_kept(
    vault: Path, archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "dest"
    theirs = dest / "topic 1" / "deeper" / "note 1.md"
    real_flush = restore_module.flush_to_disk

    def flush(*args: object) -> None:  # after the plan, before anything is placed
        theirs.parent.mkdir(parents=True)
        theirs.write_text("theirs\n")
        real_flush(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(restore_module, "flush_to_disk", flush)
    report = restore_backup(archive, dest)

    assert theirs.read_text() == "theirs\n"
    assert report.kept == ["topic 1/deeper/note 1.md"]
    assert len(report.restored) == 13
    assert (dest / "topic 1" / "deeper" / "note 4.md").read_text() == "# Note 4\n"


def test_a_name_the_staging_tree_cannot_hold_is_staged_numbered(tmp_path: Path) -> None:
    with Staging(tmp_path / "dest") as staging:
        fd, as_file = staging.new_file("a/b")
        os.close(fd)
        fd, under_file = staging.new_file("a/b/c")  # "a/b" is a file: no folder of that name
        os.close(fd)
        fd, again = staging.new_file("a/b")
        os.close(fd)

    assert as_file == staging.tree / "a" / "b"
    assert staging.tree not in under_file.parents and staging.tree not in again.parents
