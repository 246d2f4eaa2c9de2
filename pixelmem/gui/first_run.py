"""The first-run question: a new vault in the default folder, or a folder the user already has.

Asked once, when no vault was ever chosen (no ``--vault``, no ``$PIXELMEM_VAULT``, nothing in
the settings). Opening an existing folder (an Obsidian vault, a notes folder) never adds the
welcome memory to it: the user's files stay as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


@dataclass(frozen=True)
class VaultChoice:
    path: Path
    new: bool  # a new vault (gets the welcome memory) rather than an existing folder


class FirstRunDialog(QDialog):
    """Two choices, each showing the folder it means; ``choice`` is set when accepted."""

    def __init__(self, default_vault: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunDialog")
        self.setWindowTitle(self.tr("Welcome to pixelmem"))
        self.choice: VaultChoice | None = None
        self._new_path = default_vault
        intro = QLabel(
            self.tr(
                "pixelmem keeps your memories as Markdown files in a folder you own. "
                "Where should they live?"
            )
        )
        intro.setWordWrap(True)
        self.new_button = QPushButton(self.tr("Start a new vault here"))
        self.new_button.setObjectName("startNewVault")
        self.new_button.setDefault(True)
        self.change_button = QPushButton(self.tr("Change…"))
        self.path_label = QLabel()
        self.path_label.setObjectName("newVaultPath")
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self.tr("Open an existing folder…"))
        self.open_button.setObjectName("openExistingFolder")
        hint = QLabel(self.tr("Obsidian vaults and any folder of Markdown notes are welcome."))
        hint.setWordWrap(True)
        hint.setEnabled(False)  # the secondary text colour of every style
        new_row = QHBoxLayout()
        new_row.addWidget(self.new_button)
        new_row.addWidget(self.change_button)
        new_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addSpacing(8)
        layout.addLayout(new_row)
        layout.addWidget(self.path_label)
        layout.addSpacing(8)
        layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(hint)
        self.new_button.clicked.connect(self._start_new)
        self.change_button.clicked.connect(self._change_new)
        self.open_button.clicked.connect(self._open_existing)
        self._show_new_path()
        # Wrapped labels would otherwise squeeze the dialog to its buttons' width (CJK text).
        self.setMinimumWidth(self.fontMetrics().height() * 28)

    def _show_new_path(self) -> None:
        self.path_label.setText(str(self._new_path))
        self.path_label.setToolTip(str(self._new_path))

    def _start_new(self) -> None:
        self.choice = VaultChoice(self._new_path, new=True)
        self.accept()

    def _change_new(self) -> None:
        start = self._new_path.parent if self._new_path.parent.exists() else Path.home()
        folder = QFileDialog.getExistingDirectory(self, self.tr("New vault folder"), str(start))
        if folder:
            self._new_path = Path(folder)
            self._show_new_path()

    def _open_existing(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder"), str(Path.home()))
        if folder:
            self.choice = VaultChoice(Path(folder), new=False)
            self.accept()
