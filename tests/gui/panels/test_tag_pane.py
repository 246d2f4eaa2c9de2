"""The Tags pane: counts per tag, nested tags, choosing one filters the list, kept current by
the bus, built after the scan, usable from the keyboard, in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from layout_check import layout_problems, settle
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication

from pixelmem.core.vault.memory import Memory
from pixelmem.gui import i18n
from pixelmem.gui.panels.registry import Stage
from pixelmem.gui.panels.tag_pane import PATH_ROLE, TagPane, has_tag, tag_path, tag_tree


def _memory(mid: str, *topics: str) -> Memory:
    return Memory(mid, f"Memory {mid}", topics=list(topics))


def test_nested_tags_count_toward_their_parents_once_per_memory() -> None:
    tree = tag_tree(
        [
            _memory("1", "garden/tomato", "garden/herbs"),
            _memory("2", "garden"),
            _memory("3", "garden/tomato/cherry"),
            _memory("4", "coffee"),
        ]
    )
    assert [(n.path, n.count) for n in tree] == [("garden", 3), ("coffee", 1)]
    garden = tree[0]
    assert [(n.path, n.count) for n in garden.children] == [
        ("garden/tomato", 2),
        ("garden/herbs", 1),
    ]
    assert [(n.name, n.count) for n in garden.children[0].children] == [("cherry", 1)]


def test_tags_differing_in_case_or_spelling_are_one() -> None:
    tree = tag_tree([_memory("1", "#Rust"), _memory("2", "rust/"), _memory("3", " rust // async ")])
    (rust,) = tree
    assert (rust.name, rust.count) == ("Rust", 3)  # as first written
    assert [(n.path, n.count) for n in rust.children] == [("Rust/async", 1)]  # as its parent
    assert tag_path("#a//b/ ") == "a/b" and tag_tree([_memory("1", "#", " ")]) == []


def test_a_tag_matches_itself_and_what_is_nested_below_it_only() -> None:
    memory = _memory("1", "Garden/Tomato")
    assert has_tag(memory, "garden") and has_tag(memory, "garden/tomato")
    assert not has_tag(memory, "gard") and not has_tag(memory, "garden/tomato/cherry")


def _pane(window) -> TagPane:
    return window.panels.widget("tags")


def _index(pane: TagPane, folded: str) -> QModelIndex:
    model, pending = pane.model, [QModelIndex()]
    while pending:
        parent = pending.pop()
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data(PATH_ROLE) == folded:
                return index
            pending.append(index)
    raise AssertionError(f"no row for {folded}")


def _shown_titles(window) -> list[str]:
    return sorted(m.title for m in window.list_panel.visible_memories())


@pytest.fixture
def shown_pane(qtbot, window) -> TagPane:
    """The window on screen with the Tags pane opened from its shortcut (Ctrl+6)."""
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    pane = _pane(window)
    with qtbot.waitSignal(pane.rows_shown, timeout=5000):
        window.actions_by_name["show_tags"].trigger()
    return pane


def test_it_is_built_after_the_scan_closed_and_opens_from_the_view_menu(qtbot, window) -> None:
    assert "tags" in [p.name for p in window.panels.of_stage(Stage.AFTER_SCAN)]
    qtbot.waitUntil(lambda: window.panels.is_built(Stage.AFTER_SCAN), timeout=5000)
    dock = window.panels.dock("tags")
    assert dock.objectName() == "tagsDock" and dock.isHidden()  # closed until asked for
    assert dock.toggleViewAction() in window.menus["view"].actions()
    go = window.actions_by_name["show_tags"]
    assert go in window.menus["view"].actions() and go.shortcut().toString() == "Ctrl+6"


def test_counts_and_nested_tags_are_shown(qtbot, window, shown_pane: TagPane) -> None:
    pane = shown_pane
    assert window.focusWidget() is pane.tree  # the shortcut put the keyboard there
    rows = {
        pane.model.index(r, 0).data(): pane.model.index(r, 1).data()
        for r in range(pane.model.rowCount())
    }
    assert rows == {
        "coffee": "1",
        "baking": "1",
        "rust": "1",
        "programming": "1",
        "garden": "1",
        "数据库": "1",
    }
    assert "1 memory tagged #coffee" in _index(pane, "coffee").data(Qt.ItemDataRole.ToolTipRole)


def test_choosing_a_tag_filters_the_list_and_choosing_it_again_shows_all(
    qtbot, window, shown_pane: TagPane
) -> None:
    pane, everything = shown_pane, _shown_titles(window)
    index = _index(pane, "coffee")
    qtbot.mouseClick(pane.tree.viewport(), Qt.MouseButton.LeftButton, pos=_centre(pane, index))
    assert _shown_titles(window) == ["Espresso ratio"]
    assert window.list_panel.count_label.text() == "1 of 5 memories"
    assert pane.caption.clear_button.isVisible() and "#coffee" in pane.caption.label.text()
    qtbot.mouseClick(pane.tree.viewport(), Qt.MouseButton.LeftButton, pos=_centre(pane, index))
    assert _shown_titles(window) == everything and not pane.caption.clear_button.isVisible()
    _double_click(qtbot, pane, index)
    assert _shown_titles(window) == ["Espresso ratio"]  # a double-click chooses, once
    pane.caption.clear_button.click()
    assert _shown_titles(window) == everything


def _centre(pane: TagPane, index: QModelIndex):
    return pane.tree.visualRect(index).center()


def _double_click(qtbot, pane: TagPane, index: QModelIndex) -> None:
    """As a mouse sends it: press, release, double-click, release."""
    viewport, left, at = pane.tree.viewport(), Qt.MouseButton.LeftButton, _centre(pane, index)
    qtbot.mousePress(viewport, left, pos=at)
    qtbot.mouseRelease(viewport, left, pos=at)
    qtbot.mouseDClick(viewport, left, pos=at)
    qtbot.mouseRelease(viewport, left, pos=at)


def test_the_keyboard_chooses_and_clears(qtbot, window, shown_pane: TagPane) -> None:
    pane, everything = shown_pane, _shown_titles(window)
    pane.tree.setCurrentIndex(_index(pane, "garden"))
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    assert _shown_titles(window) == ["Tomato garden"]
    qtbot.keyClick(pane.tree, Qt.Key.Key_Escape)
    assert _shown_titles(window) == everything and pane.chosen == ""


def test_a_parent_tag_shows_its_nested_ones_and_follows_each_change_set(
    qtbot, window, shown_pane: TagPane
) -> None:
    pane = shown_pane
    for title, tags in (("Basil", ["Garden/Herbs"]), ("Cherry tomatoes", ["garden/tomato"])):
        with qtbot.waitSignal(pane.rows_shown, timeout=5000):
            window.session.create(Memory("", title, "Grows well.", topics=tags))
    garden = _index(pane, "garden")
    assert pane.model.index(garden.row(), 1).data() == "3"
    assert {garden.model().index(r, 0, garden).data() for r in range(2)} == {"Herbs", "tomato"}
    pane.tree.setCurrentIndex(garden)
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    assert _shown_titles(window) == ["Basil", "Cherry tomatoes", "Tomato garden"]
    # The last memory with the chosen tag goes: the filter goes with it, not an empty list.
    pane.tree.setCurrentIndex(_index(pane, "garden/herbs"))
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    basil = next(m for m in window.list_model.memories() if m.title == "Basil")
    with qtbot.waitSignal(pane.rows_shown, timeout=5000):
        window.session.delete(basil.id)
    assert pane.chosen == "" and len(_shown_titles(window)) == 6


def test_closing_the_pane_shows_every_memory_again(qtbot, window, shown_pane: TagPane) -> None:
    pane = shown_pane
    pane.choose("rust")
    assert _shown_titles(window) == ["Rust lifetimes"]
    window.panels.dock("tags").close()
    assert len(_shown_titles(window)) == 5 and pane.chosen == ""


def test_a_hidden_pane_counts_when_it_is_shown_again(qtbot, window, shown_pane: TagPane) -> None:
    dock = window.panels.dock("tags")
    dock.hide()
    with qtbot.assertNotEmitted(shown_pane.rows_shown, wait=500):
        window.session.create(Memory("", "Cold brew", "Steep overnight.", topics=["coffee"]))
    with qtbot.waitSignal(shown_pane.rows_shown, timeout=5000):
        dock.show()
    assert shown_pane.model.index(_index(shown_pane, "coffee").row(), 1).data() == "2"


@pytest.fixture
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")


@pytest.mark.usefixtures("_english_afterwards")
@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(800, 600), (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_open_below_the_list_it_fits_small_windows(qtbot, window, language, size) -> None:
    i18n.install_translator(language)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    pane = _pane(window)
    with qtbot.waitSignal(pane.rows_shown, timeout=5000):
        window.panels.reveal("tags")
    pane.choose("garden")  # the caption and "Show all" as well
    settle(qtbot)
    assert (window.width(), window.height()) == size
    assert pane.tree.height() >= 3 * pane.tree.sizeHintForRow(0)  # rows a person can read
    tags = window.panels.dock("tags")
    if not window.tabifiedDockWidgets(tags):  # below the list (a tab of it in a short window)
        assert window.list_panel.view.height() > pane.tree.height()  # the list keeps most room
    assert layout_problems(window) == []


@pytest.mark.usefixtures("_english_afterwards")
def test_its_labels_follow_a_language_switch(qtbot, window, shown_pane: TagPane) -> None:
    shown_pane.choose("coffee")
    i18n.install_translator("zh_CN")
    qtbot.waitUntil(lambda: window.panels.dock("tags").windowTitle() == "标签")
    assert window.actions_by_name["show_tags"].text() == "标签(&T)"
    assert shown_pane.caption.label.text() == "正在显示 #coffee"
    assert shown_pane.caption.clear_button.text() == "显示全部"
    tip = _index(shown_pane, "coffee").data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "1 条记忆带有标签 #coffee"
    assert QApplication.focusWidget() is not None
