"""The Folders pane (issue 28): the vault's folders with counts, sub-folders nested, choosing
one filters the list, kept current by the bus, closed until asked for (Ctrl+7), usable from the
keyboard, in both languages and on small screens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from layout_check import layout_problems, settle
from PySide6.QtCore import QModelIndex, Qt

from pixelmem.core.index.engine import Engine
from pixelmem.core.vault.memory import Memory
from pixelmem.gui import i18n
from pixelmem.gui.panels.counted_tree import PATH_ROLE
from pixelmem.gui.panels.folder_tree import FolderTree, folder_tree, in_folder
from pixelmem.gui.panels.registry import Stage


def _memory(mid: str, rel: str, root: Path) -> Memory:
    return Memory(mid, f"Memory {mid}", path=root / rel)


def test_folders_count_their_sub_folders_and_the_top_is_in_none(tmp_path: Path) -> None:
    memories = [
        _memory("1", "Projects/Garden/plan.md", tmp_path),
        _memory("2", "Projects/house.md", tmp_path),
        _memory("3", "projects/garden/seeds.md", tmp_path),  # one folder, whatever the case
        _memory("4", "Daily/2024-01-06.md", tmp_path),
        _memory("5", "Home.md", tmp_path),
    ]
    tree = folder_tree(memories, tmp_path)
    assert [(n.path, n.count) for n in tree] == [("Projects", 3), ("Daily", 1)]
    assert [(n.path, n.count) for n in tree[0].children] == [("Projects/Garden", 2)]
    assert in_folder(memories[2], tmp_path, "projects") and not in_folder(
        memories[4], tmp_path, "projects"
    )
    assert not in_folder(memories[1], tmp_path, "projects/garden")


@pytest.fixture
def folders_window(qtbot, obsidian_syntax: Path, settings, embedder):
    window = _window(qtbot, obsidian_syntax, settings, embedder, (1200, 800))
    yield window
    window.session.shutdown()


def _window(qtbot, vault: Path, settings, embedder, size: tuple[int, int]):
    from pixelmem.gui.window.main_window import MainWindow

    window = MainWindow(Engine(vault, settings, embedder=embedder), settings)
    qtbot.addWidget(window)
    window._closing_ok = True
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.session.indexing_finished, timeout=10_000):
        window.start()
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=10_000)
    return window


def _pane(qtbot, window) -> FolderTree:
    pane = window.panels.widget("folders")
    if not pane.isVisible():
        with qtbot.waitSignal(pane.rows_shown, timeout=5000):
            window.actions_by_name["show_folders"].trigger()
    return pane


def _index(pane: FolderTree, folded: str) -> QModelIndex:
    model, pending = pane.model, [QModelIndex()]
    while pending:
        parent = pending.pop()
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data(PATH_ROLE) == folded:
                return index
            pending.append(index)
    raise AssertionError(f"no row for {folded}")


def _shown(window) -> list[str]:
    return sorted(m.title for m in window.list_panel.visible_memories())


def test_it_opens_from_the_view_menu_with_its_shortcut(qtbot, folders_window) -> None:
    window = folders_window
    dock = window.panels.dock("folders")
    assert dock.objectName() == "foldersDock" and dock.isHidden()
    go = window.actions_by_name["show_folders"]
    assert go in window.menus["view"].actions() and go.shortcut().toString() == "Ctrl+7"
    pane = _pane(qtbot, window)
    assert dock.isVisible() and window.focusWidget() is pane.tree
    rows = {pane.model.index(r, 0).data(): pane.model.index(r, 1).data() for r in range(4)}
    assert rows == {"中文": "2", "Linking": "2", "Formatting": "1", "Sync": "1"}


def test_choosing_a_folder_filters_the_list_by_mouse_and_keyboard(qtbot, folders_window) -> None:
    window = folders_window
    pane, everything = _pane(qtbot, window), _shown(window)
    index = _index(pane, "linking")
    qtbot.mouseClick(
        pane.tree.viewport(), Qt.MouseButton.LeftButton, pos=pane.tree.visualRect(index).center()
    )
    assert _shown(window) == ["Embed files", "Internal links"]
    assert "Linking" in pane.caption.label.text()
    qtbot.keyClick(pane.tree, Qt.Key.Key_Escape)
    assert _shown(window) == everything
    pane.tree.setCurrentIndex(_index(pane, "中文"))
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    assert _shown(window) == ["基本格式语法", "无头同步"]
    window.panels.dock("folders").close()
    assert _shown(window) == everything and pane.chosen == ""


def test_a_new_folder_shows_after_a_change_set(qtbot, folders_window, obsidian_syntax) -> None:
    window = folders_window
    pane = _pane(qtbot, window)
    (obsidian_syntax / "Daily").mkdir()
    with qtbot.waitSignal(pane.rows_shown, timeout=10_000):
        (obsidian_syntax / "Daily" / "2026-11-26.md").write_text("A day.\n")
    assert pane.model.index(_index(pane, "daily").row(), 1).data() == "1"


@pytest.fixture
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")


@pytest.mark.usefixtures("_english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(800, 600), (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_it_fits_small_windows_in_both_languages(
    qtbot, obsidian_syntax, settings, embedder, language, size
) -> None:
    i18n.install_translator(language)
    window = _window(qtbot, obsidian_syntax, settings, embedder, size)
    pane = _pane(qtbot, window)
    pane.choose("linking")
    settle(qtbot)
    assert (window.width(), window.height()) == size
    assert pane.tree.height() >= 3 * pane.tree.sizeHintForRow(0)
    assert layout_problems(window) == []
    if language == "zh_CN":
        assert window.panels.dock("folders").windowTitle() == "文件夹"
        assert pane.caption.label.text() == "正在显示文件夹 Linking"
    window.session.shutdown()
