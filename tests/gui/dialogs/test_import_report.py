"""The import report gives its reasons in the person's language (issue 28)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import MemoryWrites
from pixelmem.gui import i18n
from pixelmem.gui.dialogs.import_report import import_report


@pytest.fixture
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")


@pytest.mark.usefixtures("_english_afterwards")
def test_reasons_follow_the_language(qtbot, tmp_path: Path, vault: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "photo.png").write_bytes(b"png")
    (tmp_path / "note.md").write_text("A note.\n")
    writes = MemoryWrites(MemoryStore(vault))
    writes.import_files([tmp_path / "note.md"])
    result = writes.import_files(
        [tmp_path / "empty.txt", tmp_path / "photo.png", tmp_path / "note.md"]
    ).value
    i18n.install_translator("zh_CN")
    box = import_report(None, result)
    assert box is not None
    qtbot.addWidget(box)
    details = box.detailedText()
    assert "空文件" in details and "不是支持的文件类型" in details and "已存在" in details
    assert "empty file" not in details and "already there" not in details
    i18n.install_translator("en")
    english = import_report(None, result)
    assert english is not None
    qtbot.addWidget(english)
    assert "empty file" in english.detailedText()
