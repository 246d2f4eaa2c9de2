"""The files pixelmem could not read, and why (they are never modified)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.vault.vault_scan import SkippedFile


class SkippedDialog(QDialog):
    def __init__(
        self, vault: Path, skipped: Sequence[SkippedFile], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.vault = vault
        self.setWindowTitle(self.tr("Skipped files"))
        self.resize(720, 380)
        intro = QLabel(
            self.tr(
                "%n files in the vault could not be read as memories. They are left "
                "untouched; fix them in another editor and pixelmem picks them up.",
                "",
                len(skipped),
            )
            if skipped
            else self.tr("Every Markdown file in the vault was read. Nothing was skipped.")
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(len(skipped), 2)
        self.table.setHorizontalHeaderLabels([self.tr("File"), self.tr("Reason")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, item in enumerate(skipped):
            self._add_row(row, item)
        self.table.setColumnWidth(0, 300)
        self.table.doubleClicked.connect(lambda index: self._reveal(index.row()))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.reveal_button = buttons.addButton(
            self.tr("Show in Folder"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.reveal_button.setEnabled(bool(skipped))
        self.reveal_button.clicked.connect(lambda: self._reveal(self.table.currentRow()))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

    def _add_row(self, row: int, item: SkippedFile) -> None:
        try:
            shown = str(item.path.relative_to(self.vault))
        except ValueError:
            shown = str(item.path)
        path_item = QTableWidgetItem(shown)
        path_item.setData(Qt.ItemDataRole.UserRole, str(item.path))
        path_item.setToolTip(str(item.path))
        self.table.setItem(row, 0, path_item)
        reason = QTableWidgetItem(item.reason)
        reason.setToolTip(item.reason)
        self.table.setItem(row, 1, reason)

    def _reveal(self, row: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            folder = Path(item.data(Qt.ItemDataRole.UserRole)).parent
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
