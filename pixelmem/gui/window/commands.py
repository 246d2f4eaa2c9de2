"""What the menus and shortcuts do (:mod:`~pixelmem.gui.window.menus` names these methods).

Each command is a few lines over the window's parts: the editor, the list, the session, the
panels. Dialogs are imported when first asked for (the settings dialog pulls in the embedder
factory and httpx: ~0.15 s a launch would pay otherwise).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from pixelmem import __version__
from pixelmem.core.errors import PixelmemError
from pixelmem.core.settings import Settings
from pixelmem.gui import i18n
from pixelmem.gui.session import describe_error

if TYPE_CHECKING:
    from pixelmem.gui.window.parts import WindowParts

IMPORT_FILTER = "Documents (*.md *.markdown *.txt *.pdf *.docx *.html *.htm);;All files (*)"


class WindowCommands(QObject):
    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.window())
        self._window = window

    # -- memories --------------------------------------------------------------------------

    def new_memory(self) -> None:
        self._window.views.editor.new_memory()

    def save_memory(self) -> None:
        self._window.views.editor.save()

    def delete_memory(self, memory_id: str | None = None) -> None:
        window = self._window
        editor = window.views.editor
        memory_id = memory_id or editor.current_id or window.list_panel.current_id()
        if memory_id and memory_id == editor.current_id:
            editor.delete_current()
        elif memory_id:
            window.session.delete(memory_id)

    def trash_protected(self, memory_id: str, message: str) -> None:
        """A read-only note was not trashed: ask, and trash it on a clear yes."""
        from pixelmem.gui.editor import prompts

        if prompts.ask_trash_protected(self._window.window(), message):
            self._window.session.delete(memory_id, force=True)

    def undo_delete(self) -> None:
        status = self._window.status
        if status.last_trashed is not None:
            status.undo_button.click()

    def reindex(self) -> None:
        self._window.session.request_reindex()

    # -- going places ----------------------------------------------------------------------

    def show_quick_switcher(self) -> None:
        self._window.quick_switcher.popup()

    def focus_list(self) -> None:
        window = self._window
        window.list_dock.show()
        window.list_dock.raise_()
        window.list_panel.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_editor(self) -> None:
        editor = self._window.views.editor
        if editor.is_open:
            editor.form.body_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_search(self) -> None:
        self._window.panels.reveal("search")

    def focus_chat(self) -> None:
        self._window.chat_focus.toggle()

    def quit(self) -> None:
        self._window.close()

    # -- files and vaults ------------------------------------------------------------------

    def import_files(self) -> None:
        parent = self._window.window()
        files, _ = QFileDialog.getOpenFileNames(parent, self.tr("Import files"), "", IMPORT_FILTER)
        if files:
            self._window.session.import_files(Path(f) for f in files)

    def import_chats(self) -> None:
        """A ChatGPT or Claude export, as conversations in the chat pane."""
        from pixelmem.gui.chat.chat_import import choose_and_import

        window = self._window
        chat = window.panels.widget("chat")
        choose_and_import(window.window(), window.engine.vault, window.bus, chat)

    def import_folder(self) -> None:
        """Import every file below a folder (an Obsidian vault, a notes folder…)."""
        folder = QFileDialog.getExistingDirectory(self._window.window(), self.tr("Import a folder"))
        if folder:
            self._window.session.import_files([Path(folder)])

    def choose_vault(self) -> None:
        window = self._window
        folder = QFileDialog.getExistingDirectory(
            window.window(), self.tr("Open vault folder"), str(window.engine.vault)
        )
        if folder:
            self.open_vault(Path(folder))

    def open_vault(self, folder: Path) -> None:
        """Switch the window to ``folder`` (after the open memory is saved or discarded)."""
        window = self._window
        if Path(folder) != window.engine.vault:
            window.views.editor.maybe_save(lambda: window.open_vault_requested.emit(str(folder)))

    def show_skipped(self) -> None:
        from pixelmem.gui.dialogs.skipped_dialog import SkippedDialog

        window = self._window
        SkippedDialog(window.engine.vault, window.session.store.skipped, window.window()).exec()

    def show_about(self) -> None:
        vault = self._window.engine.vault
        QMessageBox.about(
            self._window.window(),
            self.tr("About pixelmem"),
            self.tr(
                "<h3>pixelmem {version}</h3><p>Local-first knowledge memory: Markdown files in a "
                "folder you own, searched by meaning and by keyword, offline.</p>"
                "<p>Vault: {vault}</p>"
            ).format(version=__version__, vault=vault),
        )

    # -- settings --------------------------------------------------------------------------

    def show_settings(self) -> None:
        from pixelmem.gui.dialogs.settings_dialog import SettingsDialog

        window = self._window
        dialog = SettingsDialog(window.settings, str(window.engine.vault), window.window())
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        new = dialog.result_settings()
        if new is not None:
            self.apply_settings(new, base=dialog.settings)

    def use_multilingual_model(self) -> None:
        """The status bar's one-click switch: this vault's notes need the multilingual model."""
        new = copy.deepcopy(self._window.settings)
        new.embedding.provider = "local-multilingual"
        self._window.status.model_button.hide()
        self.apply_settings(new)

    def apply_settings(self, new: Settings, base: Settings | None = None) -> None:
        """Save what changed from ``base`` (the snapshot ``new`` was edited from; default the
        current settings), merged with the file; then use the result."""
        window = self._window
        base = base or window.settings
        switch = bool(new.vault) and Path(new.vault).expanduser() != window.engine.vault
        other_vault = new.vault
        try:
            new = new.save_changes(base)
        except (OSError, PixelmemError) as exc:
            window.bus.error_reported.emit(describe_error(exc))
        self.use_settings(new)
        if switch:
            window.views.editor.maybe_save(lambda: window.open_vault_requested.emit(other_vault))

    def use_settings(self, new: Settings) -> None:
        """Use new settings (saved here or by another process): re-index when the model or
        chunking changed, switch language. The vault is never switched from here; the views
        follow ``bus.settings_changed``."""
        window = self._window
        old, window.settings = window.settings, new
        if new.language != old.language:
            i18n.install_translator(new.language)  # re-labels through changeEvent
        window.session.reconfigure(new)
        window.bus.settings_changed.emit(new)
