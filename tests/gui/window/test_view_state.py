"""Sort, filters, preview mode and the window's size come back after a restart (ui.ini)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from pixelmem.gui.window.main_window import MainWindow


def _choose(combo: QComboBox, data: object) -> None:
    """What a person does: pick an entry (``activated`` is only emitted for the user's pick)."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_choices_and_layout_survive_a_restart(qtbot, window, engine, settings) -> None:
    panel = window.list_panel
    _choose(panel.sort_combo, "title")
    _choose(panel.topic_combo, "coffee")
    _choose(panel.importance_combo, "high")
    _choose(panel.date_combo, 30)
    window.open_memory(window.list_model.memories()[0].id)
    window.editor.form.preview_button.click()
    window.resize(760, 540)  # the offscreen screen is 800×600
    window.show()
    qtbot.waitExposed(window)
    assert [m.title for m in panel.visible_memories()] == ["Espresso ratio"]
    window.close()  # saves the layout (the fixture allows closing without a prompt)
    qtbot.waitUntil(lambda: not window.isVisible())

    again = MainWindow(engine, settings)
    qtbot.addWidget(again)
    try:
        restored = again.list_panel
        assert restored.sort_combo.currentData() == "title"
        assert restored.topic_combo.currentData() == "coffee"
        assert restored.importance_combo.currentData() == "high"
        assert restored.date_combo.currentData() == 30
        assert again.editor.form.preview_button.isChecked()
        assert (again.width(), again.height()) == (760, 540)
        with qtbot.waitSignal(again.session.memories_loaded, timeout=5000):
            again.start()
        assert [m.title for m in restored.visible_memories()] == ["Espresso ratio"]
    finally:
        again._closing_ok = True
        again.session.shutdown()


def test_a_preview_turned_off_stays_off(qtbot, window, engine, settings) -> None:
    form = window.editor.form
    window.open_memory(window.list_model.memories()[0].id)
    form.preview_button.click()
    form.preview_button.click()
    again = MainWindow(engine, settings)
    qtbot.addWidget(again)
    try:
        assert not again.editor.form.preview_button.isChecked()
    finally:
        again._closing_ok = True
        again.session.shutdown()
