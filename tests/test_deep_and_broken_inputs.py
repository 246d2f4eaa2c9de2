"""Inputs that used to end in a traceback end in a clear message or just work (issue 18,
item 9): deeply nested manifests and settings, an impossible mtime, a vault 2,000 folders
deep, a disk that fills up during a backup."""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pixelmem.cli import main
from pixelmem.core.archive import backup as backup_module
from pixelmem.core.archive.backup import MANIFEST_NAME, BackupError, create_backup, restore_backup
from pixelmem.core.archive.importers import iter_importable
from pixelmem.core.settings import Settings
from pixelmem.core.vault.signatures import vault_signatures
from pixelmem.core.vault.store import MemoryStore

DEPTH = 2000
NESTED = ("[" * 100_000 + "]" * 100_000).encode()


def _archive(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _manifest(files: dict[str, bytes], mtime_ns: object = 0) -> bytes:
    entries = [
        {"path": p, "size": len(d), "sha256": hashlib.sha256(d).hexdigest(), "mtime_ns": mtime_ns}
        for p, d in files.items()
    ]
    return json.dumps({"format": "pixelmem-backup", "version": 1, "files": entries}).encode()


@pytest.mark.parametrize("where", ["whole", "entry"])
def test_a_deeply_nested_manifest_is_a_clear_error(tmp_path: Path, where: str) -> None:
    if where == "whole":
        manifest = NESTED
    else:
        head = b'{"format": "pixelmem-backup", "version": 1, "files": ['
        manifest = head + b'{"path": ' + NESTED + b"}]}"
    archive = _archive(tmp_path / "a.tar.gz", {MANIFEST_NAME: manifest})
    with pytest.raises(BackupError, match="nested too deeply"):
        restore_backup(archive, tmp_path / "dest")
    assert not (tmp_path / "dest").exists() or not any((tmp_path / "dest").iterdir())


def test_an_impossible_mtime_does_not_stop_a_restore(tmp_path: Path) -> None:
    files = {"a.md": b"# a\n", "b.md": b"# b\n"}
    members = {f"vault/{name}": data for name, data in files.items()}
    members[MANIFEST_NAME] = _manifest(files, mtime_ns=10**30)
    archive = _archive(tmp_path / "a.tar.gz", members)
    report = restore_backup(archive, tmp_path / "dest")
    assert sorted(report.restored) == ["a.md", "b.md"]
    assert (tmp_path / "dest" / "b.md").read_bytes() == b"# b\n"


@pytest.fixture
def deep_vault(vault: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(vault)  # relative mkdir keeps each call's path short
    for _ in range(DEPTH):
        os.mkdir("d")
        os.chdir("d")
    Path("deep.md").write_text("# deep\n")
    folder = Path(os.getcwd())
    os.chdir(vault)
    yield folder / "deep.md"
    for top in (vault, vault.parent / "restored"):
        _remove_chain(top)


def _remove_chain(top: Path) -> None:
    """Remove ``top/d/d/…`` bottom-up: shutil.rmtree (pytest's too) recurses and fails."""
    if not top.is_dir():
        return
    os.chdir(top)
    depth = 0
    while os.path.isdir("d"):
        os.chdir("d")
        depth += 1
    for name in os.listdir("."):
        os.unlink(name)
    for _ in range(depth):
        os.chdir("..")
        os.rmdir("d")


def test_a_vault_2000_folders_deep_works(
    vault: Path, deep_vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert [m.title for m in MemoryStore(vault).scan().memories] == ["deep"]
    assert str(deep_vault) in vault_signatures(vault)
    assert deep_vault in list(iter_importable([vault]))
    report = create_backup(vault, tmp_path / "deep.tar.gz")
    assert len(report.files) == 1
    restored = restore_backup(tmp_path / "deep.tar.gz", vault.parent / "restored")
    assert len(restored.restored) == 1


def test_a_full_disk_during_a_backup_is_a_clear_error(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (vault / "a.md").write_text("# a\n" * 1000)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backup_module.tarfile.TarFile, "addfile", full)
    archive = tmp_path / "out" / "b.tar.gz"
    archive.parent.mkdir()
    with pytest.raises(BackupError, match="No space left on device; no backup was written"):
        create_backup(vault, archive)
    assert list(archive.parent.iterdir()) == []


def test_a_deeply_nested_settings_file_falls_back_to_defaults(
    vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(os.environ["PIXELMEM_CONFIG_DIR"]) / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(NESTED)
    assert Settings.load(path) == Settings()
    (vault / "a.md").write_text("# a\n")
    assert main(["list", "--vault", str(vault)]) == 0
    assert "a" in capsys.readouterr().out
