"""The person's view choices survive a restart: list sort and filters, the editor's preview.

Kept in ``ui.ini`` (:func:`~pixelmem.gui.window.recent_vaults.ui_state`, beside the window layout),
written the moment a choice changes, so a crash loses nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pixelmem.gui.window.recent_vaults import ui_state

if TYPE_CHECKING:
    from pixelmem.gui.editor.editor_form import EditorForm
    from pixelmem.gui.memory_list.memory_list import MemoryListPanel

LIST_KEY = "list/{name}"
PREVIEW_KEY = "editor/preview"


def restore_list_state(panel: MemoryListPanel) -> None:
    """Apply the saved list choices, then save each new one as it is made."""
    state = ui_state()
    saved = {
        name: str(state.value(LIST_KEY.format(name=name), "") or "") for name in panel.choices()
    }
    panel.restore_choices(saved)
    for combo in (panel.sort_combo, panel.topic_combo, panel.importance_combo, panel.date_combo):
        combo.activated.connect(lambda _index: _save_list(panel))


def restore_editor_state(form: EditorForm) -> None:
    """Apply the saved preview choice to the editor (built after the list), then save it as
    it changes."""
    if str(ui_state().value(PREVIEW_KEY, "false")).lower() == "true":
        form.show_preview(True)
    form.preview_button.clicked.connect(lambda checked: _save_preview(checked))
    form.preview_shortcut.activated.connect(lambda: _save_preview(form.preview_button.isChecked()))


def _save_list(panel: MemoryListPanel) -> None:
    state = ui_state()
    for name, value in panel.choices().items():
        state.setValue(LIST_KEY.format(name=name), value)


def _save_preview(on: bool) -> None:
    ui_state().setValue(PREVIEW_KEY, "true" if on else "false")
