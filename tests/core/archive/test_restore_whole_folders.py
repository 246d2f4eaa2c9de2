"""Restoring into a destination that lacks a top folder moves that folder in whole (one
no-replace rename), with the same files, modes and times as linking each file would give; a
folder made by someone else meanwhile is filled file by file, never replaced."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from pixelmem.core.archive import restore as restore_module
from pixelmem.core.archive.backup import create_backup, restore_backup
from pixelmem.core.archive.restore_staging import STAGING_PREFIX

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2"),
    pytest.mark.permissions,  # also run without CAP_DAC_OVERRIDE (dev.sh)
]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    for number in range(12):
        folder = vault / f"topic {number % 3}" / ("deeper" if number % 2 else "")
        folder.mkdir(parents=True, exist_ok=True)
        note = folder / f"note {number}.md"
        note.write_text(f"# Note {number}\n正文\n")
        os.utime(note, ns=(1_600_000_000_123_456_789 + number, 1_600_000_000_123_456_789 + number))
    (vault / "top.md").write_text("# at the top\n")
    (vault / "topic 0" / "note 0.md").chmod(0o600)  # private
    (vault / "topic 1" / "deeper" / "note 1.md").chmod(0o400)  # read-only
    return vault


def _files(root: Path) -> dict[str, tuple[bytes, int, int]]:
    return {
        p.relative_to(root).as_posix(): (
            p.read_bytes(),
            stat.S_IMODE(p.stat().st_mode),
            p.stat().st_mtime_ns,
        )
        for p in sorted(root.rglob("*.md"))
    }


def _count_links(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    linked: list[str] = []
    real = restore_module._link_no_clobber

    def link(staged: Path, target: Path, folder_fd: int) -> None:
        linked.append(target.name)
        real(staged, target, folder_fd)

    monkeypatch.setattr(restore_module, "_link_no_clobber", link)
    return linked


def test_new_folders_are_moved_in_whole_with_their_modes_and_times(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(vault, archive)
    linked = _count_links(monkeypatch)
    moved: list[str] = []
    real_move = restore_module.rename_no_replace

    def move(source: Path, folder_fd: int, name: str) -> bool:
        moved.append(name)
        return real_move(source, folder_fd, name)

    monkeypatch.setattr(restore_module, "rename_no_replace", move)
    dest = tmp_path / "dest"

    report = restore_backup(archive, dest)

    assert sorted(moved) == ["topic 0", "topic 1", "topic 2"]
    assert "top.md" in linked and not any(name.startswith("note") for name in linked)
    assert _files(dest) == _files(vault)
    assert len(report.restored) == 13
    expected_folder_mode = 0o777 & ~_umask()
    for folder in ["topic 0", "topic 1/deeper"]:
        assert stat.S_IMODE((dest / folder).stat().st_mode) == expected_folder_mode
    assert not list((dest / ".pixelmem").glob(STAGING_PREFIX + "*"))


def test_the_same_restore_file_by_file_gives_the_same_tree(vault: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(vault, archive)
    restore_backup(archive, tmp_path / "whole")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(restore_module, "rename_no_replace", lambda *args: False)
        restore_backup(archive, tmp_path / "by file")

    assert _files(tmp_path / "whole") == _files(tmp_path / "by file") == _files(vault)
    folders = {
        p.relative_to(tmp_path / "whole").as_posix(): stat.S_IMODE(p.stat().st_mode)
        for p in (tmp_path / "whole").rglob("*") if p.is_dir() and ".pixelmem" not in p.parts
    }  # fmt: skip
    assert folders == {
        p.relative_to(tmp_path / "by file").as_posix(): stat.S_IMODE(p.stat().st_mode)
        for p in (tmp_path / "by file").rglob("*") if p.is_dir() and ".pixelmem" not in p.parts
    }  # fmt: skip


def test_a_folder_made_by_someone_meanwhile_is_filled_not_replaced(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(vault, archive)
    dest = tmp_path / "dest"
    real_move = restore_module.rename_no_replace

    def someone_first(source: Path, folder_fd: int, name: str) -> bool:
        if name == "topic 1":
            (dest / name).mkdir()
            (dest / name / "theirs.md").write_text("theirs\n")
        return real_move(source, folder_fd, name)

    monkeypatch.setattr(restore_module, "rename_no_replace", someone_first)

    report = restore_backup(archive, dest)

    assert (dest / "topic 1" / "theirs.md").read_text() == "theirs\n"
    assert {k: v for k, v in _files(dest).items() if k != "topic 1/theirs.md"} == _files(vault)
    assert len(report.restored) == 13


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
