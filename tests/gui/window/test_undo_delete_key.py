"""Ctrl+Z restores the last deleted memory, but a text field with typing to undo keeps it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

CTRL = Qt.KeyboardModifier.ControlModifier


def _shown(qtbot, window) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def _delete(qtbot, window, title: str) -> str:
    memory = next(m for m in window.list_model.memories() if m.title == title)
    with qtbot.waitSignal(window.session.trashed, timeout=5000):
        window.session.delete(memory.id)
    return memory.id


def test_ctrl_z_in_the_list_restores_the_last_delete(qtbot, window) -> None:
    _shown(qtbot, window)
    undo = window.actions_by_name["undo_delete"]
    assert not undo.isEnabled()  # nothing deleted yet
    memory_id = _delete(qtbot, window, "Rust lifetimes")
    assert undo.isEnabled() and undo.shortcut().matches(Qt.Key.Key_Z | CTRL)
    window.commands.focus_list()
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000) as restored:
        qtbot.keyClick(window.list_panel.view, Qt.Key.Key_Z, CTRL)
    assert restored.args[0].pairs() == [("created", memory_id)]
    assert not undo.isEnabled()


def test_a_text_field_keeps_ctrl_z_while_it_has_typing_to_undo(qtbot, window) -> None:
    _shown(qtbot, window)
    first = window.list_model.memories()[0]
    window.open_memory(first.id)
    title = window.editor.form.title_edit
    title.setFocus()
    qtbot.waitUntil(title.hasFocus)
    qtbot.keyClicks(title, "!")
    other = window.list_model.memories()[-1]
    memory_id = _delete(qtbot, window, other.title)
    qtbot.keyClick(title, Qt.Key.Key_Z, CTRL)  # undoes the typing …
    assert title.text() == first.title
    assert window.list_model.row_of(memory_id) < 0  # … not the delete
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000):
        qtbot.keyClick(title, Qt.Key.Key_Z, CTRL)  # nothing left to undo there: the delete
    qtbot.waitUntil(lambda: window.list_model.row_of(memory_id) >= 0)
    assert window.editor.current_id == memory_id  # the restored memory is opened
