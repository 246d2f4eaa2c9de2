"""The chat pane's layout: banner, chips, the message list, the input box and its buttons.

It only arranges and names widgets (and takes dropped memories); the pane wires behaviour.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from pixelmem.gui.chat.chips import ChipBar
from pixelmem.gui.chat.conversations import ConversationBar
from pixelmem.gui.chat.widgets import ChatInput, MessageWidget, ids_from_mime
from pixelmem.gui.widgets.flow_layout import FlowLayout


class ChatBody(QWidget):
    """Memories dropped anywhere on it are offered as ``memories_dropped(ids)``."""

    memories_dropped = Signal(list)

    def __init__(self, is_known: Callable[[str], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatBody")
        self.setAcceptDrops(True)
        self._is_known = is_known
        self._stick_to_bottom = True

        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        self.banner_button = QPushButton()
        self.banner = QFrame()
        self.banner.setObjectName("chatBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        banner_row = QHBoxLayout(self.banner)
        banner_row.addWidget(self.banner_label, 1)
        banner_row.addWidget(self.banner_button)
        self.conversation_bar = ConversationBar()
        self.pinned_bar = ChipBar("", "")
        self.excluded_bar = ChipBar("", "")

        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setEnabled(False)
        self.messages = QVBoxLayout()
        self.messages.setSpacing(8)
        self.messages.addWidget(self.empty_label)
        self.messages.addStretch(1)
        container = QWidget()
        container.setLayout(self.messages)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(container)
        self.scroll_area.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)  # short screens
        # Bound methods that ask the scroll area for its bar each time: a lambda holding the
        # bar's wrapper breaks once Python lets go of the wrapper Qt made ("already deleted").
        bar = self.scroll_area.verticalScrollBar()
        bar.rangeChanged.connect(self._follow_range)
        bar.valueChanged.connect(self._track_bottom)

        self.input = ChatInput()
        self.input.memories_dropped.connect(self.memories_dropped)
        self.send_button = QPushButton()
        self.send_button.setDefault(True)
        self.stop_button = QPushButton()
        self.preview_button = QPushButton()
        self.clear_button = QPushButton()
        buttons = QWidget()  # the buttons wrap onto two lines in a narrow dock
        flow = FlowLayout(buttons, spacing=4)
        flow.setContentsMargins(0, 0, 0, 0)
        for button in (self.send_button, self.stop_button, self.preview_button, self.clear_button):
            flow.addWidget(button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addWidget(self.conversation_bar)
        layout.addWidget(self.pinned_bar)
        layout.addWidget(self.excluded_bar)
        layout.addWidget(self.scroll_area, 1)
        layout.addWidget(self.input)
        layout.addWidget(buttons)
        self.set_busy(False)
        self.retranslate()

    def retranslate(self) -> None:
        self.banner_label.setText(
            self.tr("No chat model is configured — open Settings → Chat to choose one.")
        )
        self.banner_button.setText(self.tr("Open Settings"))
        self.pinned_bar.set_texts(
            self.tr("Pinned:"), self.tr("drop memories here to send them with every message")
        )
        self.excluded_bar.set_texts(self.tr("Excluded:"), "")
        self.empty_label.setText(
            self.tr(
                "Ask anything. Relevant memories are added to the prompt, and every answer "
                "shows which ones."
            )
        )
        self.input.setPlaceholderText(
            self.tr("Ask about your memories… (Enter to send, Shift+Enter for a new line)")
        )
        self.send_button.setText(self.tr("Send"))
        self.stop_button.setText(self.tr("Stop"))
        self.preview_button.setText(self.tr("Preview prompt"))
        self.preview_button.setToolTip(self.tr("See what would be sent, without sending it"))
        self.conversation_bar.retranslate()
        self.clear_button.setText(self.tr("New chat"))
        self.clear_button.setToolTip(self.tr("Start a new chat (pinned memories stay)"))

    def set_busy(self, busy: bool) -> None:
        self.send_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)

    # -- the message list ------------------------------------------------------------------

    def add_message(self, message: MessageWidget) -> None:
        self.empty_label.hide()
        self._stick_to_bottom = True
        self.messages.insertWidget(self.messages.count() - 1, message)

    def message_widgets(self) -> list[MessageWidget]:
        items = (self.messages.itemAt(i) for i in range(self.messages.count()))
        return [w for item in items if isinstance(w := item and item.widget(), MessageWidget)]

    def remove_message(self, message: MessageWidget) -> None:
        self.messages.removeWidget(message)
        message.deleteLater()
        self.empty_label.setVisible(not self.message_widgets())

    def clear_messages(self) -> None:
        for message in self.message_widgets():
            self.messages.removeWidget(message)
            message.deleteLater()
        self.empty_label.show()

    def _follow_range(self, _low: int, high: int) -> None:
        if self._stick_to_bottom:
            self.scroll_area.verticalScrollBar().setValue(high)

    def _track_bottom(self, value: int) -> None:
        """Follow a streaming answer only while the person has not scrolled up to read."""
        self._stick_to_bottom = value >= self.scroll_area.verticalScrollBar().maximum() - 4

    # -- drops -----------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if ids_from_mime(event.mimeData(), self._is_known):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        ids = ids_from_mime(event.mimeData(), self._is_known)
        if ids:
            event.acceptProposedAction()
            self.memories_dropped.emit(ids)
