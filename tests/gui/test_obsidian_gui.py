"""Obsidian vault in the window: quick switcher, backlinks, following links by Ctrl+click and
in the preview, and the offer to update links after a rename."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.gui.editor import link_updates

FIXTURE = Path(__file__).parent.parent / "data" / "obsidian_vault"


@pytest.fixture
def obsidian_window(qtbot, tmp_path: Path, embedder, settings: Settings):
    from pixelmem.gui.window.main_window import MainWindow

    vault = tmp_path / "Obsidian"
    shutil.copytree(FIXTURE, vault)
    win = MainWindow(Engine(vault, settings, embedder=embedder), settings)
    qtbot.addWidget(win)
    win._closing_ok = True
    win.resize(1280, 800)
    win.show()
    with qtbot.waitSignal(win.session.indexing_finished, timeout=10_000):
        win.start()
    qtbot.waitUntil(lambda: win.link_index.graph is not None, timeout=5000)
    yield win
    win.session.shutdown()


def _id_of(window, title: str) -> str:
    return next(m.id for m in window.session.store.list() if m.title == title)


def _open(qtbot, window, title: str) -> str:
    memory_id = _id_of(window, title)
    window.open_memory(memory_id)
    qtbot.waitUntil(lambda: window.editor.current_id == memory_id)
    return memory_id


def test_quick_switcher_finds_by_alias_and_opens_with_the_keyboard(qtbot, obsidian_window) -> None:
    window = obsidian_window
    action = window.actions_by_name["quick_switch"]
    assert {k.toString() for k in action.shortcuts()} == {"Ctrl+P", "Ctrl+O"}
    assert window.actions_by_name["open_vault"].shortcut() == QKeySequence("Ctrl+Shift+O")
    switcher = window.quick_switcher
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        action.trigger()
    assert switcher.isVisible() and switcher.query_edit.hasFocus()
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        QTest.keyClicks(switcher.query_edit, "book")  # an alias of "Reading list"
    qtbot.waitUntil(lambda: switcher.chosen_ids()[:1] == [_id_of(window, "Reading list")])
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        switcher.query_edit.setText("cofbr")  # fuzzy: COFfee BRewing
    qtbot.waitUntil(lambda: switcher.chosen_ids()[:1] == [_id_of(window, "Coffee brewing")])
    QTest.keyClick(switcher.query_edit, Qt.Key.Key_Return)
    assert not switcher.isVisible()
    qtbot.waitUntil(lambda: window.editor.current_id == _id_of(window, "Coffee brewing"))


def test_quick_switcher_arrows_move_the_choice(qtbot, obsidian_window) -> None:
    switcher = obsidian_window.quick_switcher
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        switcher.popup()
    assert len(switcher.chosen_ids()) == 7  # every memory, most recent first
    QTest.keyClick(switcher.query_edit, Qt.Key.Key_Down)
    QTest.keyClick(switcher.query_edit, Qt.Key.Key_Down)
    assert switcher.list.currentRow() == 2
    second = switcher.chosen_ids()[2]
    QTest.keyClick(switcher.query_edit, Qt.Key.Key_Enter)
    qtbot.waitUntil(lambda: obsidian_window.editor.current_id == second)
    with qtbot.waitSignal(switcher.results_shown, timeout=5000):
        switcher.popup()
    QTest.keyClick(switcher.query_edit, Qt.Key.Key_Escape)
    assert not switcher.isVisible() and obsidian_window.editor.current_id == second


def test_backlinks_list_linked_and_unlinked_mentions(qtbot, obsidian_window) -> None:
    window = obsidian_window
    panel = window.backlinks_panel
    _open(qtbot, window, "Reading list")
    qtbot.waitUntil(lambda: panel.linked_item.childCount() == 2, timeout=5000)
    assert panel.linked_item.text(0) == "Linked mentions (2)"
    sources = [panel.linked_item.child(i).text(0) for i in range(2)]
    assert sources == ["2024-01-06", "Hugo post"]  # one row per linking memory
    assert panel.linked_item.child(0).child(0).text(0).startswith("Read a chapter from the")
    assert panel.unlinked_item.childCount() == 1
    assert panel.unlinked_item.child(0).text(0) == "Coffee brewing"
    line = panel.linked_item.child(0).child(0)
    panel.tree.itemClicked.emit(line, 0)
    qtbot.waitUntil(lambda: window.editor.current_id == _id_of(window, "2024-01-06"))
    body = window.editor.form.body_edit
    assert body.textCursor().selectedText() == "[[reading list]]"  # the mention is selected


def test_ctrl_click_on_a_link_in_the_editor_opens_it(qtbot, obsidian_window) -> None:
    window = obsidian_window
    _open(qtbot, window, "Reading list")
    body = window.editor.form.body_edit
    text = body.toPlainText()
    at = text.index("[[Coffee brewing#Ratios") + 5
    cursor = body.textCursor()
    cursor.setPosition(at)
    point = body.cursorRect(cursor).center()
    QTest.mouseClick(
        body.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point
    )
    assert window.editor.current_id == _id_of(window, "Reading list")  # a plain click edits
    QTest.mouseClick(
        body.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, point
    )
    qtbot.waitUntil(lambda: window.editor.current_id == _id_of(window, "Coffee brewing"))
    assert body.textCursor().selectedText() == "## Ratios"  # [[…#Ratios]] opens at the heading


def test_links_in_the_preview_open_and_a_missing_one_says_so(qtbot, obsidian_window) -> None:
    window = obsidian_window
    _open(qtbot, window, "Reading list")
    form = window.editor.form
    with qtbot.waitSignal(form.preview.rendered, timeout=5000):
        form.show_preview(True)
    markup = form.preview.toHtml()
    hrefs = re.findall(r'href="([^"]+)"', markup)
    assert any(h.startswith("pixelmem-link:") for h in hrefs)
    assert "![[diagram.png]]" not in form.preview.toPlainText()  # the embed is an image
    assert re.search(r'<img src="file:[^"]*/attachments/diagram.png"', markup)
    missing = next(h for h in hrefs if "Missing" in h)
    form.preview.anchorClicked.emit(QUrl(missing))
    assert "Missing note" in window.status.currentMessage() or window.editor.current_id
    garden = next(h for h in hrefs if "Garden" in h)
    form.preview.anchorClicked.emit(QUrl(garden))
    qtbot.waitUntil(lambda: window.editor.current_id == _id_of(window, "Garden plan"))
    assert form.preview_button.isChecked()  # read on in the preview, as in Obsidian


def test_renaming_offers_to_update_links_and_writes_them_in_one_change(
    qtbot, obsidian_window, monkeypatch
) -> None:
    window = obsidian_window
    asked: list[tuple[str, str, int]] = []

    def agree(_parent, old, new, updates) -> bool:
        asked.append((old, new, sum(u.count for u in updates)))
        return True

    monkeypatch.setattr(link_updates, "ask_update_links", agree)
    store = window.session.store
    target = store.create("Espresso", "shots\n")
    linking = store.create("Log", "Pulled [[espresso#Dose|a shot]] and [[Espresso]].\n")
    window.link_index.rebuild()
    window.open_memory(target.id)
    qtbot.waitUntil(lambda: window.editor.current_id == target.id)
    window.editor.form.title_edit.setText("Espresso basics")
    with qtbot.waitSignal(
        window.bus.memory_updated,
        timeout=5000,
        check_params_cb=lambda changes, _i: linking.id in changes.updated,
    ):
        window.commands.save_memory()
    assert asked == [("Espresso", "Espresso basics", 2)]
    renamed = store.get(target.id)  # named by its file in an Obsidian vault: a rename
    assert renamed.path is not None and renamed.path.name == "Espresso basics.md"
    assert "title:" not in renamed.path.read_text()
    assert store.get(linking.id).body == (
        "Pulled [[Espresso basics#Dose|a shot]] and [[Espresso basics]].\n"
    )


def test_import_a_folder_twice_names_every_skipped_file(
    qtbot, window, tmp_path: Path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    source = tmp_path / "Their vault"
    shutil.copytree(FIXTURE, source)
    (source / "letter.rtf").write_text("{\\rtf1 hi}", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_a, **_k: str(source))
    reports: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "open", lambda box: reports.append(box))
    with qtbot.waitSignal(window.session.imported, timeout=10_000) as first:
        window.actions_by_name["import_folder"].trigger()
    assert len(first.args[0].created) == 7  # every note, .obsidian/ aside
    assert first.args[0].skipped == ()  # attachments come along (links to them keep working)
    assert set(first.args[0].copied) == {
        "Their vault/attachments/diagram.png",
        "Their vault/letter.rtf",
    }
    with qtbot.waitSignal(window.session.imported, timeout=10_000) as second:
        window.actions_by_name["import_folder"].trigger()
    assert second.args[0].created == ()
    details = reports[-1].detailedText()
    assert details.count("already there") == 9 and "letter.rtf: already there" in details
    assert reports[-1].text().startswith("Imported 0 files.")
    titles = [m.title for m in window.session.store.list()]
    assert titles.count("Reading list") == 1


def test_a_saved_link_shows_up_in_the_backlinks(qtbot, obsidian_window) -> None:
    window = obsidian_window
    _open(qtbot, window, "Garden plan")
    body = window.editor.form.body_edit
    body.moveCursor(body.textCursor().MoveOperation.End)
    body.insertPlainText("\nSeeds from the [[Reading list]] shop.")
    with qtbot.waitSignal(window.link_index.changed, timeout=5000):
        window.commands.save_memory()
    _open(qtbot, window, "Reading list")
    panel = window.backlinks_panel

    def linked() -> list[str]:
        return [panel.linked_item.child(i).text(0) for i in range(panel.linked_item.childCount())]

    qtbot.waitUntil(lambda: "Garden plan" in linked(), timeout=5000)


def test_link_it_turns_an_unlinked_mention_into_a_link(qtbot, obsidian_window) -> None:
    window = obsidian_window
    panel = window.backlinks_panel
    _open(qtbot, window, "Reading list")
    qtbot.waitUntil(lambda: panel.unlinked_item.childCount() == 1, timeout=5000)
    line = panel.unlinked_item.child(0).child(0)
    mention = panel.unlinked_mention_at(line)
    assert mention is not None and panel.unlinked_mention_at(panel.unlinked_item.child(0)) is None
    coffee = _id_of(window, "Coffee brewing")
    with qtbot.waitSignal(
        window.bus.memory_updated,
        timeout=5000,
        check_params_cb=lambda changes, _i: changes.updated == (coffee,),
    ):
        panel.link_mention_requested.emit(mention)
    assert "My [[Reading list|reading list]] has" in window.session.store.get(coffee).body
    qtbot.waitUntil(lambda: panel.unlinked_item.childCount() == 0, timeout=5000)
    assert panel.linked_item.childCount() == 3
