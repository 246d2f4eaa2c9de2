"""The first-run question: a new vault in the default folder, or a folder the user already has;
then, optionally, a chat model (:mod:`pixelmem.gui.dialogs.first_run_chat`).

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

from pixelmem.core.providers.chat_setup import ChatChoice
from pixelmem.core.providers.servers import OLLAMA_BASE_URL
from pixelmem.gui.dialogs.first_run_chat import ChatStep


@dataclass(frozen=True)
class VaultChoice:
    path: Path
    new: bool  # a new vault (gets the welcome memory) rather than an existing folder


class FirstRunDialog(QDialog):
    """Two choices, each showing the folder it means, then the optional chat step; ``choice``
    (the vault) is set when accepted, ``chat`` too if a chat model was picked."""

    def __init__(
        self,
        default_vault: Path,
        parent: QWidget | None = None,
        *,
        ask_chat: bool = True,
        ollama_url: str = OLLAMA_BASE_URL,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunDialog")
        self.setWindowTitle(self.tr("Welcome to pixelmem"))
        self.choice: VaultChoice | None = None
        self.chat: ChatChoice | None = None
        self._new_path = default_vault
        self._ask_chat = ask_chat  # False: a chat model is set already (`pixelmem config`)
        self.vault_page = vault_page = QWidget()
        self.chat_step = ChatStep(ollama_url)
        self.chat_step.finished.connect(self._chat_chosen)
        pages = QVBoxLayout(self)  # one page shown at a time, the window sized to it
        pages.addWidget(vault_page)
        pages.addWidget(self.chat_step)
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
        layout = QVBoxLayout(vault_page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(intro)
        layout.addSpacing(8)
        layout.addLayout(new_row)
        layout.addWidget(self.path_label)
        layout.addSpacing(8)
        layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(hint)
        layout.addStretch(1)
        self.new_button.clicked.connect(self._start_new)
        self.change_button.clicked.connect(self._change_new)
        self.open_button.clicked.connect(self._open_existing)
        self._show_new_path()
        self._show_page(vault_page)
        # Wrapped labels would otherwise squeeze the dialog to its buttons' width (CJK text).
        self.setMinimumWidth(self.fontMetrics().height() * 28)

    def _show_new_path(self) -> None:
        self.path_label.setText(str(self._new_path))
        self.path_label.setToolTip(str(self._new_path))

    def _start_new(self) -> None:
        self._vault_chosen(VaultChoice(self._new_path, new=True))

    def _vault_chosen(self, choice: VaultChoice) -> None:
        """On to the chat step; the vault is kept whatever happens there."""
        self.choice = choice
        if not self._ask_chat:
            self.accept()
            return
        self._show_page(self.chat_step)
        self.chat_step.use_button.setFocus()
        self.chat_step.start()

    def _show_page(self, page: QWidget) -> None:
        """Show ``page`` alone, the window sized to it."""
        for other in (self.vault_page, self.chat_step):
            other.setVisible(other is page)
        self.adjustSize()

    def _chat_chosen(self, chat: ChatChoice | None) -> None:
        self.chat = chat
        self.accept()

    def reject(self) -> None:
        """Escape or closing the window on the chat step skips it: the vault stays chosen."""
        if self.choice is not None:
            self._chat_chosen(None)
        else:
            super().reject()

    def _change_new(self) -> None:
        start = self._new_path.parent if self._new_path.parent.exists() else Path.home()
        folder = QFileDialog.getExistingDirectory(self, self.tr("New vault folder"), str(start))
        if folder:
            self._new_path = Path(folder)
            self._show_new_path()

    def _open_existing(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder"), str(Path.home()))
        if folder:
            self._vault_chosen(VaultChoice(Path(folder), new=False))
