"""A restore is all or nothing: a failure or an interruption part-way leaves the destination as
it was (files placed so far taken back, old versions back from the trash, no staging folder);
a restore killed outright leaves only complete files, and running it again finishes it."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pixelmem.core.archive import restore as restore_module
from pixelmem.core.archive.backup import BackupError, create_backup, restore_backup
from pixelmem.core.archive.restore_staging import STAGING_PREFIX

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)

NOTES = 40


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (the app's data included) with its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _folders(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir())


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    for number in range(NOTES):
        folder = vault / f"topic {number % 4}" / "deeper"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note {number}.md").write_text(f"# Note {number}\n正文 {number}\n")
    made = tmp_path / "b.tar.gz"
    create_backup(vault, made)
    return made


def _failing_after(
    monkeypatch: pytest.MonkeyPatch, step: str, calls: int, error: BaseException
) -> None:
    """The ``calls``-th placing step (and each after it) fails with ``error``: ``"link"``, a
    file linked in (every folder placed file by file, as where no folder can be moved in
    whole), or ``"move"``, a new folder moved in whole."""
    if step == "link":
        monkeypatch.setattr(restore_module, "rename_no_replace", lambda *args: False)
    name = {"link": "_link_no_clobber", "move": "rename_no_replace"}[step]
    real = getattr(restore_module, name)
    count = [0]

    def failing(*args: object) -> object:
        count[0] += 1
        if count[0] >= calls:
            raise error
        return real(*args)

    monkeypatch.setattr(restore_module, name, failing)


@pytest.mark.parametrize(
    ("step", "calls"),
    [("link", NOTES // 2), ("move", 3)],  # 19 files / 2 folders placed first
)
def test_a_full_disk_while_placing_takes_every_placed_file_back(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, calls: int
) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "mine.md").write_text("mine\n")
    _failing_after(monkeypatch, step, calls, OSError(errno.ENOSPC, "No space left on device"))

    with pytest.raises(BackupError) as caught:
        restore_backup(archive, dest)

    message = str(caught.value)
    assert "No space left on device" in message and "nothing was restored" in message
    assert _tree(dest) == {"mine.md": b"mine\n"}  # what had been placed: all taken back
    assert _folders(dest) == []  # the folders it made, its staging folder and .pixelmem too


@pytest.mark.parametrize(("step", "calls"), [("link", 7), ("move", 2)])
def test_ctrl_c_while_placing_leaves_a_new_destination_absent(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, calls: int
) -> None:
    dest = tmp_path / "new" / "dest"
    _failing_after(monkeypatch, step, calls, KeyboardInterrupt())

    with pytest.raises(KeyboardInterrupt):
        restore_backup(archive, dest)

    assert not (tmp_path / "new").exists()


def test_ctrl_c_while_reading_the_archive_changes_nothing(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "dest"
    (dest / ".pixelmem").mkdir(parents=True)
    (dest / "mine.md").write_text("mine\n")
    real = restore_module._stage_one
    count = [0]

    def stage_one(*args: object) -> tuple[str, Path]:
        count[0] += 1
        if count[0] == 10:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(restore_module, "_stage_one", stage_one)
    with pytest.raises(KeyboardInterrupt):
        restore_backup(archive, dest)

    assert _tree(dest) == {"mine.md": b"mine\n"}
    assert _folders(dest) == [".pixelmem"]  # it was there before: it stays, empty


def test_an_overwrite_that_fails_puts_the_old_versions_back(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "dest"
    restore_backup(archive, dest)
    changed = sorted(p for p in dest.rglob("*.md"))[:5]
    for path in changed:
        path.write_text("edited since the backup\n")
    (dest / "topic 0" / "deeper" / "note 0.md").unlink()  # one to restore, four to replace
    before = _tree(dest)
    _failing_after(monkeypatch, "link", 4, OSError(errno.EIO, "Input/output error"))

    with pytest.raises(BackupError, match="Input/output error"):
        restore_backup(archive, dest, overwrite=True)

    assert _tree(dest) == before  # the edited versions are back in place, none in the trash
    assert not list((dest / ".pixelmem").glob(STAGING_PREFIX + "*"))


def test_an_overwrite_replaces_and_keeps_the_old_versions_in_the_trash(
    archive: Path, tmp_path: Path
) -> None:
    dest = tmp_path / "dest"
    restore_backup(archive, dest)
    edited = dest / "topic 1" / "deeper" / "note 1.md"
    original = edited.read_bytes()
    edited.write_text("edited\n")

    report = restore_backup(archive, dest, overwrite=True)

    assert report.replaced == ["topic 1/deeper/note 1.md"] and report.trash is not None
    assert edited.read_bytes() == original
    assert (report.trash / "topic 1" / "deeper" / "note 1.md").read_text() == "edited\n"
    assert not list((dest / ".pixelmem").glob(STAGING_PREFIX + "*"))


KILLED_AT = """
import os, signal, sys
from pathlib import Path
from pixelmem.core.archive import restore
step, at = sys.argv[3], int(sys.argv[4])
if step == "link":
    restore.rename_no_replace = lambda *args: False  # file by file
name = {"link": "_link_no_clobber", "move": "rename_no_replace"}[step]
real = getattr(restore, name)
count = [0]
def killed(*args):
    count[0] += 1
    if count[0] == at:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*args)
setattr(restore, name, killed)
restore.restore_backup(Path(sys.argv[1]), Path(sys.argv[2]))
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
@pytest.mark.parametrize(
    ("step", "at", "placed_before"),
    [("link", 15, 14), ("move", 3, 20)],  # at the 15th link / the 3rd folder of 10 files
)
def test_a_killed_restore_leaves_complete_files_and_a_second_run_finishes_it(
    archive: Path, tmp_path: Path, step: str, at: int, placed_before: int
) -> None:
    source = tmp_path / "vault"
    dest = tmp_path / "dest"
    command = [sys.executable, "-c", KILLED_AT, str(archive), str(dest), step, str(at)]
    done = subprocess.run(command)
    assert done.returncode == -signal.SIGKILL

    placed = {k: v for k, v in _tree(dest).items() if not k.startswith(".pixelmem/")}
    assert len(placed) == placed_before
    assert all(data == (source / rel).read_bytes() for rel, data in placed.items())
    assert list((dest / ".pixelmem").glob(STAGING_PREFIX + "*"))  # left by the killed one

    report = restore_backup(archive, dest)

    assert len(report.restored) == NOTES - placed_before
    assert len(report.identical) == placed_before
    assert _tree(dest) == _tree(source)  # the abandoned staging folder is gone too


def test_a_backup_leaves_out_a_restore_on_its_way_in(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    staged = vault / ".pixelmem" / f"{STAGING_PREFIX}abc" / "0"
    staged.mkdir(parents=True)
    (staged / "0").write_text("a staged copy\n")
    (vault / "a.md").write_text("a\n")

    report = create_backup(vault, tmp_path / "b.tar.gz")

    assert [entry.path for entry in report.files] == ["a.md"]


def test_restoring_a_few_lost_notes_stages_only_those(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pixelmem.core.archive.restore_staging import Staging

    dest = tmp_path / "dest"
    restore_backup(archive, dest)
    lost = [dest / "topic 2" / "deeper" / "note 6.md", dest / "topic 3" / "deeper" / "note 7.md"]
    for path in lost:
        path.unlink()
    staged = [0]
    real = Staging.new_file

    def new_file(self: Staging, rel: str) -> tuple[int, Path]:
        staged[0] += 1
        return real(self, rel)

    monkeypatch.setattr(Staging, "new_file", new_file)
    report = restore_backup(archive, dest, keep_existing=True)

    assert staged[0] == 2
    assert report.restored == ["topic 2/deeper/note 6.md", "topic 3/deeper/note 7.md"]
    assert len(report.identical) == NOTES - 2
    assert all(path.read_text().startswith("# Note") for path in lost)


def test_a_file_removed_while_the_archive_is_read_stops_the_restore(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "dest"
    restore_backup(archive, dest)
    victim = dest / "topic 1" / "deeper" / "note 5.md"
    real = restore_module._planned

    def planned(*args: object) -> object:
        victim.unlink()  # someone deletes it after it was read as present (so not staged)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(restore_module, "_planned", planned)
    with pytest.raises(BackupError, match=r"removed while the restore read the archive"):
        restore_backup(archive, dest, keep_existing=True)

    assert not victim.exists()  # nothing was placed; a second run restores it
    monkeypatch.undo()
    assert restore_backup(archive, dest).restored == ["topic 1/deeper/note 5.md"]
    assert not list((dest / ".pixelmem").glob(STAGING_PREFIX + "*"))
