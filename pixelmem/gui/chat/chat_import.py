"""File → Import Chats…: a ChatGPT or Claude export read into the vault's conversations on a
worker; the chat pane lists them, and the status bar says what came in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QFileDialog, QWidget

from pixelmem.core.assist.conversations import ConversationStore
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import write_lane

EXPORT_FILTER = "Chat exports (conversations.json *.json *.zip)"


def choose_and_import(window: QWidget, vault: Path, bus: Any, pane: Any) -> None:
    """Ask for the export, import it on the write lane, then tell the pane and the person."""
    path, _ = QFileDialog.getOpenFileName(
        window,
        QCoreApplication.translate("chat_import", "Import a ChatGPT or Claude export"),
        "",
        EXPORT_FILTER,
    )
    if path:
        import_in_background(Path(path), vault, bus, pane)


class ChatImportCounts(QObject):
    """The import's counts as plurals lupdate finds (``tr(text, "", n)`` only as a method)."""

    def imported(self, n: int) -> str:
        return self.tr("Imported %n conversations", "", n)

    def already(self, n: int) -> str:
        return self.tr("%n already there", "", n)


def import_in_background(path: Path, vault: Path, bus: Any, pane: Any) -> None:
    from pixelmem.core.assist.chat_exports import import_chat_export

    store = ConversationStore(vault)

    def done(result: Any) -> None:
        counts = ChatImportCounts()
        text = counts.imported(len(result.imported))
        if result.service:
            text += f" ({result.service})"
        if result.already:
            text += " · " + counts.already(result.already)
        bus.message_reported.emit(text)
        pane.reload_conversations()

    write_lane().submit(
        lambda: import_chat_export(path, store),
        done,
        lambda exc: bus.error_reported.emit(describe_error(exc)),
        context=pane,
    )
