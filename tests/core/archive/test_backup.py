"""Backup and restore: byte-identical round trip, never overwriting, hostile archives refused."""

from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.archive.backup import (
    MANIFEST_NAME,
    BackupError,
    RestoreConflict,
    create_backup,
    restore_backup,
)

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def filled(vault: Path) -> Path:
    (vault / "notes" / "深い").mkdir(parents=True)
    (vault / "a.md").write_bytes(b"---\nid: a1\ntitle: A\n---\nbody\r\n")
    (vault / "notes" / "深い" / "メモ.md").write_text("# 中文标题\n内容\n", encoding="utf-8")
    (vault / "notes" / "image.png").write_bytes(bytes(range(256)) * 40)
    (vault / "empty.md").write_bytes(b"")
    app = vault / ".pixelmem"
    (app / "inbox").mkdir(parents=True)
    (app / "trash").mkdir()
    (app / "embeddings.msgpack.zst").write_bytes(os.urandom(3000))
    (app / "inbox" / "memory_draft.md").write_text("---\nid: d1\ntitle: D\n---\nx\n")
    (app / "trash" / "old.md").write_text("deleted\n")
    (app / "write.lock").write_bytes(b"")
    (vault / ".git").mkdir()
    (vault / ".git" / "HEAD").write_text("ref\n")
    (vault / ".DS_Store").write_bytes(b"\0")
    return vault


def test_round_trip_into_an_empty_folder_is_byte_identical(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    report = create_backup(filled, archive)
    target = tmp_path / "restored"

    restored = restore_backup(archive, target)

    expected = {
        k: v
        for k, v in _files(filled).items()
        if not k.startswith((".git/", ".pixelmem/trash/"))
        and k
        not in {
            ".DS_Store",
            ".pixelmem/write.lock",
        }
    }
    assert _files(target) == expected
    assert sorted(restored.restored) == sorted(expected)
    assert len(report.files) == len(expected)
    for rel in expected:  # modification times come back too
        assert (target / rel).stat().st_mtime_ns == (filled / rel).stat().st_mtime_ns


def test_manifest_lists_version_and_checksums(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        manifest = json.loads(tar.extractfile(MANIFEST_NAME).read())  # type: ignore[union-attr]
    assert names[-1] == MANIFEST_NAME
    assert manifest["format"] == "pixelmem-backup" and manifest["version"] == 1
    entry = next(f for f in manifest["files"] if f["path"] == "a.md")
    import hashlib

    assert entry["sha256"] == hashlib.sha256((filled / "a.md").read_bytes()).hexdigest()


def test_trash_only_on_request(filled: Path, tmp_path: Path) -> None:
    create_backup(filled, tmp_path / "t.tar.gz", include_trash=True)
    restore_backup(tmp_path / "t.tar.gz", tmp_path / "r")
    assert (tmp_path / "r" / ".pixelmem" / "trash" / "old.md").read_text() == "deleted\n"


def test_backup_skips_symlinks_and_never_replaces_an_archive(filled: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("not in the vault\n")
    (filled / "link.md").symlink_to(outside)
    (filled / "linkdir").symlink_to(tmp_path)
    archive = tmp_path / "b.tar.gz"
    report = create_backup(filled, archive)
    assert ("link.md", "symbolic link (not followed)") in report.skipped
    assert any(rel == "linkdir" for rel, _ in report.skipped)
    with tarfile.open(archive) as tar:
        assert not any("secret" in n or "link" in n for n in tar.getnames())

    before = archive.read_bytes()
    with pytest.raises(BackupError, match="already exists"):
        create_backup(filled, archive)
    assert archive.read_bytes() == before


def test_an_archive_inside_the_vault_does_not_contain_itself(filled: Path) -> None:
    archive = filled / "backups.tar.gz"
    create_backup(filled, archive)
    with tarfile.open(archive) as tar:
        assert "vault/backups.tar.gz" not in tar.getnames()
    assert not [p for p in filled.iterdir() if p.name.startswith(".backups.tar.gz")]


# ---------------------------------------------------------------- restoring over files


def test_restore_refuses_to_touch_differing_files(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    (filled / "a.md").write_text("edited after the backup\n")
    (filled / "notes" / "image.png").unlink()  # missing: would be restored, but all or nothing

    with pytest.raises(RestoreConflict) as caught:
        restore_backup(archive, filled)

    assert caught.value.conflicts == ["a.md"]
    assert "a.md" in str(caught.value) and "--keep-existing" in str(caught.value)
    assert (filled / "a.md").read_text() == "edited after the backup\n"
    assert not (filled / "notes" / "image.png").exists()


def test_keep_existing_restores_only_what_is_missing(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    (filled / "a.md").write_text("edited\n")
    (filled / "notes" / "image.png").unlink()

    report = restore_backup(archive, filled, keep_existing=True)

    assert report.restored == ["notes/image.png"]
    assert report.kept == ["a.md"]
    assert (filled / "a.md").read_text() == "edited\n"
    assert (filled / "notes" / "image.png").read_bytes() == bytes(range(256)) * 40


def test_overwrite_moves_the_current_version_to_the_trash(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    original = (filled / "a.md").read_bytes()
    create_backup(filled, archive)
    (filled / "a.md").write_text("edited\n")

    report = restore_backup(archive, filled, overwrite=True)

    assert (filled / "a.md").read_bytes() == original
    assert report.replaced == ["a.md"] and report.trash is not None
    assert (report.trash / "a.md").read_text() == "edited\n"


def test_a_differing_cache_does_not_block_a_restore(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    cache = filled / ".pixelmem" / "embeddings.msgpack.zst"
    cache.write_bytes(b"newer cache")

    report = restore_backup(archive, filled)

    assert report.kept == [".pixelmem/embeddings.msgpack.zst"]
    assert cache.read_bytes() == b"newer cache"


def test_restore_twice_is_a_no_op(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    first = restore_backup(archive, tmp_path / "r")
    second = restore_backup(archive, tmp_path / "r")
    assert second.restored == [] and sorted(second.identical) == sorted(first.restored)


# ---------------------------------------------------------------- hostile or damaged archives


def _archive(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _file(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def _manifest(files: dict[str, bytes]) -> tuple[tarfile.TarInfo, bytes]:
    import hashlib

    entries = [
        {"path": p, "size": len(d), "sha256": hashlib.sha256(d).hexdigest(), "mtime_ns": 0}
        for p, d in files.items()
    ]
    data = json.dumps({"format": "pixelmem-backup", "version": 1, "files": entries}).encode()
    return _file(MANIFEST_NAME, data)


def _link(name: str, target: str, kind: bytes) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def _device(name: str) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = tarfile.CHRTYPE
    info.devmajor, info.devminor = 1, 3
    return info, None


HOSTILE = {
    "absolute": [_file("/tmp/pixelmem-evil.md", b"x")],
    "dotdot": [_file("vault/../../pixelmem-evil.md", b"x")],
    "outside the vault folder": [_file("evil.md", b"x")],
    "symlink": [_link("vault/passwd.md", "/etc/passwd", tarfile.SYMTYPE)],
    "hardlink": [_link("vault/passwd.md", "/etc/passwd", tarfile.LNKTYPE)],
    "device": [_device("vault/null.md")],
    "duplicate": [_file("vault/a.md", b"one"), _file("vault/a.md", b"two")],
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_members_are_refused_before_anything_is_written(case: str, tmp_path: Path) -> None:
    members = [_file("vault/ok.md", b"fine\n"), *HOSTILE[case]]
    files = {"ok.md": b"fine\n", "a.md": b"one"}
    archive = _archive(tmp_path / "evil.tar.gz", [*members, _manifest(files)])
    dest = tmp_path / "dest"

    with pytest.raises(BackupError, match=r"unsafe or malformed|nothing was restored"):
        restore_backup(archive, dest)

    assert not dest.exists() or _files(dest) == {}
    assert not (tmp_path / "pixelmem-evil.md").exists()
    assert not Path("/tmp/pixelmem-evil.md").exists()


def test_a_tampered_file_fails_its_checksum(tmp_path: Path) -> None:
    archive = _archive(
        tmp_path / "t.tar.gz",
        [_file("vault/a.md", b"tampered"), _manifest({"a.md": b"original"})],
    )
    with pytest.raises(BackupError, match="checksum mismatch"):
        restore_backup(archive, tmp_path / "dest")
    assert not (tmp_path / "dest" / "a.md").exists()


def test_a_file_missing_from_the_archive_is_reported(tmp_path: Path) -> None:
    archive = _archive(tmp_path / "t.tar.gz", [_manifest({"a.md": b"x"})])
    with pytest.raises(BackupError, match=r"a\.md: missing"):
        restore_backup(archive, tmp_path / "dest")


def test_not_a_backup_and_damaged_archives(filled: Path, tmp_path: Path) -> None:
    plain = _archive(tmp_path / "plain.tar.gz", [_file("vault/a.md", b"x")])
    with pytest.raises(BackupError, match="not a pixelmem backup"):
        restore_backup(plain, tmp_path / "d1")

    good = tmp_path / "good.tar.gz"
    create_backup(filled, good)
    truncated = tmp_path / "truncated.tar.gz"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(BackupError, match=r"damaged|not a"):
        restore_backup(truncated, tmp_path / "d2")
    assert not (tmp_path / "d2").exists()

    garbage = tmp_path / "garbage.tar.gz"
    garbage.write_bytes(b"this is not gzip")
    with pytest.raises(BackupError):
        restore_backup(garbage, tmp_path / "d3")


def test_restore_never_writes_through_a_symlinked_folder(filled: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    dest = tmp_path / "dest"
    dest.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (dest / "notes").symlink_to(elsewhere)
    with pytest.raises(BackupError, match="outside"):
        restore_backup(archive, dest)
    assert list(elsewhere.iterdir()) == []


# ---------------------------------------------------------------- command line


def test_cli_backup_and_restore(
    filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "cli.tar.gz"
    assert main(["backup", str(archive), "--vault", str(filled)]) == 0
    out, err = capsys.readouterr()
    assert "backed up" in out and "backing up" in err  # progress goes to stderr

    dest = tmp_path / "cli-restored"
    assert main(["restore", str(archive), "--to", str(dest)]) == 0
    out, err = capsys.readouterr()
    assert "restored" in out and "verifying" in err
    assert (dest / "a.md").read_bytes() == (filled / "a.md").read_bytes()

    (dest / "a.md").write_text("mine\n")
    assert main(["restore", str(archive), "--to", str(dest)]) == 1
    out, err = capsys.readouterr()
    assert "a.md" in err and "nothing was restored" in err
    assert (dest / "a.md").read_text() == "mine\n"

    assert main(["restore", str(archive), "--to", str(dest), "--dry-run", "--overwrite"]) == 0
    assert (dest / "a.md").read_text() == "mine\n"


def test_a_restore_into_the_vault_is_one_change_set(filled: Path, tmp_path: Path) -> None:
    from pixelmem.core.vault.store import MemoryStore
    from pixelmem.core.writes import MemoryWrites

    archive = tmp_path / "b.tar.gz"
    create_backup(filled, archive)
    store = MemoryStore(filled)
    gone = [m for m in store.scan().memories if m.path and m.path.name == "a.md"]
    gone[0].path.unlink()
    store.scan()

    written = MemoryWrites(store).restore_backup(archive, keep_existing=True)

    assert "a.md" in written.value.restored
    assert written.changes.created == (gone[0].id,)  # the memory is back, announced once
    assert store.get(gone[0].id).path == filled / "a.md"


def test_a_full_disk_while_restoring_is_named_as_such(tmp_path, monkeypatch) -> None:
    import errno
    import os

    from pixelmem.core.archive import restore as restore_module
    from pixelmem.core.archive.backup import BackupError, create_backup, restore_backup
    from pixelmem.core.vault.store import MemoryStore

    vault = tmp_path / "vault"
    MemoryStore(vault).create("Kept", "text")
    archive = tmp_path / "b.tar.gz"
    create_backup(vault, archive)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(restore_module.os, "fsync", full)
    with pytest.raises(BackupError) as caught:
        restore_backup(archive, tmp_path / "elsewhere")
    message = str(caught.value)
    assert "cannot write" in message and "No space left on device" in message
    assert "b.tar.gz" not in message  # the archive is not blamed


def test_obsidian_settings_plugins_and_themes_are_backed_up(
    obsidian_syntax: Path, tmp_path: Path
) -> None:
    """``.obsidian/`` (hotkeys, plugins, themes) is part of the vault: a restored vault opens in
    Obsidian as it was (issue 28)."""
    (obsidian_syntax / ".obsidian" / "plugins" / "word-count" / ".hotreload").write_text("")
    archive = tmp_path / "vault.tar.gz"
    create_backup(obsidian_syntax, archive)
    target = tmp_path / "restored"
    restore_backup(archive, target)
    expected = {k: v for k, v in _files(obsidian_syntax).items() if not k.startswith(".pixelmem/")}
    restored = {k: v for k, v in _files(target).items() if not k.startswith(".pixelmem/")}
    assert restored == expected
    assert ".obsidian/hotkeys.json" in restored
    assert ".obsidian/plugins/word-count/.hotreload" in restored
    assert "Canvas/My canvas.canvas" in restored and "Bases/Books.base" in restored
