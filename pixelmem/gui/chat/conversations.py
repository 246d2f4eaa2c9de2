"""The row at the top of the chat: which conversation is shown, Rename / Delete, and Propose
memories (from this conversation, into the review inbox).

It only lists what it is given and says what the person chose; the pane loads, saves and
deletes (:mod:`pixelmem.core.assist.conversations`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QSizePolicy, QToolButton, QWidget

from pixelmem.gui.widgets.flow_layout import FlowLayout


class ConversationBar(QWidget):
    chosen = Signal(str)  # a conversation id
    rename_requested = Signal()
    delete_requested = Signal()
    propose_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        # Long first questions must not widen the dock: the combo shrinks, its popup does not.
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(8)
        self.combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.combo.activated.connect(lambda index: self.chosen.emit(self.combo.itemData(index)))
        self.rename_button = QToolButton()
        self.rename_button.clicked.connect(self.rename_requested)
        self.delete_button = QToolButton()
        self.delete_button.clicked.connect(self.delete_requested)
        self.propose_button = QToolButton()  # memories from this conversation, to review
        self.propose_button.clicked.connect(self.propose_requested)
        row = FlowLayout(self, spacing=4)  # the buttons wrap under the combo when narrow
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.combo)
        row.addWidget(self.rename_button)
        row.addWidget(self.delete_button)
        row.addWidget(self.propose_button)
        self.retranslate()

    def retranslate(self) -> None:
        self.combo.setToolTip(
            self.tr("Earlier conversations (kept in the vault's .pixelmem/chats)")
        )
        self.rename_button.setText(self.tr("Rename"))
        self.delete_button.setText(self.tr("Delete"))
        self.propose_button.setText(self.tr("Propose memories"))
        self.propose_button.setToolTip(
            self.tr(
                "Ask the model for facts, decisions and preferences in this conversation; "
                "they wait in the review inbox"
            )
        )

    def set_items(self, items: list[tuple[str, str]], current: str) -> None:
        """``(id, name)`` pairs, newest first; ``current`` is selected."""
        self.combo.blockSignals(True)
        self.combo.clear()
        for conversation_id, name in items:
            self.combo.addItem(name, conversation_id)
            self.combo.setItemData(self.combo.count() - 1, name, Qt.ItemDataRole.ToolTipRole)
        self.combo.setCurrentIndex(max(0, self.combo.findData(current)))
        self.combo.blockSignals(False)
