"""The person's view choices survive a restart: list sort and filters, the editor's preview.

Kept in ``ui.ini`` (:func:`~pixelmem.gui.recent_vaults.ui_state`, beside the window layout),
written the moment a choice changes, so a crash loses nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pixelmem.gui.recent_vaults import ui_state

if TYPE_CHECKING:
    from pixelmem.gui.main_window import MainWindow

LIST_KEY = "list/{name}"
PREVIEW_KEY = "editor/preview"


def restore_view_state(window: MainWindow) -> None:
    """Apply the saved choices, then save each new one as it is made."""
    state = ui_state()
    panel, form = window.list_panel, window.editor.form
    saved = {
        name: str(state.value(LIST_KEY.format(name=name), "") or "") for name in panel.choices()
    }
    panel.restore_choices(saved)
    if str(state.value(PREVIEW_KEY, "false")).lower() == "true":
        form.show_preview(True)
    for combo in (panel.sort_combo, panel.topic_combo, panel.importance_combo, panel.date_combo):
        combo.activated.connect(lambda _index: _save_list(window))
    form.preview_button.clicked.connect(lambda checked: _save_preview(checked))
    form.preview_shortcut.activated.connect(lambda: _save_preview(form.preview_button.isChecked()))


def _save_list(window: MainWindow) -> None:
    state = ui_state()
    for name, value in window.list_panel.choices().items():
        state.setValue(LIST_KEY.format(name=name), value)


def _save_preview(on: bool) -> None:
    ui_state().setValue(PREVIEW_KEY, "true" if on else "false")
