"""Planning a restore looks at the destination once per folder it lacks, not once per file:
a file in a folder that is not there is free without an lstat of its own."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pixelmem.core.archive import restore as restore_module
from pixelmem.core.archive.backup import create_backup, restore_backup


def _counting_lexists(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    looked: list[str] = []
    real = os.path.lexists

    def lexists(path: os.PathLike[str] | str) -> bool:
        looked.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os.path, "lexists", lexists)
    return looked


def test_a_file_in_a_missing_folder_is_free_without_a_look(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "dest"
    (dest / "there").mkdir(parents=True)
    (dest / "there" / "taken.md").write_text("taken\n")
    absent = restore_module._Absent(dest)
    looked = _counting_lexists(monkeypatch)

    assert absent("gone/deeper/a.md") and absent("gone/deeper/b.md") and absent("gone/c.md")
    assert looked == [str(dest / "gone")]  # once, for the outermost missing folder
    assert not absent("there/taken.md") and absent("there/free.md") and absent("top.md")


def test_a_folder_two_thousand_deep_needs_no_recursion(tmp_path: Path) -> None:
    deep = "/".join(["d"] * 2000)
    assert restore_module._Absent(tmp_path)(deep + "/note.md")


def test_a_restore_into_a_new_folder_looks_once_per_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = tmp_path / "vault"
    for number in range(30):
        folder = vault / f"topic {number % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note {number}.md").write_text(f"note {number}\n")
    create_backup(vault, tmp_path / "b.tar.gz")
    dest = tmp_path / "dest"
    looked = _counting_lexists(monkeypatch)

    report = restore_backup(tmp_path / "b.tar.gz", dest)

    assert len(report.restored) == 30
    notes = [path for path in looked if path.endswith(".md")]
    assert notes == []  # none looked at one by one: their folders were not there
