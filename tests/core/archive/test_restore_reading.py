"""Reading an archive's small members in one read where their bytes start: a member cut short
(a .tar.gz whose compressed stream ends cleanly inside a file's data) is a damaged archive,
and nothing is restored."""

from __future__ import annotations

import gzip
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from pixelmem.core.archive.backup import BackupError, create_backup, restore_backup, verify_backup


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    for number in range(5):
        (vault / f"note {number}.md").write_text(f"# Note {number}\n" + "正文 " * 200)
    made = tmp_path / "b.tar.gz"
    create_backup(vault, made)
    return made


def test_every_small_member_reads_back_whole(archive: Path, tmp_path: Path) -> None:
    entries = verify_backup(archive)

    report = restore_backup(archive, tmp_path / "dest")

    assert sorted(report.restored) == sorted(entries) and len(entries) == 5
    assert (tmp_path / "dest" / "note 3.md").read_text() == "# Note 3\n" + "正文 " * 200


@pytest.mark.parametrize("check", [verify_backup, restore_backup])
def test_a_member_cut_short_is_a_damaged_archive(
    archive: Path, tmp_path: Path, check: Callable[..., object]
) -> None:
    with tarfile.open(archive, "r:gz") as tar:
        third = tar.getmembers()[2]
    data = gzip.decompress(archive.read_bytes())
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(gzip.compress(data[: third.offset_data + third.size // 2]))
    dest = tmp_path / "dest"

    with pytest.raises(BackupError, match=r"is damaged or not a .tar.gz backup \(unexpected end"):
        check(cut, dest) if check is restore_backup else check(cut)

    assert not dest.exists()
